// The one PostgreSQL schema of Boardwalk. Column names are snake_case in the database
// (createDb sets drizzle's `casing: 'snake_case'`), camelCase here.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const money = () => numeric({ precision: 12, scale: 2, mode: 'number' });
const tstz = () => timestamp({ withTimezone: true, mode: 'date' });
const created = () => tstz().notNull().defaultNow();
const updated = () => tstz().notNull().defaultNow();

// ---- Ticketing feed --------------------------------------------------------------------

export const orders = pgTable('orders', {
  orderId: text().primaryKey(),
  orderDate: tstz().notNull(),
  purchaserFirstName: text(),
  purchaserLastName: text(),
  purchaserEmail: text(),
  purchaserPhone: text(),
  createdAt: created(),
  updatedAt: updated(),
});

export const tickets = pgTable(
  'tickets',
  {
    barcode: text().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.orderId, { onDelete: 'cascade' }),
    position: integer().notNull(),
    product: text().notNull(),
    price: money(),
    category: text(),
    categoryId: text(),
    packId: text(),
    merchItemId: text(),
    isPassholder: boolean().notNull().default(false),
    holderFirstName: text(),
    holderLastName: text(),
    holderEmail: text(),
    holderPhone: text(),
    credits: money().notNull().default(0),
    cash: money().notNull().default(0),
    expires: tstz(),
    redeemed: tstz(),
    refunded: boolean().notNull().default(false),
    isPassActivated: boolean().notNull().default(false),
    iCloudBindingLink: text('icloud_binding_link'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.orderId)],
);

/** What a guest entered at registration; the ticketing feed never writes here. */
export const registrations = pgTable('registrations', {
  barcode: text()
    .primaryKey()
    .references(() => tickets.barcode, { onDelete: 'cascade' }),
  firstName: text().notNull(),
  lastName: text().notNull(),
  email: text().notNull(),
  phone: text().notNull(),
  optInEmailMarketing: boolean().notNull().default(false),
  optInSmsMarketing: boolean().notNull().default(false),
  createdAt: created(),
  updatedAt: updated(),
});

/** A ticket shared with another guest, reached by its hashUrl (only the hash is kept). */
export const ticketShares = pgTable(
  'ticket_shares',
  {
    shareId: uuid().primaryKey().defaultRandom(),
    barcode: text()
      .notNull()
      .references(() => tickets.barcode, { onDelete: 'cascade' }),
    hashUrlHash: text().notNull().unique(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    salesforceId: text(),
    createdAt: created(),
    /** Set when sharing stops: the link then answers "Pass No Longer Shared". */
    removedAt: tstz(),
  },
  (t) => [index().on(t.barcode)],
);

// ---- Gate, point of sale, hotel feeds --------------------------------------------------

export const attractionUsage = pgTable(
  'attraction_usage',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    barcode: text().notNull(),
    attraction: text().notNull(),
    location: text().notNull(),
    timestamp: tstz().notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex().on(t.barcode, t.attraction, t.timestamp)],
);

export const checks = pgTable(
  'checks',
  {
    checkId: text().primaryKey(),
    checkNumber: text().notNull(),
    orderDate: tstz().notNull(),
    terminalId: text().notNull(),
    total: money().notNull(),
    refunded: boolean().notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.checkNumber)],
);

export const reservations = pgTable('reservations', {
  reservationNumber: text().primaryKey(),
  firstName: text(),
  lastName: text(),
  email: text(),
  arrival: date({ mode: 'string' }).notNull(),
  departure: date({ mode: 'string' }).notNull(),
  total: money().notNull(),
  cancelled: boolean().notNull().default(false),
  createdAt: created(),
  updatedAt: updated(),
});

// ---- Staff configuration (staff-back-office.md section 3) ------------------------------

export const passCustomizations = pgTable('pass_customizations', {
  passCustomizationGuid: uuid('pass_customization_guid').primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  /** Colours are stored as 6 hex digits without '#'. */
  backgroundColor: text().notNull(),
  color: text().notNull(),
  instructions: text().notNull(),
  googleInstructions: text(),
  googleUri: text(),
  hideBarcode: boolean().notNull().default(false),
  createdAt: created(),
  updatedAt: updated(),
});

export const passCustomizationCategories = pgTable(
  'pass_customization_categories',
  {
    guid: uuid().primaryKey().defaultRandom(),
    categoryId: text(),
    packId: text(),
    barcode: text(),
    customizationName: text()
      .notNull()
      .references(() => passCustomizations.name, { onUpdate: 'cascade', onDelete: 'restrict' }),
    active: boolean().notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index().on(t.barcode).where(sql`${t.active}`),
    index().on(t.packId).where(sql`${t.active}`),
    index().on(t.categoryId).where(sql`${t.active}`),
  ],
);

export const testPasses = pgTable('test_passes', {
  guid: uuid().primaryKey().defaultRandom(),
  barcode: text().notNull().unique(),
  description: text(),
  /** JSON: the order data the test pass answers with. */
  data: text(),
  createdAt: created(),
  updatedAt: updated(),
});

export const walletExceptions = pgTable(
  'wallet_exceptions',
  {
    guid: uuid().primaryKey().defaultRandom(),
    orderNumber: text().notNull(),
    skipRegistration: boolean().notNull().default(false),
    skipImage: boolean().notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.orderNumber)],
);

export const walletItemExclusions = pgTable('wallet_item_exclusions', {
  guid: uuid().primaryKey().defaultRandom(),
  merchItemId: text(),
  merchPackId: text(),
  customError: text(),
  validFrom: tstz(),
  validTo: tstz(),
  excludeNfc: boolean('exclude_nfc').notNull().default(false),
  active: boolean().notNull().default(true),
  createdAt: created(),
  updatedAt: updated(),
});

export const wristbandMerchPackIds = pgTable('wristband_merch_pack_ids', {
  guid: uuid().primaryKey().defaultRandom(),
  merchItemId: text().notNull(),
  active: boolean().notNull().default(true),
  validFrom: tstz(),
  validTo: tstz(),
  createdAt: created(),
  updatedAt: updated(),
});
