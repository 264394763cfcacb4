// The loyalty club's guest calls: prove an email by a one-time code, create an account for a
// proven email, and the public claims of a new account, throttled per client address. The claims themselves are the loyalty core's.
import { randomInt } from 'node:crypto';
import {
  ALLOWED_CHANGES,
  LOYALTY_EMAIL_CODE,
  LOYALTY_EMAIL_PROOF,
  LOYALTY_WALLET_TOKEN,
  CODE_REFUSALS,
  loyaltyEmailMessages,
  type CodeRefusal,
  type ConfirmAnswer,
  type VerifyAnswer,
  type CheckCandidate,
  type ClaimedPurchase,
  type ClaimResult,
  type LoyaltyOrder,
  type Birthday,
} from '@boardwalk/contract/loyalty';
import { AppError } from '../../platform/errors.ts';
import { sameSecret } from '../../platform/secrets.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { attempt, type FailureThrottle } from '../../platform/throttle.ts';
import type { Mailer } from '../../integrations/email/mailer.ts';
import type { Config } from '../../platform/config.ts';
import { findAccountByEmail, insertAccount, setMemberLanguage } from '../../loyalty/loyalty.repo.ts';
import { markEmailProven } from '../../loyalty/loyalty-email-proof.repo.ts';
import { recordReferral, referralRefused } from '../../loyalty/loyalty-referrals.service.ts';
import { putEmailCode, spendCode, takeCodeTry } from './loyalty-email-codes.repo.ts';
import {
  claimMessages,
  PUBLIC_CLAIM_WINDOW_SECONDS,
  refused,
  type Claimant,
  type ClaimOf,
  type ClaimOutcome,
} from '../../loyalty/loyalty-claims.service.ts';
import type { LoyaltyCore } from '../../loyalty/loyalty.service.ts';
import { mailTexts } from '../../integrations/email/mail-texts.ts';
import type { Language } from '@boardwalk/contract/i18n/languages';

/** The guest calls' dependencies, built once when the routes register. */
export interface GuestLoyalty {
  core: LoyaltyCore;
  keys: Keys;
  /** Verify, create and public claims count their failures per client address (10 in 15 minutes, apart from order lookups). */
  throttle: FailureThrottle;
  /** Accounts made per client address and hour. */
  accountsLimit: FailureThrottle;
  mailer: Mailer;
  config: Pick<Config, 'brandName' | 'supportEmail'>;
  /** Codes mailed: per client address and per email (each request counts). */
  codeLimits: { perAddress: FailureThrottle; perEmail: FailureThrottle };
  /** Wrong or expired codes per email (a keyed hash), whatever the address. */
  codeFailures: FailureThrottle;
}

/**
 * What create answers as the user id: a token signed for the new account, valid for the hour
 * in which it may claim online. It is the only thing that claims publicly and obtains a card:
 * the id confirm answers for a proven email is the account's plain id and claims nothing.
 */
export const LOYALTY_CLAIM_TOKEN = { purpose: 'loyalty-claim', ttlSeconds: PUBLIC_CLAIM_WINDOW_SECONDS } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The keyed hash an email's code and throttles are kept under (never the email itself). */
const emailHashOf = (keys: Keys, email: string) => keys.keyedHash('loyalty-email', email.trim().toLowerCase());
const codeHashOf = (keys: Keys, emailHash: string, code: string) => keys.keyedHash('loyalty-email-code', `${emailHash}:${code}`);
const CODE_MINUTES = LOYALTY_EMAIL_CODE.ttlSeconds / 60;

function codeMail(guest: GuestLoyalty, email: string, code: string, language: Language) {
  const brand = guest.config.brandName;
  const t = mailTexts(language);
  return {
    to: email,
    subject: t('code.subject', { brand }),
    text: t('code.text', { brand, code, minutes: CODE_MINUTES, supportEmail: guest.config.supportEmail }),
  };
}

/**
 * POST /api/loyalty/verify: mails a new one-time code to the email (replacing an earlier one)
 * and answers the same for any email. It never looks for an account: the answer, its time and
 * its mail are the same whether or not the email is a member's. Each request counts against
 * the client address and against the email (a keyed hash).
 */
export function requestEmailCode(guest: GuestLoyalty, clientAddress: string, email: string, language: Language): Promise<VerifyAnswer> {
  const address = email.trim();
  const emailHash = emailHashOf(guest.keys, address);
  return attempt([guest.codeLimits.perAddress.of(clientAddress), guest.codeLimits.perEmail.of(emailHash)], async () => {
    const code = String(randomInt(0, 10 ** LOYALTY_EMAIL_CODE.digits)).padStart(LOYALTY_EMAIL_CODE.digits, '0');
    const expiresAt = new Date(Date.now() + LOYALTY_EMAIL_CODE.ttlSeconds * 1000);
    await guest.core.db.transaction(async (tx) => {
      await putEmailCode(tx, { emailHash, codeHash: codeHashOf(guest.keys, emailHash, code), expiresAt });
      await guest.mailer.send(tx, codeMail(guest, address, code, language));
    });
    return { email, validMinutes: CODE_MINUTES };
  });
}

