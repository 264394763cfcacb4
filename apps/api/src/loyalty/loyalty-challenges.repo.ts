// Challenges as the ledger's neighbours record them: a member's progress is counted from their
// standing claims (and the gate's attraction visits of the tickets they claimed) whenever it is
// read; a completion is a row of its own beside the bonus entry it gave.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ChallengeGoal } from '@boardwalk/contract/loyalty-statement';
import type { Executor } from '@boardwalk/db/client';
import {
  attractionUsage,
  checks,
  loyaltyCampaigns,
  loyaltyChallengeCompletions,
  loyaltyOrders,
  loyaltyTiers,
  reservations,
} from '@boardwalk/db/schema';
import { operatingDaySql } from '../platform/park-time.ts';

/** What a challenge counts and where: its goal, its dates and the kinds of purchase whose days count. */
export interface ChallengeMeasure {
  id: string;
  goal: ChallengeGoal | null;
  validFrom: string;
  validTo: string;
  tickets: boolean;
  foodAndBeverage: boolean;
  hotel: boolean;
}

/** The kinds of purchase whose operating days a days challenge counts. */
const dayKinds = (c: ChallengeMeasure) =>
  [c.tickets && 'ticket', c.foodAndBeverage && 'food-and-beverage', c.hotel && 'hotel'].filter((kind) => kind !== false);

/**
 * One challenge's count for a member, from their standing claims (a reversed claim counts no
 * more): the distinct operating days within its dates with a claimed purchase of its kinds or
 * an attraction visit on a ticket they claimed; the distinct food outlets (the till's terminal)
 * of their food and beverage checks bought within its dates; the nights of their claimed hotel
 * stays that fall within its dates.
 */
function progressSql(accountId: string, c: ChallengeMeasure, timeZone: string) {
  // Aliased tables throughout: Drizzle writes a lone table's columns unqualified.
  const o = sql`o`;
  const standing = sql`${o}.account_id = ${accountId}::uuid and ${o}.reversed_at is null`;
  const within = (day: SQL) => sql`${day} between ${c.validFrom} and ${c.validTo}`;
  switch (c.goal) {
    case 'days': {
      const kinds = dayKinds(c);
      return sql`select count(distinct d)::int as n from (
          select ${operatingDaySql(sql`o.purchased_at`, timeZone)} as d from ${loyaltyOrders} o
            where ${standing} and o.source_type in (${sql.join(
              kinds.length > 0 ? kinds.map((kind) => sql`${kind}`) : [sql`null`],
              sql`, `,
            )})
          union all
          select ${operatingDaySql(sql`u.timestamp`, timeZone)} from ${attractionUsage} u
            join ${loyaltyOrders} o on o.source_type = 'ticket' and o.source_id = u.barcode
            where ${standing}
        ) days where ${within(sql`d`)}`;
    }
    case 'outlets':
      return sql`select count(distinct k.terminal_id)::int as n from ${loyaltyOrders} o
          join ${checks} k on k.check_id = o.source_id
          where ${standing} and o.source_type = 'food-and-beverage' and ${within(operatingDaySql(sql`o.purchased_at`, timeZone))}`;
    case 'nights':
      return sql`select coalesce(sum(greatest(0, least(r.departure, ${c.validTo}::date + 1) - greatest(r.arrival, ${c.validFrom}::date))), 0)::int as n
          from ${loyaltyOrders} o join ${reservations} r on r.reservation_number = o.source_id
          where ${standing} and o.source_type = 'hotel'`;
    default:
      return null;
  }
}

/** Each challenge's count for the member (0 for one without a goal), by challenge id. */
export async function findChallengeProgress(
  db: Executor,
  accountId: string,
  challenges: ChallengeMeasure[],
  timeZone: string,
): Promise<Map<string, number>> {
  const progress = new Map<string, number>();
  for (const challenge of challenges) {
    const query = progressSql(accountId, challenge, timeZone);
    const { rows } = query ? ((await db.execute(query)) as unknown as { rows: { n: number }[] }) : { rows: [] };
    progress.set(challenge.id, Number(rows[0]?.n ?? 0));
  }
  return progress;
}

/** What a challenge counts (ChallengeMeasure) and its goal, as selected. */
const measureColumns = {
  id: loyaltyCampaigns.id,
  goal: loyaltyCampaigns.goal,
  goalCount: loyaltyCampaigns.goalCount,
  validFrom: loyaltyCampaigns.validFrom,
  validTo: loyaltyCampaigns.validTo,
  tickets: loyaltyCampaigns.tickets,
  foodAndBeverage: loyaltyCampaigns.foodAndBeverage,
  hotel: loyaltyCampaigns.hotel,
};

/** A challenge as the member's statement and card show it: its rule, and what completing it gave them (null: not completed). */
export interface MemberChallengeRow extends ChallengeMeasure {
  name: string;
  nameEs: string | null;
  goalCount: number;
  bonusPoints: number;
  minimumTierPoints: number | null;
  completedPoints: number | null;
}

