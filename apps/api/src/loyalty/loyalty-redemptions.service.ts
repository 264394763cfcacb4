// Tiers and redemptions. A member's tier is the highest active tier whose threshold the points
// they earned in the last 365 days reach (earns minus their reversals; spending and expiry
// never lower it). A redemption spends a reward's cost exactly once per idempotency key: the
// account's row lock orders the redemptions of one member, so the balance checked is the
// balance spent from, and a replayed key answers the stored redemption and spends nothing. A key
// is one system's: the same key from two systems (two integration keys) is two redemptions. A
// till names the member by the card's barcode (a random token), never by the member number.
import { eventRow } from '../platform/events.ts';
import type { RedemptionResult, RedemptionReversal, TillMember, TillReward } from '@boardwalk/contract/loyalty-integration';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../platform/errors.ts';
import { balanceFromSum, balanceOf, findLoyaltyMemberStanding, isUniqueViolation, lockAccount } from './loyalty.repo.ts';
import {
  countStandingRedemptions,
  findAccountIdOf,
  findRedemption,
  findRedemptionByKey,
  findRedemptionStanding,
  insertRedemption,
  isMember,
  listActiveRewards,
  lockMemberWithReward,
  markRedemptionReversed,
  tierWindowStart,
  type MemberKey,
  type RedemptionRow,
  type RewardWithTier,
  type Tier,
} from './loyalty-rewards.repo.ts';
import { findRedemptionLots, writeRestoringLots } from './loyalty-lots.repo.ts';
import { appendLedger, type LedgerChanges, type LoyaltyCore } from './loyalty.service.ts';
import { LOYALTY_ACCOUNT_CHANGED } from './loyalty.topics.ts';
import { campaignsForMember } from './loyalty-campaigns.service.ts';
import { memberChallenges, staffChallenge } from './loyalty-challenges.service.ts';

export type { Tier, TierProgress } from './loyalty-rewards.repo.ts';

/** The member's tier now: the highest active tier their points earned in the window reach; null when none. */
export async function tierOf(db: Executor, accountId: string, now: Date): Promise<Tier | null> {
  return (await findLoyaltyMemberStanding(db, accountId, now))?.progress.tier ?? null;
}

/**
 * Who redeems or reverses: a till (an integration key: its name is the system recorded, and
 * whether it may reverse another system's redemptions) or a staff member on the member's behalf.
 */
export type Redeemer = { causedBy: 'till'; system: string; reverseAny: boolean } | { causedBy: 'staff'; staffMember: string };

/** What a Redeemer records on the ledger entries, the redemption and the events it causes. */
const recordedBy = (by: Redeemer) => ({
  causedBy: by.causedBy,
  staffMember: by.causedBy === 'staff' ? by.staffMember : null,
  system: by.causedBy === 'till' ? by.system : null,
});

/** What a member's redemption of a reward is checked against (under the account's lock when redeeming). */
export interface Standing {
  balance: number;
  tier: Tier | null;
  redeemed: Map<string, number>;
}

/** Why the member cannot redeem this reward now, in words for the till; null when they can. */
function refusalOf(reward: RewardWithTier, member: Standing, now: Date): string | null {
  if (!reward.active) return `${reward.name} is not offered any more.`;
  if ((reward.validFrom && now < reward.validFrom) || (reward.validTo && now > reward.validTo)) {
    return `${reward.name} is not offered on this date.`;
  }
  if (reward.minimumTierPoints !== null && (member.tier?.pointsToReach ?? 0) < reward.minimumTierPoints) {
    return `${reward.name} needs the ${reward.minimumTier} tier; this member's tier is ${member.tier ? member.tier.name : 'none yet'}.`;
  }
  const redeemed = member.redeemed.get(reward.id) ?? 0;
  if (reward.limitPerMember !== null && redeemed >= reward.limitPerMember) {
    return `This member has redeemed ${reward.name} ${redeemed} ${redeemed === 1 ? 'time' : 'times'}, its limit per member.`;
  }
  if (member.balance < reward.pointsCost) {
    return `Not enough points: the balance is ${member.balance} and ${reward.name} costs ${reward.pointsCost}.`;
  }
  return null;
}