/** A code or its proof refused: the English message, and the reason the guest page words (CODE_REFUSALS). */
const codeRefused = (why: CodeRefusal) => new AppError('VALIDATION_FAILED', loyaltyEmailMessages[why], { reason: CODE_REFUSALS[why] });

/**
 * POST /api/loyalty/confirm: the code proves the email (once): the account's user id, its email
 * now proven; or, when no account has the email, the proof that create takes. A wrong code uses
 * one of the code's tries; failures count against the address and the email.
 */
export function confirmEmailCode(
  guest: GuestLoyalty,
  clientAddress: string,
  request: { email: string; code: string; language: Language },
): Promise<ConfirmAnswer> {
  const email = request.email.trim();
  const emailHash = emailHashOf(guest.keys, email);
  return attempt([guest.throttle.of(clientAddress), guest.codeFailures.of(emailHash)], async () => {
    const now = new Date();
    const codeHash = await takeCodeTry(guest.core.db, emailHash, LOYALTY_EMAIL_CODE.tries, now);
    if (!codeHash) throw codeRefused('expired');
    const given = codeHashOf(guest.keys, emailHash, request.code);
    if (!sameSecret(given, codeHash)) throw codeRefused('wrongCode');
    if (!(await spendCode(guest.core.db, emailHash, codeHash))) throw codeRefused('expired');
    const account = await findAccountByEmail(guest.core.db, email);
    if (!account) {
      const proof = guest.keys.signToken(LOYALTY_EMAIL_PROOF.purpose, email.toLowerCase(), LOYALTY_EMAIL_PROOF.ttlSeconds);
      return { account: 'new', proof };
    }
    if (!account.emailProvenAt) await markEmailProven(guest.core.db, account.id, now);
    await setMemberLanguage(guest.core.db, account.id, request.language);
    return { account: 'existing', userID: account.id };
  });
}

/**
 * POST /api/loyalty/create: the new account's claim token (its user id for the claim calls),
 * for an email proven by its code (the proof confirm answered); 409 when the email already
 * has an account. A failure counts against the address like any other loyalty call; an
 * account made counts against the address's accounts per hour.
 */
export function createAccount(
  guest: GuestLoyalty,
  clientAddress: string,
  request: {
    email: string;
    firstName: string;
    lastName: string;
    proof: string;
    language: Language;
    birthday?: Birthday | null | undefined;
    /** The referral link's code the guest came by. */
    referralCode?: string | undefined;
  },
): Promise<string> {
  return attempt([guest.throttle.of(clientAddress), guest.accountsLimit.of(clientAddress)], async () => {
    const { proof, referralCode, ...names } = request;
    const check = guest.keys.verifyToken(LOYALTY_EMAIL_PROOF.purpose, proof);
    if (!check.ok || check.subject !== names.email.trim().toLowerCase()) throw codeRefused('proofRequired');
    // The server's clock, like every time a claim is compared with (the one-hour window).
    const now = new Date();
    const id = await guest.core.db.transaction(async (tx) => {
      const created = await insertAccount(tx, { ...names, createdBy: 'guest', createdAt: now });
      if (!created && referralCode) throw referralRefused('existing');
      // A refused referral creates nothing: the guest joins without it, or with another link.
      if (created && referralCode) {
        await recordReferral(tx, { timeZone: guest.core.config.parkTimezone, now }, { id: created, email: names.email }, referralCode);
      }
      return created;
    });
    if (!id) throw new AppError('CONFLICT', 'A loyalty account already uses this email');
    return guest.keys.signToken(LOYALTY_CLAIM_TOKEN.purpose, id, LOYALTY_CLAIM_TOKEN.ttlSeconds);
  });
}

/**
 * The account a guest's claim names by its claim token. A token past its hour, or the plain id
 * confirm answers, names an account that can no longer claim online.
 */
function accountOfClaimToken(guest: GuestLoyalty, userID: string): string {
  const check = guest.keys.verifyToken(LOYALTY_CLAIM_TOKEN.purpose, userID);
  if (check.ok) return check.subject;
  if (check.reason === 'expired' || UUID.test(userID)) throw refused('notPublic', claimMessages.notPublic(guest.core.config.supportEmail));
  throw refused('unknownAccount', claimMessages.unknownAccount);
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
