// Test support for the integration tests: every row of the tables the feeds (and the demo
// loader) write, so a test can tell that a call wrote nothing.
import type { Db } from '@boardwalk/db/client';
import * as schema from '@boardwalk/db/schema';

const sorted = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

/** Rows of the integration tables, each table's rows in a stable order. */
export async function snapshotFeedTables(db: Db) {
  const [orders, tickets, registrations, ticketShares, attractionUsage, checks, reservations] = await Promise.all([
    db.select().from(schema.orders),
    db.select().from(schema.tickets),
    db.select().from(schema.registrations),
    db.select().from(schema.ticketShares),
    db.select().from(schema.attractionUsage),
    db.select().from(schema.checks),
    db.select().from(schema.reservations),
  ]);
  return { orders, tickets, registrations, ticketShares, attractionUsage, checks, reservations };
}

/** The same, as one string: equal strings mean nothing was written in between. */
export async function feedTablesFingerprint(db: Db): Promise<string> {
  const snapshot = await snapshotFeedTables(db);
  return JSON.stringify(Object.fromEntries(Object.entries(snapshot).map(([table, rows]) => [table, sorted(rows)])));
}

/** Row counts of every table the demo loader writes. */
export async function countDemoTables(db: Db) {
  const feed = await snapshotFeedTables(db);
  const [passCustomizations, passCustomizationCategories, testPasses, walletExceptions, walletItemExclusions, wristbandMerchPackIds] =
    await Promise.all([
      db.select().from(schema.passCustomizations),
      db.select().from(schema.passCustomizationCategories),
      db.select().from(schema.testPasses),
      db.select().from(schema.walletExceptions),
      db.select().from(schema.walletItemExclusions),
      db.select().from(schema.wristbandMerchPackIds),
    ]);
  const all = {
    ...feed,
    passCustomizations,
    passCustomizationCategories,
    testPasses,
    walletExceptions,
    walletItemExclusions,
    wristbandMerchPackIds,
  };
  return Object.fromEntries(Object.entries(all).map(([table, rows]) => [table, rows.length]));
}
