// The lots: what each positive ledger entry gave, what is left of it and when it expires. Only
// the loyalty core writes them, under the account's row lock: points given open them
// (loyalty-credits.repo.ts), spends here take from them (appendLedger, the expiry job).
// Also what the expiry job's pass over time reads: the cards the clock changed, and how far it looked.
import { eventRowsInsert, insertEventsSql, type EventRow } from '../platform/events.ts';
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyCardClock, loyaltyLedger, loyaltyLots, loyaltyRedemptionLots } from '@boardwalk/db/schema';
import { expiringSoonUntil, pointsChangedEvents, type NewLedgerEntry } from './loyalty.repo.ts';
import { tierNameSql, tierWindowStart, type TierChange } from './loyalty-rewards.repo.ts';

/**
 * Writes a negative ledger entry (with its loyalty.points_changed event and `events`) and takes
 * its points from the account's lots, in one statement; answers how many it took (less when
 * the lots hold less). The order: the lot of `first` (a claim's, by its loyalty order; or the
 * lot an expiry names, the only one it takes from) first, then the oldest expiry (never last),
 * then the oldest lot. A redemption's entry records what it took from each lot
 * (loyalty_redemption_lots), so that its reversal gives the points back there. The caller holds
 * the account's lock.
 */
export async function spendLots(
  tx: Executor,
  first: { loyaltyOrderId: string | null; lotId: number | null },
  entry: NewLedgerEntry,
  events: EventRow[],
): Promise<number> {
  const { accountId } = entry;
  const points = -entry.points;
  const isFirst =
    first.lotId !== null
      ? sql`${loyaltyLots.id} = ${first.lotId}`
      : first.loyaltyOrderId !== null
        ? sql`${loyaltyLots.loyaltyOrderId} = ${first.loyaltyOrderId}`
        : sql`false`;
  const only = first.lotId !== null ? sql`and ${loyaltyLots.id} = ${first.lotId}` : sql``;
  // A data-modifying WITH runs whether or not the statement reads it (Drizzle puts the query it
  // embeds in parentheses). The entry's loyalty.points_changed event is written with it: the
  // balance it leaves is the ledger's sum before this statement and the entry.
  const told = sql`(select entry.*, (select coalesce(sum(${loyaltyLedger.points}), 0) from ${loyaltyLedger}
    where ${loyaltyLedger.accountId} = entry.account_id) + entry.points as balance from entry)`;
  const more = events.length > 0 ? sql`more as ${eventRowsInsert(tx, events)}, ` : sql``;
  const kept =
    entry.kind === 'redemption' && entry.redemptionId
      ? sql`, kept as (insert into ${loyaltyRedemptionLots} (redemption_id, lot_id, points)
          select ${entry.redemptionId}::uuid, id, take from spent)`
      : sql``;
  const writing = sql`entry as ${tx.insert(loyaltyLedger).values(entry).returning()},
        told as (${insertEventsSql(pointsChangedEvents(told))}), ${more}`;
  const { rows } = (await tx.execute(sql`
    with ${writing}ordered as (
      select ${loyaltyLots.id} as id, ${loyaltyLots.remaining} as remaining,
             sum(${loyaltyLots.remaining}) over (order by (${isFirst}) desc, ${loyaltyLots.expiresAt} asc nulls last, ${loyaltyLots.id} asc)
               - ${loyaltyLots.remaining} as before
      from ${loyaltyLots}
      where ${loyaltyLots.accountId} = ${accountId} and ${loyaltyLots.remaining} > 0 ${only}
    ), taken as (
      select id, least(remaining, ${points} - before)::int as take from ordered where before < ${points}
    ), spent as (
      update ${loyaltyLots} set remaining = ${loyaltyLots.remaining} - taken.take
      from taken where ${loyaltyLots.id} = taken.id
      returning taken.id, taken.take
    )${kept}
    select coalesce(sum(take), 0)::int as taken from spent`)) as unknown as { rows: { taken: number | string }[] };
  return Number(rows[0]!.taken);
}

/** What a redemption took from each lot, with the lot's dates (none for a redemption made before they were recorded). */
export function findRedemptionLots(tx: Executor, redemptionId: string) {
  return tx
    .select({
      lotId: loyaltyLots.id,
      points: loyaltyRedemptionLots.points,
      earnedAt: loyaltyLots.earnedAt,
      expiresAt: loyaltyLots.expiresAt,
    })
    .from(loyaltyRedemptionLots)
    .innerJoin(loyaltyLots, eq(loyaltyLots.id, loyaltyRedemptionLots.lotId))
    .where(eq(loyaltyRedemptionLots.redemptionId, redemptionId))
    .orderBy(asc(loyaltyLots.expiresAt), asc(loyaltyLots.id));
}

