// The loyalty club's guest calls: verify and create an account, and the public claims of a
// new account, throttled per client address. The claims themselves are the loyalty core's.
import {
  ALLOWED_CHANGES,
  LOYALTY_WALLET_TOKEN,
  type CheckCandidate,
  type ClaimedPurchase,
  type ClaimResult,
  type LoyaltyOrder,
} from '@boardwalk/contract/loyalty';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { attempt, type FailureThrottle } from '../../platform/throttle.ts';
import { findAccountIdByEmail, insertAccount } from '../../loyalty/loyalty.repo.ts';
import {
  claimMessages,
  PUBLIC_CLAIM_WINDOW_SECONDS,
  refused,
  type Claimant,
  type ClaimOf,
  type ClaimOutcome,
} from '../../loyalty/loyalty-claims.service.ts';
import type { LoyaltyCore } from '../../loyalty/loyalty.service.ts';

/** The guest calls' dependencies, built once when the routes register. */
export interface GuestLoyalty {
  core: LoyaltyCore;
  keys: Keys;
  /** Verify, create and public claims count their failures per client address (10 in 15 minutes, apart from order lookups). */
  throttle: FailureThrottle;
  /** Accounts made per client address and hour. */
  accountsLimit: FailureThrottle;
}

/**
 * What create answers as the user id: a token signed for the new account, valid for the hour
 * in which it may claim online. It is the only thing that claims publicly and obtains a card:
 * the id verify answers for an email is the account's plain id and claims nothing.
 */
export const LOYALTY_CLAIM_TOKEN = { purpose: 'loyalty-claim', ttlSeconds: PUBLIC_CLAIM_WINDOW_SECONDS } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /api/loyalty/verify: the account's user id; 404 when the email has none. */
export function verifyAccount(guest: GuestLoyalty, clientAddress: string, email: string): Promise<string> {
  return guest.throttle.attempt(clientAddress, async () => {
    const id = await findAccountIdByEmail(guest.core.db, email);
    if (!id) throw new AppError('NOT_FOUND', 'No loyalty account uses this email');
    return id;
  });
}

/**
 * POST /api/loyalty/create: the new account's claim token (its user id for the claim calls);
 * 409 when the email already has an account. A failure counts against the address like any
 * other loyalty call; an account made counts against the address's accounts per hour.
 */
export function createAccount(
  guest: GuestLoyalty,
  clientAddress: string,
  request: { email: string; firstName: string; lastName: string },
): Promise<string> {
  return attempt([guest.throttle.of(clientAddress), guest.accountsLimit.of(clientAddress)], async () => {
    // The server's clock, like every time a claim is compared with (the one-hour window).
    const id = await guest.core.db.transaction((tx) => insertAccount(tx, { ...request, createdBy: 'guest', createdAt: new Date() }));
    if (!id) throw new AppError('CONFLICT', 'A loyalty account already uses this email');
    return guest.keys.signToken(LOYALTY_CLAIM_TOKEN.purpose, id, LOYALTY_CLAIM_TOKEN.ttlSeconds);
  });
}

/**
 * The account a guest's claim names by its claim token. A token past its hour, or the plain id
 * verify answers, names an account that can no longer claim online.
 */
function accountOfClaimToken(guest: GuestLoyalty, userID: string): string {
  const check = guest.keys.verifyToken(LOYALTY_CLAIM_TOKEN.purpose, userID);
  if (check.ok) return check.subject;
  if (check.reason === 'expired' || UUID.test(userID)) throw refused(claimMessages.notPublic(guest.core.config.supportEmail));
  throw refused(claimMessages.unknownAccount);
}

const GUEST: Claimant = { kind: 'guest' };
const toClaimedPurchase = ({ type, product, purchasedAt, points }: LoyaltyOrder): ClaimedPurchase => ({
  type,
  product,
  purchasedAt,
  points,
});

/**
 * POST /api/loyalty/tickets/, purchase/ and hotels/: a guest's public claim, throttled per client
 * address. It answers what the guest typed and what they earned, the balance and the wallet
 * token for their card, never another identifier of the purchase.
 */
export function guestClaim<R extends { userID: string; email: string }>(
  guest: GuestLoyalty,
  clientAddress: string,
  claimOf: (core: LoyaltyCore, request: ClaimOf<R>, by: Claimant) => Promise<ClaimOutcome | CheckCandidate[]>,
  request: R,
): Promise<ClaimResult | CheckCandidate[]> {
  return guest.throttle.attempt(clientAddress, async () => {
    const { userID, ...rest } = request;
    const outcome = await claimOf(guest.core, { ...rest, accountId: accountOfClaimToken(guest, userID) }, GUEST);
    if (Array.isArray(outcome)) return outcome;
    return {
      pointsEarned: outcome.pointsEarned,
      balance: outcome.balance,
      loyaltyOrders: outcome.loyaltyOrders.map(toClaimedPurchase),
      allowedChanges: ALLOWED_CHANGES.claimed,
      walletToken: guest.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, outcome.accountId, LOYALTY_WALLET_TOKEN.ttlSeconds),
    };
  });
}
