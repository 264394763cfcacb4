import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslations } from 'use-intl';
import { loyaltyEmail } from '@boardwalk/contract/loyalty';
import type { LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import { useSiteInfo } from '../../lib/site.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { LoyaltyWalletActions } from '../wallet/loyalty-wallet-actions.tsx';
import './loyalty.css';

/**
 * The email and wallet token a staff member's pass link carries in its fragment
 * (/loyalty/pass#email=…&token=…): the fragment never reaches a server's logs.
 */
export function passLinkRequest(hash: string): LoyaltyWalletRequest | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const email = loyaltyEmail.safeParse(params.get('email') ?? '');
  const token = params.get('token')?.trim();
  return email.success && token ? { email: email.data, walletToken: token } : null;
}

/** /loyalty/pass: the wallet buttons of the member's Brownie Points card, from the link staff emailed. */
export function LoyaltyPassPage() {
  const [request] = useState(() => passLinkRequest(window.location.hash));
  // The token leaves the address bar and the history once read (a shared screen, synced tabs).
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  const t = useTranslations('loyalty');
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-pass-heading">
      <PageHeading id="loyalty-pass-heading">{t('card.heading')}</PageHeading>
      {request ? (
        <>
          <p className="panel__intro">
            {t.rich('card.intro', { email: request.email, strong: (text) => <strong className="text-break">{text}</strong> })}
          </p>
          <LoyaltyWalletActions request={request} />
          <p className="mt-3">{t('downloadApp')}</p>
        </>
      ) : (
        <p className="panel__intro" data-testid="pass-link-incomplete">
          {t('card.incomplete', { supportEmail })}
        </p>
      )}
      <Link to="/loyalty/" className="btn btn-outline-secondary mt-2">
        {t('backHome')}
      </Link>
    </section>
  );
}
