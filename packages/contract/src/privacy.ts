// A person's data, found by an email address, a phone number or a barcode: what staff see on the
// Privacy page and download as one JSON document (POST /api/admin/privacy/export). Dates are ISO
// 8601; every field is documented in docs/privacy.md ("The export"). The document holds what is
// about the person only: on a ticket where they are the registrant but not the purchaser, the
// purchaser's fields are left out; never a link, a token or a device's push token.
import { z } from 'zod/mini';
import { barcode, EMAIL_PATTERN, orderId, phone, printable } from './pass.ts';

const email = z
  .string()
  .check(
    z.trim(),
    z.maxLength(254, 'Email is too long'),
    z.regex(EMAIL_PATTERN, 'Email is not valid'),
    z.refine(printable, 'Email is not valid'),
  );

const personName = z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.refine(printable, 'Name is not valid'));

export const PRIVACY_QUERY_MESSAGE =
  "Enter one of an email, a phone or a barcode, or a first and last name with an order id, a barcode or the order's date";

/**
 * Whom to find: exactly one of an email address, a phone number (its digits) or a barcode; or,
 * for a person known by name only (a ticket holder with no email or phone, often a child), a
 * first and last name with exactly one of an order id, a barcode or the order's date
 * (YYYY-MM-DD, UTC).
 */
export const privacyQuery = z
  .strictObject({
    email: z.optional(email),
    phone: z.optional(phone),
    barcode: z.optional(barcode),
    firstName: z.optional(personName),
    lastName: z.optional(personName),
    orderId: z.optional(orderId),
    orderDate: z.optional(z.iso.date('Order date must be YYYY-MM-DD')),
  })
  .check(
    z.refine((q) => {
      const given = (...values: unknown[]) => values.filter((v) => v !== undefined).length;
      if (q.firstName === undefined && q.lastName === undefined)
        return given(q.email, q.phone, q.barcode, q.orderId, q.orderDate) === 1 && q.orderId === undefined && q.orderDate === undefined;
      return (
        q.firstName !== undefined &&
        q.lastName !== undefined &&
        given(q.email, q.phone) === 0 &&
        given(q.orderId, q.barcode, q.orderDate) === 1
      );
    }, PRIVACY_QUERY_MESSAGE),
  );
export type PrivacyQuery = z.infer<typeof privacyQuery>;

const at = z.iso.datetime({ offset: true });
const contact = z.object({
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
});

export const TICKET_ROLES = ['purchaser', 'holder', 'registrant'] as const;

export const privacySections = {
  /** Tickets where the person is the purchaser (of the order), the holder or the registrant. */
  tickets: z.array(
    z.object({
      orderId: z.string(),
      barcode: z.string(),
      product: z.string(),
      visitDate: z.nullable(z.string()),
      expires: z.nullable(at),
      roles: z.array(z.enum(TICKET_ROLES)),
      purchaser: z.nullable(contact),
      holder: z.nullable(contact),
      registration: z.nullable(z.extend(contact, { registeredAt: at, updatedAt: at })),
    }),
  ),
  /** The marketing consents of their registrations, as they stand, each with its history: every change, where and the wording shown. */
  consents: z.array(
    z.object({
      barcode: z.string(),
      channel: z.enum(['email', 'sms']),
      given: z.boolean(),
      at,
      history: z.array(z.object({ given: z.boolean(), at, source: z.string(), wording: z.string() })),
    }),
  ),
  /** Shares of their tickets to other guests: whom they shared with, as they typed it. */
  sharesMade: z.array(
    z.object({ shareId: z.string(), barcode: z.string(), sharedWith: contact, createdAt: at, stoppedAt: z.nullable(at) }),
  ),
  /** Shares of other guests' tickets made to them. */
  sharesReceived: z.array(
    z.object({
      shareId: z.string(),
      barcode: z.string(),
      person: contact,
      crmId: z.nullable(z.string()),
      createdAt: at,
      stoppedAt: z.nullable(at),
    }),
  ),
  /** Season-pass photos of their tickets, as PNG (base64). */
  photos: z.array(z.object({ barcode: z.string(), width: z.number(), height: z.number(), uploadedAt: at, png: z.string() })),
  /**
   * Locks on their activated season passes: left by an erasure, a lock keeps a new photo or name
   * off the pass until staff lift it (POST /api/admin/privacy/pass-lock/lift).
   */
  passLocks: z.array(z.object({ barcode: z.string(), reason: z.enum(['erasure']), lockedAt: at })),
  /** Wristbands bound to their tickets. */
  wristbands: z.array(z.object({ wristbandBarcode: z.string(), barcode: z.string(), activatedAt: at, deactivatedAt: z.nullable(at) })),
  /** Visit reservations of their season passes: each entry window booked or waited for, and what became of it. */
  visitReservations: z.array(
    z.object({
      barcode: z.string(),
      startsAt: at,
      endsAt: at,
      status: z.enum(['booked', 'waitlisted', 'cancelled', 'used', 'no_show']),
      madeAt: at,
    }),
  ),
  /** Their loyalty account with its whole history (by a phone, more than one may match). */
  loyalty: z.array(
    z.object({
      memberNumber: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      phone: z.nullable(z.string()),
      zip: z.nullable(z.string()),
      seasonPassId: z.nullable(z.string()),
      joinedAt: at,
      balance: z.number(),
      ledger: z.array(z.object({ points: z.number(), kind: z.string(), reason: z.string(), at })),
      claims: z.array(
        z.object({
          sourceType: z.string(),
          sourceId: z.string(),
          product: z.string(),
          amount: z.number(),
          purchasedAt: at,
          claimedAt: at,
          reversedAt: z.nullable(at),
        }),
      ),
      redemptions: z.array(z.object({ reward: z.string(), pointsSpent: z.number(), redeemedAt: at, reversedAt: z.nullable(at) })),
    }),
  ),
  /** Hotel reservations made under their email address. */
  hotelReservations: z.array(
    z.object({
      reservationNumber: z.string(),
      firstName: z.nullable(z.string()),
      lastName: z.nullable(z.string()),
      email: z.nullable(z.string()),
      arrival: z.string(),
      departure: z.string(),
      cancelled: z.boolean(),
    }),
  ),
  /** Mails sent (or to send) to them: recipient, subject and times, never the body (it holds links). */
  mails: z.array(z.object({ to: z.string(), subject: z.string(), createdAt: at, sentAt: z.nullable(at) })),
  /** Their passes in Apple Wallet and Google Wallet: how many devices, since when; never a token. */
  wallet: z.array(
    z.object({
      pass: z.enum(['ticket', 'share', 'member']),
      barcode: z.nullable(z.string()),
      appleDevices: z.number(),
      firstAddedAt: z.nullable(at),
      lastAddedAt: z.nullable(at),
      googleState: z.nullable(z.string()),
      googleStateAt: z.nullable(at),
    }),
  ),
};
export type PrivacySections = { [K in keyof typeof privacySections]: z.infer<(typeof privacySections)[K]> };

