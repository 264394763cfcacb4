// Who a privacy query names and their tickets (the ticket core's part of a person's data): the
// tickets they bought, hold or registered, each with only their own fields, so an order's other
// guests stay out of their document. A barcode names the ticket's person: its registrant, else
// its holder, else its purchaser.
import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { PrivacySections } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { orders, phoneKeyOf, registrations, tickets } from '@boardwalk/db/schema';
import { TICKET_CHANGED } from '../../integrations/ticketing/ticket.topics.ts';
import { iso, isoOrNull, namesPerson, type Eraser, type Identify, type Person } from '../../platform/privacy.ts';

interface Contact {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
}

const digits = (phone: string | null) => (phone ? phoneKeyOf(phone) || null : null);
/** A contact names someone when it has an email or a phone (a pseudonymised registration has neither). */
const names = (c: Contact | null): c is Contact => Boolean(c && (c.email || c.phone));
const isPerson = (person: Pick<Person, 'email' | 'phone'>, c: Contact | null) =>
  names(c) &&
  ((person.email !== null && c.email?.toLowerCase() === person.email) || (person.phone !== null && digits(c.phone) === person.phone));

function ticketRows(db: Executor, where: ReturnType<typeof or>) {
  return db
    .select({
      orderId: tickets.orderId,
      barcode: tickets.barcode,
      product: tickets.product,
      visitDate: tickets.visitDate,
      expires: tickets.expires,
      purchaser: {
        firstName: orders.purchaserFirstName,
        lastName: orders.purchaserLastName,
        email: orders.purchaserEmail,
        phone: orders.purchaserPhone,
      },
      holder: {
        firstName: tickets.holderFirstName,
        lastName: tickets.holderLastName,
        email: tickets.holderEmail,
        phone: tickets.holderPhone,
      },
      registration: {
        firstName: registrations.firstName,
        lastName: registrations.lastName,
        email: registrations.email,
        phone: registrations.phone,
        registeredAt: registrations.createdAt,
        updatedAt: registrations.updatedAt,
      },
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.orderId, tickets.orderId))
    .leftJoin(registrations, eq(registrations.barcode, tickets.barcode))
    .where(where)
    .orderBy(asc(tickets.orderId), asc(tickets.position));
}
type TicketRow = Awaited<ReturnType<typeof ticketRows>>[number];

/** The person a ticket is for: its registrant, else its holder, else its purchaser. */
const personOf = (row: TicketRow): Contact | null =>
  [row.registration, row.holder, row.purchaser].find((c): c is Contact => names(c)) ?? null;

/** The barcodes of the tickets a person bought, holds or registered (each by its lookup index). */
function barcodesOf(db: Executor, person: Pick<Person, 'email' | 'phone'>) {
  return union(
    db
      .select({ barcode: tickets.barcode })
      .from(tickets)
      .where(namesPerson(person, { email: tickets.holderEmail, phone: tickets.holderPhone })),
    db
      .select({ barcode: tickets.barcode })
      .from(tickets)
      .innerJoin(orders, eq(orders.orderId, tickets.orderId))
      .where(namesPerson(person, { email: orders.purchaserEmail, phone: orders.purchaserPhone })),
    db
      .select({ barcode: registrations.barcode })
      .from(registrations)
      .where(namesPerson(person, { email: registrations.email, phone: registrations.phone })),
  );
}

export const identifyPerson: Identify = async (db, query) => {
  const who: Pick<Person, 'email' | 'phone'> = { email: null, phone: null };
  const asked = query.barcode ?? null;
  if (query.email !== undefined) who.email = query.email.toLowerCase();
  else if (query.phone !== undefined) who.phone = phoneKeyOf(query.phone);
  else {
    const [row] = asked ? await ticketRows(db, eq(tickets.barcode, asked)) : [];
    const contact = row ? personOf(row) : null;
    who.email = contact?.email?.toLowerCase() || null;
    if (!who.email) who.phone = digits(contact?.phone ?? null);
  }
  const known = who.email !== null || who.phone !== null;
  const rows = await ticketRows(
    db,
    or(known ? inArray(tickets.barcode, barcodesOf(db, who)) : undefined, asked ? eq(tickets.barcode, asked) : undefined),
  );
  return {
    ...who,
    tickets: rows.map((row) => {
      const registration = names(row.registration) ? row.registration : null;
      const roles = (
        [
          ['purchaser', row.purchaser],
          ['holder', row.holder],
          ['registrant', registration],
        ] as const
      )
        .filter(([, contact]) => isPerson(who, contact))
        .map(([role]) => role);
      const ticketPerson = personOf(row);
      return {
        orderId: row.orderId,
        barcode: row.barcode,
        product: row.product,
        visitDate: row.visitDate,
        expires: isoOrNull(row.expires),
        roles,
        purchaser: roles.includes('purchaser') ? row.purchaser : null,
        holder: roles.includes('holder') ? row.holder : null,
        registration:
          registration && roles.includes('registrant')
            ? { ...registration, registeredAt: iso(registration.registeredAt), updatedAt: iso(registration.updatedAt) }
            : null,
        // The ticket asked for by its barcode is its person's, or nobody's but the asker's when it names nobody.
        own: ticketPerson ? isPerson(who, ticketPerson) : row.barcode === asked,
      };
    }),
  };
};

/** The tickets section: the person's tickets as identified. */
export const findTicketsOfPerson = async (_db: Executor, person: Person): Promise<PrivacySections['tickets']> =>
  person.tickets.map(({ own: _own, ...ticket }) => ticket);

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
    const held = await tx
      .update(tickets)
      .set({ holderFirstName: null, holderLastName: null, holderEmail: null, holderPhone: null, updatedAt: now })
      .where(namesPerson(person, { email: tickets.holderEmail, phone: tickets.holderPhone }))
      .returning({ barcode: tickets.barcode });
    await changes.publish(
      tx,
      TICKET_CHANGED,
      person.tickets.map((t) => t.barcode),
    );
    return bought.length + held.length;
  },
};
