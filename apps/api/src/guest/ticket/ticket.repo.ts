// The ticket core's reads: a ticket with everything the order object shows in one round
// trip (its order, the guest's registration, shares, the holder photo's uid, the wallet
// binding, and the version of the pass rules its statement saw: the rules themselves are kept
// in memory, pass-rules.service.ts), share links, test passes.
// This query is the one place that joins across the guest tables: a second round trip per
// lookup would cost what bench/lookup measures.
import { and, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { preparedPerSession } from '@boardwalk/db/prepared';
import {
  appleDeviceRegistrations,
  orders,
  passLocks,
  photos,
  registrations,
  storedValueLinks,
  testPasses,
  ticketShares,
  tickets,
  walletPasses,
  wristbandBindings,
} from '@boardwalk/db/schema';
import { passRulesVersionSql } from './pass-rules.repo.ts';

/**
 * A pass is activated when the ticketing feed says so or a wristband is actively bound to it
 * (guest/wristband): the binding lives apart from the ticket, so a feed resend never undoes it.
 */
export const isPassActivatedSql = (t: typeof tickets) =>
  sql<boolean>`(${t.isPassActivated} or exists (select 1 from ${wristbandBindings}
    where ${wristbandBindings.barcode} = ${t.barcode} and ${wristbandBindings.deactivatedAt} is null))`;

/** json_build_object of these values under these names (names are the code's own, never input). */
const jsonObject = (fields: Record<string, SQLWrapper>) =>
  sql`json_build_object(${sql.join(
    Object.entries(fields).map(([name, value]) => sql`${sql.raw(`'${name}'`)}, ${value}`),
    sql`, `,
  )})`;

/**
 * A found ticket as one JSON value, built by PostgreSQL: the app's process, not the database,
 * is what a lookup waits on (bench:lookup: one core busy in it, the database's below one), and
 * node-postgres sets up each column of a result again at every execution (its field
 * description, its parser, the row object). One column instead of 33 cost 41 µs of the
 * process's CPU a lookup instead of 70 (the bench's data, 12 at once).
 */
function passQuery(db: Executor) {
  const t = tickets;
  const r = registrations;
  // A device registered through the PassKit web service binds the pass to a wallet.
  const iCloudBoundToWallet = sql`exists (select 1 from ${appleDeviceRegistrations}
    inner join ${walletPasses} on ${walletPasses.serialNumber} = ${appleDeviceRegistrations.serialNumber}
    where ${walletPasses.barcode} = ${t.barcode})`;
  const photoUid = sql`(select ${photos.uid} from ${photos} where ${photos.barcode} = ${t.barcode})`;
  // Whether the stored-value page's link is kept already: a lookup then writes nothing.
  // An erasure's lock on an activated season pass (pass-lock.repo.ts).
  const passLocked = sql`exists (select 1 from ${passLocks} where ${passLocks.barcode} = ${t.barcode})`;
  const storedValueLinked = sql`exists (select 1 from ${storedValueLinks} where ${storedValueLinks.barcode} = ${t.barcode})`;

  const s = ticketShares;
  // directLink is null: only the link's hash is kept; the link itself went to the guest by email.
  const share = jsonObject({
    id: s.shareId,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
    phone: s.phone,
    salesforceId: s.salesforceId,
    directLink: sql`null`,
    language: s.language,
  });
  const shares = sql`coalesce((select json_agg(${share} order by ${s.createdAt}, ${s.shareId})
    from ${s} where ${s.barcode} = ${t.barcode} and ${s.removedAt} is null), '[]'::json)`;

  // Only what the order object shows and the pass rules match.
  const pass = jsonObject({
    ticket: jsonObject({
      barcode: t.barcode,
      product: t.product,
      category: t.category,
      isPassholder: t.isPassholder,
      holderFirstName: t.holderFirstName,
      holderLastName: t.holderLastName,
      holderEmail: t.holderEmail,
      holderPhone: t.holderPhone,
      credits: t.credits,
      cash: t.cash,
      expires: t.expires,
      visitDate: t.visitDate,
      redeemed: t.redeemed,
      refunded: t.refunded,
      isPassActivated: isPassActivatedSql(t),
      iCloudBindingLink: t.iCloudBindingLink,
      packId: t.packId,
      categoryId: t.categoryId,
      merchItemId: t.merchItemId,
    }),
    order: jsonObject({
      orderId: orders.orderId,
      orderDate: orders.orderDate,
      purchaserFirstName: orders.purchaserFirstName,
      purchaserLastName: orders.purchaserLastName,
    }),
    registration: sql`case when ${r.barcode} is null then null else ${jsonObject({
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      phone: r.phone,
      optInEmailMarketing: r.optInEmailMarketing,
      optInSmsMarketing: r.optInSmsMarketing,
      language: r.language,
    })} end`,
    rulesVersion: passRulesVersionSql,
    iCloudBoundToWallet,
    photoUid,
    passLocked,
    storedValueLinked,
    shares,
  });

  return db
    .select({ pass: sql<PassJson>`${pass}` })
    .from(t)
    .innerJoin(orders, eq(orders.orderId, t.orderId))
    .leftJoin(r, eq(r.barcode, t.barcode))
    .$dynamic();
}

export interface ShareRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  salesforceId: string | null;
  directLink: null;
  /** The share's language (BCP 47): the shared guest's passes are written in it. */
  language: string;
}

