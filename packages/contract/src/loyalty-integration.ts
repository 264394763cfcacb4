// The tills' and the operator's mobile app's loyalty calls on the integration API (documented
// for integrators in docs/integration-api.md): read a member by the card's barcode, redeem a
// reward exactly once per idempotency key, and reverse a redemption when the sale is voided.
import { z } from 'zod';
import { feedObject } from './integrations.ts';
import { printable } from './pass.ts';

export const LOYALTY_INTEGRATION_API = '/api/integrations/loyalty/';

/** The member number printed as the card's barcode: 77 and 14 digits. */
const memberNumber = z
  .string()
  .regex(/^\d{16}$/, 'Member number must be the 16 digits of the card barcode')
  .describe("The member number, the loyalty card's barcode (16 digits)");

export const memberNumberParam = z.object({ memberNumber });
export const redemptionIdParam = z.object({ redemptionId: z.guid('Redemption id must be a GUID') });

/** A reward as the till offers it. */
export const tillReward = z.object({
  rewardId: z.guid(),
  name: z.string(),
  description: z.string().nullable(),
  pointsCost: z.number().int(),
});

export type TillReward = z.infer<typeof tillReward>;

export const tillMember = z.object({
  memberNumber: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
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
});
export type TillMember = z.infer<typeof tillMember>;

export const redemptionRequest = feedObject({
  memberNumber,
  rewardId: z.guid('Reward id must be a GUID'),
  idempotencyKey: z
    .string()
    .min(1, 'Must not be empty')
    .max(100, 'Must be at most 100 characters')
    .refine(printable, 'Must not contain control characters')
    .describe("The till's transaction id: the same key again answers the same redemption and spends nothing"),
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