export const privacyExport = z.object({
  exportedAt: at,
  query: z.object({
    email: z.optional(z.string()),
    phone: z.optional(z.string()),
    barcode: z.optional(z.string()),
    firstName: z.optional(z.string()),
    lastName: z.optional(z.string()),
    orderId: z.optional(z.string()),
    orderDate: z.optional(z.string()),
  }),
  ...privacySections,
});
export type PrivacyExport = z.infer<typeof privacyExport>;

/** Whether the document holds anything about the person. */
export const holdsAnything = (doc: PrivacySections) => Object.values(doc).some((section) => section.length > 0);

/** POST /api/admin/privacy/erase: what was erased, by category, and the orders of the person's tickets. */
export const privacyErasure = z.object({
  /** False when nothing was held (a second erasure of the same person). */
  held: z.boolean(),
  erased: z.record(z.string(), z.number().check(z.int())),
  /** The person's orders: erase them in the ticketing system too, or its next feed brings the names back. */
  orderIds: z.array(z.string()),
});
export type PrivacyErasure = z.infer<typeof privacyErasure>;

/** POST /api/admin/privacy/pass-lock/lift: the season pass whose lock staff lift. */
export const passLockLiftRequest = z.strictObject({ barcode });
/** The lock as it was, now lifted. */
export const passLockLifted = z.object({ barcode: z.string(), reason: z.string(), lockedAt: at, liftedAt: at });
export type PassLockLifted = z.infer<typeof passLockLifted>;

// ---- The guest's own request ----

/** The page where a guest asks for their privacy link, linked from every guest page's footer. */
export const PRIVACY_PAGE_PATH = '/privacy/';
/** The page the emailed link opens: `${PRIVACY_MANAGE_PATH}#<token>`. */
export const PRIVACY_MANAGE_PATH = '/privacy/manage';
/** The emailed link's token: signed for the email, valid 24 hours, spent by an erasure. */
export const PRIVACY_LINK_TOKEN = { purpose: 'privacy-link', ttlSeconds: 24 * 60 * 60 } as const;

/** POST /api/privacy/request */
export const privacyLinkRequest = z.strictObject({ email });
/** Its answer (202), the same whether or not anything is held about the email. */
export const privacyLinkAnswer = z.object({ email: z.string(), validHours: z.number() });
export type PrivacyLinkAnswer = z.infer<typeof privacyLinkAnswer>;

export const guestPrivacyMessages = {
  tokenRequired: 'Open the link from your email to see your data.',
  expired: 'This link has expired: links work for 24 hours. Ask for a new one below.',
  invalid: 'This link is not valid. Ask for a new one below.',
  spent: 'This link was used to delete your data and no longer works. Ask for a new one below.',
} as const;
export type PrivacyLinkRefusal = keyof typeof guestPrivacyMessages;

/** Why a 401 refuses the link: the answer's `reason`, for the page to word in the guest's language. */
export const PRIVACY_LINK_REFUSALS: Record<PrivacyLinkRefusal, string> = {
  tokenRequired: 'PRIVACY_LINK_MISSING',
  expired: 'PRIVACY_LINK_EXPIRED',
  invalid: 'PRIVACY_LINK_INVALID',
  spent: 'PRIVACY_LINK_SPENT',
};
