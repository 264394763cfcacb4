// The one PostgreSQL schema of Boardwalk. Column names are snake_case in the database
// (createDb sets drizzle's `casing: 'snake_case'`), camelCase here.
import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  smallint,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Binary data (bytea), as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
const money = () => numeric({ precision: 12, scale: 2, mode: 'number' });
const tstz = () => timestamp({ withTimezone: true, mode: 'date' });
const created = () => tstz().notNull().defaultNow();
const updated = () => tstz().notNull().defaultNow();

/**
 * How a person is looked up across tables (the Privacy page, a guest's own request): an email
 * regardless of case, a phone by its last ten digits whatever its formatting (a North American
 * number with or without its +1). The indexes below are on these very expressions, so a lookup
 * must use them unchanged; phoneKeyOf is the same rule for a phone typed in.
 */
export const emailKey = (column: AnyPgColumn) => sql`lower(${column})`;
/** An email's mailbox: lower case, a plus-alias's tag taken out (ana+park@x is ana@x); a referral compares members by it. */
export const mailboxKey = (column: AnyPgColumn) => sql`regexp_replace(lower(${column}), '[+][^@]*@', '@')`;
export const phoneKey = (column: AnyPgColumn | SQL) => sql`right(regexp_replace(${column}, '[^0-9]', '', 'g'), 10)`;
export const phoneKeyOf = (phone: string) => phone.replace(/\D/g, '').slice(-10);

// ---- Ticketing feed --------------------------------------------------------------------

export const orders = pgTable(
  'orders',
  {
    orderId: text().primaryKey(),
    orderDate: tstz().notNull(),
    purchaserFirstName: text(),
    purchaserLastName: text(),
    purchaserEmail: text(),
    purchaserPhone: text(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('orders_purchaser_email_key_index').on(emailKey(t.purchaserEmail)),
    index('orders_purchaser_phone_key_index').on(phoneKey(t.purchaserPhone)),
  ],
);

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
    /** The day a dated admission is for (the park's calendar day); null for an undated ticket. */
    visitDate: date({ mode: 'string' }),
    redeemed: tstz(),
    refunded: boolean().notNull().default(false),
    isPassActivated: boolean().notNull().default(false),
    iCloudBindingLink: text('icloud_binding_link'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index().on(t.orderId),
    index('tickets_holder_email_key_index').on(emailKey(t.holderEmail)),
    index('tickets_holder_phone_key_index').on(phoneKey(t.holderPhone)),
  ],
);

/** What a guest entered at registration; the ticketing feed never writes here. */
export const registrations = pgTable(
  'registrations',
  {
    barcode: text()
      .primaryKey()
      .references(() => tickets.barcode, { onDelete: 'cascade' }),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    phone: text().notNull(),
    optInEmailMarketing: boolean().notNull().default(false),
    optInSmsMarketing: boolean().notNull().default(false),
    /** The guest's language (BCP 47) when they registered: what Boardwalk writes them in (docs/i18n.md). */
    language: text().notNull().default('en'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index('registrations_email_key_index').on(emailKey(t.email)), index('registrations_phone_key_index').on(phoneKey(t.phone))],
);

/** Each version of a consent's wording, kept once (its id is the SHA-256 of the text): what a record was given under. */
export const consentTexts = pgTable('consent_texts', {
  id: text().primaryKey(),
  channel: text().notNull(),
  text: text().notNull(),
  /** The language the wording is in (BCP 47): the registration form's, as the guest saw it. */
  language: text().notNull().default('en'),
  createdAt: created(),
});

/**
 * The history of a registration's marketing consents, append-only: each change (given or
 * withdrawn) with when, where and the wording shown.
 */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    barcode: text()
      .notNull()
      .references(() => tickets.barcode, { onDelete: 'cascade' }),
    /** email | sms */
    channel: text().notNull(),
    given: boolean().notNull(),
    textId: text()
      .notNull()
      .references(() => consentTexts.id),
    /** Where: the registration form (POST /api/register/). */
    source: text().notNull(),
    createdAt: created(),
  },
  (t) => [index().on(t.barcode, t.id)],
);

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
    /** The sharing guest's language (BCP 47): the invitation's, the best guess for the person shared with. */
    language: text().notNull().default('en'),
    createdAt: created(),
    /** Set when sharing stops: the link then answers "Pass No Longer Shared". */
    removedAt: tstz(),
  },
  (t) => [
    index().on(t.barcode),
    index('ticket_shares_email_key_index').on(emailKey(t.email)),
    index('ticket_shares_phone_key_index').on(phoneKey(t.phone)),
  ],
);

/**
 * A wristband bound to a ticket by the guest (POST /api/wristband/activate/), kept apart from
 * the ticket so a later orders feed never undoes it. A band binds once, ever; a ticket has at
 * most one active band. Staff deactivate a lost band (deactivatedAt): the ticket may then bind
 * a new one, and the lost band never binds again.
 */
export const wristbandBindings = pgTable(
  'wristband_bindings',
  {
    id: uuid().primaryKey().defaultRandom(),
    wristbandBarcode: text().notNull().unique(),
    /** No foreign key: a binding outlives its ticket leaving the feed, so a band never binds twice. */
    barcode: text().notNull(),
    /** The ticket's order when it was bound (the back office lists it). */
    orderId: text().notNull(),
    activatedAt: created(),
    deactivatedAt: tstz(),
    /** The staff member who deactivated it (username). */
    deactivatedBy: text(),
  },
  (t) => [
    uniqueIndex('wristband_bindings_active_ticket_index')
      .on(t.barcode)
      .where(sql`${t.deactivatedAt} is null`),
  ],
);

/**
 * The stored-value page's barcodeHash (a keyed hash of the barcode under the server key) and the
 * ticket it names: written when a link is handed out (voucher QR code, pass card), read by
 * POST /api/stored-value/. A keyed hash cannot be reversed, so the server keeps the pair.
 */
export const storedValueLinks = pgTable('stored_value_links', {
  barcodeHash: text().primaryKey(),
  barcode: text()
    .notNull()
    .unique()
    .references(() => tickets.barcode, { onDelete: 'cascade' }),
  createdAt: created(),
});

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
    /** The code printed on the receipt (16 or 18 characters), scanned by loyalty claims. */
    receiptCode: text(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.checkNumber), index().on(t.receiptCode)],
);

export const reservations = pgTable(
  'reservations',
  {
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
  },
  (t) => [index('reservations_email_key_index').on(emailKey(t.email))],
);

// ---- Loyalty club ---------------------------------------------------------------------

/** Member numbers: 77 and 14 digits, printed as the loyalty pass barcode. */
export const loyaltyMemberNumbers = pgSequence('loyalty_member_number_seq', { startWith: 1 });

/**
 * What the staff lookup matches in an account, lower case: email, name, phone, zip and member
 * number. The trigram index is on this very expression, so a search must use it unchanged.
 */
