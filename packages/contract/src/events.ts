// The events Boardwalk tells the operator's systems of (docs/integration-api.md, "Events"): each
// with a stable type and a versioned payload `{ type, timestamp, data }`. A payload carries the
// ids the operator's systems know (order id, barcode, member number, share id) and never a
// secret: no token, no share or wallet link, no loyalty user id, no URL.
import { z } from 'zod';
import { LANGUAGES } from './i18n/languages.ts';
import { CONSENT_CHANNELS } from './pass.ts';

/** Version 1 of every payload: a field may be added; one is never removed or changed in meaning. */
export const EVENT_VERSION = 1;

const ticket = { orderId: z.string(), barcode: z.string() };
/** The guest's language (a BCP 47 tag): what Boardwalk writes them in (docs/i18n.md). */
const language = z.enum(LANGUAGES);
/** The marketing consents as they stand: email news, SMS. */
const consents = z.object({ email: z.boolean(), sms: z.boolean() });

/** A wallet pass: a ticket's (order id and barcode; a shared guest's names the share) or a member card's (member number). */
const walletPass = z.object({
  wallet: z.enum(['apple', 'google']),
  serialNumber: z.string(),
  orderId: z.string().nullable(),
  barcode: z.string().nullable(),
  shareId: z.string().nullable(),
  memberNumber: z.string().nullable(),
});

/** A pass's reservation of an entry window (status: booked, waitlisted, cancelled, used, no_show). */
const visitReservation = z.object({
  ...ticket,
  reservationId: z.string(),
  day: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.string(),
});

/** Each event type's data. */
export const eventData = {
  /** A guest saved a ticket's registration (first time or again). */
  'guest.registered': z.object({
    ...ticket,
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    consents,
    language,
  }),
  /** A marketing consent was given or withdrawn (one event per channel that changed). */
  'guest.consent_changed': z.object({
    ...ticket,
    channel: z.enum(CONSENT_CHANNELS),
    given: z.boolean(),
    /** Where it changed: the registration form. */
    source: z.string(),
  }),
  /**
   * A guest chose another language on the guest page: their registration's (shareId null) or
   * their share's (a shared guest). Their passes and mails follow it.
   */
  'guest.language_changed': z.object({ ...ticket, shareId: z.string().nullable(), language }),
  /** A guest shared a credit ticket with someone. */
  'share.created': z.object({
    ...ticket,
    shareId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    language,
  }),
  /** A share's person was corrected (same email: the link stays). */
  'share.updated': z.object({
    ...ticket,
    shareId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    language,
  }),
  /** The guest stopped a share (or gave it a new email, which makes a new share): its link no longer opens the pass. */
  'share.stopped': z.object({ ...ticket, shareId: z.string() }),
  /** A guest activated a wristband for a ticket. */
  'wristband.activated': z.object({ ...ticket, wristbandBarcode: z.string() }),
  /** A passholder booked an entry window (or moved their booking of that day to it). */
  'reservation.booked': visitReservation,
  /** A booking or a place on a waitlist was cancelled (by the guest, or when the pass moved to another window). */
  'reservation.cancelled': visitReservation,
  /** A place freed and the first on the window's waitlist was booked into it. */
  'reservation.promoted': visitReservation,
  /** A booked window ended without the pass being used at the gate. */
  'reservation.no_show': visitReservation,
  /** A pass was added to a wallet: an Apple device registered for it, or Google said it was saved. */
  'wallet.pass_added': walletPass,
  /** A pass left a wallet: an Apple device unregistered from it, or Google said it was deleted. */
  'wallet.pass_removed': walletPass,
  /** A loyalty club member joined (on the guest page or by staff). */
  'loyalty.member_created': z.object({
    memberNumber: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    createdBy: z.enum(['guest', 'staff']),
    language,
  }),
  /** A ledger entry was written (earned, redeemed, reversed, expired, adjusted): the entry and the balance it left. */
  'loyalty.points_changed': z.object({
    memberNumber: z.string(),
    entry: z.object({
      /** The ledger entry's id (a whole number, as text). */
      id: z.string(),
      points: z.number().int(),
      kind: z.string(),
      reason: z.string(),
      /** When it was written, ISO 8601. */
      at: z.string(),
    }),
    balance: z.number().int(),
  }),
  /** A member's tier changed: points earned reached a higher tier, or a reversal took them below one (null: no tier). */
  'loyalty.tier_changed': z.object({
    memberNumber: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
  }),
  /** A campaign's points budget is spent: it awards no more bonuses (its last bonus's loyalty.points_changed comes with it). */
  'loyalty.campaign_budget_spent': z.object({
    campaignId: z.string(),
    name: z.string(),
    budget: z.number().int(),
    /** Points its bonuses awarded in all (the budget: a bonus is cut to what is left). */
    awarded: z.number().int(),
  }),
  /** A member redeemed a reward (at a till or by staff); its loyalty.points_changed comes with it. */
  'loyalty.reward_redeemed': z.object({
    memberNumber: z.string(),
    redemptionId: z.string(),
    rewardId: z.string(),
    rewardName: z.string(),
    pointsSpent: z.number().int(),
    /** The balance after the redemption. */
    balance: z.number().int(),
    /** Who redeemed it: `till` (the point of sale) or `staff`. */
    redeemedBy: z.enum(['till', 'staff']),
  }),
  /**
   * Everything held about a person was erased (on their own request or by staff): ids only, so
   * the operator's systems erase them too. Their earlier events are gone from the feed.
   */
  'guest.erased': z.object({
    orderIds: z.array(z.string()),
    barcodes: z.array(z.string()),
    /** The language of the guest who asked from their privacy link's page; null when staff erased. */
    language: language.nullable(),
  }),
} as const;

