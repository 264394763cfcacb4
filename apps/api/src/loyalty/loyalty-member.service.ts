// The member behind a loyalty wallet call ({ email, walletToken }): the wallet token of a
// successful claim, or of the pass link staff emailed, names the account; the email must be
// that account's. The email alone never is enough: membership is no secret.
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { dateFormats } from '@boardwalk/contract/pass-display';
import type { LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../platform/errors.ts';
import type { Keys } from '../platform/keys.plugin.ts';
import { findLoyaltyMember, type LoyaltyMember } from './loyalty.repo.ts';

export const loyaltyPassMessages = {
  tokenRequired: 'Adding your Brownie Points pass needs the link from your claim or from our email; the email address alone is not enough.',
  tokenExpired: 'This pass link has expired. Claim a purchase again or ask guest services for a new link.',
  invalid: 'This pass link is not valid for that email.',
} as const;

/** What the member's card says about the balance, on Apple's and Google's passes alike. */
export const loyaltyPassTexts = {
  programName: 'Brownie Points',
  pointsLabel: 'Brownie Points',
  /** Apple shows it on the lock screen when the balance changes (%@ is the new balance). */
  changeMessage: 'You now have %@ Brownie points',
  memberNumberLabel: 'Member Number',
  tierLabel: 'Tier',
  /** Apple shows it on the lock screen when the tier changes (%@ is the new tier). */
  tierChangeMessage: 'You are now %@',
  /** The tier field of a member whose earned points reach no tier. */
  noTier: 'Member',
  expiringLabel: 'Expiring Soon',
  memberLabel: 'Member',
  /** All a removed member's card still shows. */
  membershipEnded: 'Membership ended',
} as const;

/** The member the request names, as of `now` (a past time in the demo's history). */
export async function authorizedMember(
  ctx: { db: Executor; keys: Keys },
  request: LoyaltyWalletRequest,
  now = new Date(),
): Promise<LoyaltyMember> {
  if (!request.walletToken) throw new AppError('UNAUTHORIZED', loyaltyPassMessages.tokenRequired);
  const check = ctx.keys.verifyToken(LOYALTY_WALLET_TOKEN.purpose, request.walletToken);
  if (!check.ok)
    throw new AppError('UNAUTHORIZED', check.reason === 'expired' ? loyaltyPassMessages.tokenExpired : loyaltyPassMessages.invalid);
  const member = await findLoyaltyMember(ctx.db, check.subject, now);
  // An erased member's tokens are void: no new live card from a link issued before the erasure.
  if (!member || member.erasedAt || member.email.toLowerCase() !== request.email.trim().toLowerCase())
    throw new AppError('UNAUTHORIZED', loyaltyPassMessages.invalid);
  return member;
}

/** The card's line for the points expiring within 30 days ("120 points on Dec 15, 2026", in the park's zone); null when none. */
export function cardExpiring(member: Pick<LoyaltyMember, 'expiringPoints' | 'expiringAt'>, timeZone: string): string | null {
  if (member.expiringPoints <= 0 || !member.expiringAt) return null;
  return `${member.expiringPoints.toLocaleString('en-US')} points on ${dateFormats(timeZone).date(member.expiringAt.toISOString())}`;
}

/** The tier the member's card shows. */
export const cardTier = (member: Pick<LoyaltyMember, 'tier'>) => member.tier ?? loyaltyPassTexts.noTier;

export const memberName = (member: Pick<LoyaltyMember, 'firstName' | 'lastName'>) => `${member.firstName} ${member.lastName}`.trim();
