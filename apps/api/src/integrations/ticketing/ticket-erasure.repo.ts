// The ticketing feed's part of an erasure: the person leaves the orders they bought and the
// tickets they hold (the ticket core identified them and their tickets).
import { and, inArray, isNull, or, sql } from 'drizzle-orm';
import { orders, tickets } from '@boardwalk/db/schema';
import { hasNameSql, namesPerson, ownBarcodes, type Eraser } from '../../platform/privacy.ts';
import { TICKET_CHANGED } from './ticket.topics.ts';

/**
 * Erasure: the person's name, email and phone leave the orders they bought and the tickets
 * they hold (the ticketing system's records stay: an order is a financial record); every ticket
 * of theirs is published, so its passes are updated without them (a valid ticket stays valid).
 */
export const ticketContactsErasure: Eraser = {
  category: 'orders and tickets',
  async erase(tx, person, changes) {
    const now = sql`now()`;
    const bought = await tx
      .update(orders)
      .set({ purchaserFirstName: null, purchaserLastName: null, purchaserEmail: null, purchaserPhone: null, updatedAt: now })
      .where(namesPerson(person, { email: orders.purchaserEmail, phone: orders.purchaserPhone }))
      .returning({ orderId: orders.orderId });
    // A person known by name only: the holder of that name, with no email or phone, on the tickets found (the order's other people stay).
    const byName =
      person.name && ownBarcodes(person).length > 0
        ? and(
            inArray(tickets.barcode, ownBarcodes(person)),
            isNull(tickets.holderEmail),
            isNull(tickets.holderPhone),
            hasNameSql(person.name, tickets.holderFirstName, tickets.holderLastName),
          )
        : undefined;
    const held = await tx
      .update(tickets)
      .set({ holderFirstName: null, holderLastName: null, holderEmail: null, holderPhone: null, updatedAt: now })
      .where(or(namesPerson(person, { email: tickets.holderEmail, phone: tickets.holderPhone }), byName))
      .returning({ barcode: tickets.barcode });
    await changes.publish(
      tx,
      TICKET_CHANGED,
      person.tickets.map((t) => t.barcode),
    );
    return bought.length + held.length;
  },
};