export type EventType = keyof typeof eventData;
export const EVENT_TYPES = Object.keys(eventData) as EventType[];
export type EventDataOf<T extends EventType> = z.infer<(typeof eventData)[T]>;

/** An example of each type's data: the catalogue in docs/integration-api.md shows these (a test holds the two together). */
/** A reservation event's example, in a status. */
const reservationExample = (status: string) => ({
  orderId: '84000001',
  barcode: '2400000100000001',
  reservationId: '0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
  day: '2026-12-19',
  startsAt: '2026-12-19T18:00:00.000Z',
  endsAt: '2026-12-19T20:00:00.000Z',
  status,
});

export const EVENT_EXAMPLES: { [T in EventType]: EventDataOf<T> } = {
  'guest.registered': {
    orderId: '84000001',
    barcode: '8400000100000001',
    firstName: 'Ines',
    lastName: 'Okafor',
    email: 'ines.okafor@example.com',
    phone: '3125550143',
    consents: { email: false, sms: true },
    language: 'es',
  },
  'guest.consent_changed': { orderId: '84000001', barcode: '8400000100000001', channel: 'sms', given: true, source: 'registration form' },
  'guest.language_changed': { orderId: '84000001', barcode: '8400000100000001', shareId: null, language: 'es' },
  'share.created': {
    orderId: '84000001',
    barcode: '8400000100000001',
    shareId: '5c8a1f0e-2b7d-4e61-9f3a-1d2c3b4a5e6f',
    firstName: 'Theo',
    lastName: 'Marsh',
    email: 'theo.marsh@example.com',
    phone: null,
    language: 'es',
  },
  'share.updated': {
    orderId: '84000001',
    barcode: '8400000100000001',
    shareId: '5c8a1f0e-2b7d-4e61-9f3a-1d2c3b4a5e6f',
    firstName: 'Theodore',
    lastName: 'Marsh',
    email: 'theo.marsh@example.com',
    phone: '3125550188',
    language: 'es',
  },
  'share.stopped': { orderId: '84000001', barcode: '8400000100000001', shareId: '5c8a1f0e-2b7d-4e61-9f3a-1d2c3b4a5e6f' },
  'wristband.activated': { orderId: '84000001', barcode: '8400000100000001', wristbandBarcode: 'WB00012345' },
  'reservation.booked': reservationExample('booked'),
  'reservation.cancelled': reservationExample('cancelled'),
  'reservation.promoted': reservationExample('booked'),
  'reservation.no_show': reservationExample('no_show'),
  'wallet.pass_added': {
    wallet: 'apple',
    serialNumber: '0b7e9c52-3f1a-4d8e-a6b2-9c4d1e7f3a20',
    orderId: '84000001',
    barcode: '8400000100000001',
    shareId: null,
    memberNumber: null,
  },
  'wallet.pass_removed': {
    wallet: 'google',
    serialNumber: '0b7e9c52-3f1a-4d8e-a6b2-9c4d1e7f3a20',
    orderId: '84000001',
    barcode: '8400000100000001',
    shareId: null,
    memberNumber: null,
  },
  'loyalty.member_created': {
    memberNumber: '7700000000000042',
    firstName: 'Ines',
    lastName: 'Okafor',
    email: 'ines.okafor@example.com',
    createdBy: 'guest',
    language: 'es',
  },
  'loyalty.points_changed': {
    memberNumber: '7700000000000042',
    entry: { id: '1187', points: -40, kind: 'adjustment', reason: 'Duplicate claim', at: '2026-11-24T16:03:11.204+00:00' },
    balance: 210,
  },
  'loyalty.tier_changed': { memberNumber: '7700000000000042', from: 'Silver', to: 'Gold' },
  'loyalty.campaign_budget_spent': {
    campaignId: '5b1e0c9d-3f2a-4e8b-9a7c-6d5e4f3a2b1c',
    name: 'Double Points Weekend',
    budget: 50000,
    awarded: 50000,
  },
  'loyalty.reward_redeemed': {
    memberNumber: '7700000000000042',
    redemptionId: 'e4d2c1b0-7a6f-4e5d-9c8b-1a2b3c4d5e6f',
    rewardId: '2f9a8b7c-6d5e-4f3a-8b2c-1d0e9f8a7b6c',
    rewardName: 'Free Churro',
    pointsSpent: 150,
    balance: 60,
    redeemedBy: 'till',
  },
  'guest.erased': { orderIds: ['84000001'], barcodes: ['8400000100000001'], language: 'es' },
};

