// The park-wide waves (wallet_waves): a change every Apple pass shows, pushed to every device
// a page at a time; the newest wave's moment tells the PassKit web service that every pass
// may have changed since.
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, walletWaves } from '@boardwalk/db/schema';

export type Wave = typeof walletWaves.$inferSelect;

export async function insertWave(tx: Executor, reason: string): Promise<string> {
  const [row] = await tx.insert(walletWaves).values({ reason }).returning({ id: walletWaves.id });
  return row!.id;
}

/** The wave, and whether a newer one began since (which pushes every device again). */
export async function findWave(db: Executor, id: string): Promise<{ wave: Wave; superseded: boolean } | null> {
  const [row] = await db
    .select({
      wave: walletWaves,
      superseded: sql<boolean>`exists (select 1 from ${walletWaves} newer where newer.created_at > ${walletWaves.createdAt})`,
    })
    .from(walletWaves)
    .where(eq(walletWaves.id, id));
  return row ?? null;
}

/** The newest wave's moment, as the update tag PassKit hands out (microseconds; null: no wave yet). */
export async function findNewestWaveTag(db: Executor): Promise<string | null> {
  const [row] = await db
    .select({ tag: sql<string>`floor(extract(epoch from ${walletWaves.createdAt}) * 1000000)::bigint::text` })
    .from(walletWaves)
    .orderBy(desc(walletWaves.createdAt))
    .limit(1);
  return row?.tag ?? null;
}

/**
 * The next devices past `after` (in their identifiers' order) with the push token of their
 * latest registration: a device is pushed once, whatever number of passes it holds.
 */
export async function findDevicesAfter(db: Executor, after: string | null, limit: number) {
  return db
    .select({
      deviceLibraryIdentifier: appleDeviceRegistrations.deviceLibraryIdentifier,
      pushToken: sql<string>`(array_agg(${appleDeviceRegistrations.pushToken} order by ${appleDeviceRegistrations.updatedAt} desc))[1]`,
    })
    .from(appleDeviceRegistrations)
    .where(after === null ? undefined : gt(appleDeviceRegistrations.deviceLibraryIdentifier, after))
    .groupBy(appleDeviceRegistrations.deviceLibraryIdentifier)
    .orderBy(asc(appleDeviceRegistrations.deviceLibraryIdentifier))
    .limit(limit);
}

/** A page pushed: the cursor moves past it and its outcomes are added; `finished` ends the wave. */
export async function recordWavePage(
  db: Executor,
  id: string,
  page: { cursor: string | null; devices: number; pushed: number; unregistered: number; failed: number; finished: boolean },
) {
  await db
    .update(walletWaves)
    .set({
      cursor: page.cursor,
      devices: sql`${walletWaves.devices} + ${page.devices}`,
      pushed: sql`${walletWaves.pushed} + ${page.pushed}`,
      unregistered: sql`${walletWaves.unregistered} + ${page.unregistered}`,
      failed: sql`${walletWaves.failed} + ${page.failed}`,
      ...(page.finished && { finishedAt: sql`now()` }),
    })
    .where(and(eq(walletWaves.id, id), isNull(walletWaves.finishedAt)));
}
