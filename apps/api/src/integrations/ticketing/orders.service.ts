// The ticketing feed: an order is replaced as a whole, idempotently, in one transaction.
// Registrations are the guest's and are never written here; they stay with every ticket the
// feed keeps.
import type { HeldOrder, OrderFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../../platform/errors.ts';
import type { FeedWrite } from '../feed-write.ts';
import { TICKET_CHANGED, TICKET_WITHDRAWN } from './ticket.topics.ts';
import {
  deleteTickets,
  findBarcodesOfOtherOrders,
  findOrderWithTickets,
  findTicketsOfOrder,
  insertTickets,
  isConcurrentWriteError,
  updateTicket,
  type OrderValues,
  type TicketValues,
  upsertOrderRow,
} from './orders.repo.ts';
import { differs } from '../row-diff.ts';

type FeedTicket = OrderFeed['tickets'][number];
type FeedPerson = OrderFeed['purchaser'];

const date = (iso: string | null | undefined) => (iso ? new Date(iso) : null);
const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

function personColumns(person: FeedPerson) {
  return {
    firstName: person?.firstName ?? null,
    lastName: person?.lastName ?? null,
    email: person?.email ?? null,
    phone: person?.phone ?? null,
  };
}

function orderValues(orderId: string, order: OrderFeed): OrderValues {
  const purchaser = personColumns(order.purchaser);
  return {
    orderId,
    orderDate: new Date(order.orderDate),
    purchaserFirstName: purchaser.firstName,
    purchaserLastName: purchaser.lastName,
    purchaserEmail: purchaser.email,
    purchaserPhone: purchaser.phone,
  };
}

function ticketValues(orderId: string, ticket: FeedTicket, position: number): TicketValues {
  const holder = personColumns(ticket.holder);
  return {
    barcode: ticket.barcode,
    orderId,
    position,
    product: ticket.product,
    price: ticket.price ?? null,
    category: ticket.category ?? null,
    categoryId: ticket.categoryId ?? null,
    packId: ticket.packId ?? null,
    merchItemId: ticket.merchItemId ?? null,
    isPassholder: ticket.isPassholder,
    holderFirstName: holder.firstName,
    holderLastName: holder.lastName,
    holderEmail: holder.email,
    holderPhone: holder.phone,
    credits: ticket.credits,
    cash: ticket.cash,
    expires: date(ticket.expires),
    visitDate: ticket.visitDate ?? null,
    redeemed: date(ticket.redeemed),
    refunded: ticket.refunded,
    isPassActivated: ticket.isPassActivated,
    iCloudBindingLink: ticket.iCloudBindingLink ?? null,
  };
}

const concurrentWrite = () => new AppError('CONFLICT', 'Another call changed these tickets at the same time; send the order again');

/**
 * PUT /api/integrations/orders/{orderId}: creates or replaces the order and its ticket set.
 * A barcode held by another order is a conflict and nothing is written.
 */
export async function upsertOrder(opts: FeedWrite & { orderId: string; order: OrderFeed }): Promise<UpsertOutcome> {
  const { db, orderId, order } = opts;
  const nextOrder = orderValues(orderId, order);
  const nextTickets = order.tickets.map((ticket, position) => ticketValues(orderId, ticket, position));
  try {
    return await db.transaction(async (tx) => {
      const taken = await findBarcodesOfOtherOrders(
        tx,
        orderId,
        nextTickets.map((t) => t.barcode),
      );
      if (taken.length > 0) {
        const owner = new Map(taken.map((t) => [t.barcode, t.orderId]));
        const fields = nextTickets.flatMap((t, i) => {
          const other = owner.get(t.barcode);
          return other ? [{ path: `tickets.${i}.barcode`, message: `Barcode ${t.barcode} belongs to order ${other}` }] : [];
        });
        throw new AppError('CONFLICT', fields.map((f) => f.message).join('; '), { fields });
      }

      const orderOutcome = await upsertOrderRow(tx, nextOrder);
      const created = orderOutcome === 'created';

      const currentTickets = created ? [] : await findTicketsOfOrder(tx, orderId);
      const held = new Map(currentTickets.map((t) => [t.barcode, t]));
      const kept = new Set(nextTickets.map((t) => t.barcode));
      const removed = currentTickets.filter((t) => !kept.has(t.barcode)).map((t) => t.barcode);
      const added = nextTickets.filter((t) => !held.has(t.barcode));
      const replaced = nextTickets.filter((t) => {
        const current = held.get(t.barcode);
        return current !== undefined && differs(current, t);
      });
      await deleteTickets(tx, removed);
      await insertTickets(tx, added);
      for (const ticket of replaced) await updateTicket(tx, ticket);

      if (created) return 'created';
      if (orderOutcome !== 'replaced' && removed.length + added.length + replaced.length === 0) return 'unchanged';
      // Passes already in wallets follow the tickets (the wallet jobs compare what they show).
      await opts.changes.publish(
        tx,
        TICKET_CHANGED,
        nextTickets.map((t) => t.barcode),
      );
      // A claimed ticket that was refunded or dropped gives its points back.
      await opts.changes.publish(
        tx,
        TICKET_WITHDRAWN,
        [...removed, ...replaced.filter((t) => t.refunded).map((t) => t.barcode)],
        opts.system,
      );
      return 'replaced';
    });
  } catch (error) {
    // A concurrent feed took one of the barcodes between our check and our insert, or locked
    // the same tickets in another order: the caller sends again and gets a clear answer.
    if (isConcurrentWriteError(error)) throw concurrentWrite();
    throw error;
  }
}

/** GET /api/integrations/orders/{orderId}: the order, its tickets, registrations and active shares. */
export async function getHeldOrder(opts: { db: Executor; orderId: string }): Promise<HeldOrder> {
  const found = await findOrderWithTickets(opts.db, opts.orderId);
  if (!found) throw new AppError('NOT_FOUND', `No order ${opts.orderId}`);
  const { order, tickets, shares } = found;
  return {
    orderId: order.orderId,
    orderDate: iso(order.orderDate),
    purchaser: {
      firstName: order.purchaserFirstName,
      lastName: order.purchaserLastName,
      email: order.purchaserEmail,
      phone: order.purchaserPhone,
    },
    createdAt: iso(order.createdAt),
    updatedAt: iso(order.updatedAt),
    tickets: tickets.map(({ ticket: t, registration: r }) => ({
      barcode: t.barcode,
      product: t.product,
      price: t.price,
      category: t.category,
      categoryId: t.categoryId,
      packId: t.packId,
      merchItemId: t.merchItemId,
      isPassholder: t.isPassholder,
      holder: { firstName: t.holderFirstName, lastName: t.holderLastName, email: t.holderEmail, phone: t.holderPhone },
      credits: t.credits,
      cash: t.cash,
      expires: isoOrNull(t.expires),
      visitDate: t.visitDate,
      redeemed: isoOrNull(t.redeemed),
      refunded: t.refunded,
      isPassActivated: t.isPassActivated,
      iCloudBindingLink: t.iCloudBindingLink,
      createdAt: iso(t.createdAt),
      updatedAt: iso(t.updatedAt),
      registration: r
        ? {
            firstName: r.firstName,
            lastName: r.lastName,
            email: r.email,
            phone: r.phone,
            optInEmailMarketing: r.optInEmailMarketing,
            optInSMSMarketing: r.optInSmsMarketing,
            createdAt: iso(r.createdAt),
            updatedAt: iso(r.updatedAt),
          }
        : null,
      shares: shares
        .filter((s) => s.barcode === t.barcode)
        .map((s) => ({
          shareId: s.shareId,
          firstName: s.firstName,
          lastName: s.lastName,
          email: s.email,
          phone: s.phone,
          createdAt: iso(s.createdAt),
        })),
    })),
  };
}
