// Reads and writes of the ticketing feed: orders and their tickets. Registrations and
// shares are only read here (the feed never writes them).
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { pickColumns } from '@boardwalk/db/sql';
import { orders, registrations, ticketShares, tickets } from '@boardwalk/db/schema';
import { upsertWholeRow } from '../whole-row.repo.ts';

export type TicketRow = typeof tickets.$inferSelect;
export type OrderValues = Omit<typeof orders.$inferInsert, 'createdAt' | 'updatedAt'>;
export type TicketValues = Omit<typeof tickets.$inferInsert, 'createdAt' | 'updatedAt'>;

/** Creates or replaces the order row (locked until the transaction ends, so concurrent feeds of one order queue up). */
export const upsertOrderRow = (tx: Executor, values: OrderValues) => upsertWholeRow(tx, orders, orders.orderId, values);

export async function findTicketsOfOrder(db: Executor, orderId: string): Promise<TicketRow[]> {
  return db.select().from(tickets).where(eq(tickets.orderId, orderId)).orderBy(asc(tickets.position), asc(tickets.barcode));
}

/** Tickets with one of these barcodes that belong to another order. */
export async function findBarcodesOfOtherOrders(db: Executor, orderId: string, barcodes: string[]) {
  if (barcodes.length === 0) return [];
  return db
    .select(pickColumns(tickets, 'barcode', 'orderId'))
    .from(tickets)
    .where(and(inArray(tickets.barcode, barcodes), ne(tickets.orderId, orderId)));
}

/** Removes tickets (their registrations and shares go with them). */
export async function deleteTickets(db: Executor, barcodes: string[]): Promise<void> {
  if (barcodes.length === 0) return;
  await db.delete(tickets).where(inArray(tickets.barcode, barcodes));
}

export async function insertTickets(db: Executor, values: TicketValues[]): Promise<void> {
  if (values.length === 0) return;
  await db.insert(tickets).values(values);
}

export async function updateTicket(db: Executor, values: TicketValues): Promise<void> {
  const { barcode, ...changes } = values;
  await db
    .update(tickets)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(tickets.barcode, barcode));
}

/**
 * True when the database refused a write because a concurrent transaction got there first:
 * a key it took (unique violation), or a lock cycle with it (deadlock, serialization).
 */
export function isConcurrentWriteError(error: unknown): boolean {
  // Drizzle wraps the driver's error; the SQLSTATE is on it or on its cause.
  let e = error;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === '23505' || code === '40P01' || code === '40001') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The order with each ticket's registration and active shares, or null. */
export async function findOrderWithTickets(db: Executor, orderId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  if (!order) return null;
  const [ticketRows, shareRows] = await Promise.all([
    db
      .select({ ticket: tickets, registration: registrations })
      .from(tickets)
      .leftJoin(registrations, eq(registrations.barcode, tickets.barcode))
      .where(eq(tickets.orderId, orderId))
      .orderBy(asc(tickets.position), asc(tickets.barcode)),
    db
      .select(pickColumns(ticketShares, 'barcode', 'shareId', 'firstName', 'lastName', 'email', 'phone', 'createdAt'))
      .from(ticketShares)
      .innerJoin(tickets, eq(tickets.barcode, ticketShares.barcode))
      .where(and(eq(tickets.orderId, orderId), isNull(ticketShares.removedAt)))
      .orderBy(asc(ticketShares.createdAt), asc(ticketShares.shareId)),
  ]);
  return { order, tickets: ticketRows, shares: shareRows };
}