export const loyaltyAccountSearchText = (t: {
  email: AnyPgColumn;
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  phone: AnyPgColumn;
  zip: AnyPgColumn;
  memberNumber: AnyPgColumn;
}) =>
  sql`lower(${t.email} || ' ' || ${t.firstName} || ' ' || ${t.lastName} || ' ' || coalesce(${t.phone}, '') || ' ' || coalesce(${t.zip}, '') || ' ' || ${t.memberNumber})`;

/** What the staff lookup matches in a loyalty order, lower case: its reference and its source id. */
export const loyaltyOrderSearchText = (t: { reference: AnyPgColumn; sourceId: AnyPgColumn }) =>
  sql`lower(${t.reference} || ' ' || ${t.sourceId})`;

export const loyaltyAccounts = pgTable(
  'loyalty_accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberNumber: text()
      .notNull()
      .unique()
      .default(sql`('77' || lpad(nextval('loyalty_member_number_seq')::text, 14, '0'))`),
    /**
     * What the member card's barcode carries and what a till spends against: 32 random hex
     * digits (122 bits), which nobody can guess from the sequential member number. Erasure
     * replaces it (the old card spends nothing).
     */
    cardToken: text()
      .notNull()
      .unique()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /** Unique regardless of case. */
    email: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    /** 'guest' (the public create: one claim within its first hour) or 'staff'. */
    createdBy: text().notNull(),
    /** The member's season pass (18 characters starting with 24), one account at most. */
    seasonPassId: text().unique(),
    /** Contact details shown to staff in the Account / Order Lookup. */
    phone: text(),
    zip: text(),
    /** The member's language (BCP 47): the guest page's when they joined; English for one staff made. */
    language: text().notNull().default('en'),
    createdAt: created(),
    /**
     * When the email was proven: by the guest entering the one-time code mailed to it, or by the
     * staff member who created the account. Null until then: no claim, card or statement.
     */
    emailProvenAt: tstz(),
    /** 'guest' (the one-time code) or 'staff' (created by staff: who is in the audit log). */
    emailProvenBy: text(),
    /** Set by an erasure: every link and token issued for the account is void from then on. */
    erasedAt: tstz(),
    /** The member's birthday (month and day, no year), optional: a birthday campaign rewards it once a year. */
    birthMonth: smallint(),
    birthDay: smallint(),
    /** What the member's referral link carries (`/loyalty/?ref=CODE`): 10 random hex digits, upper case. */
    referralCode: text()
      .notNull()
      .unique()
      .default(sql`upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10))`),
  },
  (t) => [
    check(
      'loyalty_accounts_birthday_valid',
      sql`(${t.birthMonth} is null and ${t.birthDay} is null) or (${t.birthMonth} between 1 and 12 and ${t.birthDay} between 1 and
        case when ${t.birthMonth} = 2 then 29 when ${t.birthMonth} in (4, 6, 9, 11) then 30 else 31 end)`,
    ),
    // The birthday job's members of the day.
    index('loyalty_accounts_birthday_index')
      .on(t.birthMonth, t.birthDay)
      .where(sql`${t.birthMonth} is not null`),
    uniqueIndex('loyalty_accounts_email_lower_index').on(emailKey(t.email)),
    // A referral's new member who already is one under another alias of their mailbox.
    index('loyalty_accounts_mailbox_index').on(mailboxKey(t.email)),
    index('loyalty_accounts_phone_key_index').on(phoneKey(t.phone)),
    // The staff Account / Order Lookup: a substring of any of these (pg_trgm, migration 0006).
    index('loyalty_accounts_search_index').using('gin', sql`${loyaltyAccountSearchText(t)} gin_trgm_ops`),
    // The Dashboard's new members per day.
    index().on(t.createdAt),
  ],
);

/**
 * A claimed purchase: a ticket (source: its barcode), a food and beverage check (its check
 * id) or a hotel reservation (its number). While its claim stands (not reversed) no other
 * claim of the same source can be written: the partial unique index decides between
 * concurrent claims.
 */
export const loyaltyOrders = pgTable(
  'loyalty_orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    /** ticket | food-and-beverage | hotel */
    sourceType: text().notNull(),
    sourceId: text().notNull(),
    /** What the guest knows it by: the order id, the check number, the reservation number. */
    reference: text().notNull(),
    product: text().notNull(),
    amount: money().notNull(),
    purchasedAt: tstz().notNull(),
    claimedAt: created(),
    /** Set when its points were taken back (refunded, cancelled, removed by staff). */
    reversedAt: tstz(),
  },
  (t) => [
    uniqueIndex('loyalty_orders_standing_source_index')
      .on(t.sourceType, t.sourceId)
      .where(sql`${t.reversedAt} is null`),
    index().on(t.accountId),
    index('loyalty_orders_search_index').using('gin', sql`${loyaltyOrderSearchText(t)} gin_trgm_ops`),
    // A whole order id, barcode, check or reservation number typed into the lookup: exact first.
    index('loyalty_orders_reference_lower_index').on(sql`lower(${t.reference})`),
    index('loyalty_orders_source_id_lower_index').on(sql`lower(${t.sourceId})`),
    // The Dashboard's claims per day by type (read from the index alone).
    index().on(t.claimedAt, t.sourceType),
  ],
);

