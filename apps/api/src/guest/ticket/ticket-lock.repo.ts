// A ticket's row, locked for the rest of the caller's transaction: features that keep a
// per-ticket limit (the ticket shares' TICKET_SHARE_LIMIT) count and write under this lock,
// so two concurrent requests for one ticket take turns.
import { eq } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { registrations, tickets } from '@boardwalk/db/schema';

/** The ticket (with what a message about it names), locked FOR UPDATE; null when there is none. */
export async function lockTicket(tx: Executor, barcode: string) {
  const rows = await tx
    .select({
      barcode: tickets.barcode,
      orderId: tickets.orderId,
      credits: tickets.credits,
      product: tickets.product,
      holderFirstName: tickets.holderFirstName,
      holderLastName: tickets.holderLastName,
      firstName: registrations.firstName,
      lastName: registrations.lastName,
    })
    .from(tickets)
    .leftJoin(registrations, eq(registrations.barcode, tickets.barcode))
    .where(eq(tickets.barcode, barcode))
    .for('update', { of: tickets })
    .limit(1);
  return rows[0] ?? null;
}
