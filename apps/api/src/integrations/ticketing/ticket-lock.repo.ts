// Tickets locked for the rest of the caller's transaction: features that keep a per-ticket
// limit (the ticket shares' TICKET_SHARE_LIMIT) count and write under an update lock, so two
// concurrent requests for one ticket take turns; a loyalty claim reads an order's tickets under
// a share lock, so a feed refunding one waits for the claim to commit (and its reversal sees it).
import { asc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@boardwalk/db/client';
import { pickColumns } from '@boardwalk/db/sql';
import { orders, registrations, tickets } from '@boardwalk/db/schema';

/** The ticket (with what a message about it names), locked FOR UPDATE; null when there is none. */
export async function lockTicket(tx: Executor, barcode: string) {
  const rows = await tx
    .select({
      ...pickColumns(tickets, 'barcode', 'orderId', 'credits', 'product', 'holderFirstName', 'holderLastName'),
      ...pickColumns(registrations, 'firstName', 'lastName'),
    })
    .from(tickets)
    .leftJoin(registrations, eq(registrations.barcode, tickets.barcode))
    .where(eq(tickets.barcode, barcode))
    .for('update', { of: tickets })
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The tickets of an order (by its order id, or by the barcode of one of them), share-locked, in
 * order, with the email addresses that tie a person to the order: the purchaser's, each
 * ticket holder's and each guest registration's; and the columns `also` gives for a ticket's
 * barcode, read in the same statement (a loyalty claim's state).
 */
export function lockOrderTickets<Also extends Record<string, SQL>>(
  tx: Executor,
  by: { orderId: string | Placeholder } | { barcode: string | Placeholder },
  also: (barcode: AnyPgColumn) => Also,
) {
  // The subquery's "tickets" is its own (the scanned ticket's row), not the outer one.
  const orderId = 'orderId' in by ? by.orderId : sql`(select ${tickets.orderId} from ${tickets} where ${tickets.barcode} = ${by.barcode})`;
  return tx
    .select({
      orderId: orders.orderId,
      orderDate: orders.orderDate,
      barcode: tickets.barcode,
      product: tickets.product,
      price: tickets.price,
      refunded: tickets.refunded,
      purchaserEmail: orders.purchaserEmail,
      holderEmail: tickets.holderEmail,
      registrationEmail: registrations.email,
      ...also(tickets.barcode),
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.orderId, tickets.orderId))
    .leftJoin(registrations, eq(registrations.barcode, tickets.barcode))
    .where(eq(tickets.orderId, orderId))
    .orderBy(asc(tickets.position))
    .for('share', { of: tickets });
}

/** A ticket's refund flag, or null when the feed no longer holds it. */
export async function findTicketRefunded(tx: Executor, barcode: string): Promise<boolean | null> {
  const [row] = await tx.select({ refunded: tickets.refunded }).from(tickets).where(eq(tickets.barcode, barcode));
  return row ? row.refunded : null;
}