/** Every kind of ledger entry: the answers that show entries (packages/contract) list the same kinds, which the typecheck holds them to. */
export const LEDGER_KINDS = [
  'earn',
  'reversal',
  'adjustment',
  'redemption',
  'redemption-reversal',
  'expired',
  'bonus',
  'bonus-reversal',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The points ledger, append-only (a trigger refuses updates): an account's balance is the
 * sum of its entries. A loyalty order has at most one earn and one reversal entry.
 */
export const loyaltyLedger = pgTable(
  'loyalty_ledger',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    /** Signed whole points. */
    points: integer().notNull(),
    kind: text().$type<LedgerKind>().notNull(),
    /** Why, in words: claimed, refunded, cancelled, removed by staff, or a staff member's reason. */
    reason: text().notNull(),
    /** A claim with ledger entries cannot be deleted on its own (only with its account). */
    loyaltyOrderId: uuid().references(() => loyaltyOrders.id),
    /** The redemption a redemption or redemption-reversal entry is about. */
    redemptionId: uuid().references((): AnyPgColumn => loyaltyRedemptions.id),
    /** The lot an expired entry expires. */
    lotId: bigint({ mode: 'number' }).references((): AnyPgColumn => loyaltyLots.id),
    /** The campaign a bonus or bonus-reversal entry is about (a campaign with entries cannot be deleted: deactivate it). */
    campaignId: uuid().references((): AnyPgColumn => loyaltyCampaigns.id, { onDelete: 'restrict' }),
    sourceType: text(),
    sourceId: text(),
    /** guest | staff | system | till */
    causedBy: text().notNull(),
    /** The staff member's username when causedBy is staff. */
    staffMember: text(),
    /** The integration key's name (INTEGRATION_API_KEYS) when a system's call caused the entry: a till's redemption or reversal. */
    system: text(),
    createdAt: created(),
  },
  (t) => [
    // An account's entries by id: its balance, and its statement's pages (newest first, keyset on the id).
    index('loyalty_ledger_account_id_id_index').on(t.accountId, t.id),
    // The Dashboard's points per day by kind (read from the index alone).
    index('loyalty_ledger_created_at_kind_points_index').on(t.createdAt, t.kind, t.points),
    // The earns that leave the tier window between two runs of the expiry job (the cards time changes).
    index('loyalty_ledger_earned_at_index')
      .on(t.createdAt)
      .where(sql`${t.kind} = 'earn'`),
    // Each member's earns in the tier window, read in member order from the index alone: the Dashboard's members per tier.
    index('loyalty_ledger_account_earns_index')
      .on(t.accountId, t.createdAt, t.points)
      .where(sql`${t.kind} = 'earn' and ${t.loyaltyOrderId} is not null`),
    uniqueIndex('loyalty_ledger_order_kind_index')
      .on(t.loyaltyOrderId, t.kind)
      .where(sql`${t.loyaltyOrderId} is not null`),
    // A redemption spends once and is given back at most once.
    uniqueIndex('loyalty_ledger_redemption_kind_index')
      .on(t.redemptionId, t.kind)
      .where(sql`${t.redemptionId} is not null`),
    // A campaign's points (its budget) and a member's points of it (their cap), read from the index alone.
    index('loyalty_ledger_campaign_index')
      .on(t.campaignId, t.kind, t.points)
      .where(sql`${t.campaignId} is not null`),
    index('loyalty_ledger_account_campaign_index')
      .on(t.accountId, t.campaignId, t.kind, t.points)
      .where(sql`${t.campaignId} is not null`),
    // A lot expires once: one expired entry at most, however many expiry runs meet it.
    uniqueIndex('loyalty_ledger_lot_kind_index')
      .on(t.lotId, t.kind)
      .where(sql`${t.lotId} is not null`),
  ],
);

/**
 * The lots: each positive ledger entry (an earn, a staff raise, a redemption given back) opens
 * a lot of its points, which expires LOYALTY_POINTS_EXPIRE_MONTHS after it (never when null).
 * A spend takes from the lots, oldest expiry first (a claim's reversal from its own lot
 * first); what a negative balance owes is repaid first by the next positive entry (`repaid`).
 * The account's row lock orders every change; the lots hold max(balance, 0) between them, and
 * no remainder goes below zero.
 */
export const loyaltyLots = pgTable(
  'loyalty_lots',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    /** The positive ledger entry whose points the lot holds. */
    entryId: bigint({ mode: 'number' })
      .notNull()
      .unique()
      .references((): AnyPgColumn => loyaltyLedger.id),
    /** The claim whose earn entry opened it: that claim's reversal takes from this lot first. */
    loyaltyOrderId: uuid().references(() => loyaltyOrders.id),
    /** The entry's points. */
    points: integer().notNull(),
    /** What of them repaid a negative balance when the lot was opened. */
    repaid: integer().notNull().default(0),
    /** What is left to spend or to expire. */
    remaining: integer().notNull(),
    earnedAt: created(),
    /** Null: never expires. */
    expiresAt: tstz(),
    /** When the member was told the lot expires soon (once). */
    remindedAt: tstz(),
  },
  (t) => [
    check('loyalty_lots_points_positive', sql`${t.points} > 0`),
    check('loyalty_lots_remaining_in_range', sql`${t.remaining} >= 0 and ${t.repaid} >= 0 and ${t.remaining} + ${t.repaid} <= ${t.points}`),
    // The lots an account can spend, oldest expiry first; and the lots the expiry job meets.
    index('loyalty_lots_spendable_index')
      .on(t.accountId, t.expiresAt)
      .where(sql`${t.remaining} > 0`),
    index('loyalty_lots_expiring_index')
      .on(t.expiresAt)
      .where(sql`${t.remaining} > 0`),
  ],
);

/**
 * How far the hourly expiry job has looked for the member cards that time alone changes (one
 * row): each run publishes the members whose earns left the tier window or whose lots entered
 * the 30-day expiring window between `checkedUntil` and its own moment, then moves it there.
 */
export const loyaltyCardClock = pgTable(
  'loyalty_card_clock',
  {
    /** Always true: the table holds one row. */
    id: boolean().primaryKey().default(true),
    checkedUntil: tstz().notNull(),
  },
  (t) => [check('loyalty_card_clock_one_row', sql`${t.id}`)],
);

/**
 * A reward redeemed by a member, once per idempotency key (the till's transaction id, or one
 * the staff tab makes): a replay of the key answers the stored redemption and spends nothing.
 * Its ledger entry spends the cost; a reversal gives it back once.
 */
export const loyaltyRedemptions = pgTable(
  'loyalty_redemptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Unique per system: the same key from two systems is two redemptions. */
    idempotencyKey: text().notNull(),
    /** The integration key's name that redeemed it; null for staff (whose keys are `staff:`-prefixed). */
    system: text(),
    accountId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    /** A reward with redemptions cannot be deleted (deactivate it instead). */
    rewardId: uuid()
      .notNull()
      .references(() => loyaltyRewards.id, { onDelete: 'restrict' }),
    /** The reward's name and cost when redeemed: the catalogue may change afterwards. */
    rewardName: text().notNull(),
    pointsSpent: integer().notNull(),
    /** The balance right after the redemption: a replay answers it unchanged. */
    balanceAfter: integer().notNull(),
    /** till | staff */
    causedBy: text().notNull(),
    staffMember: text(),
    redeemedAt: created(),
    reversedAt: tstz(),
  },
  (t) => [
    unique('loyalty_redemptions_system_key_unique').on(t.system, t.idempotencyKey).nullsNotDistinct(),
    index().on(t.accountId, t.rewardId),
    check('loyalty_redemptions_points_spent_positive', sql`${t.pointsSpent} > 0`),
  ],
);

/**
 * What a redemption took from each lot, so that its reversal gives the points back to the lots
 * they came from, with their own expiry (the part of a lot whose date has come comes back
 * expired). Written by the statement that spends the redemption's points.
 */
export const loyaltyRedemptionLots = pgTable(
  'loyalty_redemption_lots',
  {
    redemptionId: uuid()
      .notNull()
      .references(() => loyaltyRedemptions.id, { onDelete: 'cascade' }),
    lotId: bigint({ mode: 'number' })
      .notNull()
      .references(() => loyaltyLots.id, { onDelete: 'cascade' }),
    points: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.redemptionId, t.lotId] }), check('loyalty_redemption_lots_points_positive', sql`${t.points} > 0`)],
);

