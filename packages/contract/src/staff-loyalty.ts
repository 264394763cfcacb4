// The Loyalty tab's calls: search accounts, load one, add purchases on a member's behalf, adjust
// points, set the season pass id, phone and zip, remove an order or the account. The claim
// bodies are the guest calls' (loyalty.ts); the staff answers keep the back office's field names.
import { z } from 'zod';
import {
  accountNames,
  claimFields,
  loyaltyEmail,
  loyaltyOrder,
  userId,
  birthday,
  verifyRequest,
  LEDGER_ENTRY_KINDS,
  LOYALTY_ORDER_TYPES,
} from './loyalty.ts';
import { memberCampaign, memberChallenge, tillReward } from './loyalty-integration.ts';
import { referralSection } from './loyalty-statement.ts';
import { phone, printable } from './pass.ts';

export const STAFF_LOYALTY_API = '/api/admin/loyalty/';

/** allowedChanges in admin mode: staff may add any number of purchases. */
export const ADMIN_MODE_ALLOWED_CHANGES = 1_000_000;

/** The search is enabled at 3 characters, submitted at 4. */
export const SEARCH_MIN_ENABLED = 3;
export const SEARCH_MIN_SUBMIT = 4;
/** At most this many accounts answer one search (refine the term for more). */
export const SEARCH_LIMIT = 50;

/** A season pass id: exactly 18 characters, starting with 24. */
export const SEASON_PASS_PATTERN = /^24[A-Za-z0-9]{16}$/;
export const isSeasonPassId = (value: string) => SEASON_PASS_PATTERN.test(value);

/** The pass link a member is mailed: valid this long (24 hours; the link carries the token). */
export const PASS_LINK_TTL_SECONDS = 24 * 60 * 60;

/** Staff verify and create: the admin variants of the public calls (no throttle, created by staff). */
export const staffVerifyRequest = verifyRequest;
export const staffCreateRequest = accountNames;

/** POST /api/admin/loyalty/ (the account's orders) */
export const ordersRequest = z.strictObject({ email: loyaltyEmail });

/** Whether a pass is in a wallet: the devices registered for its Apple Wallet updates, and what Google Wallet's callbacks last said. */
export const walletPresence = z.object({
  appleDevices: z.number().int().describe('Devices registered for the pass in Apple Wallet (its shared guests’ passes included)'),
  google: z
    .enum(['saved', 'deleted', 'unknown'])
    .describe(
      'What Google Wallet’s save and delete callbacks last said of the object (saved when any of the ticket’s objects is); unknown before any',
    ),
});
export type WalletPresence = z.infer<typeof walletPresence>;

/** An order row of the loaded account. */
export const staffLoyaltyOrder = z.object({
  /** The order id, check number or reservation number (Order ID / Check #). */
  id: z.string(),
  /** The ticket's barcode, the check's id or the reservation number (Barcode / Check ID). */
  barcode: z.string(),
  product: z.string(),
  /** When the purchase was made (Order Date). */
  timestamp: z.iso.datetime({ offset: true }),
  type: z.enum(LOYALTY_ORDER_TYPES),
  points: z.number().int(),
  /** A ticket's pass in the wallets; null for other purchases. */
  wallets: walletPresence.nullable(),
});
export const staffLoyaltyOrders = z.array(staffLoyaltyOrder);
export type StaffLoyaltyOrder = z.infer<typeof staffLoyaltyOrder>;

/** POST /api/admin/loyalty/search/ */
export const searchRequest = z.strictObject({
  searchTerm: z
    .string()
    .trim()
    .min(SEARCH_MIN_SUBMIT, `Enter at least ${SEARCH_MIN_SUBMIT} characters`)
    .max(254, 'The search term is too long')
    .refine(printable, 'The search term must not contain control characters'),
});
/** A search result row (Account, Email, Name, Phone, Zip), with the user id to load. */
export const searchResult = z.object({
  STRACCOUNTID: z.string().describe('The member number'),
  STREMAIL: z.string(),
  STRFIRSTNAME: z.string(),
  STRLASTNAME: z.string(),
  STRPHONEDAY: z.string(),
  STRZIP: z.string(),
  userID: z.string(),
});
export const searchResults = z.array(searchResult);
export type SearchResult = z.infer<typeof searchResult>;

