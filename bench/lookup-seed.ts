// Seed data for bench/lookup.ts: orders and tickets through the product's write path
// (PUT /api/integrations/orders/{orderId}), then what the pass lookup joins: customizations,
// wallet exceptions, exclusions, wristbands, shares and registrations.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '@boardwalk/db/client';
import {
  passCustomizationCategories,
  passCustomizations,
  registrations,
  ticketShares,
  walletExceptions,
  walletItemExclusions,
  wristbandMerchPackIds,
} from '@boardwalk/db/schema';
import type { App } from '../apps/api/src/app.ts';

/** 1000 orders of 2 tickets: enough rows that the planner uses the indexes. */
const ORDER_COUNT = 1000;
const TICKETS_PER_ORDER = 2;
/** The lookups cycle over this many tickets, spread over all the orders. */
const LOOKUP_TICKET_COUNT = 200;

export interface SeedReport {
  orders: number;
  tickets: number;
  lookups: { orderId: string; barcode: string }[];
}

const orderIdOf = (i: number) => String(20_000_000 + i);
const barcodeOf = (i: number, n: number) => `34${String(i * TICKETS_PER_ORDER + n).padStart(14, '0')}`;

/** An order as the ticketing system sends it (PUT /api/integrations/orders/{orderId}); attributes cycle with co-prime periods. */
function feedOrder(i: number) {
  return {
    orderDate: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    purchaser: { firstName: `Ana${i}`, lastName: 'Lopez', email: `ana${i}@example.com`, phone: '3105550100' },
    tickets: Array.from({ length: TICKETS_PER_ORDER }, (_, n) => {
      const t = i * TICKETS_PER_ORDER + n;
      return {
        barcode: barcodeOf(i, n),
        product: t % 3 === 0 ? '2027 Season Pass' : 'Day Ticket',
        price: t % 3 === 0 ? 129.99 : 49.5,
        category: t % 11 === 0 ? 'Stored Value Card' : 'Season Pass',
        categoryId: String(1 + (t % 12)),
        packId: String(340 + (t % 10)),
        merchItemId: String(9000 + (t % 20)),
        isPassholder: t % 3 === 0,
        // Every fourth ticket has no holder name: the guest goes through registration.
        holder: t % 4 === 0 ? {} : { firstName: `Holder${t}`, lastName: 'Lopez', email: `holder${t}@example.com`, phone: '3105550101' },
        credits: t % 5,
        cash: (t % 7) * 2.5,
        expires: '2027-12-31T23:59:59-08:00',
        redeemed: t % 9 === 0 ? '2026-11-21T11:02:09-08:00' : null,
        refunded: false,
        isPassActivated: t % 2 === 0,
        iCloudBindingLink: null,
      };
    }),
  };
}

async function seedOrders(app: App, authorization: string) {
  for (let start = 0; start < ORDER_COUNT; start += 20) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(20, ORDER_COUNT - start) }, (_, k) =>
        app.inject({
          method: 'PUT',
          url: `/api/integrations/orders/${orderIdOf(start + k)}`,
          headers: { authorization },
          payload: feedOrder(start + k),
        }),
      ),
    );
    const bad = answers.find((r) => r.statusCode !== 200 && r.statusCode !== 201);
    if (bad) throw new Error(`seeding through PUT /api/integrations/orders failed: ${bad.statusCode} ${bad.body.slice(0, 300)}`);
  }
}

