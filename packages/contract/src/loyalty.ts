// The loyalty club (Brownie points) as guests use it: verify or create an account by email,
// claim a ticket order, a food-and-beverage check or a hotel stay. Staff calls share these shapes.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { registrationFields } from './pass.ts';

/** A scanned code (a ticket barcode or a receipt's code): 16 or 18 characters. */
export const SCANNED_CODE_PATTERN = /^(?:[A-Za-z0-9]{16}|[A-Za-z0-9]{18})$/;
export const isScannedCode = (code: string) => SCANNED_CODE_PATTERN.test(code);

/** allowedChanges: -1 the account already existed, 1 ready to claim, 0 after the claim. */
export const ALLOWED_CHANGES = { existingAccount: -1, claimed: 0, readyToClaim: 1 } as const;

export const LOYALTY_ORDER_TYPES = ['ticket', 'food-and-beverage', 'hotel'] as const;
export type LoyaltyOrderType = (typeof LOYALTY_ORDER_TYPES)[number];
/**
 * What moves points in the ledger (an `expired` entry takes what was left of a lot on its
 * expiry date; a `bonus` is a campaign's on a claimed purchase, a `bonus-reversal` takes it back
 * with the purchase's reversal).
 */
export const LEDGER_ENTRY_KINDS = [
  'earn',
  'reversal',
  'adjustment',
  'redemption',
  'redemption-reversal',
  'expired',
  'bonus',
  'bonus-reversal',
] as const;

export const loyaltyEmail = registrationFields.shape.email;

/** The wallet token of a successful claim (signed, for the account): the loyalty pass's wallet calls take it. */
export const LOYALTY_WALLET_TOKEN = { purpose: 'loyalty-wallet', ttlSeconds: 30 * 60 } as const;
/** The guest page a staff member's emailed pass link opens: `${LOYALTY_PASS_PATH}#email=…&token=…`. */
export const LOYALTY_PASS_PATH = '/loyalty/pass';
const { firstName, lastName } = registrationFields.shape;
export const userId = z.uuid('User ID is not valid');

/** The one-time code that proves a loyalty email: valid 60 minutes, 10 tries. */
export const LOYALTY_EMAIL_CODE = { digits: 6, ttlSeconds: 60 * 60, tries: 10 } as const;
/** What proving the code answers for an email with no account: create takes it (signed, the email, valid 60 minutes). */
export const LOYALTY_EMAIL_PROOF = { purpose: 'loyalty-email-proof', ttlSeconds: 60 * 60 } as const;

/** POST /api/loyalty/verify: mails a one-time code to the email. */
export const verifyRequest = z.strictObject({ email: loyaltyEmail });
/** What verify answers, the same for any email: the address the code went to and how long it works. */
export const verifyAnswer = z.object({
  email: z.string(),
  validMinutes: describe(z.number().check(z.int()), 'How long the code works'),
});
export type VerifyAnswer = z.infer<typeof verifyAnswer>;

/** POST /api/loyalty/confirm: the code from the mail. */
export const confirmRequest = z.strictObject({
  email: loyaltyEmail,
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code from the email')),
});
/** A proven email: its account's user id, or (no account) the proof that create takes. */
export const confirmAnswer = z.discriminatedUnion('account', [
  z.object({
    account: z.literal('existing'),
    userID: describe(z.string(), "The account's user id (as verify answered before): it cannot claim or obtain a card"),
  }),
  z.object({
    account: z.literal('new'),
    proof: describe(z.string(), 'Signed for the email, valid 60 minutes: create takes it'),
  }),
]);
export type ConfirmAnswer = z.infer<typeof confirmAnswer>;

/** Days in each month, February's 29 included: a birthday on Feb 29 is celebrated on Feb 28 in other years. */
export const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
/** A member's birthday: month and day, no year (a birthday campaign rewards it once a year). */
export const birthday = describe(
  z
    .object({
      month: z.number().check(z.int(), z.gte(1, 'Month must be from 1 to 12'), z.lte(12, 'Month must be from 1 to 12')),
      day: z.number().check(z.int(), z.gte(1, 'Day must be from 1 to 31'), z.lte(31, 'Day must be from 1 to 31')),
    })
    .check(z.refine(({ month, day }) => day <= DAYS_IN_MONTH[month - 1]!, 'That month has fewer days')),
  "The member's birthday, month and day (no year)",
);
export type Birthday = z.infer<typeof birthday>;

