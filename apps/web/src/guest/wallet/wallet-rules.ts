// Which pass actions the main page offers (by device, pass state and view) and the texts of
// their failures; pure functions of the order and the device.
import { guestMessages } from '@boardwalk/contract/errors';
import { TEST_PASS_ORDER_ID, type PassOrder } from '@boardwalk/contract/pass';
import { describeRequestError, failedWith } from '../../lib/api-client.ts';
import type { PassCredentials } from '../ticket/pass-route.ts';

export const walletTexts = {
  hint: 'Use a mobile device to add pass to your digital wallet',
  busy: 'Generating Pass Please wait...',
  viewPass: 'View Your Pass',
  printVoucher: 'Print Voucher',
} as const;

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

// The already-in-wallet answer is shown as the server words it (it names the support email).
const [alreadyInWalletStart = ''] = guestMessages.alreadyInWallet('\u0000').split('\u0000');

/**
 * A wallet or voucher call's failure: 408 "Temporary server error, please retry"; 429 the
 * server's text; no answer "Unable to process your request"; the server's already-in-wallet
 * message; any other failure "Unable to locate order".
 */
export function walletErrorMessage(error: unknown): string {
  if (failedWith(error, 'CONFLICT') && error.body?.message.startsWith(alreadyInWalletStart)) return error.body.message;
  return describeRequestError(error, { networkError: 'Unable to process your request', failure: guestMessages.orderNotFound });
}
