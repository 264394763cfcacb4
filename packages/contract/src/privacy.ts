// A person's data, found by an email address, a phone number or a barcode: what staff see on the
// Privacy page and download as one JSON document (POST /api/admin/privacy/export). Dates are ISO
// 8601; every field is documented in docs/privacy.md ("The export"). The document holds what is
// about the person only: on a ticket where they are the registrant but not the purchaser, the
// purchaser's fields are left out; never a link, a token or a device's push token.
import { z } from 'zod';
import { barcode, EMAIL_PATTERN, orderId, phone, printable } from './pass.ts';

const email = z
  .string()
  .trim()
  .max(254, 'Email is too long')
  .regex(EMAIL_PATTERN, 'Email is not valid')
  .refine(printable, 'Email is not valid');

const personName = z.string().trim().min(1).max(100).refine(printable, 'Name is not valid');

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
    email: email.optional(),
    phone: phone.optional(),
    barcode: barcode.optional(),
    firstName: personName.optional(),
    lastName: personName.optional(),
    orderId: orderId.optional(),
    orderDate: z.iso.date('Order date must be YYYY-MM-DD').optional(),
  })
  .refine((q) => {
    const given = (...values: unknown[]) => values.filter((v) => v !== undefined).length;
    if (q.firstName === undefined && q.lastName === undefined)
      return given(q.email, q.phone, q.barcode, q.orderId, q.orderDate) === 1 && q.orderId === undefined && q.orderDate === undefined;
    return (
      q.firstName !== undefined &&
      q.lastName !== undefined &&
      given(q.email, q.phone) === 0 &&
      given(q.orderId, q.barcode, q.orderDate) === 1
    );
  }, PRIVACY_QUERY_MESSAGE);
export type PrivacyQuery = z.infer<typeof privacyQuery>;

const at = z.iso.datetime({ offset: true });
const contact = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

export const TICKET_ROLES = ['purchaser', 'holder', 'registrant'] as const;

export const privacySections = {
  /** Tickets where the person is the purchaser (of the order), the holder or the registrant. */
  tickets: z.array(
    z.object({
      orderId: z.string(),
      barcode: z.string(),
      product: z.string(),
      visitDate: z.string().nullable(),
      expires: at.nullable(),
      roles: z.array(z.enum(TICKET_ROLES)),
      purchaser: contact.nullable(),
      holder: contact.nullable(),
      registration: contact.extend({ registeredAt: at, updatedAt: at }).nullable(),
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
  sharesMade: z.array(z.object({ shareId: z.string(), barcode: z.string(), sharedWith: contact, createdAt: at, stoppedAt: at.nullable() })),
  /** Shares of other guests' tickets made to them. */
  sharesReceived: z.array(
    z.object({
      shareId: z.string(),
      barcode: z.string(),
      person: contact,
      crmId: z.string().nullable(),
      createdAt: at,
      stoppedAt: at.nullable(),
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
  wristbands: z.array(z.object({ wristbandBarcode: z.string(), barcode: z.string(), activatedAt: at, deactivatedAt: at.nullable() })),
  /** Their loyalty account with its whole history (by a phone, more than one may match). */
  loyalty: z.array(
    z.object({
      memberNumber: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      zip: z.string().nullable(),
      seasonPassId: z.string().nullable(),
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
          reversedAt: at.nullable(),
        }),
      ),
      redemptions: z.array(z.object({ reward: z.string(), pointsSpent: z.number(), redeemedAt: at, reversedAt: at.nullable() })),
    }),
  ),
  /** Hotel reservations made under their email address. */
  hotelReservations: z.array(
    z.object({
      reservationNumber: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      email: z.string().nullable(),
      arrival: z.string(),
      departure: z.string(),
      cancelled: z.boolean(),
    }),
  ),
  /** Mails sent (or to send) to them: recipient, subject and times, never the body (it holds links). */
  mails: z.array(z.object({ to: z.string(), subject: z.string(), createdAt: at, sentAt: at.nullable() })),
  /** Their passes in Apple Wallet and Google Wallet: how many devices, since when; never a token. */
  wallet: z.array(
    z.object({
      pass: z.enum(['ticket', 'share', 'member']),
      barcode: z.string().nullable(),
      appleDevices: z.number(),
      firstAddedAt: at.nullable(),
      lastAddedAt: at.nullable(),
      googleState: z.string().nullable(),
      googleStateAt: at.nullable(),
    }),
  ),
};
export type PrivacySections = { [K in keyof typeof privacySections]: z.infer<(typeof privacySections)[K]> };

export const privacyExport = z.object({
  exportedAt: at,
  query: z.object({
    email: z.string().optional(),
    phone: z.string().optional(),
    barcode: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    orderId: z.string().optional(),
    orderDate: z.string().optional(),
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
  erased: z.record(z.string(), z.number().int()),
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
