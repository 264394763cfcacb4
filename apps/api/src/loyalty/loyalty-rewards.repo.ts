// The rewards catalogue, the tiers and the redemptions: what points are spent on, and the
// points earned that decide a member's tier.
import { and, desc, eq, getTableColumns, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyLedger, loyaltyRedemptions, loyaltyRewards, loyaltyTiers } from '@boardwalk/db/schema';

export type RewardRow = typeof loyaltyRewards.$inferSelect;
export type RedemptionRow = typeof loyaltyRedemptions.$inferSelect;
export type NewRedemption = Omit<typeof loyaltyRedemptions.$inferInsert, 'id' | 'redeemedAt' | 'reversedAt'>;
/** A reward with the threshold of its minimum tier (null: none). */
export type RewardWithTier = RewardRow & { minimumTierPoints: number | null };

const rewardWithTier = { ...getTableColumns(loyaltyRewards), minimumTierPoints: loyaltyTiers.pointsToReach };

export async function findReward(db: Executor, rewardId: string): Promise<RewardWithTier | null> {
  const [row] = await db
    .select(rewardWithTier)
    .from(loyaltyRewards)
    .leftJoin(loyaltyTiers, eq(loyaltyTiers.name, loyaltyRewards.minimumTier))
    .where(eq(loyaltyRewards.id, rewardId));
  return row ?? null;
}

/** The active rewards, cheapest first (their dates, tier and limit are the caller's to check). */
export function listActiveRewards(db: Executor): Promise<RewardWithTier[]> {
  return db
    .select(rewardWithTier)
    .from(loyaltyRewards)
    .leftJoin(loyaltyTiers, eq(loyaltyTiers.name, loyaltyRewards.minimumTier))
    .where(eq(loyaltyRewards.active, true))
    .orderBy(loyaltyRewards.pointsCost, loyaltyRewards.name);
}

/** The active tiers, highest threshold first. */
export function listActiveTiers(db: Executor) {
  return db
    .select({ name: loyaltyTiers.name, pointsToReach: loyaltyTiers.pointsToReach })
    .from(loyaltyTiers)
    .where(eq(loyaltyTiers.active, true))
    .orderBy(desc(loyaltyTiers.pointsToReach));
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tiers count the points earned in this many days up to now. */
export const TIER_WINDOW_DAYS = 365;
/** The start of the window whose earned points decide the tier at this moment. */
export const tierWindowStart = (now: Date) => new Date(now.getTime() - TIER_WINDOW_DAYS * DAY_MS);

/**
 * The points an account earned since then, as SQL for any account id expression: its claims'
 * earn entries written since then, minus those claims' reversals (whenever written). Spending,
 * expiry and adjustments do not count.
 */
export const earnedSinceSql = (accountId: SQL | AnyColumn, since: Date) => sql`(
  select coalesce(sum(l.points), 0)::bigint from ${loyaltyLedger} l
  where l.account_id = ${accountId} and l.kind in ('earn', 'reversal')
    and l.loyalty_order_id in (
      -- the claims earned since then, as one set (a semi-join), not one look-up per entry
      select e.loyalty_order_id from ${loyaltyLedger} e
      where e.account_id = ${accountId} and e.kind = 'earn' and e.created_at >= ${since.toISOString()}::timestamptz))`;

/** The name of the highest active tier the account's points earned since then reach; null when none. */
export const tierNameSql = (accountId: SQL | AnyColumn, since: Date) => sql<string | null>`(
  select t.name from ${loyaltyTiers} t
  where t.active and t.points_to_reach <= ${earnedSinceSql(accountId, since)}
  order by t.points_to_reach desc limit 1)`;

export async function pointsEarnedSince(db: Executor, accountId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ points: sql<string>`${earnedSinceSql(loyaltyAccounts.id, since)}::text` })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.id, accountId));
  return Number(row?.points ?? 0);
}

/** The account's redemptions not reversed, per reward id. */
export async function countStandingRedemptions(db: Executor, accountId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ rewardId: loyaltyRedemptions.rewardId, n: sql<number>`count(*)::int` })
    .from(loyaltyRedemptions)
    .where(and(eq(loyaltyRedemptions.accountId, accountId), isNull(loyaltyRedemptions.reversedAt)))
    .groupBy(loyaltyRedemptions.rewardId);
  return new Map(rows.map((r) => [r.rewardId, r.n]));
}

const redemptionWithMember = { redemption: loyaltyRedemptions, memberNumber: loyaltyAccounts.memberNumber };

/** The redemption of an idempotency key, with its member's number. */
export async function findRedemptionByKey(db: Executor, idempotencyKey: string) {
  const [row] = await db
    .select(redemptionWithMember)
    .from(loyaltyRedemptions)
    .innerJoin(loyaltyAccounts, eq(loyaltyAccounts.id, loyaltyRedemptions.accountId))
    .where(eq(loyaltyRedemptions.idempotencyKey, idempotencyKey));
  return row ?? null;
}

/** A redemption with its member's number; locked until the transaction ends when `lock`. */
export async function findRedemption(db: Executor, redemptionId: string, lock = false) {
  const query = db
    .select(redemptionWithMember)
    .from(loyaltyRedemptions)
    .innerJoin(loyaltyAccounts, eq(loyaltyAccounts.id, loyaltyRedemptions.accountId))
    .where(eq(loyaltyRedemptions.id, redemptionId));
  const [row] = lock ? await query.for('update', { of: loyaltyRedemptions }) : await query;
  return row ?? null;
}

export async function insertRedemption(tx: Executor, values: NewRedemption): Promise<RedemptionRow> {
  const [row] = await tx.insert(loyaltyRedemptions).values(values).returning();
  return row!;
}

/** Marks a redemption reversed; false when it already was (so its points come back once). */
export async function markRedemptionReversed(tx: Executor, redemptionId: string): Promise<boolean> {
  const rows = await tx
    .update(loyaltyRedemptions)
    .set({ reversedAt: sql`now()` })
    .where(and(eq(loyaltyRedemptions.id, redemptionId), isNull(loyaltyRedemptions.reversedAt)))
    .returning({ id: loyaltyRedemptions.id });
  return rows.length > 0;
}

export async function findAccountIdByMemberNumber(db: Executor, memberNumber: string): Promise<string | null> {
  const [row] = await db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).where(eq(loyaltyAccounts.memberNumber, memberNumber));
  return row?.id ?? null;
}

/** An account's redemptions, newest first. */
export function listRedemptionsOfAccount(db: Executor, accountId: string): Promise<RedemptionRow[]> {
  return db
    .select()
    .from(loyaltyRedemptions)
    .where(eq(loyaltyRedemptions.accountId, accountId))
    .orderBy(desc(loyaltyRedemptions.redeemedAt), desc(loyaltyRedemptions.id));
}
