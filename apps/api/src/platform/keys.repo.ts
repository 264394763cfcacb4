import { eq } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { serverKeys } from '@boardwalk/db/schema';

/** The key stored under this name, created from `generate()` if there is none yet (race-safe). */
export async function findOrCreateServerKey(db: Executor, name: string, generate: () => string): Promise<string> {
  await db.insert(serverKeys).values({ name, value: generate() }).onConflictDoNothing();
  const [row] = await db.select({ value: serverKeys.value }).from(serverKeys).where(eq(serverKeys.name, name));
  return row!.value;
}
