// The member's own statement ("my points"): a member asks for a link by email, and the link
// (/loyalty/statement#TOKEN, signed for the account, valid 24 hours) opens their balance, tier,
// ledger and the rewards catalogue. The token travels in the fragment and then in the
// Authorization header, never in an address a server or a Referer sees.
import { z } from 'zod/mini';
import { describe } from './describe.ts';
import { LEDGER_ENTRY_KINDS, LOYALTY_ORDER_TYPES, loyaltyEmail } from './loyalty.ts';

/** The page the emailed link opens: `${LOYALTY_STATEMENT_PATH}#${token}`. */
export const LOYALTY_STATEMENT_PATH = '/loyalty/statement';
/** The statement token: signed for the account, valid 24 hours. */
export const LOYALTY_STATEMENT_TOKEN = { purpose: 'loyalty-statement', ttlSeconds: 24 * 60 * 60 } as const;
/** Ledger entries per page of the statement. */
export const STATEMENT_PAGE_SIZE = 50;

/** POST /api/loyalty/statement-link */
export const statementLinkRequest = z.strictObject({ email: loyaltyEmail });
/** The same answer whether or not the email is a member's: membership is not told here. */
export const statementLinkAnswer = z.object({
  email: describe(z.string(), 'The email as received: a link goes to it when it belongs to a member'),
  validHours: describe(z.number().check(z.int()), 'How long the emailed link works'),
});
export type StatementLinkAnswer = z.infer<typeof statementLinkAnswer>;

/** GET /api/loyalty/statement/ledger?before= */
export const statementLedgerQuery = z.strictObject({
  before: describe(
    z.coerce.number().check(z.int('before must be an entry id'), z.positive('before must be an entry id')),
    'The id of the last entry already shown: the page holds the entries older than it',
  ),
});

/** Why the park's systems took a claimed purchase's points back: refunded, cancelled, or gone from its feed. */
export const REVERSAL_CAUSES = ['refunded', 'cancelled', 'removed'] as const;
export type ReversalCause = (typeof REVERSAL_CAUSES)[number];
/** Why a purchase's points were taken back, as the statement tells it: the systems' causes, or guest services removing the purchase. */
const STATEMENT_REVERSAL_CAUSES = [...REVERSAL_CAUSES, 'removedByStaff'] as const;

export const statementEntry = z.object({
  id: z.number().check(z.int()),
  createdAt: z.iso.datetime({ offset: true }),
  points: describe(z.number().check(z.int()), 'Signed: earned or given back (+), spent or taken back (-)'),
  kind: describe(z.enum(LEDGER_ENTRY_KINDS), 'What moved the points; the page words the entry from it and the fields below'),
  purchase: describe(
    z.nullable(z.object({ type: z.enum(LOYALTY_ORDER_TYPES), product: z.string(), reference: z.string() })),
    'The claimed purchase an earn, a reversal or a bonus is about',
  ),
  reward: describe(z.nullable(z.string()), "The reward's name as it was redeemed (a redemption or its reversal)"),
  earnedAt: describe(z.nullable(z.iso.datetime({ offset: true })), 'When the points an expired entry takes were earned, where one lot'),
  cause: describe(
    z.nullable(z.enum(STATEMENT_REVERSAL_CAUSES)),
    "Why a purchase's points (or its bonus) were taken back: the park's systems' cause, or removedByStaff (guest services removed it)",
  ),
  note: describe(z.nullable(z.string()), "Guest services' own words: an adjustment's reason"),
  campaign: describe(z.nullable(z.string()), "The campaign's name, in the page's language, of a bonus or a bonus taken back"),
});
export type StatementEntry = z.infer<typeof statementEntry>;

export const statementLedgerPage = z.object({
  entries: describe(z.array(statementEntry), `Newest first, at most ${STATEMENT_PAGE_SIZE}`),
  nextBefore: describe(z.nullable(z.number().check(z.int())), 'Pass as `before` for the older entries; null when there are none'),
});
export type StatementLedgerPage = z.infer<typeof statementLedgerPage>;

export const statementReward = z.object({
  rewardId: z.guid(),
  name: z.string(),
  description: z.nullable(z.string()),
  pointsCost: z.number().check(z.int()),
  redeemableNow: describe(z.boolean(), 'Active, in dates, tier reached, limit not reached and covered by the balance'),
});
export type StatementReward = z.infer<typeof statementReward>;

const tierAnswer = z.object({ name: z.string(), pointsToReach: z.number().check(z.int()) });

/** A member the statement's member referred: their first name, when they joined, and whether the bonus is earned (at their first claim). */
export const statementReferral = z.object({
  firstName: z.string(),
  joinedAt: z.iso.datetime({ offset: true }),
  earned: z.boolean(),
});

/** The member's referral link and the members who joined through it, newest first. */
export const referralSection = z.object({
  link: describe(z.string(), 'The referral link to share: `/loyalty/?ref=CODE` on the public site'),
  referred: z.array(statementReferral),
});
export type ReferralSection = z.infer<typeof referralSection>;

/** What a challenge counts: distinct operating days with a claimed purchase or an attraction visit, distinct food outlets, hotel nights. */
export const CHALLENGE_GOAL_KINDS = ['days', 'outlets', 'nights'] as const;
export type ChallengeGoal = (typeof CHALLENGE_GOAL_KINDS)[number];

/** A challenge the member can take part in now, with their progress. */
export const statementChallenge = z.object({
  name: describe(z.string(), "The challenge's name in the page's language"),
  goal: z.enum(CHALLENGE_GOAL_KINDS),
  goalCount: describe(z.number().check(z.int()), 'How many days, outlets or nights complete it'),
  progress: describe(z.number().check(z.int()), 'How many the member has within its dates (at most goalCount)'),
  bonusPoints: describe(z.number().check(z.int()), 'What completing it earns'),
  completed: z.boolean(),
  validTo: describe(z.iso.date(), 'Its last operating day'),
});
export type StatementChallenge = z.infer<typeof statementChallenge>;

export const statement = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  memberNumber: z.string(),
  balance: describe(z.number().check(z.int()), 'The sum of the ledger: negative when a refund took back points already spent'),
  expiringPoints: describe(z.number().check(z.int()), 'Points that expire within the next 30 days (0 when none)'),
  expiringAt: describe(
    z.nullable(z.iso.datetime({ offset: true })),
    'When the first of those points expire; null when none expire within 30 days',
  ),
  tier: describe(z.nullable(tierAnswer), 'The highest tier the points earned in the last 365 days reach; null when none'),
  pointsEarned: describe(z.number().check(z.int()), 'Points earned in the last 365 days: what tiers count'),
  nextTier: describe(z.nullable(tierAnswer), 'The next tier up; null at the top or when there are no tiers'),
  ledger: statementLedgerPage,
  rewards: describe(z.array(statementReward), 'The active rewards, cheapest first'),
  walletToken: describe(z.string(), "Signed, valid 30 minutes: the wallet calls' token for the member's card"),
  referral: referralSection,
  challenges: describe(z.array(statementChallenge), 'The challenges running today for the member (oldest first), and those they completed'),
});
export type Statement = z.infer<typeof statement>;
