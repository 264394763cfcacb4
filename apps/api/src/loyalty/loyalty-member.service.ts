// The member behind a loyalty wallet call ({ email, walletToken }): the wallet token of a
// successful claim, or of the pass link staff emailed, names the account; the email must be
// that account's. The email alone never is enough: membership is no secret.
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { WALLET_REFUSALS, type LoyaltyWalletRequest } from '@boardwalk/contract/wallet';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../platform/errors.ts';
import type { Keys } from '../platform/keys.plugin.ts';
import { findLoyaltyMember, type LoyaltyMember } from './loyalty.repo.ts';

export const loyaltyPassMessages = {
  tokenRequired: 'Adding your Brownie Points pass needs the link from your claim or from our email; the email address alone is not enough.',
  tokenExpired: 'This pass link has expired. Claim a purchase again or ask guest services for a new link.',
  invalid: 'This pass link is not valid for that email.',
} as const;

const refused = (why: 'linkRequired' | 'linkExpired' | 'linkInvalid', message: string) =>
  new AppError('UNAUTHORIZED', message, { reason: WALLET_REFUSALS[why] });

/** The member the request names, as of `now` (a past time in the demo's history). */
export async function authorizedMember(
  ctx: { db: Executor; keys: Keys },
  request: LoyaltyWalletRequest,
  now = new Date(),
): Promise<LoyaltyMember> {
  if (!request.walletToken) throw refused('linkRequired', loyaltyPassMessages.tokenRequired);
  const check = ctx.keys.verifyToken(LOYALTY_WALLET_TOKEN.purpose, request.walletToken);
  if (!check.ok)
    throw check.reason === 'expired'
      ? refused('linkExpired', loyaltyPassMessages.tokenExpired)
      : refused('linkInvalid', loyaltyPassMessages.invalid);
  const member = await findLoyaltyMember(ctx.db, check.subject, now);
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
