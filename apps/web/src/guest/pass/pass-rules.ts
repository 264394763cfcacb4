// What the pass page shows for an order (guest-app.md section 2, "Main page states" and
// "Pass card"); pure functions of the order object.
import { guestMessages } from '@boardwalk/contract/errors';
import { ORDER_ID_PATTERN, type PassOrder } from '@boardwalk/contract/pass';
import { ApiRequestError, describeRequestError } from '../../lib/api-client.ts';
import { fullName } from '../../lib/format.ts';

export const passTexts = {
  disclaimer: 'This is not your wild pass card!',
  noLongerShared: guestMessages.passNoLongerShared,
} as const;

export const loginErrorMessage = (error: unknown) =>
  describeRequestError(error, { networkError: 'Error logging in', failure: guestMessages.orderNotFound });

export const registerErrorMessage = (error: unknown) =>
  describeRequestError(error, { networkError: 'Error registering', failure: guestMessages.registerFailed });

export const isNoLongerShared = (error: unknown) => error instanceof ApiRequestError && error.status === 410;

/**
 * Only the order's own guest registers: not a shared view (empty order id, share id set)
 * and not a test pass (order id 0), which the register call does not accept.
 */
export const canRegister = (order: PassOrder) => ORDER_ID_PATTERN.test(order.orderId) && !order.shareId;

export const needsRegistration = (order: PassOrder) =>
  canRegister(order) && !order.skipRegistration && (!order.firstName?.trim() || !order.lastName?.trim());

/** Edit Registration: only if the order has an email and there is no share id. */
export const canEditRegistration = (order: PassOrder) => canRegister(order) && Boolean(order.email?.trim());

export const isStoredValueCard = (order: PassOrder) => order.category?.trim().toLowerCase() === 'stored value card';

export function voidReasons(order: PassOrder, now = new Date()): string[] {
  const reasons: string[] = [];
  if (order.refunded) reasons.push('Refunded');
  if (order.isRedeemed || order.redeemed) reasons.push('Redeemed');
  if (order.expires && new Date(order.expires).getTime() < now.getTime()) reasons.push('Expired');
  return reasons;
}

export function ticketholderName(order: PassOrder): string {
  return fullName(order.firstName, order.lastName);
}

/** The purchaser's name, or '' when it is missing or the ticketholder's own. */
export function purchaserName(order: PassOrder): string {
  const purchaser = fullName(order.purchaserFirstName, order.purchaserLastName);
  return purchaser.toLowerCase() === ticketholderName(order).toLowerCase() ? '' : purchaser;
}

/** A passholder without a photo sees the barcode and the disclaimer (photos come later). */
export const showsBarcode = (order: PassOrder) => order.isPassholder;
