// Points given, in one statement: the positive ledger entries (a claim's earns with the claimed
// purchases themselves, a raise, a redemption given back), a lot for each, their
// loyalty.points_changed events and the loyalty.tier_changed of each member whose earns move
// their tier. One round trip where the steps one by one took six or seven: a claim is the
// club's busiest write. The caller holds the lock of every account the entries name.
//
// Every part of a statement reads the tables as they were before it, so the balance, the lots'
// remainder and the points earned are the ones before these entries; what the entries add is
// worked out from the entries themselves.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { preparedSql } from '@boardwalk/db/prepared';
import { loyaltyAccounts, loyaltyLedger, loyaltyLots, loyaltyOrders, walletPassIssued, walletPasses } from '@boardwalk/db/schema';
import { insertEventsSql } from '../platform/events.ts';
import { balanceFromSum, pointsChangedEvents, type NewLedgerEntry, type NewLoyaltyOrder } from './loyalty.repo.ts';
import { earnedSinceSql, tierNameAtSql, tierWindowStart } from './loyalty-rewards.repo.ts';

/** What comes with the entries: their lots' lifetime in months (0: never expire), the time. */
export interface CreditsWith {
  months: number;
  now: Date;
  /** A claim's time when it is a past day's (LedgerChanges.at); null: the transaction's. */
  at?: Date | null;
}

/**
 * The WITH list that follows `entry` (the ledger rows just written) for the accounts `accounts`
 * names (their ids, as SQL): each entry's lot, of which what a negative balance owes is repaid
 * first (the lots hold max(balance, 0), so held minus balance is owed), oldest entry first;
 * then one insert of the events in order: each entry's loyalty.points_changed with the balance
 * it left, then the tier moves. `months` and `since` (the start of the tier window) are values
 * or a prepared statement's placeholders.
 *
 * The tier after is the tier before plus the entries' claim earns: a claim's earn is the first
 * entry of its loyalty order (each claim records a new one), so no reversal of that order
 * exists yet for the tier rule (earnedSinceSql) to count.
 */