/** The active rewards, cheapest first, each with whether a member of this standing can redeem it now (the rules a redemption checks). */
export function rewardsFor(rewards: RewardWithTier[], standing: Standing, now: Date): { reward: RewardWithTier; redeemableNow: boolean }[] {
  return rewards.map((reward) => ({ reward, redeemableNow: refusalOf(reward, standing, now) === null }));
}

/**
 * The member read model with their tier progress and the active rewards, each with whether they
 * can redeem it now (their standing read without a lock): three independent reads at once (in
 * parallel on PostgreSQL's pool). Null when the account does not exist.
 */
export async function memberWithRewards(db: Executor, accountId: string, now: Date) {
  const [found, redeemed, rewards] = await Promise.all([
    findLoyaltyMemberStanding(db, accountId, now),
    countStandingRedemptions(db, accountId),
    listActiveRewards(db),
  ]);
  if (!found) return null;
  return { ...found, rewards: rewardsFor(rewards, { balance: found.member.balance, tier: found.progress.tier, redeemed }, now) };
}

/** A till's refusal while the member's email is not proven. */
export const UNPROVEN_MEMBER =
  'This member has not confirmed their email yet: points can be spent once they confirm it on the loyalty page.';

const unknownMember = () => new AppError('NOT_FOUND', 'No loyalty member has this card or member number.');

async function accountIdOf(db: Executor, member: MemberKey): Promise<string> {
  const id = await findAccountIdOf(db, member);
  if (!id) throw unknownMember();
  return id;
}

/** A looked-up member: 16 digits are a typed member number, anything else the card's barcode. */
export const memberKeyOf = (text: string): MemberKey => (/^\d{16}$/.test(text) ? { memberNumber: text } : { card: text });

/** The rewards the member can redeem now (their standing read without a lock), cheapest first, as the tills and staff are offered them. */
export async function redeemableRewards(db: Executor, accountId: string, now = new Date()): Promise<TillReward[]> {
  return tillRewards((await memberWithRewards(db, accountId, now))?.rewards ?? []);
}

const tillRewards = (rewards: { reward: RewardWithTier; redeemableNow: boolean }[]): TillReward[] =>
  rewards
    .filter(({ redeemableNow }) => redeemableNow)
    .map(({ reward: r }) => ({ rewardId: r.id, name: r.name, description: r.description, pointsCost: r.pointsCost }));

/** GET /api/integrations/loyalty/members/{member}: the member (by card or typed number), balance, tier and the rewards they can redeem now. */
export async function findTillMember(core: Pick<LoyaltyCore, 'db' | 'config'>, member: MemberKey, now = new Date()): Promise<TillMember> {
  const found = await memberWithRewards(core.db, await accountIdOf(core.db, member), now);
  if (!found) throw unknownMember();
  const { member: m } = found;
  const context = { timeZone: core.config.parkTimezone, now };
  const [campaigns, challenges] = await Promise.all([
    campaignsForMember(core.db, found.progress.earned, context),
    memberChallenges(core.db, { id: m.id, earnedForTier: found.progress.earned }, context),
  ]);
  return {
    memberNumber: m.memberNumber,
    firstName: m.firstName,
    lastName: m.lastName,
    balance: m.balance,
    tier: m.tier,
    expiringPoints: m.expiringPoints,
    expiringAt: m.expiringAt?.toISOString() ?? null,
    rewards: tillRewards(found.rewards),
    campaigns,
    challenges: challenges.map(staffChallenge),
  };
}

/** What the caller writes in the transaction of a redemption or reversal that happened (the staff's audit entry). */
export type Recorded = (tx: Executor, redemption: RedemptionRow, balance: number) => Promise<void>;

type Found = NonNullable<Awaited<ReturnType<typeof findRedemptionByKey>>>;