/**
 * The club's Dashboard figures of each closed operating day in the park (claims by type, new
 * members, points by kind), counted once by apps/api/src/loyalty/loyalty-day-figures.ts the
 * first time a Dashboard reads the day, so that a 90-day Dashboard reads 89 rows instead of
 * grouping the ledger. `starts_at`/`ends_at` are the day's bounds: a row counted under another
 * PARK_TIMEZONE is counted again. A row inserted into or deleted from loyalty_orders,
 * loyalty_ledger or loyalty_accounts deletes the figures of its day, and a truncate all of them
 * (triggers, migration 0025), so a removed account's days are counted again; the columns that
 * place a row in a day (claimed_at, source_type, created_at) cannot be updated.
 */
export const loyaltyDayFigures = pgTable('loyalty_day_figures', {
  day: date({ mode: 'string' }).primaryKey(),
  startsAt: tstz().notNull(),
  endsAt: tstz().notNull(),
  tickets: bigint({ mode: 'number' }).notNull(),
  foodAndBeverage: bigint({ mode: 'number' }).notNull(),
  hotel: bigint({ mode: 'number' }).notNull(),
  newMembers: bigint({ mode: 'number' }).notNull(),
  earned: bigint({ mode: 'number' }).notNull(),
  redeemed: bigint({ mode: 'number' }).notNull(),
  reversed: bigint({ mode: 'number' }).notNull(),
  expired: bigint({ mode: 'number' }).notNull(),
  adjusted: bigint({ mode: 'number' }).notNull(),
  /** Campaign bonuses net of their reversals. */
  campaigns: bigint({ mode: 'number' }).notNull().default(0),
});

/**
 * The loyalty tiers (a back office tab): a member reaches a tier when the points they earned
 * in the last 365 days (earns minus reversals) reach its threshold. Names and thresholds are
 * unique, so "the highest tier reached" is always one tier.
 */
export const loyaltyTiers = pgTable(
  'loyalty_tiers',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull().unique(),
    /** The name in Spanish, shown to guests reading Spanish (null: the name); the name stays the tier's key. */
    nameEs: text(),
    pointsToReach: integer().notNull().unique(),
    /** How many days ahead a day opens for booking visits to this tier's passholders (null: VISIT_DAYS_AHEAD). */
    visitDaysAhead: integer(),
    active: boolean().notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('loyalty_tiers_points_to_reach_positive', sql`${t.pointsToReach} > 0`),
    check('loyalty_tiers_visit_days_ahead', sql`${t.visitDaysAhead} between 0 and 365`),
  ],
);

/** The rewards catalogue (a back office tab): what points are redeemed for. */
export const loyaltyRewards = pgTable(
  'loyalty_rewards',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    description: text(),
    /** The name and description in Spanish (null: the English one). */
    nameEs: text(),
    descriptionEs: text(),
    pointsCost: integer().notNull(),
    active: boolean().notNull().default(true),
    validFrom: tstz(),
    validTo: tstz(),
    /** A tier's name: renaming the tier follows; a tier a reward needs cannot be deleted. */
    minimumTier: text().references(() => loyaltyTiers.name, { onUpdate: 'cascade', onDelete: 'restrict' }),
    /** How many times one member may redeem it (reversed redemptions do not count); null: no limit. */
    limitPerMember: integer(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('loyalty_rewards_points_cost_positive', sql`${t.pointsCost} > 0`),
    check('loyalty_rewards_limit_positive', sql`${t.limitPerMember} is null or ${t.limitPerMember} > 0`),
    check('loyalty_rewards_dates_in_order', sql`${t.validFrom} is null or ${t.validTo} is null or ${t.validFrom} <= ${t.validTo}`),
  ],
);

/**
 * The club's campaigns (a back office tab): a multiplier or a fixed bonus on the purchases of
 * the chosen kinds bought within the window, from a minimum tier, within an optional points
 * budget and cap per member. A bonus is a ledger entry naming the campaign
 * (docs/loyalty-campaigns.md).
 */
export const loyaltyCampaigns = pgTable(
  'loyalty_campaigns',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The name guests read (on the statement, the card, the tills), and in Spanish (null: the name). */
    name: text().notNull().unique(),
    nameEs: text(),
    /** multiplier | bonus (on claims) | birthday (the member's birthday, once a year) | referral (a member who joined through a link, and who sent it) | challenge (a goal reached within the dates) */
    kind: text().notNull(),
    /** A multiplier's factor (2: double points), two decimals; the bonus is what it adds to the earn. */
    multiplier: numeric({ precision: 4, scale: 2, mode: 'number' }),
    /** A fixed bonus campaign's points per claimed purchase; a birthday campaign's gift. */
    bonusPoints: integer(),
    /** The operating days (in the park) of the purchases it applies to, both included: a purchase counts by its own date. */
    validFrom: date({ mode: 'string' }).notNull(),
    validTo: date({ mode: 'string' }).notNull(),
    tickets: boolean().notNull().default(true),
    foodAndBeverage: boolean().notNull().default(true),
    hotel: boolean().notNull().default(true),
    /** A tier's name: members of it and above (null: every member). */
    minimumTier: text().references(() => loyaltyTiers.name, { onUpdate: 'cascade', onDelete: 'restrict' }),
    /** Points it may award in all (null: no limit); reversed bonuses do not come back to it. */
    budget: integer(),
    /** Points one member may receive from it (null: no limit). */
    capPerMember: integer(),
    /** A referral campaign: the members one member may refer in a calendar month in the park (null: no limit). */
    referralsPerMonth: integer(),
    /** A challenge's measure: days (distinct operating days with a claimed purchase or an attraction visit), outlets (distinct food outlets), nights (hotel nights). */
    goal: text().$type<'days' | 'outlets' | 'nights'>(),
    /** A challenge's goal: how many days, outlets or nights within its dates. */
    goalCount: integer(),
    active: boolean().notNull().default(true),
    /** When its budget ran out (loyalty.campaign_budget_spent was sent then): it awards nothing more. */
    budgetSpentAt: tstz(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('loyalty_campaigns_kind', sql`${t.kind} in ('multiplier', 'bonus', 'birthday', 'referral', 'challenge')`),
    check('loyalty_campaigns_goal', sql`${t.goal} is null or ${t.goal} in ('days', 'outlets', 'nights')`),
    check('loyalty_campaigns_goal_count_positive', sql`${t.goalCount} is null or ${t.goalCount} > 0`),
    check('loyalty_campaigns_challenge_goal', sql`(${t.kind} = 'challenge') = (${t.goal} is not null and ${t.goalCount} is not null)`),
    check('loyalty_campaigns_referrals_positive', sql`${t.referralsPerMonth} is null or ${t.referralsPerMonth} > 0`),
    check('loyalty_campaigns_multiplier_range', sql`${t.multiplier} is null or (${t.multiplier} > 1 and ${t.multiplier} <= 10)`),
    check('loyalty_campaigns_bonus_positive', sql`${t.bonusPoints} is null or ${t.bonusPoints} > 0`),
    check('loyalty_campaigns_budget_positive', sql`${t.budget} is null or ${t.budget} > 0`),
    check('loyalty_campaigns_cap_positive', sql`${t.capPerMember} is null or ${t.capPerMember} > 0`),
    check('loyalty_campaigns_dates_in_order', sql`${t.validFrom} <= ${t.validTo}`),
  ],
);

