import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import { isAndroid, isIOS } from '../../lib/device.ts';
import { LiveAlert } from '../../ui/live-alert.tsx';
import type { PassCredentials } from '../ticket/pass-route.ts';
import { useAddToAppleWallet } from './add-to-apple-wallet.ts';
import { useAddToGoogleWallet } from './add-to-google-wallet.ts';
import { usePrintVoucher } from './print-voucher.ts';
import { AppleWalletButton, AppleWalletLink, GoogleWalletButton } from './wallet-badges.tsx';
import { walletRequest } from './wallet-api.ts';
import { appleAction, isSharedView, isTestPass, offersPassActions, useWalletErrorMessage, walletPlatform } from './wallet-rules.ts';

interface WalletActionsProps {
  order: PassOrder;
  /** How the page reached the pass: the wallet calls use the same order id and barcode, or hashUrl. */
  credentials: PassCredentials;
  brandName: string | null;
}

/**
 * The pass actions under the card: Apple Wallet on iOS, Google Wallet on Android, the voucher
 * and a hint on other devices. Each call shows "Generating Pass Please wait..." while it runs
 * and its failure in the alert.
 */
export function WalletActions({ order, credentials, brandName }: WalletActionsProps) {
  const [platform] = useState(() => walletPlatform({ isIOS: isIOS(), isAndroid: isAndroid() }));
  const [error, setError] = useState<string | null>(null);
  const apple = useAddToAppleWallet(brandName);
  const google = useAddToGoogleWallet();
  const voucher = usePrintVoucher();
  const walletErrorMessage = useWalletErrorMessage();
  const t = useTranslations('wallet');

  if (!offersPassActions(order)) return null;

  const disabled = isTestPass(order) || apple.isPending || google.isPending || voucher.isPending;
  const busy = apple.isPending || google.isPending || voucher.isPending;
  const callbacks = { onMutate: () => setError(null), onError: (failure: unknown) => setError(walletErrorMessage(failure)) };
  const request = walletRequest(credentials);
  const appleSlot = appleAction(order);

  return (
    <div className="wallet-actions" data-platform={platform}>
      <div className="wallet-actions__buttons">
        {platform === 'apple' && appleSlot.kind === 'button' ? (
          <AppleWalletButton disabled={disabled} aria-busy={apple.isPending} onClick={() => apple.mutate(request, callbacks)} />
        ) : null}
        {platform === 'apple' && appleSlot.kind === 'link' ? (
          isTestPass(order) ? (
            <AppleWalletButton disabled />
          ) : (
            <AppleWalletLink href={appleSlot.href} />
          )
        ) : null}

        {platform === 'google' ? (
          <GoogleWalletButton
            disabled={disabled}
            aria-busy={google.isPending}
            onClick={() => google.mutate({ ...request, hasPhoto: Boolean(order.photoUid) }, callbacks)}
          />
        ) : null}
        {platform === 'google' && !google.isPending ? <ViewGooglePass link={google.data} /> : null}

        {platform === 'desktop' ? (
          <>
            {!isSharedView(order, credentials) && credentials.kind === 'order' ? (
              <Button
                variant="primary"
                className="wallet-actions__voucher"
                disabled={disabled}
                aria-busy={voucher.isPending}
                onClick={() => voucher.mutate({ orderId: credentials.orderId, barcode: credentials.barcode }, callbacks)}
              >
                {t('printVoucher')}
              </Button>
            ) : null}
            <p className="wallet-actions__hint">{t('hint')}</p>
          </>
        ) : null}
      </div>

      <WalletStatus busy={busy} error={error} />
    </div>
  );
}

/** "Generating Pass Please wait..." while a wallet call runs, and its failure. */
export function WalletStatus({ busy, error }: { busy: boolean; error: string | null }) {
  const t = useTranslations('wallet');
  return (
    <>
      <div className="wallet-actions__status" role="status">
        {busy ? (
          <>
            <Spinner as="span" animation="border" size="sm" aria-hidden="true" />
            <span>{t('busy')}</span>
          </>
        ) : null}
      </div>
      <LiveAlert message={error} className="wallet-actions__alert" />
    </>
  );
}

/** "View Your Pass": the Google link once it arrived (a tab opened after an answer may be blocked). */
export function ViewGooglePass({ link }: { link: string | undefined }) {
  const t = useTranslations('wallet');
  return link ? (
    <a className="wallet-actions__view" href={link} target="_blank" rel="noopener noreferrer">
      {t('viewPass')}
    </a>
  ) : null;
}
