// Reads and writes of the point-of-sale feed: food and beverage checks.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { checks } from '@boardwalk/db/schema';

export type CheckRow = typeof checks.$inferSelect;
export type CheckValues = Omit<typeof checks.$inferInsert, 'createdAt' | 'updatedAt'>;

/** Inserts the check unless one with its id exists; true when it was inserted. */
export async function insertCheckIfAbsent(db: Executor, values: CheckValues): Promise<boolean> {
  const rows = await db.insert(checks).values(values).onConflictDoNothing({ target: checks.checkId }).returning({ checkId: checks.checkId });
  return rows.length > 0;
}

/** The check, locked until the transaction ends. */
export async function findCheckForUpdate(db: Executor, checkId: string): Promise<CheckRow | null> {
  const rows = await db.select().from(checks).where(eq(checks.checkId, checkId)).for('update');
  return rows[0] ?? null;
}

export async function updateCheck(db: Executor, values: CheckValues): Promise<void> {
  const { checkId, ...changes } = values;
  await db.update(checks).set({ ...changes, updatedAt: sql`now()` }).where(eq(checks.checkId, checkId));
}
