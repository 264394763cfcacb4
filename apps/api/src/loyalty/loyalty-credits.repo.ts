// Points given, in one statement: the positive ledger entries (a claim's earns with the claimed
// purchases themselves, a raise, a redemption given back), a lot for each, their
// loyalty.points_changed events and the loyalty.tier_changed of each member whose earns move
// their tier. One round trip where the steps one by one took six or seven: a claim is the
// club's busiest write. The caller holds the lock of every account the entries name.
//
// Every part of a statement reads the tables as they were before it, so the balance, the lots'
// remainder and the points earned are the ones before these entries; what the entries add is
// worked out from the entries themselves.
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import {
  integrationEvents,
  loyaltyAccounts,
  loyaltyLedger,
  loyaltyLots,
  loyaltyOrders,
  walletPassIssued,
  walletPasses,
} from '@boardwalk/db/schema';
import { balanceFromSum, pointsChangedEvents, type NewLedgerEntry, type NewLoyaltyOrder } from './loyalty.repo.ts';
import { earnedSinceSql, tierNameAtSql, tierWindowStart } from './loyalty-rewards.repo.ts';

/** What comes with the entries: their lots' lifetime in months (0: never expire), the time. */
export interface CreditsWith {
  months: number;
  now: Date;
}

/**
 * The WITH list that follows `entry` (the ledger rows just written): each entry's lot, of which
 * what a negative balance owes is repaid first (the lots hold max(balance, 0), so held minus
 * balance is owed), oldest entry first; then one insert of the events in order: each entry's
 * loyalty.points_changed with the balance it left, then the tier moves.
 *
 * The tier after is the tier before plus the entries' claim earns: a claim's earn is the first
 * entry of its loyalty order (each claim records a new one), so no reversal of that order
 * exists yet for the tier rule (earnedSinceSql) to count.
 */
function following(accountIds: string[], { months, now }: CreditsWith): SQL {
  const accounts = sql.join(
    [...new Set(accountIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const expiresAt = months > 0 ? sql`now() + make_interval(months => ${months})` : sql`null::timestamptz`;
  return sql`
    account as (
      select a.id, a.member_number,
        (select coalesce(sum(l.points), 0) from ${loyaltyLedger} l where l.account_id = a.id) as balance,
        (select coalesce(sum(lot.remaining), 0) from ${loyaltyLots} lot where lot.account_id = a.id and lot.remaining > 0) as held
      from ${loyaltyAccounts} a where a.id in (${accounts})
    ),
    written as (
      select e.*, a.balance + sum(e.points) over w as balance, a.held - a.balance - (sum(e.points) over w - e.points) as owed
      from entry e join account a on a.id = e.account_id
      window w as (partition by e.account_id order by e.id)
    ),
    lots as (
      insert into ${loyaltyLots} (account_id, entry_id, loyalty_order_id, points, repaid, remaining, expires_at)
      select account_id, id, case when kind = 'earn' then loyalty_order_id end, points, repaid, points - repaid, ${expiresAt}
      from (select written.*, least(points, greatest(owed, 0)) as repaid from written) w
      where points > 0 -- a free ticket of a claimed order earns nothing: it has an entry, not a lot
    ),
    earned as (
      select a.member_number, ${earnedSinceSql(sql`a.id`, tierWindowStart(now))} as before, n.points
      from account a join (
        select account_id, sum(points) as points from entry where kind = 'earn' and loyalty_order_id is not null group by account_id
      ) n on n.account_id = a.id
    ),
    moved as (
      select member_number, ${tierNameAtSql(sql`earned.before`)} as "from", ${tierNameAtSql(sql`earned.before + earned.points`)} as "to" from earned
    ),
    told as (
      insert into ${integrationEvents} (type, subject, data)
      select type, subject, data from (
        select 1 as part, (data->'entry'->>'id')::bigint as at, type, subject, data
        from (${pointsChangedEvents(sql`written`)}) points_changed(type, subject, data)
        union all select 2, 0, 'loyalty.tier_changed', 'member:' || member_number,
          jsonb_build_object('memberNumber', member_number, 'from', "from", 'to', "to")
        from moved where "from" is distinct from "to"
      ) events order by part, at
    )`;
}

/** Writes positive entries, their lots and their events, in one statement. */
export async function writeCredits(tx: Executor, entries: NewLedgerEntry[], credits: CreditsWith): Promise<void> {
  await tx.execute(sql`
    with entry as ${tx.insert(loyaltyLedger).values(entries).returning()},
    ${following(
      entries.map((entry) => entry.accountId),
      credits,
    )}
    select 1`);
}

/** A purchase to claim and the points it earns. */
export type ClaimEarning = NewLoyaltyOrder & { points: number };

/**
 * What a claim wrote: each purchase's loyalty order id and claim time, in order, and the
 * balance it left; and which of its accounts hold a wallet card (read after their locks).
 */
export interface ClaimWritten {
  orders: { id: string; claimedAt: Date }[];
  balance: number;
  cardHolders: string[];
}

/**
 * Writes a claim in one statement: the claimed purchases (the unique index of standing claims
 * refuses a purchase claimed meanwhile), an earn entry for each, in order, and what comes with
 * them (above).
 */
export async function writeClaims(
  tx: Executor,
  claims: ClaimEarning[],
  by: Pick<NewLedgerEntry, 'causedBy' | 'staffMember'>,
  credits: CreditsWith,
): Promise<ClaimWritten> {
  // `at` is typed: an untyped parameter is text, and text sorts 10 before 2.
  const earning = claims.map((claim, i) => sql`(${i}::int, ${claim.sourceType}, ${claim.sourceId}, ${claim.points}::int)`);
  const { rows } = (await tx.execute(sql`
    with claimed as ${tx
      .insert(loyaltyOrders)
      .values(claims.map(({ points: _, ...order }) => order))
      .returning()},
    earning(at, source_type, source_id, points) as (values ${sql.join(earning, sql`, `)}),
    entry as (
      insert into ${loyaltyLedger} (account_id, points, kind, reason, loyalty_order_id, source_type, source_id, caused_by, staff_member)
      select c.account_id, p.points, 'earn', 'claimed', c.id, c.source_type, c.source_id, ${by.causedBy}, ${by.staffMember ?? null}
      from claimed c join earning p on p.source_type = c.source_type and p.source_id = c.source_id
      order by p.at
      returning *
    ),
    ${following(
      claims.map((claim) => claim.accountId),
      credits,
    )}
    select c.id, to_json(c.claimed_at) #>> '{}' as claimed_at, (select balance from written order by id desc limit 1)::bigint::text as balance,
      c.account_id, exists (select 1 from ${walletPasses} where ${walletPasses.loyaltyAccountId} = c.account_id and ${walletPassIssued}) as card
    from claimed c join earning p on p.source_type = c.source_type and p.source_id = c.source_id
    order by p.at`)) as unknown as { rows: { id: string; claimed_at: string; balance: string; account_id: string; card: boolean }[] };
  return {
    orders: rows.map((row) => ({ id: row.id, claimedAt: new Date(row.claimed_at) })),
    balance: balanceFromSum(rows[0]!.balance),
    cardHolders: [...new Set(rows.filter((row) => row.card).map((row) => row.account_id))],
  };
}
