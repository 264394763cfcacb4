// The member behind a loyalty wallet call ({ email, walletToken }): the wallet token of a
// successful claim, or of the pass link staff emailed, names the account; the email must be
// that account's. The email alone never is enough: membership is no secret.
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { WALLET_REFUSALS, type LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../platform/errors.ts';
import type { Keys } from '../platform/keys.plugin.ts';
import { memberChallenges, type MemberChallenge } from './loyalty-challenges.service.ts';
import { findLoyaltyMemberStanding, type LoyaltyMember } from './loyalty.repo.ts';

export const loyaltyPassMessages = {
  tokenRequired: 'Adding your Brownie Points pass needs the link from your claim or from our email; the email address alone is not enough.',
  tokenExpired: 'This pass link has expired. Claim a purchase again or ask guest services for a new link.',
  invalid: 'This pass link is not valid for that email.',
} as const;

const refused = (why: 'linkRequired' | 'linkExpired' | 'linkInvalid', message: string) =>
  new AppError('UNAUTHORIZED', message, { reason: WALLET_REFUSALS[why] });

/** What a member's wallet card shows: the member read model, and the challenges running today with their progress. */
export type MemberCard = LoyaltyMember & { challenges: MemberChallenge[] };

/** The member's card as of `now` (a past time in the demo's history); null when the account does not exist. */
export async function findMemberCard(
  db: Executor,
  accountId: string,
  context: { timeZone: string; now?: Date },
): Promise<MemberCard | null> {
  const now = context.now ?? new Date();
  const standing = await findLoyaltyMemberStanding(db, accountId, now);
  if (!standing) return null;
  const challenges = await memberChallenges(
    db,
    { id: accountId, earnedForTier: standing.progress.earned },
    { timeZone: context.timeZone, now },
  );
  return { ...standing.member, challenges };
}

/** The member the request names, with their card, as of `now` (a past time in the demo's history). */
export async function authorizedMember(
  ctx: { db: Executor; keys: Keys; config: { parkTimezone: string } },
  request: LoyaltyWalletRequest,
  now = new Date(),
): Promise<MemberCard> {
  if (!request.walletToken) throw refused('linkRequired', loyaltyPassMessages.tokenRequired);
  const check = ctx.keys.verifyToken(LOYALTY_WALLET_TOKEN.purpose, request.walletToken);
  if (!check.ok)
    throw check.reason === 'expired'
      ? refused('linkExpired', loyaltyPassMessages.tokenExpired)
      : refused('linkInvalid', loyaltyPassMessages.invalid);
  const member = await findMemberCard(ctx.db, check.subject, { timeZone: ctx.config.parkTimezone, now });
  // An erased member's tokens are void: no new live card from a link issued before the erasure.
  if (!member || member.erasedAt || member.email.toLowerCase() !== request.email.trim().toLowerCase())
    throw refused('linkInvalid', loyaltyPassMessages.invalid);
  return member;
}

/** The points expiring within 30 days and the first day they do (the card's line, worded by the wallet); null when none. */
export function cardExpiring(member: Pick<LoyaltyMember, 'expiringPoints' | 'expiringAt'>): { points: number; date: Date } | null {
  return member.expiringPoints > 0 && member.expiringAt ? { points: member.expiringPoints, date: member.expiringAt } : null;
}

export const memberName = (member: Pick<LoyaltyMember, 'firstName' | 'lastName'>) => `${member.firstName} ${member.lastName}`.trim();
