// Events for the operator's systems (@boardwalk/contract/events), written by the transaction of
// the change that causes them: an event exists exactly when its change committed. The feed that
// lists them is integrations/events; a feature only records them, here.
import { eventData, type EventDataOf, type EventType } from '@boardwalk/contract/events';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { integrationEvents } from '@boardwalk/db/schema';

/** What an event is about: a ticket, a loyalty member (by number), a wallet pass of neither (a voided card), or a person (an erasure). */
export type EventSubject = `ticket:${string}` | `member:${string}` | `pass:${string}` | `campaign:${string}` | 'person';

/**
 * One event's row, its data checked against the documented payload; `system`: the integration
 * key's name whose call caused it (null: a guest, staff or Boardwalk itself).
 */
export function eventRow<T extends EventType>(type: T, subject: EventSubject, data: EventDataOf<T>, system: string | null = null) {
  return { type, subject, data: eventData[type].parse(data), system };
}
export type EventRow = ReturnType<typeof eventRow>;

/** Records one event in tx; its data is checked against the documented payload first. */
export async function recordEvent<T extends EventType>(tx: Executor, type: T, subject: EventSubject, data: EventDataOf<T>): Promise<void> {
  await tx.insert(integrationEvents).values(eventRow(type, subject, data));
}

/** Records these events in tx (rows made by eventRow, their data checked). */
export async function recordEventRows(tx: Executor, rows: EventRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(integrationEvents).values(rows);
}

/** The insert of these events, to embed in a statement that writes them with its change (a data-modifying WITH). */
export const eventRowsInsert = (tx: Executor, rows: EventRow[]) => tx.insert(integrationEvents).values(rows);

/**
 * The insert of the events a query selects (its columns: type, subject, data, system), to embed
 * in a statement that makes them with its change; the query checks its own payloads.
 */
export const insertEventsSql = (select: SQL): SQL => sql`insert into ${integrationEvents} (type, subject, data, system) ${select}`;
