// The integration API (documented for integrators in docs/integration-api.md): what the
// operator's systems send in, and what Boardwalk answers. Every value that reaches the
// database is bounded here, so bad input is a 400 naming the field, never a database error.
import { z } from 'zod';
import { SCANNED_CODE_PATTERN } from './loyalty.ts';
import { barcode, BARCODE_PATTERN, ORDER_ID_PATTERN, printable } from './pass.ts';

/**
 * What an integration key may call (INTEGRATION_API_KEYS: `name:secret:scope+scope`): each
 * integration route declares one; a key without it is answered 403 naming it.
 */
export const INTEGRATION_SCOPES = [
  'orders',
  'checks',
  'reservations',
  'usage',
  'wristbands',
  /** Look a loyalty member up (by card or by typed member number). */
  'members',
  /** Redeem rewards (with the card's barcode). */
  'redeem',
  /** Reverse the redemptions this key made. */
  'reverse',
  /** Reverse any redemption (any system's or staff's). */
  'reverse-any',
  /** Read the event feed. */
  'events',
  /** Ask whether a pass holds a visit reservation for now (the gate). */
  'visits',
] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

/**
 * A strict object that reports each unknown field at its own path ("tickets.0.colour:
 * Unknown field"), so typos surface where they are; z.strictObject would name only the
 * enclosing object. The check runs even when other fields are wrong, so one answer lists
 * every bad field. Typed (and documented: additionalProperties false) as a strict object.
 */
export function feedObject<T extends z.ZodRawShape>(shape: T) {
  const known = new Set(Object.keys(shape));
  const schema = z
    .looseObject(shape)
    .superRefine(
      (value, ctx) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
        for (const key of Object.keys(value)) {
          if (!known.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'Unknown field' });
        }
      },
      { when: () => true },
    )
    .meta({ additionalProperties: false });
  return schema as unknown as z.ZodObject<T, z.core.$strict>;
}

// Years the database and every client can hold; outside them a date is surely a mistake.
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;
const yearInRange = (ms: number) => {
  const year = new Date(ms).getUTCFullYear();
  return Number.isFinite(ms) && year >= MIN_YEAR && year <= MAX_YEAR;
};
const instant = z.iso
  .datetime({ offset: true, abort: true, error: 'Must be ISO 8601 with an offset, e.g. 2026-11-21T11:02:09-08:00' })
  .refine((s) => yearInRange(Date.parse(s)), `Must be between the years ${MIN_YEAR} and ${MAX_YEAR}`)
  .describe('ISO 8601 timestamp with an offset');
const calendarDate = z.iso
  .date({ abort: true, error: 'Must be a date, e.g. 2026-12-01' })
  .refine((s) => yearInRange(Date.parse(`${s}T12:00:00Z`)), `Must be between the years ${MIN_YEAR} and ${MAX_YEAR}`);
const usd = z
  .number()
  .finite()
  .min(0, 'Must not be negative')
  .max(1_000_000, 'Must be at most 1000000')
  // Whole cents only, so what is stored (numeric(12,2)) reads back as the number sent.
  .refine((v) => Math.round(v * 100) / 100 === v, 'At most 2 decimals')
  .describe('USD, at most 2 decimals');
const text = (max = 200) =>
  z
    .string()
    .trim()
    .min(1, 'Must not be empty')
    .max(max, `Must be at most ${max} characters`)
    .refine(printable, 'Must not contain control characters');
const email = z.email('Must be an email address').max(254, 'Must be at most 254 characters');

export const orderIdParam = z.object({ orderId: z.string().regex(ORDER_ID_PATTERN, 'Order ID must be 8 digits') });

const person = feedObject({
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  email: email.optional(),
  phone: z
    .string()
    .regex(/^\+?\d{10,15}$/, 'Phone must be 10 to 15 digits')
    .optional(),
});

export const feedTicket = feedObject({
  barcode: z.string().regex(BARCODE_PATTERN, 'Barcode must be 8 to 18 digits'),
  product: text(),
  price: usd.optional(),
  category: text(100).optional().describe('Free text; "Stored Value Card" selects the stored-value presentation'),
  categoryId: text(50).optional(),
  packId: text(50).optional(),
  merchItemId: text(50).optional(),
  isPassholder: z.boolean().default(false).describe('The product is a season pass'),
  holder: person.optional().describe('Without a first or last name the guest is asked to register'),
  credits: usd.default(0),
  cash: usd.default(0),
  expires: instant.nullable().optional(),
  visitDate: calendarDate
    .nullable()
    .optional()
    .describe("A dated admission's day (the park's calendar day): its wallet pass is an event ticket for that day"),
  redeemed: instant.nullable().optional(),
  refunded: z.boolean().default(false),
  isPassActivated: z.boolean().default(false),
  iCloudBindingLink: z
    .url({ protocol: /^https?$/, error: 'Must be an http(s) URL' })
    .max(2000, 'Must be at most 2000 characters')
    .refine(printable, 'Must not contain control characters')
    .nullable()
    .optional(),
});