const answerOf = ({ redemption, memberNumber }: Pick<Found, 'redemption' | 'memberNumber'>): RedemptionResult => ({
  redemptionId: redemption.id,
  memberNumber,
  rewardId: redemption.rewardId,
  pointsSpent: redemption.pointsSpent,
  balance: redemption.balanceAfter,
});

/** The stored answer of a key; a key reused for another member or reward is refused. */
function replayOf(found: Found, request: { member: MemberKey; rewardId: string }): RedemptionResult {
  if (!isMember(found, request.member) || found.redemption.rewardId !== request.rewardId) {
    throw new AppError('CONFLICT', 'This idempotency key was used for another redemption.');
  }
  return answerOf(found);
}

/**
 * POST /api/integrations/loyalty/redemptions: spends the reward's cost once for this key of
 * this system. `created` is false for a replay (same answer, nothing spent). 404 for an unknown
 * member or reward; 409 with the reason when the member cannot redeem it now.
 */
export async function redeemReward(
  core: LoyaltyCore,
  request: { member: MemberKey; rewardId: string; idempotencyKey: string },
  by: Redeemer,
  recorded?: Recorded,
): Promise<{ result: RedemptionResult; created: boolean }> {
  // The round trips are counted (the tills redeem many at once): the lock (with the reward),
  // one read of the standing, the redemption, and appendLedger's writes.
  const who = recordedBy(by);
  const replay = async (db: Executor) => {
    // Gone only with its member, removed meanwhile.
    const found = await findRedemptionByKey(db, who.system, request.idempotencyKey);
    if (!found) throw unknownMember();
    return { result: replayOf(found, request), created: false };
  };
  try {
    return await core.db.transaction(async (tx) => {
      const locked = await lockMemberWithReward(tx, request.member, request.rewardId);
      // No such member: a key used before still answers as a replay (a key reused for another member is refused).
      if (!locked) return replay(tx);
      const { accountId, memberNumber } = locked;
      const now = core.changes.at ?? new Date();
      const found = await findRedemptionStanding(tx, {
        accountId,
        rewardId: request.rewardId,
        system: who.system,
        idempotencyKey: request.idempotencyKey,
        since: tierWindowStart(now),
      });
      // A replay that waited for this lock finds the redemption the first one made.
      if (found.keyUsed) return replay(tx);
      const { reward } = locked;
      if (!reward) throw new AppError('NOT_FOUND', 'No reward has this id.');
      // An account from before emails were proven may have been taken by whoever typed the
      // email: its card spends nothing at a till until its owner proves it (staff, who see the
      // member, still may).
      if (by.causedBy === 'till' && !locked.emailProven) throw new AppError('CONFLICT', UNPROVEN_MEMBER);
      const standing: Standing = {
        balance: balanceFromSum(found.balanceSum),
        tier: found.tier,
        redeemed: new Map([[reward.id, found.redeemed]]),
      };
      const refusal = refusalOf(reward, standing, now);
      if (refusal) throw new AppError('CONFLICT', refusal);
      const redemption = await insertRedemption(tx, {
        idempotencyKey: request.idempotencyKey,
        accountId,
        rewardId: reward.id,
        rewardName: reward.name,
        pointsSpent: reward.pointsCost,
        balanceAfter: standing.balance - reward.pointsCost,
        ...who,
        ...(core.changes.at && { redeemedAt: core.changes.at }),
      });
      await appendLedger(
        tx,
        core.changes,
        [
          {
            accountId,
            points: -reward.pointsCost,
            kind: 'redemption',
            reason: `redeemed: ${reward.name}`,
            redemptionId: redemption.id,
            ...who,
          },
        ],
        {
          locked: true,
          events: [
            eventRow(
              'loyalty.reward_redeemed',
              `member:${memberNumber}`,
              {
                memberNumber,
                redemptionId: redemption.id,
                rewardId: reward.id,
                rewardName: reward.name,
                pointsSpent: reward.pointsCost,
                balance: redemption.balanceAfter,
                redeemedBy: by.causedBy,
              },
              who.system,
            ),
          ],
        },
      );
      await recorded?.(tx, redemption, redemption.balanceAfter);
      return { result: answerOf({ redemption, memberNumber }), created: true };
    });
  } catch (error) {
    // The same key for another member at the same moment: the unique key let one in.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findRedemptionByKey(core.db, who.system, request.idempotencyKey);
    if (!winner) throw error;
    return { result: replayOf(winner, request), created: false };
  }
}

const isoDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A reversed redemption's points go back to the lots they were taken from, with those lots' own
 * expiry (never a new 12-month lot): one redemption-reversal entry of the whole cost; the part
 * whose lot's date has come comes back expired (an `expired` entry naming the redemption, so
 * the balance does not move for it). What a negative balance owes is repaid first, from the
 * points that expire first (the lots hold max(balance, 0)). A redemption made before its lots
 * were recorded opens a new lot, as it did then. In the caller's transaction, under the
 * account's lock.
 */
async function giveBack(tx: Executor, changes: LedgerChanges, redemption: RedemptionRow, by: Redeemer): Promise<void> {
  const { accountId } = redemption;
  const reversal = {
    accountId,
    points: redemption.pointsSpent,
    kind: 'redemption-reversal' as const,
    reason: `redemption reversed: ${redemption.rewardName}`,
    redemptionId: redemption.id,
    ...recordedBy(by),
  };
  const taken = await findRedemptionLots(tx, redemption.id);
  if (taken.length === 0) {
    await appendLedger(tx, changes, [reversal], { locked: true });
    return;
  }
  const now = new Date();
  const isExpired = (lot: (typeof taken)[number]) => lot.expiresAt !== null && lot.expiresAt <= now;
  const expired = taken.filter(isExpired);
  const balance = await balanceOf(tx, accountId);
  let owed = Math.max(0, -balance);
  const restores = taken
    .filter((lot) => !isExpired(lot))
    .map((lot) => {
      const repaid = Math.min(owed, lot.points);
      owed -= repaid;
      return { lotId: lot.lotId, points: lot.points - repaid };
    })
    .filter((restore) => restore.points > 0);
  const expiredPoints = expired.reduce((sum, lot) => sum + lot.points, 0);
  const expiry =
    expiredPoints > 0
      ? [
          {
            ...reversal,
            points: -expiredPoints,
            kind: 'expired' as const,
            reason: `expired: points earned ${isoDate(expired[0]!.earnedAt)}, given back after their date`,
          },
        ]
      : [];
  await writeRestoringLots(tx, [reversal, ...expiry], balance, restores);
  await changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, [accountId]);
}

/**
 * POST /api/integrations/loyalty/redemptions/{id}/reverse: gives the points back once, with an
 * entry naming the reward; again, it answers the same and writes nothing. 404 when unknown; 403
 * when a till without `reverse-any` reverses another system's (or staff's) redemption.
 */
export async function reverseRedemption(
  core: LoyaltyCore,
  redemptionId: string,
  by: Redeemer,
  recorded?: Recorded,
): Promise<RedemptionReversal> {
  const notFound = () => new AppError('NOT_FOUND', 'No redemption has this id.');
  const found = await findRedemption(core.db, redemptionId);
  if (!found) throw notFound();
  if (by.causedBy === 'till' && !by.reverseAny && found.redemption.system !== by.system) {
    throw new AppError('FORBIDDEN', `This redemption was not made by "${by.system}": reversing it needs the scope "reverse-any".`);
  }
  const { accountId } = found.redemption;
  return core.db.transaction(async (tx) => {
    // The account first, like every change of its points; then the redemption, still there unless the member was removed.
    const locked = (await lockAccount(tx, accountId)) && (await findRedemption(tx, redemptionId, true));
    if (!locked) throw notFound();
    const { redemption, memberNumber } = locked;
    const reversed = await markRedemptionReversed(tx, redemption.id);
    if (reversed) await giveBack(tx, core.changes, redemption, by);
    const balance = await balanceOf(tx, accountId);
    if (reversed) await recorded?.(tx, redemption, balance);
    return { redemptionId: redemption.id, memberNumber, rewardId: redemption.rewardId, pointsReturned: redemption.pointsSpent, balance };
  });
}
