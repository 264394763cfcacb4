// The event feed's reads (GET /api/integrations/events), its retention and its part of an
// erasure. Events are written by the changes that cause them (platform/events.ts).
//
// Order and cursor. A bigserial is taken when a row is written, not when its transaction
// commits: a reader paging by it alone would pass over an event whose transaction was still
// running when a later one was read. The feed lists events by (xid, seq) instead, and only
// those whose transaction id is below the oldest transaction still running
// (pg_snapshot_xmin): every event listed is final, and any event still to come has a larger
// xid than all of them, so a cursor never passes one. The cost: an event waits, unlisted, while
// an older transaction runs.
import { and, desc, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import { EVENT_VERSION, type IntegrationEvent } from '@boardwalk/contract/events';
import type { Executor } from '@boardwalk/db/client';
import { integrationEvents, phoneKey } from '@boardwalk/db/schema';
import { deleteRule } from '../../platform/retention.ts';
import type { Eraser } from '../../platform/privacy.ts';

/** A cursor: the (xid, seq) of the last event read; '0-0' before the first. */
export interface Cursor {
  xid: string;
  seq: number;
}

export const START: Cursor = { xid: '0', seq: 0 };
export const cursorText = (cursor: Cursor) => `${cursor.xid}-${cursor.seq}`;
export function parseCursor(text: string): Cursor {
  const [xid = '0', seq = '0'] = text.split('-');
  return { xid, seq: Number(seq) };
}

const xid = (value: string) => sql`${value}::xid8`;

/** An event's row as the feed and the webhook dispatcher read it. */
export interface EventRow {
  id: string;
  type: string;
  subject: string;
  data: unknown;
  system: string | null;
  createdAt: Date;
}

/** The rows of the events after the cursor that are final, at most `limit`, in feed order; with the cursor of the last. */
export async function readEventRows(db: Executor, after: Cursor, limit: number): Promise<{ rows: EventRow[]; next: Cursor }> {
  const e = integrationEvents;
  const rows = await db
    .select({ seq: e.seq, id: e.id, type: e.type, subject: e.subject, data: e.data, system: e.system, xid: e.xid, createdAt: e.createdAt })
    .from(e)
    .where(
      and(
        or(gt(e.xid, xid(after.xid)), and(sql`${e.xid} = ${xid(after.xid)}`, gt(e.seq, after.seq))),
        lt(e.xid, sql`pg_snapshot_xmin(pg_current_snapshot())`),
      ),
    )
    .orderBy(e.xid, e.seq)
    .limit(limit);
  const last = rows.at(-1);
  return { rows, next: last ? { xid: last.xid, seq: last.seq } : after };
}

/** The cursor of the last event that is final (the start when there is none). */
export async function lastFinalEvent(db: Executor): Promise<Cursor> {
  const e = integrationEvents;
  const [last] = await db
    .select({ xid: e.xid, seq: e.seq })
    .from(e)
    .where(lt(e.xid, sql`pg_snapshot_xmin(pg_current_snapshot())`))
    .orderBy(desc(e.xid), desc(e.seq))
    .limit(1);
  return last ?? START;
}

/** An event as the feed lists it and a webhook sends it. */
export const eventOfRow = (row: EventRow): IntegrationEvent => ({
  id: row.id,
  type: row.type as IntegrationEvent['type'],
  timestamp: row.createdAt.toISOString(),
  version: EVENT_VERSION,
  system: row.system,
  data: row.data as Record<string, unknown>,
});

/** The events after the cursor that are final, at most `limit`, in feed order; with the cursor of the last. */
export async function readEvents(db: Executor, after: Cursor, limit: number): Promise<{ events: IntegrationEvent[]; next: Cursor }> {
  const { rows, next } = await readEventRows(db, after, limit);
  return { events: rows.map(eventOfRow), next };
}

/** Retention: an event goes RETENTION_EVENT_DAYS after it happened. */
export const eventRetention = deleteRule(
  'events',
  (r) => r.eventDays,
  integrationEvents,
  (cutoff) => lt(integrationEvents.createdAt, cutoff),
);

/** Erasure: the events that carry the person's email or phone (their registrations, shares to them, their membership). */
export const eventErasure: Eraser = {
  category: 'events',
  async erase(tx, person) {
    const names: SQL[] = [];
    if (person.email !== null) names.push(sql`lower(${integrationEvents.data}->>'email') = ${person.email}`);
    if (person.phone !== null) names.push(sql`${phoneKey(sql`${integrationEvents.data}->>'phone'`)} = ${person.phone}`);
    if (names.length === 0) return 0;
    const result = (await tx.delete(integrationEvents).where(or(...names))) as unknown as { rowCount: number | null };
    return result.rowCount ?? 0;
  },
};