export const seasonPassId = z.string().trim().regex(SEASON_PASS_PATTERN, 'The season pass ID is 18 characters starting with 24');
/** POST /api/admin/loyalty/pass/ */
export const seasonPassRequest = z.strictObject({ userID: userId, seasonPassID: seasonPassId });

export const userIdParams = z.strictObject({ userId });
export const orderParams = z.strictObject({
  userId,
  orderId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'Order ID is not valid'),
  barcode: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Barcode is not valid'),
});

/** Staff add a purchase on the member's behalf, naming the account by its user id. */
export const staffTicketClaimRequest = z.strictObject({ ...claimFields.tickets, userID: userId });
export const staffPurchaseClaimRequest = z.strictObject({ ...claimFields.purchase, userID: userId });
export const staffHotelClaimRequest = z.strictObject({ ...claimFields.hotels, userID: userId });
export type StaffTicketClaimRequest = z.infer<typeof staffTicketClaimRequest>;
export type StaffPurchaseClaimRequest = z.infer<typeof staffPurchaseClaimRequest>;
export type StaffHotelClaimRequest = z.infer<typeof staffHotelClaimRequest>;

/** A staff claim: what it earned, the new balance and the claimed purchases with all their identifiers, in admin mode. */
export const staffClaimResult = z.object({
  pointsEarned: z.number().int(),
  balance: z.number().int(),
  loyaltyOrders: z.array(loyaltyOrder),
  allowedChanges: z.number().int(),
});
export type StaffClaimResult = z.infer<typeof staffClaimResult>;