/**
 * The birthday gifts given: one per member and year (the best birthday campaign's), whatever runs
 * of the birthday job meet it (the primary key decides between two workers: the second insert
 * waits for the first and then writes nothing).
 */
export const loyaltyBirthdayGifts = pgTable(
  'loyalty_birthday_gifts',
  {
    accountId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    campaignId: uuid()
      .notNull()
      .references(() => loyaltyCampaigns.id, { onDelete: 'cascade' }),
    /** The year of the birthday (in the park). */
    year: integer().notNull(),
    /** The points given: what the budget and the cap left (0: nothing, the budget was spent). */
    points: integer().notNull(),
    givenAt: created(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.year] })],
);

/**
 * A member who joined through another's referral link, under a referral campaign: pending until
 * their first claim that earns points, which gives both the campaign's bonus, once (`earnedAt`).
 * A member is referred once at most.
 */
export const loyaltyReferrals = pgTable(
  'loyalty_referrals',
  {
    referredId: uuid()
      .primaryKey()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    referrerId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    campaignId: uuid()
      .notNull()
      .references(() => loyaltyCampaigns.id, { onDelete: 'restrict' }),
    createdAt: created(),
    earnedAt: tstz(),
  },
  (t) => [index().on(t.referrerId, t.createdAt)],
);

/**
 * A challenge a member completed: its bonus was given then (cut to the budget and the cap:
 * `points`). One row per member and challenge (the primary key decides between two runs); a
 * reversal that takes the member back below the goal takes the bonus back and removes the row,
 * so the challenge can be completed again (docs/loyalty-campaigns.md).
 */
export const loyaltyChallengeCompletions = pgTable(
  'loyalty_challenge_completions',
  {
    accountId: uuid()
      .notNull()
      .references(() => loyaltyAccounts.id, { onDelete: 'cascade' }),
    campaignId: uuid()
      .notNull()
      .references(() => loyaltyCampaigns.id, { onDelete: 'restrict' }),
    /** The bonus given: what the budget and the cap left (0: nothing). */
    points: integer().notNull(),
    completedAt: created(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.campaignId] })],
);

// ---- Staff configuration: the back office's tabs ---------------------------------------

