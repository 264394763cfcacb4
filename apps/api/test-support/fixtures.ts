// Test support: data arrives the way it does in production, through the integration API.
// Staff configuration is inserted directly until the back office (its own issue) exists.
import type { OrderFeed } from '@boardwalk/contract/integrations';
import type { Db } from '@boardwalk/db/client';
import * as schema from '@boardwalk/db/schema';
import type { App } from '../src/app.ts';
import { integrationAuth } from './test-app.ts';

type FeedTicket = OrderFeed['tickets'][number];

export function aTicket(overrides: Partial<FeedTicket> = {}): FeedTicket {
  return {
    barcode: '1000000000000001',
    product: 'Day Ticket',
    price: 59.99,
    category: 'Day Ticket',
    categoryId: '20',
    isPassholder: false,
    holder: { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phone: '3105550100' },
    credits: 0,
    cash: 0,
    expires: '2030-12-31T23:59:59-08:00',
    redeemed: null,
    refunded: false,
    isPassActivated: false,
    ...overrides,
  };
}

export function anOrder(tickets: Partial<FeedTicket>[] = [{}], overrides: Partial<OrderFeed> = {}): OrderFeed {
  return {
    orderDate: '2026-11-20T18:15:00Z',
    purchaser: { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phone: '3105550100' },
    tickets: tickets.map((t) => aTicket(t)),
    ...overrides,
  };
}

/** PUT /api/integrations/orders/{orderId}; throws unless the feed accepted it. */
export async function putOrder(app: App, orderId: string, body: OrderFeed) {
  const res = await app.inject({ method: 'PUT', url: `/api/integrations/orders/${orderId}`, headers: integrationAuth, payload: body });
  if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`putOrder ${res.statusCode}: ${res.body}`);
  return res;
}

export const staff = {
  async customization(
    db: Db,
    name: string,
    backgroundColor: string,
    color: string,
    extra: Partial<typeof schema.passCustomizations.$inferInsert> = {},
  ) {
    await db.insert(schema.passCustomizations).values({ name, backgroundColor, color, instructions: `${name} instructions`, ...extra });
  },
  async mapping(db: Db, values: typeof schema.passCustomizationCategories.$inferInsert) {
    await db.insert(schema.passCustomizationCategories).values(values);
  },
  async walletException(db: Db, values: typeof schema.walletExceptions.$inferInsert) {
    await db.insert(schema.walletExceptions).values(values);
  },
  async exclusion(db: Db, values: typeof schema.walletItemExclusions.$inferInsert) {
    await db.insert(schema.walletItemExclusions).values(values);
  },
  async wristbandPack(db: Db, values: typeof schema.wristbandMerchPackIds.$inferInsert) {
    await db.insert(schema.wristbandMerchPackIds).values(values);
  },
  async testPass(db: Db, values: typeof schema.testPasses.$inferInsert) {
    await db.insert(schema.testPasses).values(values);
  },
  async share(db: Db, values: typeof schema.ticketShares.$inferInsert) {
    const [row] = await db.insert(schema.ticketShares).values(values).returning();
    return row!;
  },
};

/** Every row of the tables a guest call may write: equal snapshots mean nothing was written. */
export async function snapshotGuestTables(db: Db) {
  const [registrations, tickets, shares] = await Promise.all([
    db.select().from(schema.registrations),
    db.select().from(schema.tickets),
    db.select().from(schema.ticketShares),
  ]);
  return JSON.stringify({ registrations, tickets, shares });
}
