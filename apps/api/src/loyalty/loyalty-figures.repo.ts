// The club's figures for the back office Dashboard, each one grouped query on an index: claims
// and new members per operating day, points per day by kind, the points outstanding and
// expiring, and members per tier. Days are the park's operating days (operatingDaySql).
import { and, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyLedger, loyaltyLots, loyaltyOrders, loyaltyTiers } from '@boardwalk/db/schema';
import { operatingDaySql, type InstantSpan } from '../platform/park-time.ts';
import { tierWindowStart } from './loyalty-rewards.repo.ts';

const int = (expression: ReturnType<typeof sql>) => sql<number>`coalesce(${expression}, 0)::int`.mapWith(Number);

/** Claims per operating day by source type (a claim later reversed still counts on its day). */
export function claimsPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const of = (type: string) => int(sql`count(*) filter (where ${loyaltyOrders.sourceType} = ${type})`);
  return db
    .select({
      day: operatingDaySql(loyaltyOrders.claimedAt, timeZone),
      tickets: of('ticket'),
      foodAndBeverage: of('food-and-beverage'),
      hotel: of('hotel'),
    })
    .from(loyaltyOrders)
    .where(and(gte(loyaltyOrders.claimedAt, span.start), lt(loyaltyOrders.claimedAt, span.end)))
    .groupBy(sql`1`);
}

/** Accounts created per operating day (removed accounts are gone). */
export function newMembersPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  return db
    .select({ day: operatingDaySql(loyaltyAccounts.createdAt, timeZone), newMembers: int(sql`count(*)`) })
    .from(loyaltyAccounts)
    .where(and(gte(loyaltyAccounts.createdAt, span.start), lt(loyaltyAccounts.createdAt, span.end)))
    .groupBy(sql`1`);
}

/**
 * The ledger's points per operating day by kind, as positive figures where the entries take
 * points (redeemed, reversed, expired); redeemed is net of the redemptions given back, adjusted
 * the adjustments' signed sum.
 */
export function pointsPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const sum = (kinds: string[], sign = 1) =>
    int(
      sql`${sign} * sum(${loyaltyLedger.points}) filter (where ${loyaltyLedger.kind} in (${sql.join(
        kinds.map((k) => sql`${k}`),
        sql`, `,
      )}))`,
    );
  return db
    .select({
      day: operatingDaySql(loyaltyLedger.createdAt, timeZone),
      earned: sum(['earn']),
      redeemed: sum(['redemption', 'redemption-reversal'], -1),
      reversed: sum(['reversal'], -1),
      expired: sum(['expired'], -1),
      adjusted: sum(['adjustment']),
      campaigns: sum(['bonus', 'bonus-reversal']),
    })
    .from(loyaltyLedger)
    .where(and(gte(loyaltyLedger.createdAt, span.start), lt(loyaltyLedger.createdAt, span.end)))
    .groupBy(sql`1`);
}

/**
 * The points outstanding at `now` (what the lots not yet past their date hold: every balance, a
 * negative one as 0) and, of them, what expires within 30, 60 and 90 days (lots with no expiry
 * never do).
 */
export async function outstandingPoints(db: Executor, now: Date) {
  const within = (days: number) =>
    int(
      sql`sum(${loyaltyLots.remaining}) filter (where ${loyaltyLots.expiresAt} < ${now.toISOString()}::timestamptz + make_interval(days => ${days}))`,
    );
  const [row] = await db
    .select({
      points: int(sql`sum(${loyaltyLots.remaining})`),
      within30Days: within(30),
      within60Days: within(60),
      within90Days: within(90),
    })
    .from(loyaltyLots)
    // A lot past its date is expired, whether or not the hourly expiry job has written it yet.
    .where(
      sql`${loyaltyLots.remaining} > 0 and (${loyaltyLots.expiresAt} is null or ${loyaltyLots.expiresAt} > ${now.toISOString()}::timestamptz)`,
    );
  return row ?? { points: 0, within30Days: 0, within60Days: 0, within90Days: 0 };
}

/**
 * Members per active tier at `now` (the tier rule of loyalty-rewards.repo.ts: the highest tier
 * the points earned in the last 365 days, earns minus their claims' reversals, reach), highest
 * first, then the members in none (tier null). One statement: per account, the window's earns
 * of claims and the reversals of those earns (a reversal comes after its earn, so it is in the window
 * too), summed apart and added; each total's tier is its bucket among the tiers' points to reach
 * (width_bucket: 0 below the lowest, null with no active tier). Each step is one pass: a tier looked up per member, or
 * every earn joined to its order's entries, each took longer than all the rest at 200,000 earns.
 */
export async function membersPerTier(db: Executor, now: Date): Promise<{ tier: string | null; members: number }[]> {
  const since = tierWindowStart(now).toISOString();
  const { rows } = (await db.execute(sql`
    with tiers as (
      select name, points_to_reach, row_number() over (order by points_to_reach) as bucket from ${loyaltyTiers} where active
    ), earned as (
      select account_id, sum(points) as points from ${loyaltyLedger}
      where kind = 'earn' and loyalty_order_id is not null and created_at >= ${since}::timestamptz
      group by account_id
    ), reversed as (
      select r.account_id, sum(r.points) as points from ${loyaltyLedger} r
      join ${loyaltyLedger} e on e.loyalty_order_id = r.loyalty_order_id and e.kind = 'earn'
      where r.kind = 'reversal' and r.loyalty_order_id is not null and r.created_at >= ${since}::timestamptz
        and e.created_at >= ${since}::timestamptz
      group by r.account_id
    ), counted as (
      select width_bucket(
               earned.points + coalesce(reversed.points, 0),
               (select array_agg(points_to_reach order by points_to_reach) from tiers)
             ) as bucket,
             count(*) as members
      from earned left join reversed using (account_id)
      group by 1
    )
    select t.name as tier, coalesce(c.members, 0) as members, t.points_to_reach as reach
    from tiers t left join counted c using (bucket)
    union all
    select null, (select count(*) from ${loyaltyAccounts}) - coalesce((select sum(members) from counted where bucket > 0), 0), null
    order by reach desc nulls last`)) as unknown as { rows: { tier: string | null; members: number | string }[] };
  return rows.map((row) => ({ tier: row.tier, members: Number(row.members) }));
}
