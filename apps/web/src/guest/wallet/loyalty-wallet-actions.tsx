import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { refusalOf } from '@boardwalk/contract/errors';
import { WALLET_REFUSALS, type LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import { failedWith } from '../../lib/api-client.ts';
import { isAndroid, isIOS } from '../../lib/device.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { useAddToAppleWallet } from './add-to-apple-wallet.ts';
import { useAddToGoogleWallet } from './add-to-google-wallet.ts';
import { ViewGooglePass, WalletStatus } from './wallet-actions.tsx';
import { AppleWalletButton, GoogleWalletButton } from './wallet-badges.tsx';
import { useWalletErrorMessage, walletPlatform } from './wallet-rules.ts';

/**
 * The wallet buttons of a loyalty member's card (on the claim's success screen):
 * Apple on Apple devices, Google on Android, the hint elsewhere; "Generating Pass Please
 * wait..." while a call runs, and "View Your Pass" once Google's link arrived. The request
 * carries the wallet token of the claim or of the emailed link.
 */
export function LoyaltyWalletActions({ request }: { request: LoyaltyWalletRequest }) {
  const [platform] = useState(() => walletPlatform({ isIOS: isIOS(), isAndroid: isAndroid() }));
  const [error, setError] = useState<string | null>(null);
  const apple = useAddToAppleWallet(useSiteInfo()?.brandName ?? null);
  const google = useAddToGoogleWallet();
  const busy = apple.isPending || google.isPending;
  const t = useTranslations('wallet');
  const walletErrorMessage = useWalletErrorMessage();
  const callbacks = {
    onMutate: () => setError(null),
    // A refused token (401) says what to do: the answer's reason tells an expired link from
    // another, and the catalogue words each.
    onError: (failure: unknown) =>
      setError(
        failedWith(failure, 'UNAUTHORIZED')
          ? t(refusalOf(WALLET_REFUSALS, failure.body?.reason) === 'linkExpired' ? 'loyaltyLink.expired' : 'loyaltyLink.invalid')
          : walletErrorMessage(failure),
      ),
  };

  return (
    <div className="wallet-actions" data-platform={platform}>
      <div className="wallet-actions__buttons">
        {platform === 'apple' ? (
          <AppleWalletButton disabled={busy} aria-busy={apple.isPending} onClick={() => apple.mutate(request, callbacks)} />
        ) : null}
        {platform === 'google' ? (
          <GoogleWalletButton disabled={busy} aria-busy={google.isPending} onClick={() => google.mutate(request, callbacks)} />
        ) : null}
        {platform === 'google' && !google.isPending ? <ViewGooglePass link={google.data} /> : null}
        {platform === 'desktop' ? <p className="wallet-actions__hint">{t('hint')}</p> : null}
      </div>
      <WalletStatus busy={busy} error={error} />
    </div>
  );
}