export const passCustomizations = pgTable('pass_customizations', {
  passCustomizationGuid: uuid('pass_customization_guid').primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  /** Colours are stored as 6 hex digits without '#'. */
  backgroundColor: text().notNull(),
  color: text().notNull(),
  instructions: text().notNull(),
  googleInstructions: text(),
  /** The instructions in Spanish (null: the English ones): docs/i18n.md "The park's own texts". */
  instructionsEs: text(),
  googleInstructionsEs: text(),
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
    index()
      .on(t.barcode)
      .where(sql`${t.active}`),
    index()
      .on(t.packId)
      .where(sql`${t.active}`),
    index()
      .on(t.categoryId)
      .where(sql`${t.active}`),
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
  /** The message in Spanish (null: the English one). */
  customErrorEs: text(),
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

/**
 * Which version of the pass rules (the five tables above: customizations and their categories,
 * wallet exceptions, item exclusions, wristband pack ids) is committed (one row). Every
 * statement that writes one of those tables moves it on and names its transaction (a trigger,
 * migration 0026), so a process that keeps the rules in memory knows from a lookup's own row
 * whether its copy is current, and a transaction knows a version it wrote itself
 * (apps/api/src/guest/ticket/pass-rules.service.ts).
 */
export const passRulesVersion = pgTable(
  'pass_rules_version',
  {
    /** Always true: the table holds one row. */
    id: boolean().primaryKey().default(true),
    version: bigint({ mode: 'number' }).notNull(),
    /** The top-level transaction that last moved it (pg_current_xact_id()), even under a savepoint. */
    writtenBy: bigint({ mode: 'number' }),
  },
  (t) => [check('pass_rules_version_one_row', sql`${t.id}`)],
);

// ---- Passholder visit reservations ------------------------------------------------------
// docs/visit-reservations.md: the rules. A passholder whose product needs a reservation books
// an entry window of an operating day; a full window takes a waitlist that moves by itself.

/** An entry window of an operating day (the day its start falls in) and the passholders it admits. */
export const visitWindows = pgTable(
  'visit_windows',
  {
    id: uuid().primaryKey().defaultRandom(),
    startsAt: tstz().notNull().unique(),
    endsAt: tstz().notNull(),
    capacity: integer().notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('visit_windows_ends_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    check('visit_windows_capacity', sql`${t.capacity} >= 0`),
  ],
);

/** Which pass products need a reservation: a pass customization category, or a product by name. */
export const visitProducts = pgTable(
  'visit_products',
  {
    id: uuid().primaryKey().defaultRandom(),
    categoryId: text(),
    product: text(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [check('visit_products_category_or_product', sql`${t.categoryId} is not null or ${t.product} is not null`)],
);

/** A day no reservation product (or only the one named) may be booked. */
export const visitBlockouts = pgTable('visit_blockouts', {
  id: uuid().primaryKey().defaultRandom(),
  day: date({ mode: 'string' }).notNull(),
  /** Null with product null: every product that needs a reservation. */
  categoryId: text(),
  product: text(),
  createdAt: created(),
  updatedAt: updated(),
});

export const VISIT_STATUSES = ['booked', 'waitlisted', 'cancelled', 'used', 'no_show'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

/** A pass's reservation of a window, or its place on the window's waitlist. */
export const visitReservations = pgTable(
  'visit_reservations',
  {
    id: uuid().primaryKey().defaultRandom(),
    windowId: uuid()
      .notNull()
      .references(() => visitWindows.id, { onDelete: 'restrict' }),
    /** No foreign key: the history outlives the ticket leaving the feed (no-shows still count). */
    barcode: text().notNull(),
    orderId: text().notNull(),
    /** The window's operating day (a pass holds one booking a day, and one waitlist place). */
    day: date({ mode: 'string' }).notNull(),
    status: text().$type<VisitStatus>().notNull(),
    /** The waitlist's priority: the points the pass's tier takes to reach when it joined (0: no tier); higher first. */
    tierRank: integer().notNull().default(0),
    /** The guest's language when they booked or joined: the promotion mail's. */
    language: text().notNull().default('en'),
    /** When it was booked or joined the waitlist (the waitlist's second key). */
    joinedAt: created(),
    promotedAt: tstz(),
    cancelledAt: tstz(),
    usedAt: tstz(),
    noShowAt: tstz(),
  },
  (t) => [
    check('visit_reservations_status', sql.raw(`status in (${VISIT_STATUSES.map((s) => `'${s}'`).join(', ')})`)),
    // One booking a day, and one waitlist place a day beside it (promoted, it replaces the booking).
    uniqueIndex('visit_reservations_one_a_day_index')
      .on(t.barcode, t.day)
      .where(sql`${t.status} in ('booked', 'used')`),
    uniqueIndex('visit_reservations_one_waitlist_a_day_index')
      .on(t.barcode, t.day)
      .where(sql`${t.status} = 'waitlisted'`),
    index('visit_reservations_window_index').on(t.windowId, t.status),
    index('visit_reservations_barcode_index').on(t.barcode, t.status),
  ],
);

// ---- Wallet passes --------------------------------------------------------------------

/**
 * A pass in Apple Wallet and Google Wallet, created when it is first generated: a ticket's
 * pass (barcode) or a loyalty member's card (loyaltyAccountId), exactly one of the two.
 */
export const walletPasses = pgTable(
  'wallet_passes',
  {
    /** Apple serialNumber and Google object id suffix: stable per pass, not derived from the barcode. */
    serialNumber: uuid().primaryKey().defaultRandom(),
    barcode: text()
      .unique()
      .references(() => tickets.barcode, { onDelete: 'cascade' }),
    /**
     * A shared guest's own pass of the ticket (ticket shares): voided when sharing stops,
     * while the owner's pass (the row naming the barcode) stays valid.
     */
    shareId: uuid()
      .unique()
      .references(() => ticketShares.shareId, { onDelete: 'cascade' }),
    /**
     * Removing the member sets it null, which the check allows only on a voided card: the
     * card must be voided (voidedAt) in the removal's transaction, or the removal fails.
     */
    loyaltyAccountId: uuid()
      .unique()
      .references(() => loyaltyAccounts.id, { onDelete: 'set null' }),
    /**
     * Set when the member was removed: the card shows "Membership ended" and nothing
     * personal, and the row names no holder any more.
     */
    voidedAt: tstz(),
    /** SHA-256 of what the pass shows; when it changes, updatedAt (the update tag) moves. */
    contentHash: text(),
    /** Set once a Google Wallet link was handed out: later changes update that object. */
    googleIssued: boolean().notNull().default(false),
    /**
     * The REST collection of the Google object handed out (genericObject, eventTicketObject,
     * loyaltyObject): an object keeps its kind. Null: issued as a generic object, before
     * tickets had kinds.
     */
    googleObjectKind: text(),
    /** SHA-256 of the Google object last accepted by Google: an update that would change nothing is skipped. */
    googleContentHash: text(),
    /**
     * Whether the Google object is in a wallet, as Google's save and delete callbacks last
     * said: 'saved' or 'deleted' (a deleted object gets no more updates); null before any
     * callback.
     */
    googleWalletState: text(),
    /** The expTimeMillis of the callback that set googleWalletState: an older callback arriving late changes nothing. */
    googleWalletStateAt: tstz(),
    /**
     * When Google was last asked to notify the holder of an update of this object, the
     * latest first: at most 3 notifying updates per object in 24 hours.
     */
    googleNotifiedAt: tstz()
      .array()
      .notNull()
      .default(sql`'{}'`),
    /**
     * Why a ticket's pass shows voided (Refunded, Redeemed, Expired, No Longer Valid, No
     * Longer Shared), null while valid: a pass voided by an exclusion or a stopped share
     * stays voided when the reason lapses.
     */
    voidReason: text(),
    createdAt: created(),
    updatedAt: updated(),
  },
  // A holder (a ticket, a shared guest or a member), or voided: then no holder at all.
  (t) => [check('wallet_passes_one_holder', sql`num_nonnulls(${t.barcode}, ${t.shareId}, ${t.loyaltyAccountId}, ${t.voidedAt}) = 1`)],
);

/**
 * A pass is in a wallet: Apple's was generated (it has a content hash) or Google's link was
 * handed out. Only such a pass has anything to update.
 */
export const walletPassIssued = sql<boolean>`(${walletPasses.contentHash} is not null or ${walletPasses.googleIssued})`;

/**
 * Authentication tokens of Apple passes issued before a pass's token was derived from its
 * serial number (only their hash is kept): still accepted for the devices that hold them;
 * no new row is written.
 */
export const walletPassTokens = pgTable(
  'wallet_pass_tokens',
  {
    tokenHash: text().primaryKey(),
    serialNumber: uuid()
      .notNull()
      .references(() => walletPasses.serialNumber, { onDelete: 'cascade' }),
    createdAt: created(),
  },
  (t) => [index().on(t.serialNumber)],
);

/** A device that added a pass to Apple Wallet (PassKit web service registration). */
export const appleDeviceRegistrations = pgTable(
  'apple_device_registrations',
  {
    deviceLibraryIdentifier: text().notNull(),
    serialNumber: uuid()
      .notNull()
      .references(() => walletPasses.serialNumber, { onDelete: 'cascade' }),
    pushToken: text().notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  // createdAt: the Dashboard's Apple passes added per day.
  (t) => [primaryKey({ columns: [t.deviceLibraryIdentifier, t.serialNumber] }), index().on(t.serialNumber), index().on(t.createdAt)],
);

// ---- Photos ---------------------------------------------------------------------------

/** A passholder's photo: the 24-bit BMP the guest confirmed, under an unguessable uid. */
export const photos = pgTable('photos', {
  uid: text().primaryKey(),
  barcode: text()
    .notNull()
    .unique()
    .references(() => tickets.barcode, { onDelete: 'cascade' }),
  bmp: bytea().notNull(),
  /** The same picture as PNG, for wallet passes, the voucher and Google's image URL. */
  png: bytea().notNull(),
  width: integer().notNull(),
  height: integer().notNull(),
  createdAt: created(),
});

/** A guest's request that staff remove the photo of an activated pass. */
export const photoResetRequests = pgTable(
  'photo_reset_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: text().notNull(),
    barcode: text()
      .notNull()
      .references(() => tickets.barcode, { onDelete: 'cascade' }),
    createdAt: created(),
    handledAt: tstz(),
  },
  (t) => [index().on(t.barcode)],
);

/**
 * An activated season pass whose holder's data was erased: no new photo or name goes on it
 * until staff lift the lock (Privacy tab). The photo is the gate's proof of who holds the pass.
 */
export const passLocks = pgTable('pass_locks', {
  barcode: text()
    .primaryKey()
    .references(() => tickets.barcode, { onDelete: 'cascade' }),
  /** Why it is locked: 'erasure' (the holder's data was erased). */
  reason: text().notNull(),
  lockedAt: tstz().notNull().defaultNow(),
});

// ---- Platform --------------------------------------------------------------------------

/** Outgoing mail: every message is kept here (its body only until sent); sentAt is set once SMTP accepted it. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    to: text().notNull(),
    subject: text().notNull(),
    /** The body, sealed (AES-256-GCM, keys.plugin.ts seal) while bodySealed; null once sent. */
    text: text(),
    /** False only on rows written in clear before bodies were sealed (the mailer seals or erases them at start). */
    bodySealed: boolean().notNull().default(false),
    createdAt: created(),
    sentAt: tstz(),
    error: text(),
  },
  (t) => [index('outbox_to_key_index').on(emailKey(t.to))],
);

/**
 * A guest's privacy link (a signed token, apps/api/src/guest/privacy) spent by the erasure it
 * made: the link deletes once. Kept until the token would have expired.
 */
/**
 * A loyalty email's one-time code (POST /api/loyalty/verify), one per email: keyed by a keyed
 * hash of the email, the code kept as a keyed hash only. Valid until expiresAt (at most 60
 * minutes) and for at most 10 tries; a proof or a new code replaces it.
 */
export const loyaltyEmailCodes = pgTable('loyalty_email_codes', {
  emailHash: text().primaryKey(),
  codeHash: text().notNull(),
  tries: integer().notNull().default(0),
  expiresAt: tstz().notNull(),
  createdAt: created(),
});

/**
 * Links revoked by an erasure: the privacy links issued for an email (a keyed hash of it)
 * before the erasure no longer open. Kept until every such link has expired anyway.
 */
export const revokedPrivacyLinks = pgTable('revoked_privacy_links', {
  emailHash: text().primaryKey(),
  revokedAt: tstz().notNull(),
  expiresAt: tstz().notNull(),
});

export const spentPrivacyLinks = pgTable('spent_privacy_links', {
  linkId: uuid().primaryKey(),
  expiresAt: tstz().notNull(),
});

/** A transaction id (xid8), read and written as text: it passes 2^53. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * An event for the operator's systems (@boardwalk/contract/events), written by the transaction
 * of the change that causes it. The feed lists them in the order of (xid, seq): an event is
 * listed once every transaction that could still add one before it has ended
 * (apps/api/src/integrations/events). Kept EVENTS_RETENTION_DAYS.
 */
export const integrationEvents = pgTable(
  'integration_events',
  {
    seq: bigserial({ mode: 'number' }).primaryKey(),
    id: uuid().notNull().unique().defaultRandom(),
    type: text().notNull(),
    /** What it is about, for ordering a subject's events: `ticket:<barcode>`, `member:<number>` or `person` (an erasure). */
    subject: text().notNull(),
    data: jsonb().notNull(),
    /** The integration key's name when a system's call caused it (a till's redemption); null otherwise. */
    system: text(),
    /** The writing transaction's id. */
    xid: xid8()
      .notNull()
      .default(sql`pg_current_xact_id()`),
    createdAt: created(),
  },
  // Only the feed's order is indexed: an event is written on hot paths (a claim, a redemption),
  // where each index is one more insert; the daily retention delete scans.
  (t) => [index().on(t.xid, t.seq)],
);

/**
 * The operator's webhook endpoints (the Webhooks tab): where events are POSTed, signed with the
 * endpoint's secret (sealed under the server's encryption key, never stored in clear).
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid().primaryKey().defaultRandom(),
  url: text().notNull(),
  description: text().notNull().default(''),
  /** The event types it receives; null: every type. */
  eventTypes: text().array(),
  active: boolean().notNull().default(true),
  /** The signing secret (`whsec_...`), sealed. */
  secret: text().notNull(),
  /** After a rotation: the previous secret (sealed), whose signature deliveries carry until previousSecretUntil. */
  previousSecret: text(),
  previousSecretUntil: tstz(),
  /** Why Boardwalk disabled it ('gone': it answered 410; 'failing': every attempt failed for 5 days); null otherwise. */
  disabledReason: text().$type<'gone' | 'failing'>(),
  /** Since when every attempt has failed; null after a success. */
  failingSince: tstz(),
  createdAt: created(),
  updatedAt: updated(),
});

/**
 * One event (or a staff test message) for one endpoint, and how its delivery went. Messages of
 * one subject go to an endpoint in order: a message waits ('waiting') while an earlier one of
 * its subject is pending or retrying. Each attempt is a job of the `webhooks` queue.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    /** The order messages were made in: a subject's messages go in this order. */
    seq: bigserial({ mode: 'number' }).primaryKey(),
    /** The `webhook-id` (with `msg_`), the same on every attempt: receivers de-duplicate by it. */
    id: uuid().notNull().unique().defaultRandom(),
    endpointId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The event it carries (gone with it, after RETENTION_EVENT_DAYS or an erasure); null for a test message. */
    eventId: uuid().references(() => integrationEvents.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    subject: text().notNull(),
    state: text().$type<'waiting' | 'pending' | 'retrying' | 'delivered' | 'dead'>().notNull(),
    attempts: integer().notNull().default(0),
    /** When the next attempt is due (a retrying message). */
    nextAttemptAt: tstz(),
    lastStatus: integer(),
    lastLatencyMs: integer(),
    lastError: text(),
    deliveredAt: tstz(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    // The tab's recent messages of an endpoint, and its last 24 hours.
    index().on(t.endpointId, t.createdAt),
    // An event deleted (retention, an erasure) takes its messages.
    index().on(t.eventId),
    // A subject's unfinished messages: the one in flight, and the next one waiting.
    index()
      .on(t.endpointId, t.subject, t.seq)
      .where(sql`${t.state} in ('waiting', 'pending', 'retrying')`),
  ],
);

/** How far the webhook dispatcher has read the event feed (one row). */
export const webhookCursor = pgTable(
  'webhook_cursor',
  {
    id: integer().primaryKey().default(1),
    xid: xid8()
      .notNull()
      .default(sql`'0'::xid8`),
    seq: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [check('webhook_cursor_one_row', sql`${t.id} = 1`)],
);

/**
 * One outbound delivery (an APNs push, a Google Wallet object update, a mail) and how it
 * went: the Deliveries tab. The pg-boss job that carries it names this row in its data.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** apple | google | mail */
    target: text().notNull(),
    /** The ticket it is for (none for mail). */
    barcode: text(),
    /** The device, object or recipient, masked for display. */
    recipient: text().notNull(),
    /** queued | sent | fetched (an Apple push whose device then fetched the pass) | skipped | retrying | dead */
    state: text().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    /** The queue and job data, to send it again (a staff Retry makes a new job). */
    queue: text().notNull(),
    payload: jsonb().notNull(),
    /** The pg-boss job of its latest try. */
    jobId: uuid(),
    /** When it was delivered: APNs accepted the push, Google the update, the mail server the message. */
    sentAt: tstz(),
    /** An Apple push: the pass and the device it was for, and the pass's update tag it announced. */
    serialNumber: uuid(),
    deviceLibraryIdentifier: text(),
    passUpdatedAt: tstz(),
    /** An Apple push: when its device asked for its updated passes and was given this one, then fetched it (200). */
    listedAt: tstz(),
    fetchedAt: tstz(),
    /** A Google update: the object's version Google answered. */
    objectVersion: text(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index().on(t.state, t.updatedAt),
    // The list with every state, newest first.
    index().on(t.updatedAt),
    // The last 24 hours' pushes, and the devices that stopped fetching.
    index().on(t.target, t.sentAt),
    // The Dashboard's deliveries per day.
    index().on(t.sentAt),
    // A device listing or fetching its pass finds its pushes.
    index()
      .on(t.serialNumber, t.deviceLibraryIdentifier)
      .where(sql`${t.serialNumber} is not null`),
  ],
);

/** Keys the server generates once and every instance shares (e.g. the barcodeHash key). */
export const serverKeys = pgTable('server_keys', {
  name: text().primaryKey(),
  value: text().notNull(),
  createdAt: created(),
});

/**
 * How many times guests did something the Dashboard counts, per operating day in the park
 * (apps/api/src/platform/activity-counts.ts): lookups found, failed and refused by the
 * throttle, share links opened. Counts only: no address, barcode or link.
 */
export const activityCounts = pgTable(
  'activity_counts',
  {
    day: date({ mode: 'string' }).notNull(),
    activity: text().notNull(),
    count: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.activity] })],
);

