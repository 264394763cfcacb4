// The integration API (integration-api.md): what the operator's systems send in.
import { z } from 'zod';
import { barcode, BARCODE_PATTERN, ORDER_ID_PATTERN } from './pass.ts';

const instant = z.iso.datetime({ offset: true, message: 'Must be ISO 8601 with an offset' });
const usd = z.number().finite().min(0).max(1_000_000).multipleOf(0.01, 'At most 2 decimals');
const text = (max = 200) => z.string().trim().min(1).max(max);

export const orderIdParam = z.object({ orderId: z.string().regex(ORDER_ID_PATTERN, 'Order ID must be 8 digits') });

const person = z.strictObject({
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  email: z.email().max(254).optional(),
  phone: z.string().regex(/^\+?\d{10,15}$/, 'Phone must be 10 to 15 digits').optional(),
});

export const feedTicket = z.strictObject({
  barcode: z.string().regex(BARCODE_PATTERN, 'Barcode must be 8 to 18 digits'),
  product: text(),
  price: usd.optional(),
  category: text(100).optional(),
  categoryId: text(50).optional(),
  packId: text(50).optional(),
  merchItemId: text(50).optional(),
  isPassholder: z.boolean().default(false),
  holder: person.optional(),
  credits: usd.default(0),
  cash: usd.default(0),
  expires: instant.nullable().optional(),
  redeemed: instant.nullable().optional(),
  refunded: z.boolean().default(false),
  isPassActivated: z.boolean().default(false),
  iCloudBindingLink: z.url().max(2000).nullable().optional(),
});

/** PUT /api/integrations/orders/{orderId} */
export const orderFeed = z
  .strictObject({
    orderDate: instant,
    purchaser: person.optional(),
    tickets: z.array(feedTicket).min(1).max(500),
  })
  .superRefine((order, ctx) => {
    const seen = new Set<string>();
    order.tickets.forEach((t, i) => {
      if (seen.has(t.barcode))
        ctx.addIssue({ code: 'custom', path: ['tickets', i, 'barcode'], message: 'Barcode appears twice' });
      seen.add(t.barcode);
    });
  });
export type OrderFeed = z.infer<typeof orderFeed>;

export const usageEvent = z.strictObject({
  barcode,
  attraction: text(),
  location: text(),
  timestamp: instant,
});
/** POST /api/integrations/usage */
export const usageFeed = z.strictObject({ events: z.array(usageEvent).min(1).max(1000) });
export type UsageFeed = z.infer<typeof usageFeed>;
export const usageResult = z.object({ accepted: z.number().int(), duplicates: z.number().int() });

export const checkIdParam = z.object({ checkId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Check id is not valid') });
/** PUT /api/integrations/checks/{checkId} */
export const checkFeed = z.strictObject({
  checkNumber: z.string().regex(/^[A-Za-z0-9-]{1,32}$/, 'Check number is not valid'),
  orderDate: instant,
  terminalId: text(64),
  total: usd,
  refunded: z.boolean().default(false),
});
export type CheckFeed = z.infer<typeof checkFeed>;

export const reservationParam = z.object({
  reservationNumber: z.string().regex(/^[A-Za-z0-9-]{1,32}$/, 'Reservation number is not valid'),
});
/** PUT /api/integrations/reservations/{reservationNumber} */
export const reservationFeed = z
  .strictObject({
    firstName: text(100).optional(),
    lastName: text(100).optional(),
    email: z.email().max(254).optional(),
    arrival: z.iso.date(),
    departure: z.iso.date(),
    total: usd,
    cancelled: z.boolean().default(false),
  })
  .refine((r) => r.departure >= r.arrival, { path: ['departure'], message: 'Departure is before arrival' });
export type ReservationFeed = z.infer<typeof reservationFeed>;

/** The file `npm run import -- FILE.json` reads (and the demo data set). */
export const importFile = z.strictObject({
  orders: z.record(z.string(), z.unknown()).default({}),
  checks: z.record(z.string(), z.unknown()).default({}),
  reservations: z.record(z.string(), z.unknown()).default({}),
  usage: z.array(z.unknown()).default([]),
});
