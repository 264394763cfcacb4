// The park-wide waves (wallet_waves): a change every Apple pass shows, pushed to every device
// a page at a time; the newest wave's moment tells the PassKit web service that every pass
// may have changed since.
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, walletPasses, walletWaves } from '@boardwalk/db/schema';
import { microsecondTag } from '@boardwalk/db/sql';

export type Wave = typeof walletWaves.$inferSelect;

/**
 * A new wave, its id the job's (a retried job finds its wave again). Its moment is now, or just
 * after the latest pass's update tag when that is later (a tag may be a second ahead,
 * nextUpdatedAt): no device holds a tag at or past the wave, so every device sees every pass as
 * changed since (the PassKit service lists the passes of a tag strictly older than the wave).
 */
export async function insertWave(tx: Executor, id: string, reason: string): Promise<void> {
  await tx
    .insert(walletWaves)
    .values({
      id,
      reason,
      createdAt: sql`greatest(now(), (select max(${walletPasses.updatedAt}) + interval '1 microsecond' from ${walletPasses}))`,
    })
    .onConflictDoNothing();
}

/** The wave, and whether a newer one began since (which pushes every device again). */
export async function findWave(db: Executor, id: string): Promise<{ wave: Wave; superseded: boolean } | null> {
  const [row] = await db
    .select({
      wave: walletWaves,
      // Written out: Drizzle names a selected column without its table, which inside the subquery would be the newer row's.
      superseded: sql<boolean>`exists (select 1 from wallet_waves newer where newer.created_at > wallet_waves.created_at)`,
    })
    .from(walletWaves)
    .where(eq(walletWaves.id, id));
  return row ?? null;
}

/** The newest wave's moment, as the update tag PassKit hands out (microseconds; null: no wave yet). */
export async function findNewestWaveTag(db: Executor): Promise<string | null> {
  const [row] = await db
    .select({ tag: microsecondTag(walletWaves.createdAt) })
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

/**
 * A page pushed: the cursor moves from `from` past it and its outcomes are added; `finished`
 * ends the wave. False when the cursor is no longer `from` (another run of the wave moved it)
 * or the wave ended: the caller stops.
 */
export async function recordWavePage(
  db: Executor,
  id: string,
  from: string | null,
  page: { cursor: string | null; devices: number; pushed: number; unregistered: number; failed: number; finished: boolean },
): Promise<boolean> {
  const rows = await db
    .update(walletWaves)
    .set({
      cursor: page.cursor,
      devices: sql`${walletWaves.devices} + ${page.devices}`,
      pushed: sql`${walletWaves.pushed} + ${page.pushed}`,
      unregistered: sql`${walletWaves.unregistered} + ${page.unregistered}`,
      failed: sql`${walletWaves.failed} + ${page.failed}`,
      ...(page.finished && { finishedAt: sql`now()` }),
    })
    .where(and(eq(walletWaves.id, id), isNull(walletWaves.finishedAt), sql`${walletWaves.cursor} is not distinct from ${from}`))
    .returning({ id: walletWaves.id });
  return rows.length > 0;
}
