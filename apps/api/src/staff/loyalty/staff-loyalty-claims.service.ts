// The Loyalty tab's orders: a member's standing claims, purchases staff add on the member's
// behalf (admin mode: any number, no one-hour rule) and an order taken back (Loyalty Remove
// Order: a reversal entry; the purchase can be claimed again). The loyalty core claims and
// reverses; each is audited.
import {
  ADMIN_MODE_ALLOWED_CHANGES,
  type StaffClaimResult,
  type StaffHotelClaimRequest,
  type StaffLoyaltyOrder,
  type StaffPurchaseClaimRequest,
  type StaffTicketClaimRequest,
} from '@boardwalk/contract/staff-loyalty';
import type { CheckCandidate, LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { AppError } from '../../platform/errors.ts';
import { balanceOf, findAccountByEmail, findStandingOrdersOfAccount, lockAccount, lockStandingOrder } from '../../loyalty/loyalty.repo.ts';
import { claimHotel, claimPurchase, claimTickets, type Claimant, type ClaimOutcome } from '../../loyalty/loyalty-claims.service.ts';
import { reverseClaim } from '../../loyalty/loyalty-reversals.service.ts';
import { findTicketWalletPresence } from '../../wallet/wallet-presence.repo.ts';
import type { StaffActor } from '../auth/auth.service.ts';
import { audit, notFound, REMOVED_BY_STAFF, type StaffLoyaltyDeps } from './staff-loyalty.service.ts';

const toStaffOrder = ({ order, earned }: Awaited<ReturnType<typeof findStandingOrdersOfAccount>>[number]): StaffLoyaltyOrder => ({
  id: order.reference,
  barcode: order.sourceId,
  product: order.product,
  timestamp: order.purchasedAt.toISOString(),
  type: order.sourceType as LoyaltyOrderType,
  points: earned,
  wallets: null,
});

/** POST /api/admin/loyalty/: the standing loyalty orders of the account with this email. */
export async function staffOrders(ctx: Pick<StaffLoyaltyDeps, 'db'>, email: string): Promise<StaffLoyaltyOrder[]> {
  const account = await findAccountByEmail(ctx.db, email);
  if (!account) throw new AppError('NOT_FOUND', 'No loyalty account uses this email');
  const orders = (await findStandingOrdersOfAccount(ctx.db, account.id)).map(toStaffOrder);
  const wallets = await findTicketWalletPresence(
    ctx.db,
    orders.filter((o) => o.type === 'ticket').map((o) => o.barcode),
  );
  return orders.map((o) => ({ ...o, wallets: wallets.get(o.barcode) ?? null }));
}

/**
 * DELETE /api/admin/loyalty/order/{userId}/{orderId}/{barcode}: the standing claim is marked
 * reversed and a reversal entry takes back what it earned (reason, staff member); the purchase
 * can then be claimed again.
 */
export async function staffRemoveOrder(
  ctx: StaffLoyaltyDeps,
  staff: StaffActor,
  userId: string,
  reference: string,
  sourceId: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw notFound();
    const found = await lockStandingOrder(tx, userId, reference, sourceId);
    const reversed =
      found &&
      (await reverseClaim(
        tx,
        ctx.core.changes,
        { id: found.order.id, accountId: userId, earned: found.earned, sourceType: found.order.sourceType, sourceId },
        { reason: REMOVED_BY_STAFF, causedBy: 'staff', staffMember: staff.username },
      ));
    if (!found || !reversed) {
      throw new AppError('NOT_FOUND', 'This order is not in the account (it may have been removed already): reload the orders.');
    }
    const order = { type: found.order.sourceType, id: reference, barcode: sourceId, points: found.earned };
    await audit(tx, staff, 'remove-order', userId, order, {
      ...order,
      reversedPoints: -found.earned,
      balance: await balanceOf(tx, userId),
    });
  });
}

/** Staff add a purchase on the member's behalf: the claim with a staff claimant, audited. */
async function staffClaim(
  ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>,
  staff: StaffActor,
  request: { userID: string },
  what: Record<string, unknown>,
  run: (claimant: Claimant) => Promise<ClaimOutcome | CheckCandidate[]>,
): Promise<StaffClaimResult | CheckCandidate[]> {
  const outcome = await run({ kind: 'staff', username: staff.username });
  if (Array.isArray(outcome)) return outcome;
  const { pointsEarned, balance, loyaltyOrders } = outcome;
  await audit(ctx.db, staff, 'claim', request.userID, null, {
    ...what,
    pointsEarned,
    balance,
    loyaltyOrders: loyaltyOrders.map((o) => ({ type: o.type, id: o.reference, barcode: o.sourceId, points: o.points })),
  });
  return { pointsEarned, balance, loyaltyOrders, allowedChanges: ADMIN_MODE_ALLOWED_CHANGES };
}

/** The claim names the account staff loaded by its id. */
const forAccount = <R extends { userID: string }>({ userID, ...request }: R) => ({ ...request, accountId: userID });

/** POST /api/admin/loyalty/tickets/ */
export const staffClaimTickets = (ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, staff: StaffActor, request: StaffTicketClaimRequest) =>
  staffClaim(ctx, staff, request, { type: 'ticket', orderId: request.orderId }, (by) =>
    claimTickets(ctx.core, forAccount(request), by),
  ) as Promise<StaffClaimResult>;

/** POST /api/admin/loyalty/purchase/: several checks with the number answer the candidates (nothing claimed). */
export const staffClaimPurchase = (ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, staff: StaffActor, request: StaffPurchaseClaimRequest) =>
  staffClaim(ctx, staff, request, { type: 'food-and-beverage', checkNumber: request.checkNumber, checkID: request.checkID ?? null }, (by) =>
    claimPurchase(ctx.core, forAccount(request), by),
  );

/** POST /api/admin/loyalty/hotels/ */
export const staffClaimHotel = (ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>, staff: StaffActor, request: StaffHotelClaimRequest) =>
  staffClaim(ctx, staff, request, { type: 'hotel', reservationNumber: request.reservationNumber }, (by) =>
    claimHotel(ctx.core, forAccount(request), by),
  ) as Promise<StaffClaimResult>;
