// What a loyalty member's pass shows, read from the loyalty club's tables: the account and
// its balance, the sum of its ledger (the ledger is the truth; nothing keeps a balance).
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyAccounts, loyaltyLedger } from '@boardwalk/db/schema';

/**
 * The ledger's sum as a number: summed as bigint (a balance past 2^31 is no error) and read
 * as text, exact up to 2^53, which no ledger of 32-bit entries reaches in practice; past it,
 * the nearest safe integer.
 */
export function balanceFromSum(sum: string): number {
  const n = BigInt(sum);
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(n > max ? max : n < -max ? -max : n);
}

export async function findLoyaltyMember(db: Executor, accountId: string) {
  const rows = await db
    .select({
      id: loyaltyAccounts.id,
      email: loyaltyAccounts.email,
      firstName: loyaltyAccounts.firstName,
      lastName: loyaltyAccounts.lastName,
      memberNumber: loyaltyAccounts.memberNumber,
      balance: sql<number>`coalesce(sum(${loyaltyLedger.points}), 0)::bigint::text`.mapWith(balanceFromSum),
    })
    .from(loyaltyAccounts)
    .leftJoin(loyaltyLedger, eq(loyaltyLedger.accountId, loyaltyAccounts.id))
    .where(eq(loyaltyAccounts.id, accountId))
    .groupBy(loyaltyAccounts.id);
  return rows[0] ?? null;
}

export type LoyaltyMember = NonNullable<Awaited<ReturnType<typeof findLoyaltyMember>>>;