// ---- Staff: team members, permissions, sessions, audit --------------------------------

export const teamMembers = pgTable(
  'team_members',
  {
    guid: uuid().primaryKey().defaultRandom(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    internalId: text().notNull(),
    /** The login name, an email address; unique regardless of case. */
    username: text().notNull(),
    /** argon2id PHC string; never returned by any API. */
    passwordHash: text().notNull(),
    description: text(),
    accessLevel: integer().notNull(),
    active: boolean().notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('team_members_username_lower_index').on(sql`lower(${t.username})`)],
);

export const permissions = pgTable(
  'permissions',
  {
    guid: uuid().primaryKey().defaultRandom(),
    name: text().notNull().unique(),
    /** The admin API path the permission guards, e.g. /api/admin/team-member/ (or /admin for _Admin). */
    api: text(),
    /** GET, POST, PUT or DELETE. */
    method: text(),
    minimumAccessLevel: integer().notNull(),
    active: boolean().notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.api, t.method)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    guid: uuid().primaryKey().defaultRandom(),
    teamMemberGuid: uuid()
      .notNull()
      .references(() => teamMembers.guid, { onDelete: 'cascade' }),
    startTimestamp: tstz().notNull().defaultNow(),
    endTimestamp: tstz().notNull(),
    active: boolean().notNull().default(true),
    /** SHA-256 of the access token (base64url); the token itself is never stored. */
    accessTokenHash: text().notNull().unique(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.teamMemberGuid)],
);