function following(accounts: SQL, months: number | Placeholder, since: Date | Placeholder): SQL {
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
      insert into ${loyaltyLots} (account_id, entry_id, loyalty_order_id, points, repaid, remaining, earned_at, expires_at)
      select account_id, id, case when kind in ('earn', 'bonus') then loyalty_order_id end, points, repaid, points - repaid, created_at,
        case when ${months}::int > 0 then created_at + make_interval(months => ${months}::int) end
      from (select written.*, least(points, greatest(owed, 0)) as repaid from written) w
      where points > 0 -- a free ticket of a claimed order earns nothing: it has an entry, not a lot
    ),
    earned as (
      select a.member_number, ${earnedSinceSql(sql`a.id`, since)} as before, n.points
      from account a join (
        select account_id, sum(points) as points from entry where kind = 'earn' and loyalty_order_id is not null group by account_id
      ) n on n.account_id = a.id
    ),
    -- materialized: each member's two tiers are worked out once, not again for the filter below
    moved as materialized (
      select member_number, ${tierNameAtSql(sql`earned.before`)} as "from", ${tierNameAtSql(sql`earned.before + earned.points`)} as "to" from earned
    ),
    told as (
      ${insertEventsSql(sql`select type, subject, data, system from (
        select 1 as part, (data->'entry'->>'id')::bigint as at, type, subject, data, system
        from (${pointsChangedEvents(sql`written`, sql`account`)}) points_changed(type, subject, data, system)
        union all select 2, 0, 'loyalty.tier_changed', 'member:' || member_number,
          jsonb_build_object('memberNumber', member_number, 'from', "from", 'to', "to"), null
        from moved where "from" is distinct from "to"
      ) events order by part, at`)}
    )`;
}

/** Writes positive entries, their lots and their events, in one statement. */
export async function writeCredits(tx: Executor, entries: NewLedgerEntry[], { months, now }: CreditsWith): Promise<void> {
  const accounts = sql.join(
    [...new Set(entries.map((entry) => entry.accountId))].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`
    with entry as ${tx.insert(loyaltyLedger).values(entries).returning()},
    ${following(accounts, months, tierWindowStart(now))}
    select 1`);
}

/** A purchase to claim and the points it earns, with a campaign's bonus on it (null: none). */
export type ClaimEarning = Omit<NewLoyaltyOrder, 'accountId'> & { points: number; bonus?: ClaimBonus | null };

/** A campaign's bonus on a claimed purchase: its own ledger entry, naming the campaign (its reason: the campaign's name). */
export interface ClaimBonus {
  points: number;
  campaignId: string;
  campaignName: string;
}

/**
 * What a claim wrote: each purchase's loyalty order id and claim time, in order, and the
 * balance it left; and whether the account holds a wallet card (read after its lock).
 */
export interface ClaimWritten {
  orders: { id: string; claimedAt: Date }[];
  balance: number;
  cardHolder: boolean;
}

const value = (name: string) => sql.placeholder(name);

/**
 * A claim's write (one account's), rendered once (prepared.ts) whatever the number of
 * purchases: they come as one JSON array, in order (`at`). jsonb_to_recordset, not unnest of
 * an array per column: PostgreSQL guesses a set-returning function's rows (100) the same with
 * or without its values, so it keeps one generic plan of the statement; unnest's guess follows
 * its array once the values are known, and PostgreSQL planned the statement anew at every
 * claim (0.83 ms). Then the claimed purchases (the unique index of standing claims refuses a
 * purchase claimed meanwhile), an earn entry for each and after it the campaign's bonus entry
 * where it has one, in order, and what comes with them (above).
 */
const claimStatement = preparedSql<{ id: string; claimed_at: string; balance: string; card: boolean }>(
  'write_claims',
  sql`
    with input as (
      select * from rows from (jsonb_to_recordset(${value('claims')}::jsonb) as (source_type text, source_id text,
        reference text, product text, amount numeric, purchased_at timestamptz, points int,
        bonus_points int, campaign_id uuid, campaign_name text))
        with ordinality as i(source_type, source_id, reference, product, amount, purchased_at, points,
          bonus_points, campaign_id, campaign_name, at)
    ),
    claimed as (
      insert into ${loyaltyOrders} (account_id, source_type, source_id, reference, product, amount, purchased_at, claimed_at)
      select ${value('accountId')}::uuid, source_type, source_id, reference, product, amount, purchased_at,
        coalesce(${value('at')}::timestamptz, now()) from input order by at
      returning *
    ),
    entry as (
      insert into ${loyaltyLedger} (account_id, points, kind, reason, loyalty_order_id, campaign_id, source_type, source_id, caused_by,
        staff_member, created_at)
      select c.account_id, e.points, e.kind, e.reason, c.id, e.campaign_id, c.source_type, c.source_id, ${value('causedBy')}::text,
        ${value('staffMember')}::text, c.claimed_at
      from claimed c join input i on i.source_type = c.source_type and i.source_id = c.source_id
      cross join lateral (values (0, i.points, 'earn', 'claimed', null::uuid), (1, i.bonus_points, 'bonus', i.campaign_name, i.campaign_id))
        e(n, points, kind, reason, campaign_id)
      where e.n = 0 or e.points > 0
      order by i.at, e.n
      returning *
    ),
    ${following(sql`${value('accountId')}::uuid`, value('months'), value('since'))}
    select c.id, to_json(c.claimed_at) #>> '{}' as claimed_at, (select balance from written order by id desc limit 1)::bigint::text as balance,
      exists (select 1 from ${walletPasses} where ${walletPasses.loyaltyAccountId} = c.account_id and ${walletPassIssued}) as card
    from claimed c join input i on i.source_type = c.source_type and i.source_id = c.source_id
    order by i.at`,
);

/** Writes a claim in one statement (claimStatement). */
export async function writeClaims(
  tx: Executor,
  accountId: string,
  claims: ClaimEarning[],
  by: Pick<NewLedgerEntry, 'causedBy' | 'staffMember'>,
  { months, now, at = null }: CreditsWith,
): Promise<ClaimWritten> {
  const rows = await claimStatement(tx, {
    claims: JSON.stringify(
      claims.map((claim) => ({
        source_type: claim.sourceType,
        source_id: claim.sourceId,
        reference: claim.reference,
        product: claim.product,
        amount: claim.amount,
        purchased_at: claim.purchasedAt.toISOString(),
        points: claim.points,
        bonus_points: claim.bonus?.points ?? null,
        campaign_id: claim.bonus?.campaignId ?? null,
        campaign_name: claim.bonus?.campaignName ?? null,
      })),
    ),
    accountId,
    causedBy: by.causedBy,
    staffMember: by.staffMember ?? null,
    months,
    since: tierWindowStart(now).toISOString(),
    at: at?.toISOString() ?? null,
  });
  return {
    orders: rows.map((row) => ({ id: row.id, claimedAt: new Date(row.claimed_at) })),
    balance: balanceFromSum(rows[0]!.balance),
    cardHolder: rows[0]!.card,
  };
}