/** An account's email and names: what staff create an account with (the staff member proves the email). */
export const accountNames = z.strictObject({ email: loyaltyEmail, firstName, lastName });
/** POST /api/loyalty/create: the names, for an email proven by its code. */
export const createAccountRequest = z.extend(accountNames, {
  proof: z.string().check(z.minLength(1, 'Confirm your email first'), z.maxLength(2048, 'Confirm your email first')),
  birthday: z.optional(z.nullable(birthday)),
  referralCode: describe(
    z.optional(z.string().check(z.trim(), z.regex(/^[A-Za-z0-9]{1,20}$/, 'This referral link is not valid'))),
    'The code of the referral link the guest came by (`/loyalty/?ref=CODE`)',
  ),
});

/** The referral link's query parameter on the loyalty page: `/loyalty/?ref=CODE`. */
export const REFERRAL_PARAMETER = 'ref';

/** Why a referral was refused (400 on create, nothing created): the English message; the reason below is what the page words. */
export const referralMessages = {
  unknown: 'This referral link is not valid.',
  self: 'You cannot use your own referral link.',
  existing: 'Referral links are for new members: this email already has an account.',
  capped: 'This referral link has been used as often as it can be this month.',
  noCampaign: 'Referrals are not running right now.',
} as const;
export type ReferralRefusal = keyof typeof referralMessages;
export const REFERRAL_REFUSALS: Record<ReferralRefusal, string> = {
  unknown: 'REFERRAL_UNKNOWN',
  self: 'REFERRAL_SELF',
  existing: 'REFERRAL_EXISTING_MEMBER',
  capped: 'REFERRAL_CAPPED',
  noCampaign: 'REFERRAL_NO_CAMPAIGN',
};

/**
 * The user id a public claim names: the secret that create answered for the new account (a
 * signed token, valid as long as the account may claim online). The id confirm answers for an
 * existing, proven email is not one: it cannot claim or obtain a card.
 */
export const claimUserId = z
  .string()
  .check(
    z.minLength(1, 'User ID is not valid'),
    z.maxLength(1024, 'User ID is not valid'),
    z.regex(/^[A-Za-z0-9._-]+$/, 'User ID is not valid'),
  );

/** What identifies each kind of purchase in a claim, whoever makes it. */
export const claimFields = {
  /** An 8-digit order id (invoice number) or a scanned ticket barcode. */
  tickets: {
    orderId: z.string().check(
      z.trim(),
      z.refine((value) => /^\d{8}$/.test(value) || isScannedCode(value), 'Enter the 8-digit order number or scan the ticket barcode'),
    ),
    email: loyaltyEmail,
  },
  /** A check number, or the receipt's scanned code; checkID picks one of several checks. */
  purchase: {
    checkNumber: z.string().check(z.trim(), z.regex(/^[A-Za-z0-9-]{1,32}$/, 'Enter the check number printed on the receipt')),
    email: loyaltyEmail,
    checkID: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Check ID is not valid'))),
  },
  hotels: {
    reservationNumber: z.string().check(z.trim(), z.regex(/^[A-Za-z0-9-]{1,32}$/, 'Enter the reservation number')),
    email: loyaltyEmail,
  },
} as const;

/** POST /api/loyalty/tickets/ */
export const ticketClaimRequest = z.strictObject({ ...claimFields.tickets, userID: claimUserId });
/** POST /api/loyalty/purchase/ */
export const purchaseClaimRequest = z.strictObject({ ...claimFields.purchase, userID: claimUserId });
/** POST /api/loyalty/hotels/ */
export const hotelClaimRequest = z.strictObject({ ...claimFields.hotels, userID: claimUserId });
export type TicketClaimRequest = z.infer<typeof ticketClaimRequest>;
export type PurchaseClaimRequest = z.infer<typeof purchaseClaimRequest>;
export type HotelClaimRequest = z.infer<typeof hotelClaimRequest>;