/** What staff configure and guests add, so every lateral join of the lookup has rows to look at. */
async function seedPassConfiguration(db: Db) {
  const names = ['Season Gold', 'Season Blue', 'Day Sand', 'Stored Value', 'VIP', 'Staff'];
  await db.insert(passCustomizations).values(
    names.map((name, k) => ({
      name,
      backgroundColor: ['c9a227', '1d4e89', 'e8d5b7', '2a9d8f', '000000', '6a040f'][k] ?? '1b4965',
      color: k === 2 ? '000000' : 'ffffff',
      instructions: `Show this ${name} pass at the gate.`,
    })),
  );
  const categoryRows: (typeof passCustomizationCategories.$inferInsert)[] = [];
  // By category id (8 of the 12), by pack id (5 of the 10), and some inactive rows.
  for (let c = 1; c <= 8; c++) categoryRows.push({ categoryId: String(c), customizationName: names[c % 3] ?? 'VIP' });
  for (let p = 340; p < 345; p++) categoryRows.push({ packId: String(p), customizationName: names[3 + (p % 3)] ?? 'VIP' });
  for (let c = 9; c <= 12; c++) categoryRows.push({ categoryId: String(c), customizationName: 'Staff', active: false });
  // By barcode: one ticket in 25, across all orders (these win over pack and category).
  for (let t = 0; t < ORDER_COUNT * TICKETS_PER_ORDER; t += 25) {
    const i = Math.floor(t / TICKETS_PER_ORDER);
    categoryRows.push({ barcode: barcodeOf(i, t % TICKETS_PER_ORDER), customizationName: 'VIP' });
  }
  await db.insert(passCustomizationCategories).values(categoryRows);

  // One order in seven skips registration, one in fourteen also skips the photo.
  const exceptions: (typeof walletExceptions.$inferInsert)[] = [];
  for (let i = 0; i < ORDER_COUNT; i += 7) exceptions.push({ orderNumber: orderIdOf(i), skipRegistration: true, skipImage: i % 14 === 0 });
  await db.insert(walletExceptions).values(exceptions);

  const day = 24 * 60 * 60 * 1000;
  await db.insert(walletItemExclusions).values([
    { merchItemId: '9003', excludeNfc: true },
    { merchItemId: '9011', customError: 'Collect this item at guest services.' },
    { merchPackId: '346', merchItemId: '9006' },
    { merchPackId: '348', validFrom: new Date(Date.now() - 30 * day), validTo: new Date(Date.now() - day) },
    { merchItemId: '9017', active: false },
  ]);
  await db
    .insert(wristbandMerchPackIds)
    .values([
      { merchItemId: '341' },
      { merchItemId: '347', validFrom: new Date(Date.now() - day), validTo: new Date(Date.now() + 30 * day) },
      { merchItemId: '349', active: false },
    ]);

  // One ticket in five shared (one share in four of those stopped), one in three registered.
  const shares: (typeof ticketShares.$inferInsert)[] = [];
  const regs: (typeof registrations.$inferInsert)[] = [];
  for (let t = 0; t < ORDER_COUNT * TICKETS_PER_ORDER; t++) {
    const barcode = barcodeOf(Math.floor(t / TICKETS_PER_ORDER), t % TICKETS_PER_ORDER);
    if (t % 5 === 0) {
      for (let s = 0; s < 1 + (t % 3); s++) {
        shares.push({
          barcode,
          hashUrlHash: randomBytes(32).toString('hex'),
          firstName: `Friend${s}`,
          lastName: 'Lopez',
          email: `friend${t}-${s}@example.com`,
          phone: s % 2 ? null : '3105550102',
          removedAt: s === 1 && t % 4 === 0 ? new Date() : null,
        });
      }
    }
    if (t % 3 === 0) {
      regs.push({
        barcode,
        firstName: `Guest${t}`,
        lastName: 'Lopez',
        email: `guest${t}@example.com`,
        phone: '3105550103',
        optInEmailMarketing: t % 2 === 0,
      });
    }
  }
  for (let k = 0; k < shares.length; k += 500) await db.insert(ticketShares).values(shares.slice(k, k + 500));
  for (let k = 0; k < regs.length; k += 500) await db.insert(registrations).values(regs.slice(k, k + 500));
}

export async function seedLookupData(app: App, db: Db, authorization: string): Promise<SeedReport> {
  await seedOrders(app, authorization);
  await seedPassConfiguration(db);
  // Fresh statistics, as autovacuum would have them in a running park.
  await db.execute(sql`analyze`);
  // A stride that gives distinct tickets, nearly even over every attribute period.
  const lookups = Array.from({ length: LOOKUP_TICKET_COUNT }, (_, k) => {
    const t = (k * 167) % (ORDER_COUNT * TICKETS_PER_ORDER);
    const i = Math.floor(t / TICKETS_PER_ORDER);
    return { orderId: orderIdOf(i), barcode: barcodeOf(i, t % TICKETS_PER_ORDER) };
  });
  return { orders: ORDER_COUNT, tickets: ORDER_COUNT * TICKETS_PER_ORDER, lookups };
}
