// What Google Wallet was last sent of each ticket class (its content hash): a class is
// created once and replaced only when what it carries (the park's locations) changed.
import { inArray } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { googleWalletClasses } from '@boardwalk/db/schema';

export async function findClassHashes(db: Executor, classIds: string[]): Promise<Map<string, string>> {
  if (classIds.length === 0) return new Map();
  const rows = await db.select().from(googleWalletClasses).where(inArray(googleWalletClasses.classId, classIds));
  return new Map(rows.map((r) => [r.classId, r.contentHash]));
}

export async function saveClassHash(db: Executor, classId: string, contentHash: string) {
  await db
    .insert(googleWalletClasses)
    .values({ classId, contentHash })
    .onConflictDoUpdate({ target: googleWalletClasses.classId, set: { contentHash, updatedAt: new Date() } });
}
