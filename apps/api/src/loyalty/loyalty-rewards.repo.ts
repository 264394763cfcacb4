// The rewards catalogue, the tiers and the redemptions: what points are spent on, and the
// points earned that decide a member's tier.
import { and, desc, eq, getTableColumns, inArray, isNull, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyLedger, loyaltyRedemptions, loyaltyRewards, loyaltyTiers } from '@boardwalk/db/schema';

export type RewardRow = typeof loyaltyRewards.$inferSelect;
export type RedemptionRow = typeof loyaltyRedemptions.$inferSelect;
export type NewRedemption = Omit<typeof loyaltyRedemptions.$inferInsert, 'id' | 'redeemedAt' | 'reversedAt'>;
/** A reward with the threshold of its minimum tier (null: none). */
export type RewardWithTier = RewardRow & { minimumTierPoints: number | null };

const rewardWithTier = { ...getTableColumns(loyaltyRewards), minimumTierPoints: loyaltyTiers.pointsToReach };

/** The active rewards, cheapest first (their dates, tier and limit are the caller's to check). */
export function listActiveRewards(db: Executor): Promise<RewardWithTier[]> {
  return db
    .select(rewardWithTier)
    .from(loyaltyRewards)
    .leftJoin(loyaltyTiers, eq(loyaltyTiers.name, loyaltyRewards.minimumTier))
    .where(eq(loyaltyRewards.active, true))
    .orderBy(loyaltyRewards.pointsCost, loyaltyRewards.name);
}

export interface Tier {
  name: string;
  /** The name in Spanish (null: the name): guests reading Spanish read it. */
  nameEs?: string | null;
  pointsToReach: number;
}

/** The points a member earned in the tier window, the tier they reach and the next one up (null at the top). */
export interface TierProgress {
  earned: number;
  tier: Tier | null;
  next: Tier | null;
}

/** The active tiers, highest threshold first, as one JSON value for a query's select list. */
export const activeTiersSql = () => sql<
  Tier[]
>`(select coalesce(json_agg(json_build_object('name', t.name, 'nameEs', t.name_es, 'pointsToReach', t.points_to_reach)
  order by t.points_to_reach desc), '[]'::json) from ${loyaltyTiers} t where t.active)`;