type Ticket = typeof tickets.$inferSelect;

/** A found ticket, with its order, registration, shares and what else the order object shows. */
export interface TicketRow {
  ticket: Pick<
    Ticket,
    | 'barcode'
    | 'product'
    | 'category'
    | 'isPassholder'
    | 'holderFirstName'
    | 'holderLastName'
    | 'holderEmail'
    | 'holderPhone'
    | 'credits'
    | 'cash'
    | 'expires'
    | 'visitDate'
    | 'redeemed'
    | 'refunded'
    | 'isPassActivated'
    | 'iCloudBindingLink'
    | 'packId'
    | 'categoryId'
    | 'merchItemId'
  >;
  order: Pick<typeof orders.$inferSelect, 'orderId' | 'orderDate' | 'purchaserFirstName' | 'purchaserLastName'>;
  registration: Pick<
    typeof registrations.$inferSelect,
    'firstName' | 'lastName' | 'email' | 'phone' | 'optInEmailMarketing' | 'optInSmsMarketing' | 'language'
  > | null;
  /** The pass rules version the statement saw (pass-rules.service.ts); null if its row is gone. */
  rulesVersion: number | null;
  iCloudBoundToWallet: boolean;
  photoUid: string | null;
  passLocked: boolean;
  storedValueLinked: boolean;
  shares: ShareRow[];
}

/** The row as JSON has it: timestamps as text. */
type PassJson = Omit<TicketRow, 'ticket' | 'order'> & {
  ticket: Omit<TicketRow['ticket'], 'expires' | 'redeemed'> & { expires: string | null; redeemed: string | null };
  order: Omit<TicketRow['order'], 'orderDate'> & { orderDate: string };
};

const dateOf = (text: string | null) => (text === null ? null : new Date(text));

function toTicketRow(rows: { pass: PassJson }[]): TicketRow | null {
  const pass = rows[0]?.pass;
  if (!pass) return null;
  const { ticket, order } = pass;
  return {
    ...pass,
    ticket: { ...ticket, expires: dateOf(ticket.expires), redeemed: dateOf(ticket.redeemed) },
    order: { ...order, orderDate: new Date(order.orderDate) },
  };
}

/**
 * The lookup is built once per session (packages/db/src/prepared.ts) and prepared: building
 * the query and planning it again on every call cost more than running it (bench/lookup).
 */
const passLookup = preparedPerSession((db) =>
  passQuery(db)
    .where(and(eq(tickets.barcode, sql.placeholder('barcode')), eq(tickets.orderId, sql.placeholder('orderId'))))
    .limit(1)
    .prepare('find_pass_by_barcode'),
);

/** The ticket with this barcode in this order, or null: one query whichever part is wrong. */
export async function findTicketRow(db: Executor, opts: { orderId: string; barcode: string }): Promise<TicketRow | null> {
  return toTicketRow(await passLookup(db).execute(opts));
}

/**
 * The ticket with this barcode, whatever its order, or null: for calls that carry a signed
 * ticket token (which names the barcode) instead of the order id.
 */
export async function findTicketRowOfBarcode(db: Executor, barcode: string): Promise<TicketRow | null> {
  return toTicketRow(await passQuery(db).where(eq(tickets.barcode, barcode)).limit(1));
}

/** The share (active or stopped) whose hashUrl hashes to this value, with its ticket. */
export async function findShareByHashUrlHash(db: Executor, hashUrlHash: string) {
  const rows = await db
    .select({ shareId: ticketShares.shareId, barcode: ticketShares.barcode, orderId: tickets.orderId, removedAt: ticketShares.removedAt })
    .from(ticketShares)
    .innerJoin(tickets, eq(tickets.barcode, ticketShares.barcode))
    .where(eq(ticketShares.hashUrlHash, hashUrlHash))
    .limit(1);
  return rows[0] ?? null;
}

export async function findTestPass(db: Executor, barcode: string) {
  const rows = await db.select().from(testPasses).where(eq(testPasses.barcode, barcode)).limit(1);
  return rows[0] ?? null;
}
