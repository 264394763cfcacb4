// The deliveries table: one row per outbound delivery, as the Deliveries tab shows it.
import { and, count, eq, gte, inArray, lt, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { deliveries } from '@boardwalk/db/schema';
import { DELIVERY_STATES, FAILED_DELIVERY_STATES, type DeliveryState, type DeliveryTarget } from '@boardwalk/contract/deliveries';
import { operatingDaySql, type InstantSpan } from '../park-time.ts';
import { nowOr, stampedAt, uuidArray } from '@boardwalk/db/sql';

/** What an Apple push announces: the pass, the device, and the pass's update tag. */
export interface ApplePushTrack {
  serialNumber: string;
  deviceLibraryIdentifier: string;
  passUpdatedAt: Date;
}

/** A new delivery; `at`: a past time it was queued at (the demo's history), else now. */
export async function insertDelivery(
  db: Executor,
  {
    at,
    ...values
  }: {
    id: string;
    target: DeliveryTarget;
    barcode: string | null;
    recipient: string;
    queue: string;
    payload: object;
    jobId: string;
    at?: Date | undefined;
  } & Partial<ApplePushTrack>,
) {
  await db.insert(deliveries).values({ ...values, ...stampedAt(at) });
}

/** One more try of a delivery, and how it went (with Google's object version when it reports one). */
export interface Attempt {
  id: string;
  state: DeliveryState;
  lastError: string | null;
  objectVersion?: string | null | undefined;
}

/**
 * One more try of each delivery, and how it went, in one statement; a delivered one gets its
 * first delivered time (and Google's object version). A push whose device already fetched the
 * pass stays 'fetched' whatever a later try of it says (the device has the update). The ids
 * come again as an array (uuidArray): PostgreSQL guesses 100 rows for jsonb_to_recordset and,
 * on a table of some thousands of deliveries, read all of them to join (5 of 11 ms for a batch
 * of 250); with the array it probes the primary key. `at`: a past time they were tried at (the
 * demo's history), else now.
 */
export async function recordAttempts(db: Executor, attempts: Attempt[], at?: Date) {
  if (attempts.length === 0) return;
  const tried = attempts.map((a) => ({ ...a, hasVersion: a.objectVersion !== undefined, objectVersion: a.objectVersion ?? null }));
  await db.execute(sql`
    update ${deliveries} d set
      state = t.state,
      last_error = t."lastError",
      object_version = case when t."hasVersion" then t."objectVersion" else d.object_version end,
      attempts = d.attempts + 1,
      updated_at = ${nowOr(at)},
      sent_at = case when t.state = 'sent' then coalesce(d.sent_at, ${nowOr(at)}) else d.sent_at end
    from jsonb_to_recordset(${JSON.stringify(tried)}::jsonb)
      as t(id uuid, state text, "lastError" text, "objectVersion" text, "hasVersion" boolean)
    where d.id = t.id and d.id = any(${uuidArray(tried.map((a) => a.id))}) and d.state <> 'fetched'`);
}

/** A failed or dead delivery, locked for a staff Retry. */
export async function findRetryableDelivery(db: Executor, id: string) {
  const rows = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.id, id), inArray(deliveries.state, FAILED_DELIVERY_STATES)))
    .for('update');
  return rows[0] ?? null;
}

export async function requeueDelivery(db: Executor, id: string, jobId: string) {
  await db
    .update(deliveries)
    .set({ state: 'queued', jobId, updatedAt: sql`now()` })
    .where(eq(deliveries.id, id));
}

/** How many deliveries are in each state. */
export async function countDeliveriesByState(db: Executor): Promise<Record<DeliveryState, number>> {
  const rows = await db
    .select({ state: deliveries.state, n: sql<number>`count(*)::int` })
    .from(deliveries)
    .groupBy(deliveries.state);
  const counts = Object.fromEntries(DELIVERY_STATES.map((state) => [state, 0])) as Record<DeliveryState, number>;
  for (const row of rows) counts[row.state as DeliveryState] = Number(row.n);
  return counts;
}

/** How many deliveries each target has in each state (the metrics). */
export async function countDeliveriesByTargetAndState(db: Executor) {
  const rows = await db
    .select({ target: deliveries.target, state: deliveries.state, n: sql<number>`count(*)::int` })
    .from(deliveries)
    .groupBy(deliveries.target, deliveries.state);
  return rows.map((r) => ({ target: r.target as DeliveryTarget, state: r.state as DeliveryState, count: Number(r.n) }));
}

/** Deliveries delivered (sent) and become dead per operating day of the park (the Dashboard). */
export async function deliveriesPerDay(db: Executor, span: InstantSpan, timeZone: string) {
  const inSpan = (column: AnyColumn) => and(gte(column, span.start), lt(column, span.end));
  const [sent, dead] = await Promise.all([
    db
      .select({ day: operatingDaySql(deliveries.sentAt, timeZone), sent: count() })
      .from(deliveries)
      .where(inSpan(deliveries.sentAt))
      .groupBy(sql`1`),
    // A dead delivery's last change is when it died: the (state, updatedAt) index.
    db
      .select({ day: operatingDaySql(deliveries.updatedAt, timeZone), dead: count() })
      .from(deliveries)
      .where(and(eq(deliveries.state, 'dead'), inSpan(deliveries.updatedAt)))
      .groupBy(sql`1`),
  ]);
  return { sent, dead };
}
