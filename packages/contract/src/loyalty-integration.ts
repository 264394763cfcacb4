// The tills' and the operator's mobile app's loyalty calls on the integration API (documented
// for integrators in docs/integration-api.md): read a member by the card's barcode (or a typed
// member number), redeem a reward with the card's barcode exactly once per idempotency key of
// the calling system, and reverse a redemption when the sale is voided.
import { z } from 'zod';
import { feedObject } from './integrations.ts';
import { CHALLENGE_GOAL_KINDS } from './loyalty-statement.ts';
import { printable } from './pass.ts';

export const LOYALTY_INTEGRATION_API = '/api/integrations/loyalty/';

/** The member card's barcode: a random token of 32 hex digits (a scanner's upper case is read as lower). */
export const CARD_PATTERN = /^[0-9a-f]{32}$/;
const card = z
  .string()
  .transform((text) => text.toLowerCase())
  .pipe(z.string().regex(CARD_PATTERN, "Card must be the member card's barcode (32 hex digits)"))
  .describe("The member card's barcode as scanned: 32 hex digits (a random token, not the member number)");

/** A member looked up: the card's barcode, or the member number typed (77 and 14 digits: it looks up, never spends). */
const member = z
  .string()
  .transform((text) => text.toLowerCase())
  .pipe(z.string().regex(/^(\d{16}|[0-9a-f]{32})$/, "Must be the member card's barcode (32 hex digits) or the member number (16 digits)"))
  .describe("The member card's barcode (32 hex digits) or the member number printed under it (16 digits)");

export const memberParam = z.object({ member });
export const redemptionIdParam = z.object({ redemptionId: z.guid('Redemption id must be a GUID') });

/** A reward as the till offers it. */
export const tillReward = z.object({
  rewardId: z.guid(),
  name: z.string(),
  description: z.string().nullable(),
  pointsCost: z.number().int(),
});

export type TillReward = z.infer<typeof tillReward>;

/** A campaign running today that applies to the member (their tier reached): what the till can tell them. */
export const memberCampaign = z.object({
  campaignId: z.guid(),
  name: z.string(),
  kind: z.enum(['multiplier', 'bonus']),
  multiplier: z.number().nullable().describe('A multiplier campaign: the earn is multiplied by this (2: double points)'),
  bonusPoints: z.number().int().nullable().describe('A fixed bonus campaign: the points added to each claimed purchase'),
  appliesTo: z.array(z.enum(['ticket', 'food-and-beverage', 'hotel'])).describe('The kinds of purchase it applies to'),
  validTo: z.iso.date().describe('Its last operating day (YYYY-MM-DD in the park), included'),
});
export type MemberCampaign = z.infer<typeof memberCampaign>;

/** A challenge running today that the member takes part in, with their progress. */
export const memberChallenge = z.object({
  campaignId: z.guid(),
  name: z.string(),
  goal: z
    .enum(CHALLENGE_GOAL_KINDS)
    .describe('What it counts within its dates: days with a claimed purchase or an attraction visit, food outlets, hotel nights'),
  goalCount: z.number().int().describe('How many complete it'),
  progress: z.number().int().describe('How many the member has (at most goalCount)'),
  bonusPoints: z.number().int().describe('What completing it earns (once completed: what it gave)'),
  completed: z.boolean(),
  validTo: z.iso.date().describe('Its last operating day (YYYY-MM-DD in the park), included'),
});
export type MemberChallenge = z.infer<typeof memberChallenge>;

export const tillMember = z.object({
  memberNumber: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  balance: z.number().int().describe('Points now: the sum of the ledger (negative after a refund took back spent points)'),
  tier: z.string().nullable().describe('The tier reached by the points earned in the last 365 days; null when none'),
  expiringPoints: z.number().int().describe('Points that expire within the next 30 days (0 when none)'),
  expiringAt: z.iso
    .datetime()
    .nullable()
    .describe('When the first of those points expire (ISO 8601, UTC); null when none expire within 30 days'),
  rewards: z
    .array(tillReward)
    .describe('The rewards this member can redeem now: active, in dates, tier reached, limit not reached, covered by the balance'),
  campaigns: z
    .array(memberCampaign)
    .describe("The campaigns running today that apply to this member's purchases (active, budget not spent, tier reached)"),
  challenges: z
    .array(memberChallenge)
    .describe('The challenges running today for this member, with their progress, and those they completed'),
});
export type TillMember = z.infer<typeof tillMember>;

export const redemptionRequest = feedObject({
  card,
  rewardId: z.guid('Reward id must be a GUID'),
  idempotencyKey: z
    .string()
    .min(1, 'Must not be empty')
    .max(100, 'Must be at most 100 characters')
    .refine(printable, 'Must not contain control characters')
    .describe(
      "The till's transaction id, unique per system (per integration key): the same key again from the same system answers the same redemption and spends nothing",
    ),
});
export type RedemptionRequest = z.infer<typeof redemptionRequest>;

export const redemptionResult = z.object({
  redemptionId: z.guid(),
  memberNumber: z.string(),
  rewardId: z.guid(),
  pointsSpent: z.number().int(),
  balance: z.number().int().describe('The balance right after this redemption'),
});
export type RedemptionResult = z.infer<typeof redemptionResult>;

export const redemptionReversal = z.object({
  redemptionId: z.guid(),
  memberNumber: z.string(),
  rewardId: z.guid(),
  pointsReturned: z.number().int(),
  balance: z.number().int().describe('The balance now'),
});
export type RedemptionReversal = z.infer<typeof redemptionReversal>;
