// The club's campaigns as a claim, a reversal, the back office and the member lookups read them.
// What a campaign gave is never stored beside it: its bonus entries in the ledger are the
// record (a campaign's budget and a member's cap are sums of them, read from the ledger's
// campaign indexes).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ChallengeGoal } from '@boardwalk/contract/loyalty-statement';
import type { Executor } from '@boardwalk/db/client';
import { preparedSql } from '@boardwalk/db/prepared';
import { loyaltyAccounts, loyaltyCampaigns, loyaltyLedger, loyaltyTiers } from '@boardwalk/db/schema';
import { earnedSinceSql, tierWindowStart } from './loyalty-rewards.repo.ts';

/** What a campaign gives: on claims (a multiplier, a fixed bonus), or on the member's birthday. */
export type CampaignKind = 'multiplier' | 'bonus' | 'birthday' | 'referral' | 'challenge';
/** The kinds a claim weighs. */
export const CLAIM_CAMPAIGNS: CampaignKind[] = ['multiplier', 'bonus'];

/** A running campaign as a claim weighs it, with its minimum tier's threshold (null: every member). */
export interface CampaignRule {
  id: string;
  name: string;
  nameEs: string | null;
  kind: CampaignKind;
  multiplier: number | null;
  bonusPoints: number | null;
  validFrom: string;
  validTo: string;
  tickets: boolean;
  foodAndBeverage: boolean;
  hotel: boolean;
  minimumTierPoints: number | null;
  budget: number | null;
  capPerMember: number | null;
  referralsPerMonth: number | null;
  goal: ChallengeGoal | null;
  goalCount: number | null;
}

/**
 * The active campaigns of these kinds whose budget is not spent and whose dates meet the days
 * from `first` to `last`, oldest first (the first of equal bonuses wins). Read by every claim:
 * rendered once (prepared.ts).
 */
const runningCampaigns = preparedSql<{
  id: string;
  name: string;
  name_es: string | null;
  kind: CampaignRule['kind'];
  multiplier: string | null;
  bonus_points: number | null;
  valid_from: string;
  valid_to: string;
  tickets: boolean;
  food_and_beverage: boolean;
  hotel: boolean;
  minimum_tier_points: number | null;
  budget: number | null;
  cap_per_member: number | null;
  referrals_per_month: number | null;
  goal: ChallengeGoal | null;
  goal_count: number | null;
}>(
  'running_campaigns',
  sql`select c.id, c.name, c.name_es, c.kind, c.multiplier, c.bonus_points, c.valid_from, c.valid_to, c.tickets,
      c.food_and_beverage, c.hotel, t.points_to_reach as minimum_tier_points, c.budget, c.cap_per_member, c.referrals_per_month,
      c.goal, c.goal_count
    from ${loyaltyCampaigns} c left join ${loyaltyTiers} t on t.name = c.minimum_tier
    where c.active and c.budget_spent_at is null and c.kind = any(string_to_array(${sql.placeholder('kinds')}, ','))
      and c.valid_from <= ${sql.placeholder('last')}::date and c.valid_to >= ${sql.placeholder('first')}::date
    order by c.created_at, c.id`,
);

export async function findRunningCampaigns(db: Executor, kinds: CampaignKind[], first: string, last: string): Promise<CampaignRule[]> {
  const rows = await runningCampaigns(db, { kinds: kinds.join(','), first, last });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    nameEs: r.name_es,
    kind: r.kind,
    multiplier: r.multiplier === null ? null : Number(r.multiplier),
    bonusPoints: r.bonus_points,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    tickets: r.tickets,
    foodAndBeverage: r.food_and_beverage,
    hotel: r.hotel,
    minimumTierPoints: r.minimum_tier_points,
    budget: r.budget,
    capPerMember: r.cap_per_member,
    referralsPerMonth: r.referrals_per_month,
    goal: r.goal,
    goalCount: r.goal_count,
  }));
}

/**
 * Locks the campaigns (in id order, after the account's lock: the order every claim takes them
 * in) and answers each one's budget as locked (a staff edit may have lowered it since the
 * campaign was read), what each has given in all (its bonus entries, reversed or not) and whether its
 * budget is spent. The sum is read by a statement of its own, after the lock: a statement that
 * waited for a lock still reads other tables as they were when it began (READ COMMITTED), so a
 * sum read with the lock would miss the bonuses of the claim it waited for.
 */
export async function lockCampaignBudgets(
  tx: Executor,
  ids: string[],
): Promise<Map<string, { budget: number | null; given: number; spent: boolean }>> {
  if (ids.length === 0) return new Map();
  const locked = await tx
    .select({
      id: loyaltyCampaigns.id,
      budget: loyaltyCampaigns.budget,
      spent: sql<boolean>`${loyaltyCampaigns.budgetSpentAt} is not null`,
    })
    .from(loyaltyCampaigns)
    .where(inArray(loyaltyCampaigns.id, ids))
    .orderBy(loyaltyCampaigns.id)
    .for('update');
  const given = await findCampaignsGiven(tx, ids);
  return new Map(locked.map((row) => [row.id, { budget: row.budget, given: given.get(row.id) ?? 0, spent: row.spent }]));
}

