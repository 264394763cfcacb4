// Which pass actions the main page offers (by device, pass state and view) and what their
// failures say (worded by the catalogue: wallet, errors); pure functions of the order and the
// device, and the hook that words a failure.
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { refusalOf } from '@boardwalk/contract/errors';
import { TEST_PASS_ORDER_ID, type PassOrder } from '@boardwalk/contract/pass';
import { WALLET_REFUSALS } from '@boardwalk/contract/wallet-refusals';
import { failedWith, type ApiRequestError } from '../../lib/api-client.ts';
import { useRequestErrors } from '../../lib/request-errors.ts';
import { useSiteInfo } from '../../lib/site.ts';
import type { PassCredentials } from '../ticket/pass-route.ts';

export type WalletPlatform = 'apple' | 'google' | 'desktop';

/** Apple on iOS, Google on Android, the voucher on anything else. */
export function walletPlatform(device: { isIOS: boolean; isAndroid: boolean }): WalletPlatform {
  if (device.isIOS) return 'apple';
  if (device.isAndroid) return 'google';
  return 'desktop';
}

/** A passholder's pass goes to a wallet only with a photo (or when the photo is waived). */
export const offersPassActions = (order: PassOrder) => !order.isPassholder || Boolean(order.photoUid) || order.skipImage;

/** Test passes (order id 0) show the actions disabled. */
export const isTestPass = (order: PassOrder) => order.orderId === TEST_PASS_ORDER_ID;

/** A shared guest (share id, or a share link) gets no voucher. */
export const isSharedView = (order: PassOrder, credentials: PassCredentials) =>
  credentials.kind === 'hashUrl' || Boolean(order.shareId) || order.sharedWith !== null;

/** What the Apple slot shows: the feed's iCloud binding link, the button, or nothing once bound. */
export function appleAction(order: PassOrder): { kind: 'link'; href: string } | { kind: 'button' } | { kind: 'none' } {
  if (order.iCloudBoundToWallet) return { kind: 'none' };
  const link = order.iCloudBindingLink?.trim();
  if (link && /^https?:\/\//i.test(link)) return { kind: 'link', href: link };
  return { kind: 'button' };
}

/** A wallet call's refusal because the pass is already in a wallet (its reason; a 409 names no other). */
export const isAlreadyInWallet = (error: unknown): error is ApiRequestError =>
  failedWith(error, 'CONFLICT') && refusalOf(WALLET_REFUSALS, error.body?.reason) === 'alreadyInWallet';

/**
 * A wallet or voucher call's failure: 408 "Temporary server error, please retry"; 429 too many
 * attempts; no answer "Unable to process your request"; 409 already in a wallet (naming the
 * support email the answer's params name, else the site's); any other failure "Unable to locate order".
 */
export function useWalletErrorMessage() {
  const describe = useRequestErrors();
  const t = useTranslations();
  const supportEmail = useSiteInfo()?.supportEmail ?? '';
  return useCallback(
    (error: unknown) =>
      isAlreadyInWallet(error)
        ? t('errors.alreadyInWallet', { supportEmail: String(error.body?.params?.supportEmail ?? supportEmail) })
        : describe(error, { networkError: t('wallet.networkError'), failure: t('errors.ORDER_NOT_FOUND') }),
    [describe, t, supportEmail],
  );
}