/**
 * Points given back to the lots they came from, in one statement: the entries (a reversal's,
 * and the expiry of what came back after its date), each with its loyalty.points_changed event
 * (the balance each leaves, from `balanceBefore`), and the lots' remainders raised by `restores`.
 * The entries open no lot. The caller holds the account's lock.
 */
export async function writeRestoringLots(
  tx: Executor,
  entries: NewLedgerEntry[],
  balanceBefore: number,
  restores: { lotId: number; points: number }[],
): Promise<void> {
  const told = sql`(select entry.*, ${balanceBefore}::bigint + sum(entry.points) over (order by entry.id) as balance from entry)`;
  const restored =
    restores.length > 0
      ? sql`, restored as (update ${loyaltyLots} set remaining = ${loyaltyLots.remaining} + r.points
          from (values ${sql.join(
            restores.map((r) => sql`(${r.lotId}::bigint, ${r.points}::int)`),
            sql`, `,
          )}) r(id, points) where ${loyaltyLots.id} = r.id)`
      : sql``;
  await tx.execute(sql`
    with entry as ${tx.insert(loyaltyLedger).values(entries).returning()},
    told as (${insertEventsSql(
      sql`select * from (${pointsChangedEvents(told)}) e(type, subject, data, system) order by (data->'entry'->>'id')::bigint`,
    )})${restored}
    select 1`);
}

/** Accounts with a lot whose date has come and that still holds points, at most `limit`. */
export async function findAccountsWithDueLots(db: Executor, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ accountId: loyaltyLots.accountId })
    .from(loyaltyLots)
    .where(and(gt(loyaltyLots.remaining, 0), lte(loyaltyLots.expiresAt, now)))
    .groupBy(loyaltyLots.accountId)
    .limit(limit);
  return rows.map((r) => r.accountId);
}

/** An account's lots whose date has come and that still hold points (the caller holds the account's lock). */
export function findDueLots(tx: Executor, accountId: string, now: Date) {
  return tx
    .select({ id: loyaltyLots.id, remaining: loyaltyLots.remaining, earnedAt: loyaltyLots.earnedAt })
    .from(loyaltyLots)
    .where(and(eq(loyaltyLots.accountId, accountId), gt(loyaltyLots.remaining, 0), lte(loyaltyLots.expiresAt, now)))
    .orderBy(asc(loyaltyLots.id));
}

/** Accounts with a lot expiring by `until` (and not yet expired by `now`) that holds points and was not reminded, at most `limit`. */
export async function findAccountsToRemind(db: Executor, now: Date, until: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ accountId: loyaltyLots.accountId })
    .from(loyaltyLots)
    .where(toRemind(now, until))
    .groupBy(loyaltyLots.accountId)
    .limit(limit);
  return rows.map((r) => r.accountId);
}

const toRemind = (now: Date, until: Date) =>
  and(gt(loyaltyLots.remaining, 0), isNull(loyaltyLots.remindedAt), gt(loyaltyLots.expiresAt, now), lte(loyaltyLots.expiresAt, until));

/**
 * Marks the account's lots to remind as reminded and answers their remainders and dates: a lot
 * is marked once (the column is set only where it is empty), so it is named in one reminder
 * only, however many runs meet it.
 */
export async function markLotsReminded(tx: Executor, accountId: string, now: Date, until: Date) {
  const lots = await tx
    .update(loyaltyLots)
    .set({ remindedAt: sql`now()` })
    .where(and(eq(loyaltyLots.accountId, accountId), toRemind(now, until)))
    .returning({ remaining: loyaltyLots.remaining, expiresAt: loyaltyLots.expiresAt });
  return lots.map((lot) => ({ remaining: lot.remaining, expiresAt: lot.expiresAt! }));
}

/** The member a reminder goes to. */
export async function findReminderRecipient(tx: Executor, accountId: string) {
  const [row] = await tx
    .select({ email: loyaltyAccounts.email, firstName: loyaltyAccounts.firstName, language: loyaltyAccounts.language })
    .from(loyaltyAccounts)
    .where(eq(loyaltyAccounts.id, accountId));
  return row ?? null;
}

