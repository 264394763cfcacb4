// Writes of the point-of-sale feed: food and beverage checks.
import type { Executor } from '@boardwalk/db/client';
import { checks } from '@boardwalk/db/schema';
import { upsertWholeRow } from '../whole-row.repo.ts';

export type CheckValues = Omit<typeof checks.$inferInsert, 'createdAt' | 'updatedAt'>;

export const upsertCheckRow = (db: Executor, values: CheckValues) => upsertWholeRow(db, checks, checks.checkId, values);
