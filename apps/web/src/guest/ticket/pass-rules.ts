// What the pass page shows for an order (which state, which notice, what the card carries);
// pure functions of the order object.
import { ORDER_ID_PATTERN, type PassOrder } from '@boardwalk/contract/pass';
import { failedWith } from '../../lib/api-client.ts';

export { isStoredValueCard, purchaserName, ticketholderName } from '@boardwalk/contract/pass-display';

/** Why a pass is void, each named by its key in the catalogue (ticket.card.voidReasons) and on the card (data-void). */
export type VoidReason = 'Refunded' | 'Redeemed' | 'Expired';

/** Why a pass is void (refunded, redeemed, expired); empty when it is valid. */
export function voidReasons(order: PassOrder, now = new Date()): VoidReason[] {
  const reasons: VoidReason[] = [];
  if (order.refunded) reasons.push('Refunded');
  if (order.isRedeemed || order.redeemed) reasons.push('Redeemed');
  if (order.expires && new Date(order.expires).getTime() < now.getTime()) reasons.push('Expired');
  return reasons;
}

export const isNoLongerShared = (error: unknown) => failedWith(error, 'PASS_NO_LONGER_SHARED');

/**
 * Only the order's own guest registers: not a shared view (empty order id, share id set)
 * and not a test pass (order id 0), which the register call does not accept.
 */
export const canRegister = (order: PassOrder) => ORDER_ID_PATTERN.test(order.orderId) && !order.shareId;

/**
 * A pass locked by its holder's erasure takes no new name (the server refuses it): the photo
 * section says to visit Guest Services instead of the registration form.
 */
export const needsRegistration = (order: PassOrder) =>
  canRegister(order) && !order.passLocked && !order.skipRegistration && (!order.firstName?.trim() || !order.lastName?.trim());

/** Edit Registration: only if the order has an email and there is no share id. */
export const canEditRegistration = (order: PassOrder) => canRegister(order) && !order.passLocked && Boolean(order.email?.trim());

/** A passholder with a photo shows it on the card (gate staff compare it with the guest). */
export const showsPhoto = (order: PassOrder) => order.isPassholder && Boolean(order.photoUid);

/** A passholder without a photo sees the barcode and the disclaimer instead. */
export const showsBarcode = (order: PassOrder) => order.isPassholder && !order.photoUid;
