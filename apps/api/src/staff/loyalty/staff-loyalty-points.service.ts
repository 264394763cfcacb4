// The Loyalty tab's points: an adjustment with the staff member's reason, the member's lots
// (what is left and when it expires), and their redemptions (Loyalty Redeem: redeem a reward,
// reverse a redemption). The loyalty core writes every change of points as a new ledger entry;
// each is audited.
import { randomUUID } from 'node:crypto';
import type { StaffLot, StaffRedeemResult, StaffRedemption, StaffRedemptions } from '@boardwalk/contract/staff-loyalty';
import { AppError } from '../../platform/errors.ts';
import { findAccount, lockAccount } from '../../loyalty/loyalty.repo.ts';
import { redeemableRewards, redeemReward, reverseRedemption, type Recorded } from '../../loyalty/loyalty-redemptions.service.ts';
import { findRedemption, listRedemptionsOfAccount } from '../../loyalty/loyalty-rewards.repo.ts';
import { listMemberLots } from '../../loyalty/loyalty-expiry.service.ts';
import { adjustPoints } from '../../loyalty/loyalty.service.ts';
import type { StaffActor } from '../auth/auth.service.ts';
import { audit, notFound, type StaffLoyaltyDeps } from './staff-loyalty.service.ts';

/** POST /api/admin/loyalty/adjust/: the core's adjustment, with the staff member's reason, audited. */
export async function staffAdjust(ctx: StaffLoyaltyDeps, staff: StaffActor, userId: string, points: number, reason: string) {
  return ctx.db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw notFound();
    const { before, after } = await adjustPoints(tx, ctx.core.changes, {
      accountId: userId,
      points,
      reason,
      staffMember: staff.username,
    });
    await audit(tx, staff, 'adjust', userId, { balance: before }, { balance: after, points, reason });
    return { balance: after };
  });
}

/** GET /api/admin/loyalty/lots/{userId}/: the member's lots, newest first, with what is left and when it expires. */
export async function staffLots(ctx: StaffLoyaltyDeps, userId: string): Promise<StaffLot[]> {
  if (!(await findAccount(ctx.db, userId))) throw notFound();
  return (await listMemberLots(ctx.core, userId)).map((lot) => ({
    lotId: lot.lotId,
    reason: lot.reason,
    points: lot.points,
    remaining: lot.remaining,
    earnedAt: lot.earnedAt.toISOString(),
    expiresAt: lot.expiresAt?.toISOString() ?? null,
    expiredPoints: lot.expiredPoints,
    expired: lot.expired,
  }));
}

/** GET /api/admin/loyalty/redemptions/{userId}/: the member's redemptions, what they can redeem now, and a fresh key for the form. */
export async function staffRedemptions(ctx: Pick<StaffLoyaltyDeps, 'db'>, userId: string): Promise<StaffRedemptions> {
  if (!(await findAccount(ctx.db, userId))) throw notFound();
  const [redemptions, rewards] = await Promise.all([listRedemptionsOfAccount(ctx.db, userId), redeemableRewards(ctx.db, userId)]);
  return {
    redemptions: redemptions.map((r) => ({
      redemptionId: r.id,
      rewardName: r.rewardName,
      pointsSpent: r.pointsSpent,
      redeemedAt: r.redeemedAt.toISOString(),
      reversedAt: r.reversedAt?.toISOString() ?? null,
      causedBy: r.causedBy as StaffRedemption['causedBy'],
      staffMember: r.staffMember,
    })),
    rewards,
    idempotencyKey: randomUUID(),
  };
}

/** The audit entry of a redemption or reversal that happened: the points it moved and the balance before and after. */
const auditRedemption =
  (staff: StaffActor, userId: string, action: 'redeem' | 'reverse-redemption'): Recorded =>
  (tx, redemption, balance) => {
    const points = action === 'redeem' ? -redemption.pointsSpent : redemption.pointsSpent;
    return audit(
      tx,
      staff,
      action,
      userId,
      { balance: balance - points },
      {
        balance,
        points,
        redemptionId: redemption.id,
        reward: redemption.rewardName,
      },
    );
  };

/**
 * A staff form's key, kept apart from the tills' transaction ids (one unique column holds
 * both): a till's id can never replay a staff redemption, nor the reverse.
 */
const staffKey = (idempotencyKey: string) => `staff:${idempotencyKey}`;

/**
 * POST /api/admin/loyalty/redemptions/: the core's redemption for the member, by this staff
 * member, audited in its transaction. Once per form key: the same key again answers the same
 * redemption and spends nothing (and writes no second audit entry); the core's refusals are
 * 409s with their reason.
 */
export async function staffRedeem(
  ctx: Pick<StaffLoyaltyDeps, 'db' | 'core'>,
  staff: StaffActor,
  request: { userID: string; rewardId: string; idempotencyKey: string },
): Promise<StaffRedeemResult> {
  const account = await findAccount(ctx.db, request.userID);
  if (!account) throw notFound();
  const { result } = await redeemReward(
    ctx.core,
    { member: { memberNumber: account.memberNumber }, rewardId: request.rewardId, idempotencyKey: staffKey(request.idempotencyKey) },
    { causedBy: 'staff', staffMember: staff.username },
    auditRedemption(staff, request.userID, 'redeem'),
  );
  const stored = await findRedemption(ctx.db, result.redemptionId);
  return {
    redemptionId: result.redemptionId,
    rewardName: stored!.redemption.rewardName,
    pointsSpent: result.pointsSpent,
    balance: result.balance,
  };
}

/**
 * POST /api/admin/loyalty/redemptions/reverse/: the core's reversal of one of the member's
 * redemptions (a till's or staff's), audited when it gave points back; again, it answers the
 * same and gives nothing more.
 */
export async function staffReverseRedemption(
  ctx: StaffLoyaltyDeps,
  staff: StaffActor,
  request: { userID: string; redemptionId: string },
): Promise<{ pointsReturned: number; balance: number }> {
  const found = await findRedemption(ctx.db, request.redemptionId);
  if (found?.redemption.accountId !== request.userID) throw new AppError('NOT_FOUND', 'This redemption is not in the account: reload it.');
  const { pointsReturned, balance } = await reverseRedemption(
    ctx.core,
    request.redemptionId,
    { causedBy: 'staff', staffMember: staff.username },
    auditRedemption(staff, request.userID, 'reverse-redemption'),
  );
  return { pointsReturned, balance };
}