/** One ledger entry as staff see it, with its reason. */
export const ledgerEntry = z.object({
  id: z.number().int(),
  points: z.number().int(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  reason: z.string(),
  /** The order id, check number or reservation number of the purchase it is about. */
  reference: z.string().nullable(),
  causedBy: z.enum(['guest', 'staff', 'system', 'till']),
  staffMember: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

/** GET /api/admin/loyalty/account/{userId}/: the loaded account, its balance and its ledger (newest first). */
export const staffAccount = z.object({
  userID: z.string(),
  memberNumber: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  zip: z.string().nullable(),
  birthday: z.nullable(birthday),
  balance: z.number().int(),
  /** The tier the points earned in the last 365 days reach; null when none. */
  tier: z.string().nullable(),
  /** The member card in the wallets. */
  card: walletPresence,
  /** The campaigns running today that apply to the member's purchases. */
  campaigns: z.array(memberCampaign),
  /** The challenges running today for the member, with their progress. */
  challenges: z.array(memberChallenge),
  /** The member's referral link and the members who joined through it. */
  referral: referralSection,
  ledger: z.array(ledgerEntry),
});
export type StaffAccount = z.infer<typeof staffAccount>;

/** US ZIP (5 digits, or ZIP+4). */
export const zip = z
  .string()
  .trim()
  .regex(/^\d{5}(?:-\d{4})?$/, 'Zip must be 5 digits (or ZIP+4)');

/** POST /api/admin/loyalty/contact/: staff fill in the member's phone and zip (empty clears). */
export const contactRequest = z.strictObject({
  userID: userId,
  phone: z.union([z.literal(''), phone]).transform((v) => v || null),
  zip: z.union([z.literal(''), zip]).transform((v) => v || null),
  /** Null clears it; absent leaves it as it is. */
  birthday: z.optional(z.nullable(birthday)),
});

/** Adjustments: whole points, either sign, at most this much at once. */
export const MAX_ADJUSTMENT = 1_000_000;
/** POST /api/admin/loyalty/adjust/ */
export const adjustRequest = z.strictObject({
  userID: userId,
  points: z
    .number()
    .int('Points must be a whole number')
    .min(-MAX_ADJUSTMENT, 'That adjustment is too large')
    .max(MAX_ADJUSTMENT, 'That adjustment is too large')
    .refine((n) => n !== 0, 'Points must not be zero'),
  reason: z
    .string()
    .trim()
    .min(1, 'A reason is required')
    .max(200, 'The reason is too long')
    .refine(printable, 'The reason must not contain control characters'),
});

/** POST /api/admin/loyalty/pass-link/: mail the member the link to their loyalty pass. */
export const passLinkRequest = z.strictObject({ userID: userId });
export const passLinkResult = z.object({ sentTo: z.string() });

/** The Loyalty tab's failure toasts. */
export const staffLoyaltyMessages = {
  unableToSubmit: 'Unable to submit, please try again later.',
  unableToCreate: 'Unable to create profile, please try again later.',
  unableToRemove: 'Unable to remove, please try again later.',
  unableToGetSeasonPass: 'Unable to get season pass details, please try again later.',
  unableToAddSeasonPass: 'Unable to add season pass, please try again later.',
  unableToRemoveSeasonPass: 'Unable to remove season pass, please try again later.',
  unableToSearch: 'Unable to search, please try again later.',
  unableToLoadOrders: 'Unable to load orders.',
  accountRemoved: (email: string) => `Account ${email} removed.`,
  orderRemoved: 'Order removed.',
  removeOrderConfirm: 'This will remove the order from this account. Are you sure you wish to proceed?',
  redeemed: (reward: string, balance: number) => `${reward} redeemed. The balance is now ${balance.toLocaleString('en-US')}.`,
  redemptionReversed: (points: number) => `Redemption reversed: ${points.toLocaleString('en-US')} points given back.`,
  claimFailed: (email: string) =>
    `Unable to submit, please try again later. If this issue persists, please email us at ${email} for assistance.`,
} as const;

/** One of the member's redemptions (at a till or by staff), newest first. */
export const staffRedemption = z.object({
  redemptionId: z.guid(),
  rewardName: z.string(),
  pointsSpent: z.number().int(),
  redeemedAt: z.iso.datetime({ offset: true }),
  /** When its points were given back; null while it stands. */
  reversedAt: z.iso.datetime({ offset: true }).nullable(),
  causedBy: z.enum(['till', 'staff']),
  staffMember: z.string().nullable(),
});
export type StaffRedemption = z.infer<typeof staffRedemption>;

/**
 * GET /api/admin/loyalty/redemptions/{userId}/: the member's redemptions, the rewards they can
 * redeem now, and the idempotency key the Redeem form sends (a fresh one with every answer: a
 * double submit of the form spends once).
 */
export const staffRedemptions = z.object({
  redemptions: z.array(staffRedemption),
  /** The rewards the member can redeem now (active, in dates, tier reached, limit not reached, covered by the balance), as a till is offered them. */
  rewards: z.array(tillReward),
  idempotencyKey: z.guid(),
});
export type StaffRedemptions = z.infer<typeof staffRedemptions>;

/** POST /api/admin/loyalty/redemptions/: redeem a reward for the member, once per key. */
export const staffRedeemRequest = z.strictObject({
  userID: userId,
  rewardId: z.guid('Choose a reward'),
  idempotencyKey: z.guid('The form is out of date: reload the account'),
});
export const staffRedeemResult = z.object({
  redemptionId: z.guid(),
  rewardName: z.string(),
  pointsSpent: z.number().int(),
  balance: z.number().int(),
});
export type StaffRedeemResult = z.infer<typeof staffRedeemResult>;

/** POST /api/admin/loyalty/redemptions/reverse/: give a redemption's points back, once. */
export const staffReverseRequest = z.strictObject({ userID: userId, redemptionId: z.guid('Redemption id must be a GUID') });
export const staffReverseResult = z.object({ pointsReturned: z.number().int(), balance: z.number().int() });

/** One of the member's lots (a positive ledger entry's points), as staff see it. */
export const staffLot = z.object({
  lotId: z.number().int(),
  reason: z.string(),
  points: z.number().int(),
  remaining: z.number().int(),
  earnedAt: z.iso.datetime({ offset: true }),
  /** Null: never expires. */
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  /** The points its expiry took. */
  expiredPoints: z.number().int(),
  expired: z.boolean(),
});
/** GET /api/admin/loyalty/lots/{userId}/: the member's lots, newest first. */
export const staffLots = z.array(staffLot);
export type StaffLot = z.infer<typeof staffLot>;

/** GET: every member with their balance and tier now, as CSV (Loyalty Export). */
export const LOYALTY_MEMBERS_EXPORT_API = `${STAFF_LOYALTY_API}export/members.csv`;
/** GET ?from=&to=: the ledger's entries of those operating days (both included), as CSV (Loyalty Export). */
export const LOYALTY_LEDGER_EXPORT_API = `${STAFF_LOYALTY_API}export/ledger.csv`;

export const ledgerExportQuery = z
  .strictObject({
    from: z.iso.date('From must be a date (YYYY-MM-DD)'),
    to: z.iso.date('To must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => q.from <= q.to, { message: 'From must not be after To', path: ['to'] });
