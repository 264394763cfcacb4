// Writes of the demo loader: the staff configuration the demo orders need (integration
// data goes through the integration services instead).
import { sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import {
  orders,
  parkHours,
  parkLocations,
  passCustomizationCategories,
  passCustomizations,
  testPasses,
  ticketShares,
  visitBlockouts,
  visitProducts,
  visitWindows,
  walletExceptions,
  walletItemExclusions,
  wristbandMerchPackIds,
} from '@boardwalk/db/schema';

type Values<T extends { $inferInsert: unknown }> = T['$inferInsert'][];

export interface DemoConfiguration {
  passCustomizations: Values<typeof passCustomizations>;
  passCustomizationCategories: Values<typeof passCustomizationCategories>;
  testPasses: Values<typeof testPasses>;
  walletExceptions: Values<typeof walletExceptions>;
  walletItemExclusions: Values<typeof walletItemExclusions>;
  wristbandMerchPackIds: Values<typeof wristbandMerchPackIds>;
  ticketShares: Values<typeof ticketShares>;
  parkHours: Values<typeof parkHours>;
  parkLocations: Values<typeof parkLocations>;
  visitWindows: Values<typeof visitWindows>;
  visitProducts: Values<typeof visitProducts>;
  visitBlockouts: Values<typeof visitBlockouts>;
}

/** Serializes demo loads (several instances starting at once) until the transaction ends. */
export async function lockDemoLoad(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('boardwalk:demo-data'))`);
}

export async function hasOrders(db: Executor): Promise<boolean> {
  const rows = await db.select({ orderId: orders.orderId }).from(orders).limit(1);
  return rows.length > 0;
}

/** Inserts the rows; rows whose unique name or barcode staff already used are left alone. */
export async function insertDemoConfiguration(db: Executor, c: DemoConfiguration): Promise<void> {
  await db.insert(passCustomizations).values(c.passCustomizations).onConflictDoNothing();
  await db.insert(passCustomizationCategories).values(c.passCustomizationCategories);
  await db.insert(testPasses).values(c.testPasses).onConflictDoNothing();
  await db.insert(walletExceptions).values(c.walletExceptions);
  await db.insert(walletItemExclusions).values(c.walletItemExclusions);
  await db.insert(wristbandMerchPackIds).values(c.wristbandMerchPackIds);
  await db.insert(ticketShares).values(c.ticketShares).onConflictDoNothing();
  await db.insert(parkHours).values(c.parkHours);
  await db.insert(parkLocations).values(c.parkLocations);
  await db.insert(visitWindows).values(c.visitWindows).onConflictDoNothing();
  await db.insert(visitProducts).values(c.visitProducts);
  await db.insert(visitBlockouts).values(c.visitBlockouts);
}
