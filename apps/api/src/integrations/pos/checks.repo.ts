// The point-of-sale feed's checks: its writes, and the reads of the loyalty claims.
import { asc, eq, or, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@boardwalk/db/client';
import { checks } from '@boardwalk/db/schema';
import { upsertWholeRow } from '../whole-row.repo.ts';

export type CheckValues = Omit<typeof checks.$inferInsert, 'createdAt' | 'updatedAt'>;

export const upsertCheckRow = (db: Executor, values: CheckValues) => upsertWholeRow(db, checks, checks.checkId, values);

/**
 * The checks with this number, or whose receipt code it is, share-locked: a refund waits for a
 * claim reading them. With the columns `also` gives for a check's id, read in the same statement.
 */
export function lockChecksByNumberOrCode<Also extends Record<string, SQL>>(
  tx: Executor,
  numberOrCode: string | Placeholder,
  also: (checkId: AnyPgColumn) => Also,
) {
  return tx
    .select({
      checkId: checks.checkId,
      checkNumber: checks.checkNumber,
      orderDate: checks.orderDate,
      terminalId: checks.terminalId,
      total: checks.total,
      refunded: checks.refunded,
      receiptCode: checks.receiptCode,
      ...also(checks.checkId),
    })
    .from(checks)
    .where(or(eq(checks.checkNumber, numberOrCode), eq(checks.receiptCode, numberOrCode)))
    .orderBy(asc(checks.orderDate), asc(checks.checkId))
    .for('share');
}

/** A check's refund flag, or null when there is no such check. */
export async function findCheckRefunded(tx: Executor, checkId: string): Promise<boolean | null> {
  const [row] = await tx.select({ refunded: checks.refunded }).from(checks).where(eq(checks.checkId, checkId));
  return row ? row.refunded : null;
}