/** One event as the feed lists it (and a webhook will send it). */
export const integrationEvent = z.object({
  /** Unique and stable: the same event always has the same id. */
  id: z.string().uuid(),
  type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
  /** When the change happened, ISO 8601. */
  timestamp: z.string(),
  version: z.literal(EVENT_VERSION),
  /** The integration key's name (INTEGRATION_API_KEYS) whose call caused it, e.g. a till's redemption; null when a guest, staff or Boardwalk itself did. */
  system: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type IntegrationEvent = z.infer<typeof integrationEvent>;

/** The feed's cursor: opaque to a reader, who passes back the `next` it was given. */
const cursorMessage = 'after must be a cursor the feed answered (next)';
const cursor = z
  .string()
  // Decimal with no leading zero: PostgreSQL reads xid8 text in C's base 0, so "09" is bad octal.
  .regex(/^(0|[1-9]\d{0,19})-(0|[1-9]\d{0,15})$/, { error: cursorMessage, abort: true })
  // Within the columns: a transaction id is an unsigned 64-bit number, a sequence a safe integer.
  .refine((text) => {
    const [xid = '', seq = ''] = text.split('-');
    return BigInt(xid) < 2n ** 64n && Number.isSafeInteger(Number(seq));
  }, cursorMessage);

/** GET /api/integrations/events?after=<cursor>&limit=N */
export const eventFeedQuery = z.object({
  after: cursor.optional().describe('The `next` of the previous page; left out, the feed starts at its oldest event'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Events per page, 1 to 1,000 (100)'),
});
export type EventFeedQuery = z.infer<typeof eventFeedQuery>;

export const eventFeedPage = z.object({
  events: z.array(integrationEvent),
  /** Pass as `after` to read on: the same cursor again when there was nothing new. */
  next: z.string(),
});
export type EventFeedPage = z.infer<typeof eventFeedPage>;

export const EVENTS_API = '/api/integrations/events';