/** A claimed purchase, with every identifier of it: what staff and the audit log see. */
export const loyaltyOrder = z.object({
  id: z.string(),
  type: z.enum(LOYALTY_ORDER_TYPES),
  /** The order id, check number or reservation number. */
  reference: z.string(),
  /** The ticket's barcode, the check's id or the reservation number. */
  sourceId: z.string(),
  product: z.string(),
  amount: z.number(),
  purchasedAt: z.iso.datetime({ offset: true }),
  claimedAt: z.iso.datetime({ offset: true }),
  points: z.number().check(z.int()),
});
export type LoyaltyOrder = z.infer<typeof loyaltyOrder>;

/**
 * A claimed purchase as the guest who claimed it sees it: what it was, when, and what it
 * earned. Never another identifier of the order (no barcode for an order id, no order id for
 * a barcode): a claim must not hand out what a ticket lookup asks for.
 */
export const claimedPurchase = z.pick(loyaltyOrder, { type: true, product: true, purchasedAt: true, points: true });
export type ClaimedPurchase = z.infer<typeof claimedPurchase>;

/** A successful claim: what it earned, the new balance and a wallet token for the member's pass. */
export const claimResult = z.object({
  pointsEarned: z.number().check(z.int()),
  balance: z.number().check(z.int()),
  loyaltyOrders: describe(z.array(claimedPurchase), 'The claimed purchases: one per ticket of a ticket order'),
  allowedChanges: z.number().check(z.int()),
  walletToken: describe(z.string(), 'Signed, valid 30 minutes: the loyalty variant of the wallet calls takes it'),
});
export type ClaimResult = z.infer<typeof claimResult>;

/** Several checks share the number and no checkID was given: nothing is claimed; the guest or staff member picks one. */
export const checkCandidate = z.object({
  checkID: z.string(),
  ORDER_DATE: z.iso.datetime({ offset: true }),
  TERMINAL_ID: z.string(),
  IN_LOYALTY_ORDERS: describe(z.boolean(), "Already among this account's loyalty orders"),
});
export const checkCandidates = z.array(checkCandidate);
export type CheckCandidate = z.infer<typeof checkCandidate>;

/** What the proof of a loyalty email says to the guest (400 messages and the mail). */
export const loyaltyEmailMessages = {
  wrongCode: 'This code is not right. Check the latest email we sent you and try again.',
  expired: 'This code has expired or was tried too many times. Ask for a new code.',
  proofRequired: 'Confirm your email with the code we sent you first.',
} as const;
export type CodeRefusal = keyof typeof loyaltyEmailMessages;

/** Why a 400 refused the emailed code: the answer's `reason`, for the page to word. */
export const CODE_REFUSALS: Record<CodeRefusal, string> = {
  wrongCode: 'CODE_WRONG',
  expired: 'CODE_EXPIRED',
  proofRequired: 'CODE_PROOF_REQUIRED',
};

/** Why a 400 refused a claim: the answer's `reason` (tooOld with `params.days`, the claim window), for the page to word. */
export const CLAIM_REFUSALS = {
  unknownAccount: 'CLAIM_UNKNOWN_ACCOUNT',
  emailMismatch: 'CLAIM_EMAIL_MISMATCH',
  notPublic: 'CLAIM_NOT_PUBLIC',
  alreadyClaimedOnline: 'CLAIM_ALREADY_CLAIMED_ONLINE',
  notYours: 'CLAIM_NOT_YOURS',
  scanReceipt: 'CLAIM_SCAN_RECEIPT',
  unknownOrder: 'CLAIM_UNKNOWN_ORDER',
  unknownCheck: 'CLAIM_UNKNOWN_CHECK',
  unknownReservation: 'CLAIM_UNKNOWN_RESERVATION',
  refunded: 'CLAIM_REFUNDED',
  cancelled: 'CLAIM_CANCELLED',
  tooOld: 'CLAIM_TOO_OLD',
  claimed: 'CLAIM_CLAIMED',
  nothingToEarn: 'CLAIM_NOTHING_TO_EARN',
} as const;
export type ClaimRefusal = keyof typeof CLAIM_REFUSALS;
