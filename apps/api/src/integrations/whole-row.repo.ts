// The feeds resend whole resources, most often unchanged: an idempotent upsert of one row
// by its key that writes only when a column differs (so updated_at moves only on change).
// Run it in a transaction: the existing row stays locked until the caller commits.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { UpsertOutcome } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { differs } from './row-diff.ts';

type KeyedTable = PgTable & { updatedAt: PgColumn };

export async function upsertWholeRow<T extends KeyedTable>(
  tx: Executor,
  table: T,
  key: PgColumn,
  values: T['$inferInsert'],
): Promise<UpsertOutcome> {
  const keyName = Object.entries(getTableColumns(table)).find(([, column]) => column === key)![0];
  const keyValue = (values as Record<string, unknown>)[keyName];
  const inserted = await tx.insert(table).values(values).onConflictDoNothing({ target: key }).returning({ key });
  if (inserted.length > 0) return 'created';
  const [current] = await tx
    .select()
    .from(table as PgTable)
    .where(eq(key, keyValue))
    .for('update');
  if (current && !differs(current, values as Record<string, unknown>)) return 'unchanged';
  await tx
    .update(table)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(key, keyValue));
  return 'replaced';
}
