// The guest pass: login, registration and the order object.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { BARCODE_PATTERN, ORDER_ID_PATTERN, TEST_PASS_ORDER_ID } from './pass-address.ts';

export { BARCODE_PATTERN, HASH_URL_MIN_SEGMENT, ORDER_ID_PATTERN, TEST_PASS_ORDER_ID } from './pass-address.ts';
/** An email as the forms accept it: local part, @, domain, dot, at least 2 letters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

export const orderId = describe(z.string().check(z.trim(), z.regex(ORDER_ID_PATTERN, 'Order ID must be 8 digits')), '8-digit order id');
export const barcode = describe(z.string().check(z.trim(), z.regex(BARCODE_PATTERN, 'Barcode must be 8 to 18 digits')), '8 to 18 digits');
export const hashUrl = describe(
  z.string().check(z.regex(/^[A-Za-z0-9_-]{81,256}$/, 'Link is not valid')),
  'Direct share link: more than 80 URL-safe characters',
);
export const shareId = z.uuid('Share id is not valid');

/** POST /api/login/: order id (or 0 for a test pass) and barcode, or a hashUrl alone. */
export const loginRequest = z.union([
  z.strictObject({
    orderId: z.union([orderId, z.literal(TEST_PASS_ORDER_ID)]),
    barcode,
    shareId: z.optional(z.union([shareId, z.literal('')])),
    hashUrl: z.optional(z.literal('')),
    isIOS: z.optional(z.boolean()),
  }),
  z.strictObject({
    hashUrl,
    orderId: z.optional(z.literal('')),
    barcode: z.optional(z.literal('')),
    shareId: z.optional(z.literal('')),
    isIOS: z.optional(z.boolean()),
  }),
]);
export type LoginRequest = z.infer<typeof loginRequest>;

/** Phone as typed, e.g. "(310) 555-0100": kept as its digits, at least 10 of them. */
export const phone = z.pipe(
  z.pipe(
    z.string(),
    z.transform((s: string) => s.replace(/\D/g, '')),
  ),
  z.string().check(z.minLength(10, 'Phone must have at least 10 digits'), z.maxLength(15, 'Phone is too long')),
);

/** Control characters (NUL cannot be stored) and lone surrogates (not text) are refused. */
export const printable = (s: string) => !/[\p{Cc}\p{Cs}]/u.test(s);

const personName = (label: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(100, `${label} is too long`),
      z.refine(printable, `${label} must not contain control characters`),
    );

export const registrationFields = z.strictObject({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: z
    .string()
    .check(
      z.trim(),
      z.maxLength(254, 'Email is too long'),
      z.regex(EMAIL_PATTERN, 'Email is not valid'),
      z.refine(printable, 'Email is not valid'),
    ),
  phone,
  optInEmailMarketing: z._default(z.boolean(), false),
  optInSMSMarketing: z._default(z.boolean(), false),
});

/** POST /api/register/ */
export const registerRequest = z.extend(registrationFields, {
  orderId,
  barcode,
  isIOS: z.optional(z.boolean()),
});
export type RegisterRequest = z.input<typeof registerRequest>;

export const ticketShare = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  salesforceId: z.nullable(z.string()),
  directLink: describe(
    z.nullable(z.string()),
    'PUBLIC_URL/{hashUrl}: given only by the call that issued the link (only its hash is kept); null elsewhere',
  ),
});
export type TicketShare = z.infer<typeof ticketShare>;

const nullableText = z.nullable(z.string());
const isoDate = z.nullable(z.iso.datetime({ offset: true }));

/** The order object answered by login and register, for one ticket of the order. */
export const passOrder = z.object({
  orderId: z.string(),
  barcode: z.string(),
  firstName: nullableText,
  lastName: nullableText,
  email: nullableText,
  phone: nullableText,
  optInEmailMarketing: z.boolean(),
  optInSMSMarketing: z.boolean(),
  isPassActivated: z.boolean(),
  isRedeemed: z.boolean(),
  isWristband: z.boolean(),
  excluded: describe(nullableText, 'The exclusion message when the ticket may not go to a wallet'),
  shareId: describe(z.string(), 'The share the guest came through; empty for the primary guest'),
  sharedWith: describe(z.nullable(ticketShare), 'The shared guest, when viewed through a share'),
  iCloudBindingLink: nullableText,
  iCloudBoundToWallet: describe(z.boolean(), 'A device added this pass to Apple Wallet'),
  photoUid: describe(nullableText, "The passholder photo's uid (GET /api/download/{uid}/photo.bmp), null without one"),
  skipRegistration: z.boolean(),
  skipImage: z.boolean(),
  passLocked: describe(
    z.boolean(),
    "An activated season pass whose holder's data was erased: no photo upload or registration until staff lift the lock",
  ),
  isPassholder: z.boolean(),
  credits: z.number(),
  cash: z.number(),
  category: nullableText,
  purchaserFirstName: nullableText,
  purchaserLastName: nullableText,
  orderDate: isoDate,
  redeemed: isoDate,
  expires: isoDate,
  visitDate: describe(
    z.nullable(z.iso.date()),
    "A dated admission's day (YYYY-MM-DD, the park's calendar day); null for an undated ticket",
  ),
  product: z.string(),
  refunded: z.boolean(),
  backgroundColor: describe(z.string(), 'CSS colour, #rrggbb'),
  foregroundColor: describe(z.string(), 'CSS colour, #rrggbb'),
  ticketShares: z.array(ticketShare),
  ticketShareToken: describe(
    nullableText,
    "Bearer token for the ticket share calls: the ticket's own guest, credits > 0; valid 30 minutes",
  ),
  wristbandActivateToken: describe(nullableText, 'Token for POST /api/wristband/activate/ of a wristband ticket; valid 15 minutes'),
  barcodeHash: describe(nullableText, "A Stored Value Card's balance page: /stored-value/{barcodeHash}"),
});
export type PassOrder = z.infer<typeof passOrder>;

/** The marketing consents a registration asks for. */
export const CONSENT_CHANNELS = ['email', 'sms'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/**
 * The short code marketing texts come from (the SMS disclosure names it). The consents' wording
 * is the pass page's catalogue (i18n/<language>/pages/pass.ts `consent`), in each language: the
 * registration form shows it and the server records it (apps/api/src/guest/pass/consent-wording.ts).
 */
export const SMS_SHORT_CODE = '36401';

/** A consent's whole wording, as kept once per version: the label, then the disclosure. */
export const consentText = (wording: { label: string; disclosure: string | null }) =>
  wording.disclosure ? `${wording.label} ${wording.disclosure}` : wording.label;

/** Public settings the app needs before any lookup. */
export const siteInfo = z.object({
  brandName: z.string(),
  supportEmail: z.string(),
  consents: describe(
    z.record(z.enum(CONSENT_CHANNELS), z.object({ label: z.string(), disclosure: z.nullable(z.string()) })),
    "The consents' wording in the call's language (Accept-Language), as a registration in it records them",
  ),
});
export type SiteInfo = z.infer<typeof siteInfo>;