/** An account's lots, newest first, with the entry that opened each and the points its expiry took (0: none). */
export function findLotsOfAccount(db: Executor, accountId: string) {
  return db
    .select({
      lot: loyaltyLots,
      kind: loyaltyLedger.kind,
      reason: loyaltyLedger.reason,
      expired: sql<number>`coalesce((select -e.points from ${loyaltyLedger} e where e.lot_id = ${loyaltyLots.id} and e.kind = 'expired'), 0)::int`,
    })
    .from(loyaltyLots)
    .innerJoin(loyaltyLedger, eq(loyaltyLedger.id, loyaltyLots.entryId))
    .where(eq(loyaltyLots.accountId, accountId))
    .orderBy(sql`${loyaltyLots.id} desc`);
}

/** The moment up to which the member cards that time changes were published; null before the first pass. */
export async function findCardsCheckedUntil(db: Executor): Promise<Date | null> {
  const [row] = await db.select({ at: loyaltyCardClock.checkedUntil }).from(loyaltyCardClock);
  return row?.at ?? null;
}

/** Moves the moment on (never back: a run on a slower clock leaves it). */
export async function setCardsCheckedUntil(tx: Executor, at: Date): Promise<void> {
  await tx
    .insert(loyaltyCardClock)
    .values({ checkedUntil: at })
    .onConflictDoUpdate({
      target: loyaltyCardClock.id,
      set: { checkedUntil: sql`greatest(${loyaltyCardClock.checkedUntil}, excluded.checked_until)` },
    });
}

const iso = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * One page of the accounts whose member card time alone may have changed between `from` and
 * `to`: an earn left the tier window (written in [from - 365 days, to - 365 days)), or a lot
 * that still holds points entered the expiring-soon window (its date in (from + 30 days, to +
 * 30 days]). At most `limit` accounts with an id after `after`, in id order, each with whether
 * its card changed: a lot that entered always changes the amount expiring soon; an earn that
 * left changes the card only when the tier at `to` is not the tier at `from` (both counted on
 * today's tiers and ledger, so only the window's move differs); then `tierChange` says from
 * which tier to which (null when the tier stayed). The ledger's earned-at index and the lots'
 * expiring index find the candidates; a page is one statement.
 */
export async function findAccountsChangedByTime(
  db: Executor,
  span: { from: Date; to: Date },
  after: string | null,
  limit: number,
): Promise<{ accountId: string; changed: boolean; tierChange: TierChange | null }[]> {
  const left = { from: tierWindowStart(span.from), to: tierWindowStart(span.to) };
  const entered = { from: expiringSoonUntil(span.from), to: expiringSoonUntil(span.to) };
  const afterId = after === null ? sql`true` : sql`account_id > ${after}`;
  const { rows } = (await db.execute(sql`
    with candidates as (
      select ${loyaltyLedger.accountId} as account_id, true as earn_left from ${loyaltyLedger}
      where ${loyaltyLedger.kind} = 'earn' and ${loyaltyLedger.createdAt} >= ${iso(left.from)} and ${loyaltyLedger.createdAt} < ${iso(left.to)}
      union all
      select ${loyaltyLots.accountId}, false from ${loyaltyLots}
      where ${loyaltyLots.remaining} > 0 and ${loyaltyLots.expiresAt} > ${iso(entered.from)} and ${loyaltyLots.expiresAt} <= ${iso(entered.to)}
    ), page as (
      select account_id, bool_and(earn_left) as earn_left_only, bool_or(earn_left) as earn_left from candidates where ${afterId}
      group by account_id order by account_id limit ${limit}
    ), tiers as (
      select account_id, earn_left_only,
        case when earn_left then ${tierNameSql(sql`page.account_id`, left.from)} end as tier_from,
        case when earn_left then ${tierNameSql(sql`page.account_id`, left.to)} end as tier_to
      from page
    )
    select tiers.account_id as "accountId", not earn_left_only or tier_from is distinct from tier_to as changed,
      case when tier_from is distinct from tier_to then
        jsonb_build_object('memberNumber', ${loyaltyAccounts.memberNumber}, 'from', tier_from, 'to', tier_to) end as "tierChange"
    from tiers join ${loyaltyAccounts} on ${loyaltyAccounts.id} = tiers.account_id
    order by tiers.account_id`)) as unknown as { rows: { accountId: string; changed: boolean; tierChange: TierChange | null }[] };
  return rows;
}