/**
 * The challenges running on an operating day (active, within their dates) that the member may
 * see: those whose budget is not spent, and those they completed; oldest first.
 */
export async function findChallengesOn(db: Executor, accountId: string, day: string): Promise<MemberChallengeRow[]> {
  const c = loyaltyCampaigns;
  const x = loyaltyChallengeCompletions;
  const rows = await db
    .select({
      ...measureColumns,
      name: c.name,
      nameEs: c.nameEs,
      bonusPoints: c.bonusPoints,
      minimumTierPoints: loyaltyTiers.pointsToReach,
      completedPoints: x.points,
    })
    .from(c)
    .leftJoin(loyaltyTiers, eq(loyaltyTiers.name, c.minimumTier))
    .leftJoin(x, and(eq(x.campaignId, c.id), eq(x.accountId, accountId)))
    .where(
      and(
        eq(c.kind, 'challenge'),
        eq(c.active, true),
        sql`${c.validFrom} <= ${day}::date and ${c.validTo} >= ${day}::date`,
        sql`(${c.budgetSpentAt} is null or ${x.accountId} is not null)`,
      ),
    )
    .orderBy(c.createdAt, c.id);
  return rows.map((row) => ({
    ...row,
    goalCount: row.goalCount ?? 1,
    bonusPoints: row.bonusPoints ?? 0,
  }));
}

/**
 * The member's completed challenges, with what each gave, what it counts, and whether a claim of
 * theirs was reversed since (only then may its goal be unmet: a take-back reads it again).
 */
export async function findCompletions(tx: Executor, accountId: string) {
  const c = loyaltyCampaigns;
  const x = loyaltyChallengeCompletions;
  const rows = await tx
    .select({
      ...measureColumns,
      name: c.name,
      points: x.points,
      reversedSince: sql<boolean>`exists (select 1 from ${loyaltyOrders} o
        where o.account_id = ${x.accountId} and o.reversed_at >= ${x.completedAt})`,
    })
    .from(x)
    .innerJoin(c, eq(c.id, x.campaignId))
    .where(eq(x.accountId, accountId));
  return rows.map((row) => ({ ...row, goalCount: row.goalCount ?? 1 }));
}

/** Records the completions (those another run recorded meanwhile are skipped): the challenges recorded now. */
export async function insertCompletions(tx: Executor, accountId: string, campaigns: { id: string; points: number }[], at: Date) {
  if (campaigns.length === 0) return new Set<string>();
  const rows = await tx
    .insert(loyaltyChallengeCompletions)
    .values(campaigns.map((c) => ({ accountId, campaignId: c.id, points: c.points, completedAt: at })))
    .onConflictDoNothing()
    .returning({ campaignId: loyaltyChallengeCompletions.campaignId });
  return new Set(rows.map((row) => row.campaignId));
}

/** What a completion gave after its budget and cap. */
export async function setCompletionPoints(tx: Executor, accountId: string, campaignId: string, points: number) {
  await tx
    .update(loyaltyChallengeCompletions)
    .set({ points })
    .where(and(eq(loyaltyChallengeCompletions.accountId, accountId), eq(loyaltyChallengeCompletions.campaignId, campaignId)));
}

/** A completion taken back: the challenge can be completed again. */
export async function deleteCompletion(tx: Executor, accountId: string, campaignId: string) {
  await tx
    .delete(loyaltyChallengeCompletions)
    .where(and(eq(loyaltyChallengeCompletions.accountId, accountId), eq(loyaltyChallengeCompletions.campaignId, campaignId)));
}

/**
 * Whether a challenge (active) started or ended between two operating days: its first day after
 * `from` and at most `to`, or its last day at or after `from` and before `to`. Every member card
 * then shows it, or no longer does.
 */
export async function challengeStartedOrEnded(db: Executor, from: string, to: string): Promise<boolean> {
  if (from >= to) return false;
  const c = loyaltyCampaigns;
  const [row] = await db
    .select({ one: sql`1` })
    .from(c)
    .where(
      and(
        eq(c.kind, 'challenge'),
        eq(c.active, true),
        sql`((${c.validFrom} > ${from}::date and ${c.validFrom} <= ${to}::date) or (${c.validTo} >= ${from}::date and ${c.validTo} < ${to}::date))`,
      ),
    )
    .limit(1);
  return !!row;
}

/** The member whose standing claim holds this ticket (an attraction visit counts for them); null when none. */
export async function findTicketClaimant(db: Executor, barcode: string): Promise<string | null> {
  const [row] = await db
    .select({ accountId: loyaltyOrders.accountId })
    .from(loyaltyOrders)
    .where(and(eq(loyaltyOrders.sourceType, 'ticket'), eq(loyaltyOrders.sourceId, barcode), sql`${loyaltyOrders.reversedAt} is null`));
  return row?.accountId ?? null;
}

/** Whether the member completed any challenge (a take-back may be due even when none runs). */
export async function anyCompletionOf(db: Executor, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(loyaltyChallengeCompletions)
    .where(eq(loyaltyChallengeCompletions.accountId, accountId))
    .limit(1);
  return !!row;
}
