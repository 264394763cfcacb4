// Who a privacy query names and their tickets (the ticket core's part of a person's data): the
// tickets they bought, hold or registered, each with only their own fields, so an order's other
// guests stay out of their document. A barcode names the ticket's person: its registrant, else
// its holder, else its purchaser. A name with an order id, a barcode or the order's date names
// a holder or registrant of that name: by their email or phone when the ticket has one, else by
// the name alone (a ticket holder with no email or phone, often a child).
import { and, asc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { PrivacyQuery, PrivacySections, TICKET_ROLES } from '@boardwalk/contract/privacy';
import type { Executor } from '@boardwalk/db/client';
import { orders, phoneKeyOf, registrations, tickets } from '@boardwalk/db/schema';
import { AppError } from '../../platform/errors.ts';
import { hasNameSql, iso, isoOrNull, namesPerson, type Identify, type Person } from '../../platform/privacy.ts';

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

type TicketRole = (typeof TICKET_ROLES)[number];

/** The roles on a ticket whose contact is the person's (of purchaser, holder and registrant). */
const rolesOf = (contacts: [TicketRole, Contact | null][], isTheirs: (contact: Contact | null) => boolean): TicketRole[] =>
  contacts.filter(([, contact]) => isTheirs(contact)).map(([role]) => role);

/** What the export says of a ticket, whoever asked: which it is, and the person's roles on it. */
const ticketOf = (row: TicketRow, roles: TicketRole[]) => ({
  orderId: row.orderId,
  barcode: row.barcode,
  product: row.product,
  visitDate: row.visitDate,
  expires: isoOrNull(row.expires),
  roles,
});

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

type Name = NonNullable<Person['name']>;
const isNamed = (name: Name, c: Contact | null) =>
  Boolean(
    c?.firstName &&
    c.lastName &&
    c.firstName.trim().toLowerCase() === name.firstName.trim().toLowerCase() &&
    c.lastName.trim().toLowerCase() === name.lastName.trim().toLowerCase(),
  );

/** The tickets a name query reaches: its order, its barcode or the orders of its date (UTC day). */
function nameScope(query: PrivacyQuery): SQL {
  if (query.orderId !== undefined) return eq(tickets.orderId, query.orderId);
  if (query.barcode !== undefined) return eq(tickets.barcode, query.barcode);
  const day = new Date(`${query.orderDate!}T00:00:00Z`);
  return and(gte(orders.orderDate, day), lt(orders.orderDate, new Date(day.getTime() + 86_400_000)))!;
}

/**
 * A name query: the tickets in its scope whose holder or registrant has that name. When one of
 * them has an email or a phone, the person is who that names (as any query by email or phone);
 * otherwise they are known by the name alone, and their own tickets are the ones found.
 */
async function identifyByName(db: Executor, query: PrivacyQuery): Promise<Person> {
  const name: Name = { firstName: query.firstName!.trim(), lastName: query.lastName!.trim() };
  const rows = await ticketRows(
    db,
    and(
      nameScope(query),
      or(
        hasNameSql(name, tickets.holderFirstName, tickets.holderLastName),
        hasNameSql(name, registrations.firstName, registrations.lastName),
      ),
    ),
  );
  // A date reaches every order of the day: two orders holding the name may be two people, whom
  // an export would mix and an erasure could not undo. The order id tells them apart.
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  if (orderIds.length > 1) {
    const message = `${orderIds.length} orders of ${query.orderDate} hold someone of this name (${orderIds.join(', ')}): search with the order id.`;
    throw new AppError('CONFLICT', message);
  }
  const named = rows.flatMap((row) => [row.registration, row.holder]).find((c) => isNamed(name, c) && names(c));
  if (named?.email) return identifyPerson(db, { email: named.email });
  if (named?.phone) return identifyPerson(db, { phone: named.phone });
  return {
    email: null,
    phone: null,
    name,
    tickets: rows.map((row) => {
      const roles = rolesOf(
        [
          ['holder', row.holder],
          ['registrant', row.registration],
        ],
        (contact) => isNamed(name, contact),
      );
      return {
        ...ticketOf(row, roles),
        purchaser: null,
        holder: roles.includes('holder') ? row.holder : null,
        registration: null,
        own: true,
      };
    }),
  };
}

export const identifyPerson: Identify = async (db, query) => {
  if (query.firstName !== undefined) return identifyByName(db, query);
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
      const roles = rolesOf(
        [
          ['purchaser', row.purchaser],
          ['holder', row.holder],
          ['registrant', registration],
        ],
        (contact) => isPerson(who, contact),
      );
      const ticketPerson = personOf(row);
      return {
        ...ticketOf(row, roles),
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
