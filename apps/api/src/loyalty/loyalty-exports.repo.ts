// The loyalty club's exports, a page at a time by key (platform/csv-stream.ts): the members
// with their balance and tier now, and the ledger's entries written between two instants.
import { and, asc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { pickColumns } from '@boardwalk/db/sql';
import { loyaltyAccounts, loyaltyLedger } from '@boardwalk/db/schema';
import type { InstantSpan } from '../platform/park-time.ts';
import { balanceFromSum } from './loyalty.repo.ts';
import { tierNameSql, tierWindowStart } from './loyalty-rewards.repo.ts';

/** Members after this account id (by id), with their balance and their tier at `now`. */
export function membersPage(db: Executor, now: Date, after: string | null, limit: number) {
  const a = loyaltyAccounts;
  return db
    .select({
      ...pickColumns(a, 'id', 'memberNumber', 'email', 'firstName', 'lastName', 'phone', 'zip', 'createdAt'),
      // The balance by the (account, id) index; the account's id named with its table (a bare
      // "id" inside the subquery would be the ledger's).
      balance: sql`(select coalesce(sum(l.points), 0)::bigint::text from ${loyaltyLedger} l where l.account_id = ${a}.id)`.mapWith(
        balanceFromSum,
      ),
      tier: tierNameSql(a.id, tierWindowStart(now)),
    })
    .from(a)
    .where(after === null ? undefined : gt(a.id, after))
    .orderBy(asc(a.id))
    .limit(limit);
}
export type MemberExportRow = Awaited<ReturnType<typeof membersPage>>[number];

/** Ledger entries written in the span, after this entry id (by id), with their member's number. */
export function ledgerPage(db: Executor, span: InstantSpan, after: number | null, limit: number) {
  const l = loyaltyLedger;
  return db
    .select({
      ...pickColumns(l, 'id', 'createdAt', 'kind', 'points', 'reason', 'sourceType', 'sourceId', 'causedBy', 'staffMember'),
      memberNumber: loyaltyAccounts.memberNumber,
    })
    .from(l)
    .innerJoin(loyaltyAccounts, eq(loyaltyAccounts.id, l.accountId))
    .where(and(gte(l.createdAt, span.start), lt(l.createdAt, span.end), after === null ? undefined : gt(l.id, after)))
    .orderBy(asc(l.id))
    .limit(limit);
}
export type LedgerExportRow = Awaited<ReturnType<typeof ledgerPage>>[number];
