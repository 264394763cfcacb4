// Proof of delivery of Apple pushes: the deliveries rows of apple-push, as the devices answer
// them. After a push (APNs accepted: 'sent') the device asks the PassKit web service which of
// its passes changed (naming itself) and then fetches each one (naming only the pass): the
// first call marks its pushes listed, the fetch (200 with the new tag) marks the pushes of the
// device that listed the pass first 'fetched'. Only that fetch, made with the pass's own
// authentication token, proves anything: the listing carries no token (Apple's protocol), so
// anyone knowing a device id could send one, and a listing answered 204 proves nothing. The
// staff Deliveries tab reads the figures.
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { appleDeviceRegistrations, deliveries } from '@boardwalk/db/schema';
import type { DeliveryState } from '@boardwalk/contract/deliveries';
import { nowOr } from '@boardwalk/db/sql';

/** A push accepted by APNs is counted as not fetched when its device has not fetched the pass this long after. */
export const FETCH_EXPECTED_WITHIN_MS = 60 * 60 * 1000;
/** A device is reported once this many of its pushes in a row (for one pass) went unfetched. */
export const SILENT_DEVICE_PUSHES = 3;
/** How far back the unfetched pushes of a silent device are looked for. */
const SILENT_DEVICE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const isApplePush = and(eq(deliveries.target, 'apple'), isNotNull(deliveries.serialNumber));

/**
 * A push waits for its device's fetch from the moment it is queued: the device may list and
 * fetch the pass (pushed by an earlier push) before this one's send is recorded, or while it
 * is retried. 'fetched' is never overwritten by a later try (recordAttempts).
 */
const WAITING_STATES: DeliveryState[] = ['queued', 'retrying', 'sent'];
/**
 * Marks pushes fetched now (or at `at`, a past time: the demo's history). One that was not yet
 * recorded as sent (the device had the pass from an earlier push before APNs answered for this
 * one) counts as sent at its fetch, so its push-to-fetch latency is 0, never negative.
 */
const markFetched = (at?: Date) => ({
  state: 'fetched' as const,
  fetchedAt: nowOr(at),
  sentAt: sql`coalesce(${deliveries.sentAt}, ${nowOr(at)})`,
});

/**
 * The device asked for its updated passes and was given these (at `at`, a past time: the demo's
 * history): its pushes of them waiting for a fetch are marked listed.
 */
export async function recordPushesListed(db: Executor, deviceLibraryIdentifier: string, serialNumbers: string[], at?: Date): Promise<void> {
  if (serialNumbers.length === 0) return;
  await db
    .update(deliveries)
    .set({ listedAt: nowOr(at) })
    .where(
      and(
        inArray(deliveries.serialNumber, serialNumbers),
        eq(deliveries.deviceLibraryIdentifier, deviceLibraryIdentifier),
        inArray(deliveries.state, WAITING_STATES),
        isNull(deliveries.listedAt),
      ),
    );
}

/**
 * A device fetched the pass (200, the pass as of `passUpdatedAt`). The fetch names no device,
 * so it is credited to the device that listed the pass first among those with listed pushes
 * waiting: each of its pushes announcing this tag or an older one is 'fetched' now. How many
 * were marked. Fetches of one pass take turns (a transaction advisory lock on the serial
 * number), so two devices fetching at once are credited one each, in listing order. `at`: a
 * past time of the fetch (the demo's history), else now.
 */
