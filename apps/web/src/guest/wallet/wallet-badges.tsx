// The "Add to Apple Wallet" and "Add to Google Wallet" badges: black rounded buttons in the
// shape of the official ones, with wallet marks drawn here as small inline SVGs (nothing is
// fetched from a CDN). The text is real text, so it is the accessible name.
import type { ComponentPropsWithoutRef } from 'react';
import { useTranslations } from 'use-intl';
import './wallet-actions.css';

function AppleWalletMark() {
  return (
    <svg className="wallet-badge__mark" viewBox="0 0 32 26" width="32" height="26" aria-hidden="true" focusable="false">
      <rect x="0.75" y="0.75" width="30.5" height="24.5" rx="5" fill="#1c1c1e" stroke="#8e8e93" strokeWidth="1.5" />
      <rect x="4" y="3.5" width="24" height="7" rx="1.5" fill="#2f9be0" />
      <rect x="4" y="6.5" width="24" height="7" rx="1.5" fill="#3cb55e" />
      <rect x="4" y="9.5" width="24" height="7" rx="1.5" fill="#f5b400" />
      <rect x="4" y="12.5" width="24" height="7" rx="1.5" fill="#f0513f" />
      <path d="M1.5 15.5h8.2c1.6 0 2.2 2.8 6.3 2.8s4.7-2.8 6.3-2.8h8.2v5a4 4 0 0 1-4 4h-21a4 4 0 0 1-4-4z" fill="#d1d1d6" />
    </svg>
  );
}

function GoogleWalletMark() {
  return (
    <svg className="wallet-badge__mark" viewBox="0 0 30 24" width="30" height="24" aria-hidden="true" focusable="false">
      <rect x="1" y="0.5" width="28" height="10" rx="3" fill="#ea4335" />
      <rect x="1" y="4.5" width="28" height="10" rx="3" fill="#fbbc04" />
      <rect x="1" y="8.5" width="28" height="10" rx="3" fill="#34a853" />
      <path d="M1 13.5h7.6c2.2 0 3.3 3.7 6.4 3.7s4.2-3.7 6.4-3.7H29v6.5a3.5 3.5 0 0 1-3.5 3.5h-21A3.5 3.5 0 0 1 1 20z" fill="#4285f4" />
    </svg>
  );
}

type BadgeProps = ComponentPropsWithoutRef<'button'>;

export function AppleWalletButton(props: BadgeProps) {
  return (
    <button type="button" className="wallet-badge wallet-badge--apple" {...props}>
      <AppleWalletMark />
      <AppleWalletText />
    </button>
  );
}

/** The feed's iCloud binding link, dressed as the Apple badge. */
export function AppleWalletLink({ href }: { href: string }) {
  return (
    <a className="wallet-badge wallet-badge--apple" href={href} rel="noopener">
      <AppleWalletMark />
      <AppleWalletText />
    </a>
  );
}

function AppleWalletText() {
  const t = useTranslations('wallet');
  return (
    <span className="wallet-badge__text">
      <span className="wallet-badge__small">{t('appleSmall')}</span> <span className="wallet-badge__large">{t('appleLarge')}</span>
    </span>
  );
}

export function GoogleWalletButton(props: BadgeProps) {
  const t = useTranslations('wallet');
  return (
    <button type="button" className="wallet-badge wallet-badge--google" {...props}>
      <GoogleWalletMark />
      <span className="wallet-badge__text">{t('google')}</span>
    </button>
  );
}