/** PUT /api/integrations/orders/{orderId} */
export const orderFeed = feedObject({
  orderDate: instant,
  purchaser: person.optional(),
  tickets: z.array(feedTicket).min(1, 'An order has at least one ticket').max(500, 'At most 500 tickets'),
}).superRefine((order, ctx) => {
  const seen = new Set<string>();
  order.tickets.forEach((t, i) => {
    if (seen.has(t.barcode)) ctx.addIssue({ code: 'custom', path: ['tickets', i, 'barcode'], message: 'Barcode appears twice' });
    seen.add(t.barcode);
  });
});
export type OrderFeed = z.infer<typeof orderFeed>;

export const usageEvent = feedObject({
  barcode,
  attraction: text(),
  location: text(),
  timestamp: instant,
});
export type UsageEvent = z.infer<typeof usageEvent>;
export const MAX_USAGE_EVENTS = 1000;
/** POST /api/integrations/usage */
export const usageFeed = feedObject({
  events: z.array(usageEvent).min(1, 'Send at least one event').max(MAX_USAGE_EVENTS, `At most ${MAX_USAGE_EVENTS} events per call`),
});
export type UsageFeed = z.infer<typeof usageFeed>;
export const usageResult = z.object({
  accepted: z.number().int().describe('Events stored by this call'),
  duplicates: z.number().int().describe('Events already held (same barcode, attraction and timestamp)'),
});
export type UsageResult = z.infer<typeof usageResult>;

export const checkIdParam = z.object({ checkId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Check id is not valid') });
/** PUT /api/integrations/checks/{checkId} */
export const checkFeed = feedObject({
  checkNumber: z.string().regex(/^[A-Za-z0-9-]{1,32}$/, 'Check number is not valid'),
  orderDate: instant,
  terminalId: text(64),
  total: usd,
  refunded: z.boolean().default(false),
  receiptCode: z
    .string()
    .regex(SCANNED_CODE_PATTERN, 'Receipt code must be 16 or 18 letters or digits')
    .optional()
    .describe('The code printed as a barcode on the receipt: guests scan it to claim loyalty points'),
});
export type CheckFeed = z.infer<typeof checkFeed>;

export const reservationParam = z.object({
  reservationNumber: z.string().regex(/^[A-Za-z0-9-]{1,32}$/, 'Reservation number is not valid'),
});
/** PUT /api/integrations/reservations/{reservationNumber} */
export const reservationFeed = feedObject({
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  email: email.optional(),
  arrival: calendarDate,
  departure: calendarDate,
  total: usd,
  cancelled: z.boolean().default(false),
}).refine((r) => r.departure >= r.arrival, { path: ['departure'], message: 'Departure is before arrival' });
export type ReservationFeed = z.infer<typeof reservationFeed>;

/** The answer of every PUT: 201 with "created", 200 with "replaced" or "unchanged". */
export const upsertResult = z.object({
  outcome: z.enum(['created', 'replaced', 'unchanged']).describe('unchanged: the same resource was already held, nothing was written'),
});
export type UpsertOutcome = z.infer<typeof upsertResult>['outcome'];

const heldPerson = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});
const heldInstant = z.iso.datetime({ offset: true });

/** GET /api/integrations/orders/{orderId}: what Boardwalk holds for the order. */
export const heldOrder = z.object({
  orderId: z.string(),
  orderDate: heldInstant,
  purchaser: heldPerson,
  createdAt: heldInstant,
  updatedAt: heldInstant,
  tickets: z.array(
    z.object({
      barcode: z.string(),
      product: z.string(),
      price: z.number().nullable(),
      category: z.string().nullable(),
      categoryId: z.string().nullable(),
      packId: z.string().nullable(),
      merchItemId: z.string().nullable(),
      isPassholder: z.boolean(),
      holder: heldPerson.describe('As the ticketing feed sent it'),
      credits: z.number(),
      cash: z.number(),
      expires: heldInstant.nullable(),
      visitDate: z.string().nullable(),
      redeemed: heldInstant.nullable(),
      refunded: z.boolean(),
      isPassActivated: z.boolean(),
      iCloudBindingLink: z.string().nullable(),
      createdAt: heldInstant,
      updatedAt: heldInstant,
      registration: z
        .object({
          firstName: z.string(),
          lastName: z.string(),
          email: z.string(),
          phone: z.string(),
          optInEmailMarketing: z.boolean(),
          optInSMSMarketing: z.boolean(),
          createdAt: heldInstant,
          updatedAt: heldInstant,
        })
        .nullable()
        .describe("What the guest entered at registration; it wins over the holder's details"),
      shares: z
        .array(
          z.object({
            shareId: z.string(),
            firstName: z.string(),
            lastName: z.string(),
            email: z.string(),
            phone: z.string().nullable(),
            createdAt: heldInstant,
          }),
        )
        .describe('Active shares of the ticket'),
    }),
  ),
});
export type HeldOrder = z.infer<typeof heldOrder>;

/** The file `npm run import -- FILE.json` reads (and the demo data set). */
export const importFile = feedObject({
  orders: z.record(z.string(), z.unknown()).default({}).describe('Order id -> the body of PUT orders/{orderId}'),
  checks: z.record(z.string(), z.unknown()).default({}).describe('Check id -> the body of PUT checks/{checkId}'),
  reservations: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Reservation number -> the body of PUT reservations/{reservationNumber}'),
  usage: z.array(z.unknown()).default([]).describe('Usage events as in POST usage (any number)'),
});
export type ImportFile = z.infer<typeof importFile>;