export async function recordPushesFetched(db: Executor, serialNumber: string, passUpdatedAt: Date, at?: Date): Promise<number> {
  const waiting = and(
    eq(deliveries.serialNumber, serialNumber),
    inArray(deliveries.state, WAITING_STATES),
    isNotNull(deliveries.listedAt),
    lte(deliveries.passUpdatedAt, passUpdatedAt),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('boardwalk.apple-push-fetch'), hashtext(${serialNumber}))`);
    const device = tx
      .select({ device: deliveries.deviceLibraryIdentifier })
      .from(deliveries)
      .where(waiting)
      .orderBy(asc(deliveries.listedAt))
      .limit(1);
    const rows = await tx
      .update(deliveries)
      .set(markFetched(at))
      .where(and(waiting, eq(deliveries.deviceLibraryIdentifier, device)))
      .returning({ id: deliveries.id });
    return rows.length;
  });
}

export interface ApplePushFigures {
  /** The window's start: 24 hours before `now`. */
  since: Date;
  /** Pushes APNs accepted in the 24 hours before `now`. */
  sent: number;
  /** ...of which the device then fetched the pass. */
  fetched: number;
  /** ...sent over an hour before `now` and not fetched within the hour. */
  notFetchedAfterHour: number;
  /** Push-to-fetch latency of the fetched ones, in seconds (null when none). */
  p50Seconds: number | null;
  p95Seconds: number | null;
}

/** The last 24 hours of Apple pushes as of `now`; `expectedWithinMs` is FETCH_EXPECTED_WITHIN_MS but in tests. */
export async function applePushFigures(db: Executor, now: Date, expectedWithinMs = FETCH_EXPECTED_WITHIN_MS): Promise<ApplePushFigures> {
  const since = new Date(now.getTime() - DAY_MS);
  const hourAgo = new Date(now.getTime() - expectedWithinMs);
  const latency = sql`extract(epoch from ${deliveries.fetchedAt} - ${deliveries.sentAt})`;
  const expectedWithin = sql`make_interval(secs => ${expectedWithinMs / 1000})`;
  const fetched = sql`${deliveries.fetchedAt} is not null`;
  const [row] = await db
    .select({
      sent: sql<number>`count(*)`.mapWith(Number),
      fetched: sql<number>`count(*) filter (where ${fetched})`.mapWith(Number),
      notFetchedAfterHour: sql<number>`count(*) filter (where ${lte(deliveries.sentAt, hourAgo)}
        and (${deliveries.fetchedAt} is null or ${deliveries.fetchedAt} > ${deliveries.sentAt} + ${expectedWithin}))`.mapWith(Number),
      p50: sql<string | null>`percentile_cont(0.5) within group (order by ${latency}) filter (where ${fetched})`,
      p95: sql<string | null>`percentile_cont(0.95) within group (order by ${latency}) filter (where ${fetched})`,
    })
    .from(deliveries)
    .where(and(isApplePush, gt(deliveries.sentAt, since), lte(deliveries.sentAt, now)));
  const seconds = (value: string | number | null | undefined) => (value == null ? null : Math.round(Number(value) * 10) / 10);
  return {
    since,
    sent: row?.sent ?? 0,
    fetched: row?.fetched ?? 0,
    notFetchedAfterHour: row?.notFetchedAfterHour ?? 0,
    p50Seconds: seconds(row?.p50),
    p95Seconds: seconds(row?.p95),
  };
}

export interface SilentDevice {
  /** The device, masked as its deliveries show it. */
  recipient: string;
  barcode: string | null;
  /** Its pushes in a row, each accepted by APNs over an hour ago, with no fetch since. */
  unfetchedPushes: number;
  lastPushAt: Date;
}

/**
 * Registered devices whose last SILENT_DEVICE_PUSHES or more pushes of a pass (in the last 7
 * days, each over an hour old) were never followed by a fetch: at most 50, latest first.
 */
export async function findSilentDevices(db: Executor, now: Date): Promise<SilentDevice[]> {
  const hourAgo = new Date(now.getTime() - FETCH_EXPECTED_WITHIN_MS);
  const since = new Date(now.getTime() - SILENT_DEVICE_WINDOW_MS);
  const rows = await db
    .select({
      recipient: sql<string>`min(${deliveries.recipient})`,
      barcode: sql<string | null>`min(${deliveries.barcode})`,
      unfetchedPushes: sql<number>`count(*)`.mapWith(Number),
      lastPushAt: sql<Date>`max(${deliveries.sentAt})`.mapWith(deliveries.sentAt),
    })
    .from(deliveries)
    .innerJoin(
      appleDeviceRegistrations,
      and(
        eq(appleDeviceRegistrations.serialNumber, deliveries.serialNumber),
        eq(appleDeviceRegistrations.deviceLibraryIdentifier, deliveries.deviceLibraryIdentifier),
      ),
    )
    .where(
      and(
        isApplePush,
        eq(deliveries.state, 'sent'),
        gt(deliveries.sentAt, since),
        lte(deliveries.sentAt, hourAgo),
        // Only the pushes after the device's last fetch of the pass: a fetch ends the row.
        sql`not exists (select 1 from ${deliveries} f where f.serial_number = ${deliveries.serialNumber}
          and f.device_library_identifier = ${deliveries.deviceLibraryIdentifier}
          and f.state = 'fetched' and f.sent_at > ${deliveries.sentAt})`,
      ),
    )
    .groupBy(deliveries.serialNumber, deliveries.deviceLibraryIdentifier)
    .having(sql`count(*) >= ${SILENT_DEVICE_PUSHES}`)
    .orderBy(sql`max(${deliveries.sentAt}) desc`)
    .limit(50);
  return rows;
}
