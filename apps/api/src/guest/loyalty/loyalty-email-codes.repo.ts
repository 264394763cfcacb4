// The loyalty emails' one-time codes: one row per email (keyed hashes only), replaced by a new
// code, spent by its proof, tried at most LOYALTY_EMAIL_CODE.tries times.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { loyaltyEmailCodes } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';

/** Keeps the email's new code, replacing any earlier one (its tries start again). */
export async function putEmailCode(tx: Executor, row: { emailHash: string; codeHash: string; expiresAt: Date }): Promise<void> {
  await tx
    .insert(loyaltyEmailCodes)
    .values(row)
    .onConflictDoUpdate({
      target: loyaltyEmailCodes.emailHash,
      set: { codeHash: row.codeHash, expiresAt: row.expiresAt, tries: 0, createdAt: sql`now()` },
    });
}

/**
 * Takes one try of the email's code, atomically: its hash when a code is there, not expired and
 * tried fewer than `maxTries` times; null otherwise (none, expired or used up).
 */
export async function takeCodeTry(db: Executor, emailHash: string, maxTries: number, now: Date): Promise<string | null> {
  const [row] = await db
    .update(loyaltyEmailCodes)
    .set({ tries: sql`${loyaltyEmailCodes.tries} + 1` })
    .where(and(eq(loyaltyEmailCodes.emailHash, emailHash), gt(loyaltyEmailCodes.expiresAt, now), lt(loyaltyEmailCodes.tries, maxTries)))
    .returning({ codeHash: loyaltyEmailCodes.codeHash });
  return row?.codeHash ?? null;
}

/** Spends the code (its proof): false when another proof of it spent it first. */
export async function spendCode(db: Executor, emailHash: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .delete(loyaltyEmailCodes)
    .where(and(eq(loyaltyEmailCodes.emailHash, emailHash), eq(loyaltyEmailCodes.codeHash, codeHash)))
    .returning({ emailHash: loyaltyEmailCodes.emailHash });
  return rows.length > 0;
}

/** Retention: a code goes a day after it expired. */
export const emailCodeRetention = deleteRule(
  'loyalty email codes',
  () => 1,
  loyaltyEmailCodes,
  (cutoff) => lt(loyaltyEmailCodes.expiresAt, cutoff),
);
