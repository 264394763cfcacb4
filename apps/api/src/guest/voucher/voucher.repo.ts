// Reads behind the voucher: the holder photo the ticket's lookup named.
import { eq } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { photos } from '@boardwalk/db/schema';

/** The photo's PNG form (RGB, as the photo feature stores it), or null. */
export async function findPhotoPng(db: Executor, uid: string): Promise<Buffer | null> {
  const rows = await db.select({ png: photos.png }).from(photos).where(eq(photos.uid, uid)).limit(1);
  return rows[0]?.png ?? null;
}