/** What each campaign gave in all: its bonus entries, reversed or not (its budget is on these). */
async function findCampaignsGiven(tx: Executor, ids: string[]): Promise<Map<string, number>> {
  const rows = await tx
    .select({ campaignId: loyaltyLedger.campaignId, given: sql<string>`sum(${loyaltyLedger.points})` })
    .from(loyaltyLedger)
    .where(and(inArray(loyaltyLedger.campaignId, ids), eq(loyaltyLedger.kind, 'bonus')))
    .groupBy(loyaltyLedger.campaignId);
  return new Map(rows.map((r) => [r.campaignId!, Number(r.given)]));
}

/** What each of the campaigns gave each of the accounts (their bonus entries, reversed or not), keyed `account campaign`: a cap is on these. */
export async function findMembersCampaignPoints(tx: Executor, accountIds: string[], campaignIds: string[]): Promise<Map<string, number>> {
  if (campaignIds.length === 0 || accountIds.length === 0) return new Map();
  const rows = await tx
    .select({ accountId: loyaltyLedger.accountId, campaignId: loyaltyLedger.campaignId, given: sql<string>`sum(${loyaltyLedger.points})` })
    .from(loyaltyLedger)
    .where(
      and(inArray(loyaltyLedger.accountId, accountIds), inArray(loyaltyLedger.campaignId, campaignIds), eq(loyaltyLedger.kind, 'bonus')),
    )
    .groupBy(loyaltyLedger.accountId, loyaltyLedger.campaignId);
  return new Map(rows.map((r) => [`${r.accountId} ${r.campaignId}`, Number(r.given)]));
}

/** Marks the campaign's budget spent, or (null) not spent (the caller holds its lock). */
export async function markBudgetSpent(tx: Executor, id: string, at: Date | null): Promise<void> {
  await tx.update(loyaltyCampaigns).set({ budgetSpentAt: at }).where(eq(loyaltyCampaigns.id, id));
}

/** Each campaign's figures: points given (bonus entries), points it stands at (net of reversals), members it reached. */
export async function findCampaignFigures(db: Executor, ids: string[]) {
  if (ids.length === 0) return new Map<string, { given: number; net: number; members: number }>();
  const rows = await db
    .select({
      campaignId: loyaltyLedger.campaignId,
      given: sql<string>`coalesce(sum(${loyaltyLedger.points}) filter (where ${loyaltyLedger.kind} = 'bonus'), 0)`,
      net: sql<string>`sum(${loyaltyLedger.points})`,
      members: sql<string>`count(distinct ${loyaltyLedger.accountId})`,
    })
    .from(loyaltyLedger)
    .where(inArray(loyaltyLedger.campaignId, ids))
    .groupBy(loyaltyLedger.campaignId);
  return new Map(rows.map((r) => [r.campaignId!, { given: Number(r.given), net: Number(r.net), members: Number(r.members) }]));
}

/** The campaign a bonus entry names, for the statement and the reversal: its name in each language. */
export async function findCampaignNames(db: Executor, ids: string[]) {
  if (ids.length === 0) return new Map<string, { name: string; nameEs: string | null }>();
  const rows = await db
    .select({ id: loyaltyCampaigns.id, name: loyaltyCampaigns.name, nameEs: loyaltyCampaigns.nameEs })
    .from(loyaltyCampaigns)
    .where(inArray(loyaltyCampaigns.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A loyalty order's bonus entry: what its reversal takes back (a claim is reversed once: markReversed). */
export async function findStandingBonus(tx: Executor, loyaltyOrderId: string) {
  const [bonus] = await tx
    .select({ campaignId: loyaltyLedger.campaignId, points: loyaltyLedger.points })
    .from(loyaltyLedger)
    .where(and(eq(loyaltyLedger.loyaltyOrderId, loyaltyOrderId), eq(loyaltyLedger.kind, 'bonus')));
  return bonus?.campaignId ? { campaignId: bonus.campaignId, points: bonus.points } : null;
}

/** The points each account earned in the tier window (its tier's measure): a campaign's minimum tier is met by reaching that tier's threshold. */
export async function findEarnedForTiers(tx: Executor, accountIds: string[], now: Date): Promise<Map<string, number>> {
  // The account's id qualified: Drizzle writes a lone table's columns unqualified, which the sum's own tables would take as theirs.
  const { rows } = (await tx.execute(sql`select a.id, ${earnedSinceSql(sql`a.id`, tierWindowStart(now))} as earned
    from ${loyaltyAccounts} a where a.id in (${sql.join(
      accountIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`)) as unknown as { rows: { id: string; earned: string | number }[] };
  return new Map(rows.map((row) => [row.id, Number(row.earned)]));
}