/** Every back-office create, update and delete, and every login and logout. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: tstz().notNull().defaultNow(),
    /** Who: null for a failed login by an unknown username. */
    teamMemberGuid: uuid(),
    username: text(),
    /** create, update, delete, login, login-failed, logout */
    action: text().notNull(),
    /** The tab's key (e.g. pass-customizations) or 'session' for logins. */
    resource: text().notNull(),
    recordId: text(),
    /** The row before and after, in the tab's API field names; secrets left out. */
    before: jsonb(),
    after: jsonb(),
  },
  (t) => [index().on(t.at), index().on(t.resource, t.recordId)],
);

// ---- Park settings (back office) -------------------------------------------------------

/** One operating day of the park: when it opens and closes. Passes are relevant on the lock screen then. */
export const parkHours = pgTable(
  'park_hours',
  {
    guid: uuid().primaryKey().defaultRandom(),
    opensAt: tstz().notNull(),
    closesAt: tstz().notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [index().on(t.opensAt), check('park_hours_in_order', sql`${t.closesAt} > ${t.opensAt}`)],
);

/** A place at the park where passes come to the lock screen (the main gate, the pier entrance): at most 10. */
export const parkLocations = pgTable('park_locations', {
  guid: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  latitude: numeric({ precision: 9, scale: 6, mode: 'number' }).notNull(),
  longitude: numeric({ precision: 9, scale: 6, mode: 'number' }).notNull(),
  relevantText: text(),
  /** The lock-screen text in Spanish (null: the English one). */
  relevantTextEs: text(),
  createdAt: created(),
  updatedAt: updated(),
});

/**
 * A notice of the park's (a closing time moved, a ride down for the day): shown on every
 * ticket's pass while the row exists, on the back of Apple passes and as a message of Google's
 * ticket classes.
 */
export const parkNotices = pgTable('park_notices', {
  guid: uuid().primaryKey().defaultRandom(),
  text: text().notNull(),
  /** The notice in Spanish (null: the English one). */
  textEs: text(),
  createdAt: created(),
  updatedAt: updated(),
});

/**
 * Google Wallet's save and delete callbacks, one row per nonce (Google may send one twice):
 * verified, recorded once. serialNumber names the pass whose object it was (null: an object
 * this database does not know).
 */
export const googleWalletCallbacks = pgTable(
  'google_wallet_callbacks',
  {
    nonce: text().primaryKey(),
    eventType: text().notNull(),
    classId: text().notNull(),
    objectId: text().notNull(),
    serialNumber: uuid().references(() => walletPasses.serialNumber, { onDelete: 'set null' }),
    /** The message's expTimeMillis. */
    expiresAt: tstz().notNull(),
    receivedAt: created(),
  },
  // receivedAt: the Dashboard's Google objects saved per day.
  (t) => [index().on(t.serialNumber), index().on(t.receivedAt)],
);

/**
 * A park-wide change sent to every Apple device (a wave): a device pushed asks which of its
 * passes changed since its tag, and every pass counts as changed since the newest wave began
 * (a fetch then answers 304 when what the pass shows is the same). Its pushes go out a page of
 * devices at a time, past `cursor`, so a wave resumed after a restart goes on where it was.
 */
export const walletWaves = pgTable(
  'wallet_waves',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** What staff changed ("park-locations update"). */
    reason: text().notNull(),
    createdAt: created(),
    /** The last device library identifier pushed (devices go in its order); null: none yet. */
    cursor: text(),
    devices: integer().notNull().default(0),
    pushed: integer().notNull().default(0),
    unregistered: integer().notNull().default(0),
    failed: integer().notNull().default(0),
    /** Every device was pushed, or a newer wave took over the rest. */
    finishedAt: tstz(),
  },
  (t) => [index().on(t.createdAt)],
);

/**
 * A request rate shared by every process (Google's requests per second): the moment the next
 * request may go. Each request takes the next free slot in one statement (wallet/google/google-rate.ts).
 */
export const rateSlots = pgTable('rate_slots', {
  key: text().primaryKey(),
  /** Milliseconds since the epoch, by the database's clock. */
  nextAt: doublePrecision().notNull(),
});

/** What Google Wallet was last sent of each pass class (its content hash): a class is created once and updated when it changes. */
export const googleWalletClasses = pgTable('google_wallet_classes', {
  classId: text().primaryKey(),
  contentHash: text().notNull(),
  updatedAt: updated(),
});
