// The guest pass: login, registration and the order object.
import { z } from 'zod';
import { BARCODE_PATTERN, ORDER_ID_PATTERN, TEST_PASS_ORDER_ID } from './pass-address.ts';

export { BARCODE_PATTERN, HASH_URL_MIN_SEGMENT, ORDER_ID_PATTERN, TEST_PASS_ORDER_ID } from './pass-address.ts';
/** An email as the forms accept it: local part, @, domain, dot, at least 2 letters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

export const orderId = z.string().trim().regex(ORDER_ID_PATTERN, 'Order ID must be 8 digits').describe('8-digit order id');
export const barcode = z.string().trim().regex(BARCODE_PATTERN, 'Barcode must be 8 to 18 digits').describe('8 to 18 digits');
export const hashUrl = z
  .string()
  .regex(/^[A-Za-z0-9_-]{81,256}$/, 'Link is not valid')
  .describe('Direct share link: more than 80 URL-safe characters');
export const shareId = z.uuid('Share id is not valid');

/** POST /api/login/: order id (or 0 for a test pass) and barcode, or a hashUrl alone. */
export const loginRequest = z.union([
  z.strictObject({
    orderId: z.union([orderId, z.literal(TEST_PASS_ORDER_ID)]),
    barcode,
    shareId: z.union([shareId, z.literal('')]).optional(),
    hashUrl: z.literal('').optional(),
    isIOS: z.boolean().optional(),
  }),
  z.strictObject({
    hashUrl,
    orderId: z.literal('').optional(),
    barcode: z.literal('').optional(),
    shareId: z.literal('').optional(),
    isIOS: z.boolean().optional(),
  }),
]);
export type LoginRequest = z.infer<typeof loginRequest>;

/** Phone as typed, e.g. "(310) 555-0100": kept as its digits, at least 10 of them. */
export const phone = z
  .string()
  .transform((s) => s.replace(/\D/g, ''))
  .pipe(z.string().min(10, 'Phone must have at least 10 digits').max(15, 'Phone is too long'));

/** Control characters (NUL cannot be stored) and lone surrogates (not text) are refused. */
export const printable = (s: string) => !/[\p{Cc}\p{Cs}]/u.test(s);

const personName = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} is too long`)
    .refine(printable, `${label} must not contain control characters`);

export const registrationFields = z.strictObject({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: z.string().trim().max(254, 'Email is too long').regex(EMAIL_PATTERN, 'Email is not valid').refine(printable, 'Email is not valid'),
  phone,
  optInEmailMarketing: z.boolean().default(false),
  optInSMSMarketing: z.boolean().default(false),
});

/** POST /api/register/ */
export const registerRequest = registrationFields.extend({
  orderId,
  barcode,
  isIOS: z.boolean().optional(),
});
export type RegisterRequest = z.input<typeof registerRequest>;

export const ticketShare = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  salesforceId: z.string().nullable(),
  directLink: z
    .string()
    .nullable()
    .describe('PUBLIC_URL/{hashUrl}: given only by the call that issued the link (only its hash is kept); null elsewhere'),
});
export type TicketShare = z.infer<typeof ticketShare>;

const nullableText = z.string().nullable();
const isoDate = z.iso.datetime({ offset: true }).nullable();

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
  excluded: nullableText.describe('The exclusion message when the ticket may not go to a wallet'),
  shareId: z.string().describe('The share the guest came through; empty for the primary guest'),
  sharedWith: ticketShare.nullable().describe('The shared guest, when viewed through a share'),
  iCloudBindingLink: nullableText,
  iCloudBoundToWallet: z.boolean().describe('A device added this pass to Apple Wallet'),
  photoUid: nullableText.describe("The passholder photo's uid (GET /api/download/{uid}/photo.bmp), null without one"),
  skipRegistration: z.boolean(),
  skipImage: z.boolean(),
  passLocked: z
    .boolean()
    .describe("An activated season pass whose holder's data was erased: no photo upload or registration until staff lift the lock"),
  isPassholder: z.boolean(),
  credits: z.number(),
  cash: z.number(),
  category: nullableText,
  purchaserFirstName: nullableText,
  purchaserLastName: nullableText,
  orderDate: isoDate,
  redeemed: isoDate,
  expires: isoDate,
  visitDate: z.iso.date().nullable().describe("A dated admission's day (YYYY-MM-DD, the park's calendar day); null for an undated ticket"),
  product: z.string(),
  refunded: z.boolean(),
  backgroundColor: z.string().describe('CSS colour, #rrggbb'),
  foregroundColor: z.string().describe('CSS colour, #rrggbb'),
  ticketShares: z.array(ticketShare),
  ticketShareToken: nullableText.describe("Bearer token for the ticket share calls: the ticket's own guest, credits > 0; valid 30 minutes"),
  wristbandActivateToken: nullableText.describe('Token for POST /api/wristband/activate/ of a wristband ticket; valid 15 minutes'),
  barcodeHash: nullableText.describe("A Stored Value Card's balance page: /stored-value/{barcodeHash}"),
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
  consents: z
    .record(z.enum(CONSENT_CHANNELS), z.object({ label: z.string(), disclosure: z.string().nullable() }))
    .describe("The consents' wording in the call's language (Accept-Language), as a registration in it records them"),
});
export type SiteInfo = z.infer<typeof siteInfo>;
