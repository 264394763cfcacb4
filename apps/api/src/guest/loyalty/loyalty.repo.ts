// The loyalty club's tables: accounts, loyalty orders (the claimed purchases) and the points
// ledger. The purchases themselves are read through the ticket core and the feeds' repos.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyLedger, loyaltyOrders } from '@boardwalk/db/schema';

export type AccountRow = typeof loyaltyAccounts.$inferSelect;
export type LoyaltyOrderRow = typeof loyaltyOrders.$inferSelect;
export type NewLoyaltyOrder = Omit<typeof loyaltyOrders.$inferInsert, 'id' | 'claimedAt' | 'reversedAt'>;
export type NewLedgerEntry = Omit<typeof loyaltyLedger.$inferInsert, 'id' | 'createdAt'>;

const byEmail = (email: string) => eq(sql`lower(${loyaltyAccounts.email})`, email.toLowerCase());

export async function findAccountIdByEmail(db: Executor, email: string): Promise<string | null> {
  const [row] = await db.select({ id: loyaltyAccounts.id }).from(loyaltyAccounts).where(byEmail(email)).limit(1);
  return row?.id ?? null;
}

/** The new account's id, or null when the email already has one (any case). */
export async function insertAccount(
  db: Executor,
  values: Pick<AccountRow, 'email' | 'firstName' | 'lastName' | 'createdBy' | 'createdAt'>,
): Promise<string | null> {
  const [row] = await db.insert(loyaltyAccounts).values(values).onConflictDoNothing().returning({ id: loyaltyAccounts.id });
  return row?.id ?? null;
}

/** The account, locked until the transaction ends: one claim at a time per account. */
export async function lockAccount(tx: Executor, id: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id)).for('update');
  return row ?? null;
}

export async function countLoyaltyOrders(tx: Executor, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(loyaltyOrders)
    .where(eq(loyaltyOrders.accountId, accountId));
  return row?.n ?? 0;
}

/** Which of these purchases are claimed now (a standing claim: not reversed), and by which account. */
export async function findStandingClaims(tx: Executor, sourceType: LoyaltyOrderType, sourceIds: string[]) {
  if (sourceIds.length === 0) return [];
  return tx
    .select({ sourceId: loyaltyOrders.sourceId, accountId: loyaltyOrders.accountId })
    .from(loyaltyOrders)
    .where(and(eq(loyaltyOrders.sourceType, sourceType), inArray(loyaltyOrders.sourceId, sourceIds), isNull(loyaltyOrders.reversedAt)));
}

export function insertLoyaltyOrders(tx: Executor, rows: NewLoyaltyOrder[]): Promise<LoyaltyOrderRow[]> {
  return tx.insert(loyaltyOrders).values(rows).returning();
}

export async function insertLedgerEntries(tx: Executor, rows: NewLedgerEntry[]): Promise<void> {
  if (rows.length > 0) await tx.insert(loyaltyLedger).values(rows);
}

/** An account's balance: the sum of its ledger. */
export async function balanceOf(db: Executor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ points: sql<string>`coalesce(sum(${loyaltyLedger.points}), 0)::bigint` })
    .from(loyaltyLedger)
    .where(eq(loyaltyLedger.accountId, accountId));
  return Number(row?.points ?? 0);
}

/** The standing claims of one purchase with the points each earned, locked until the transaction ends. */
export function lockStandingClaimsOfSource(tx: Executor, sourceType: LoyaltyOrderType, sourceId: string) {
  return tx
    .select({ id: loyaltyOrders.id, accountId: loyaltyOrders.accountId, earned: loyaltyLedger.points })
    .from(loyaltyOrders)
    .innerJoin(loyaltyLedger, and(eq(loyaltyLedger.loyaltyOrderId, loyaltyOrders.id), eq(loyaltyLedger.kind, 'earn')))
    .where(and(eq(loyaltyOrders.sourceType, sourceType), eq(loyaltyOrders.sourceId, sourceId), isNull(loyaltyOrders.reversedAt)))
    .for('update', { of: loyaltyOrders });
}

/** Marks a claim reversed; false when it already was (so its reversal is written once). */
export async function markReversed(tx: Executor, loyaltyOrderId: string): Promise<boolean> {
  const rows = await tx
    .update(loyaltyOrders)
    .set({ reversedAt: sql`now()` })
    .where(and(eq(loyaltyOrders.id, loyaltyOrderId), isNull(loyaltyOrders.reversedAt)))
    .returning({ id: loyaltyOrders.id });
  return rows.length > 0;
}