/** The tier rule on the points earned: the highest of the active tiers (highest threshold first) they reach, and the next one up. */
export function tierProgress(earned: number, tiers: Tier[]): TierProgress {
  const reached = tiers.findIndex((tier) => earned >= tier.pointsToReach);
  const tier = reached === -1 ? null : tiers[reached]!;
  const next = reached === -1 ? (tiers.at(-1) ?? null) : (tiers[reached - 1] ?? null);
  return { earned, tier, next };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tiers count the points earned in this many days up to now. */
export const TIER_WINDOW_DAYS = 365;
/** The start of the window whose earned points decide the tier at this moment. */
export const tierWindowStart = (now: Date) => new Date(now.getTime() - TIER_WINDOW_DAYS * DAY_MS);

/**
 * The points an account earned since then (a time, or a prepared statement's placeholder), as
 * SQL for any account id expression: its claims' earn entries written since then, minus those
 * claims' reversals (whenever written). Spending, expiry and adjustments do not count.
 */
export const earnedSinceSql = (accountId: SQL | AnyColumn, since: Date | Placeholder) => sql`(
  select coalesce(sum(l.points), 0)::bigint from ${loyaltyLedger} l
  where l.account_id = ${accountId} and l.kind in ('earn', 'reversal')
    and l.loyalty_order_id in (
      -- the claims earned since then, as one set (a semi-join), not one look-up per entry
      select e.loyalty_order_id from ${loyaltyLedger} e
      where e.account_id = ${accountId} and e.kind = 'earn' and e.created_at >= ${since instanceof Date ? since.toISOString() : since}::timestamptz))`;

/** The highest active tier these earned points (an SQL number) reach, as `what` of its row `t`; null when none. */
const tierAtSql = (what: SQL, earned: SQL) => sql`(
  select ${what} from ${loyaltyTiers} t
  where t.active and t.points_to_reach <= ${earned}
  order by t.points_to_reach desc limit 1)`;

/** The highest active tier the account's points earned since then reach, as `what` of its row `t`; null when none. */
const tierReachedSql = (what: SQL, accountId: SQL | AnyColumn, since: Date) => tierAtSql(what, earnedSinceSql(accountId, since));

/** The name of the highest active tier these earned points reach; null when none. */
export const tierNameAtSql = (earned: SQL) => tierAtSql(sql`t.name`, earned) as SQL<string | null>;

/** The name of the highest active tier the account's points earned since then reach; null when none. */
export const tierNameSql = (accountId: SQL | AnyColumn, since: Date) => tierNameAtSql(earnedSinceSql(accountId, since));

/** A member's tier moved (null: no tier). */
export interface TierChange {
  memberNumber: string;
  from: string | null;
  to: string | null;
}

/** Each account's member number and the name of the tier it reaches now (null: none). */
export async function tiersOf(
  db: Executor,
  accountIds: string[],
  now: Date,
): Promise<Map<string, { memberNumber: string; tier: string | null }>> {
  if (accountIds.length === 0) return new Map();
  const since = tierWindowStart(now);
  const rows = await db
    .select({ id: loyaltyAccounts.id, memberNumber: loyaltyAccounts.memberNumber, tier: tierNameSql(loyaltyAccounts.id, since) })
    .from(loyaltyAccounts)
    .where(inArray(loyaltyAccounts.id, accountIds));
  return new Map(rows.map((r) => [r.id, { memberNumber: r.memberNumber, tier: r.tier }]));
}

/**
 * The tier of the member whose season pass this is, now, with its visit booking lead
 * (loyaltyTiers.visitDaysAhead; null: the default); null when no member holds the pass or they reach no tier.
 */
export async function findSeasonPassTier(
  db: Executor,
  barcode: string,
  now: Date,
): Promise<{ name: string; pointsToReach: number; visitDaysAhead: number | null } | null> {
  const [row] = await db
    .select({ name: loyaltyTiers.name, pointsToReach: loyaltyTiers.pointsToReach, visitDaysAhead: loyaltyTiers.visitDaysAhead })
    .from(loyaltyAccounts)
    .innerJoin(loyaltyTiers, eq(loyaltyTiers.name, tierNameSql(loyaltyAccounts.id, tierWindowStart(now))))
    .where(eq(loyaltyAccounts.seasonPassId, barcode));
  return row ?? null;
}

/** A tier as the tiers tab holds it. */
export type TierRule = Pick<typeof loyaltyTiers.$inferSelect, 'name' | 'pointsToReach' | 'active'>;

/** Every tier's rule, with its id. */
export async function listTierRules(db: Executor): Promise<(TierRule & { id: string })[]> {
  return db
    .select({ id: loyaltyTiers.id, name: loyaltyTiers.name, pointsToReach: loyaltyTiers.pointsToReach, active: loyaltyTiers.active })
    .from(loyaltyTiers);
}

/**
 * The members whose tier under today's tiers is not their tier under `before` (the tiers as
 * they were before a staff change), counted on the points each earned in the 365 days before
 * `now`. Only an account with an earn in that window can reach a tier (a threshold is at least
 * 1 point), so the ledger's earned-at index finds the candidates; one statement.
 */
export async function findTierChangesSince(db: Executor, before: TierRule[], now: Date): Promise<TierChange[]> {
  const since = tierWindowStart(now);
  const { rows } = (await db.execute(sql`
    with old_tiers as (
      select * from jsonb_to_recordset(${JSON.stringify(before)}::jsonb) as t(name text, "pointsToReach" int, active boolean)
    ), members as (
      select a.member_number, ${earnedSinceSql(sql`a.id`, since)} as earned from ${loyaltyAccounts} a
      where a.id in (select ${loyaltyLedger.accountId} from ${loyaltyLedger}
        where ${loyaltyLedger.kind} = 'earn' and ${loyaltyLedger.createdAt} >= ${since.toISOString()}::timestamptz)
    ), tiers as (
      select member_number,
        (select t.name from old_tiers t where t.active and t."pointsToReach" <= earned order by t."pointsToReach" desc limit 1) as "from",
        (select t.name from ${loyaltyTiers} t where t.active and t.points_to_reach <= earned order by t.points_to_reach desc limit 1) as "to"
      from members
    )
    select member_number as "memberNumber", "from", "to" from tiers where "from" is distinct from "to"
    order by member_number`)) as unknown as { rows: TierChange[] };
  return rows;
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

const redemptionWithMember = {
  redemption: loyaltyRedemptions,
  memberNumber: loyaltyAccounts.memberNumber,
  cardToken: loyaltyAccounts.cardToken,
};

/**
 * How a call names the member: by the card's barcode (its random token: what a till spends
 * against), or by the member number (a typed number looks up; staff redeem by it).
 */
export type MemberKey = { card: string } | { memberNumber: string };

const memberIs = (member: MemberKey) =>
  'card' in member ? eq(loyaltyAccounts.cardToken, member.card) : eq(loyaltyAccounts.memberNumber, member.memberNumber);

/** Whether a redemption's member is the one the call names. */
export const isMember = (found: { memberNumber: string; cardToken: string }, member: MemberKey) =>
  'card' in member ? found.cardToken === member.card : found.memberNumber === member.memberNumber;

/** A redemption's key is unique per system (null: staff's, whose keys are prefixed `staff:`). */
const keyIs = (system: string | null, idempotencyKey: string) =>
  and(eq(loyaltyRedemptions.idempotencyKey, idempotencyKey), sql`${loyaltyRedemptions.system} is not distinct from ${system}`);

/**
 * Locks the member's account until the transaction ends, in a statement of its own, and reads
 * the reward with it (no redemption changes a reward). Null when no account is the member;
 * `reward` null when the reward does not exist.
 */
export async function lockMemberWithReward(tx: Executor, member: MemberKey, rewardId: string) {
  const [row] = await tx
    .select({
      accountId: loyaltyAccounts.id,
      memberNumber: loyaltyAccounts.memberNumber,
      emailProven: sql<boolean>`${loyaltyAccounts.emailProvenAt} is not null`,
      reward: rewardWithTier,
    })
    .from(loyaltyAccounts)
    .leftJoin(loyaltyRewards, eq(loyaltyRewards.id, rewardId))
    .leftJoin(loyaltyTiers, eq(loyaltyTiers.name, loyaltyRewards.minimumTier))
    .where(memberIs(member))
    .for('update', { of: loyaltyAccounts });
  if (!row) return null;
  // Left joined: a missing reward reads as its columns all null.
  const reward = row.reward as RewardWithTier | null;
  return { accountId: row.accountId, memberNumber: row.memberNumber, emailProven: row.emailProven, reward: reward?.id ? reward : null };
}

/**
 * What a redemption is checked against, read in one statement after the account's lock (a
 * statement of its own, so this one's snapshot holds every change committed before it): whether
 * the key was used meanwhile (a replay that waited for the lock), the balance, the tier reached
 * by the points earned since `since`, and the member's standing redemptions of this reward.
 */
export async function findRedemptionStanding(
  tx: Executor,
  request: { accountId: string; rewardId: string; system: string | null; idempotencyKey: string; since: Date },
) {
  const { accountId, rewardId, system, idempotencyKey, since } = request;
  const [row] = await tx
    .select({
      keyUsed: sql<boolean>`exists (select 1 from ${loyaltyRedemptions} where ${keyIs(system, idempotencyKey)})`,
      /** The ledger's sum as text (balanceFromSum reads it). */
      balanceSum: sql<string>`(select coalesce(sum(${loyaltyLedger.points}), 0)::bigint::text from ${loyaltyLedger} where ${loyaltyLedger.accountId} = ${accountId})`,
      tier: sql<{
        name: string;
        pointsToReach: number;
      } | null>`${tierReachedSql(sql`json_build_object('name', t.name, 'pointsToReach', t.points_to_reach)`, loyaltyAccounts.id, since)}`,
      redeemed: sql<number>`(select count(*)::int from ${loyaltyRedemptions} where ${loyaltyRedemptions.accountId} = ${accountId}
        and ${loyaltyRedemptions.rewardId} = ${rewardId} and ${loyaltyRedemptions.reversedAt} is null)`.mapWith(Number),
    })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.id, accountId));
  return row!;
}

/** The redemption of a system's idempotency key, with its member's number and card token. */
export async function findRedemptionByKey(db: Executor, system: string | null, idempotencyKey: string) {
  const [row] = await db
    .select(redemptionWithMember)
    .from(loyaltyRedemptions)
    .innerJoin(loyaltyAccounts, eq(loyaltyAccounts.id, loyaltyRedemptions.accountId))
    .where(keyIs(system, idempotencyKey));
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

export async function findAccountIdOf(db: Executor, member: MemberKey): Promise<string | null> {
  const [row] = await db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).where(memberIs(member));
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
