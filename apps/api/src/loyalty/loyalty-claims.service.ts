// Claims: a member's purchases earn Brownie points. A purchase has one standing claim at most
// (a unique index decides between concurrent claims); a claim has one earn entry. A guest
// claims online only for a new account of their own and only a purchase under their email;
// staff claim on a member's behalf (admin mode: any number, no one-hour rule).
import type {
  CheckCandidate,
  HotelClaimRequest,
  LoyaltyOrder,
  LoyaltyOrderType,
  PurchaseClaimRequest,
  TicketClaimRequest,
} from '@boardwalk/contract/loyalty';
import { CLAIM_REFUSALS, isScannedCode, type ClaimRefusal } from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import { AppError } from '../platform/errors.ts';
import { lockedPurchases } from './loyalty-claims.repo.ts';
import { isUniqueViolation, lockClaimingAccount, type AccountRow, type NewLoyaltyOrder } from './loyalty.repo.ts';
import { completeReferral } from './loyalty-referrals.service.ts';
import { appendClaims, type LoyaltyCore } from './loyalty.service.ts';
import { campaignBonuses } from './loyalty-campaigns.service.ts';
import { LOYALTY_CHALLENGE_ACTIVITY } from './loyalty.topics.ts';

/** The account a claim is for, locked, with its claims and whether a referral waits for its first claim. */
type ClaimingAccount = NonNullable<Awaited<ReturnType<typeof lockClaimingAccount>>>;

/** Who makes a claim: the guest through the public calls, or a staff member on the guest's behalf. */
export type Claimant = { kind: 'guest' } | { kind: 'staff'; username: string };

/** A claim names its account by id (the guest's claim token resolved, or the id staff loaded) and gives the member's email. */
export type ClaimOf<R> = Omit<R, 'userID'> & { accountId: string };

/** A public claim is for an account the guest created in the last hour. */
export const PUBLIC_CLAIM_WINDOW_SECONDS = 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A claim refused: the English message, and the reason the guest page words (CLAIM_REFUSALS). */
export const refused = (why: ClaimRefusal, message: string, params?: { days: number }) =>
  new AppError('VALIDATION_FAILED', message, { reason: CLAIM_REFUSALS[why], ...(params && { params }) });
export const claimMessages = {
  unknownAccount: 'We could not find that loyalty account. Please start over.',
  emailMismatch: 'That email does not match this loyalty account. Please start over.',
  notPublic: (support: string) =>
    `This account can no longer add purchases online. Please email ${support} with your membership ID and your order, check or reservation number.`,
  alreadyClaimedOnline: (support: string) =>
    `This account has already added a purchase online. Please email ${support} with your membership ID to add more.`,
  notYours: 'This purchase is not under your email address. Guest Services can add it for you.',
  scanReceipt: 'Scan the barcode on your receipt.',
  unknown: {
    ticket: 'We could not find that order.',
    'food-and-beverage': 'We could not find that check.',
    hotel: 'We could not find that reservation.',
  },
  refunded: 'This purchase was refunded and cannot earn points.',
  cancelled: 'This reservation was cancelled and cannot earn points.',
  tooOld: (days: number) => `This purchase is more than ${days} days old and can no longer earn points.`,
  claimed: 'This purchase has already been claimed.',
  nothingToEarn: 'This purchase has no amount that earns points.',
} as const;
const messages = claimMessages;

/** Whole points for an amount in USD at a rate per USD, rounded down, computed in cents. */
export const pointsFor = (amountUsd: number, pointsPerUsd: number) => Math.floor((Math.round(amountUsd * 100) * pointsPerUsd) / 100);

/** One purchase as a claim would record it (a ticket order gives one per ticket). */
type Purchase = Omit<NewLoyaltyOrder, 'accountId'>;

/** A purchase is claimable: not refunded or cancelled, not too old, not claimed, worth points. */
function assertClaimable(core: LoyaltyCore, purchases: Purchase[], claimedIds: Set<string>) {
  const { claimDays } = core.config.loyalty;
  const now = (core.changes.at ?? new Date()).getTime();
  if (purchases.every((p) => p.purchasedAt.getTime() < now - claimDays * DAY_MS))
    throw refused('tooOld', messages.tooOld(claimDays), { days: claimDays });
  const open = purchases.filter((p) => !claimedIds.has(p.sourceId));
  if (open.length === 0) throw refused('claimed', messages.claimed);
  return open;
}

/**
 * Records the claim of these purchases for the account, with one earn entry each, in the
 * caller's transaction. A concurrent claim of the same purchase makes the unique index refuse
 * the insert; the caller turns that into "already claimed".
 */
async function recordClaim(tx: Executor, core: LoyaltyCore, account: ClaimingAccount, purchases: Purchase[], by: Claimant) {
  const rate = (type: string) => core.config.loyalty.pointsPerUsd[type as LoyaltyOrderType];
  const earning = purchases.map((p) => ({ ...p, points: pointsFor(p.amount, rate(p.sourceType)) }));
  if (earning.every((claim) => claim.points <= 0)) throw refused('nothingToEarn', messages.nothingToEarn);
  const now = core.changes.at ?? new Date();
  // A referred member's first claim that earns points: both members' referral bonus, first, so
  // that the referrer's account is locked before any campaign row (the order of every change's
  // locks); the claim's write then counts it in the balance it answers.
  if (account.referralPending) await completeReferral(tx, core.changes, account.id, now);
  const bonuses = await campaignBonuses(tx, { timeZone: core.config.parkTimezone, now }, account.id, earning);
  const claims = earning.map((claim, i) => ({ ...claim, bonus: bonuses.of[i] }));
  const written = await appendClaims(
    tx,
    core.changes,
    account.id,
    claims,
    { causedBy: by.kind, staffMember: by.kind === 'staff' ? by.username : null },
    bonuses.events,
  );
  const { orders, balance } = written;
  if (bonuses.challenged) await core.changes.publish(tx, LOYALTY_CHALLENGE_ACTIVITY, [account.id]);
  const loyaltyOrders = claims.map((claim, i): LoyaltyOrder => ({
    id: orders[i]!.id,
    type: claim.sourceType as LoyaltyOrderType,
    reference: claim.reference,
    sourceId: claim.sourceId,
    product: claim.product,
    amount: claim.amount,
    purchasedAt: claim.purchasedAt.toISOString(),
    claimedAt: orders[i]!.claimedAt.toISOString(),
    points: claim.points,
  }));
  return { loyaltyOrders, balance, bonusPoints: claims.reduce((sum, claim) => sum + (claim.bonus?.points ?? 0), 0) };
}

/**
 * The account a claim is for, locked: it must exist and carry the email given. For a guest's
 * claim, the account must be guest-created, younger than an hour, with no claim yet (checked
 * here, before the purchase is looked at, and again exactly by the claim's state).
 */
async function claimingAccount(tx: Executor, core: LoyaltyCore, request: { accountId: string; email: string }, by: Claimant) {
  const account = await lockClaimingAccount(tx, request.accountId);
  if (!account) throw refused('unknownAccount', messages.unknownAccount);
  if (account.email.toLowerCase() !== request.email.trim().toLowerCase()) throw refused('emailMismatch', messages.emailMismatch);
  if (
    by.kind === 'guest' &&
    (account.createdBy !== 'guest' || Date.now() - account.createdAt.getTime() > PUBLIC_CLAIM_WINDOW_SECONDS * 1000)
  ) {
    throw refused('notPublic', messages.notPublic(core.config.supportEmail));
  }
  assertMayClaimOnline(core, account.claims, by);
  return account;
}

/** A guest adds one purchase online. */
function assertMayClaimOnline(core: LoyaltyCore, claims: number, by: Claimant) {
  if (by.kind === 'guest' && claims > 0) throw refused('alreadyClaimedOnline', messages.alreadyClaimedOnline(core.config.supportEmail));
}

/** A guest claims only a purchase under their own email; staff check ownership themselves. */
function assertOwnedBy(account: AccountRow, by: Claimant, emails: (string | null)[]) {
  if (by.kind === 'staff') return;
  const email = account.email.toLowerCase();
  if (!emails.some((e) => e?.trim().toLowerCase() === email)) throw refused('notYours', messages.notYours);
}

/**
 * The purchases a claim names, locked, with the state read in the same statement: the
 * account's claims now (exact: read after the account's lock) and which purchases are claimed.
 * Or, when several checks share the number, the candidates the guest picks from (nothing is
 * claimed).
 */
type Found = { claims: number } & ({ purchases: Purchase[]; claimed: Set<string> } | { candidates: CheckCandidate[] });

/** The purchases claimed now among locked rows that carry claimStateColumns. */
const claimedAmong = <R extends { claimedBy: string | null }>(rows: R[], idOf: (row: R) => string) =>
  new Set(rows.filter((row) => row.claimedBy !== null).map(idOf));

/** What a claim recorded: the claimed purchases with every identifier, what they earned and the new balance. */
export interface ClaimOutcome {
  accountId: string;
  /** The purchases' earns and the campaigns' bonuses on them. */
  pointsEarned: number;
  balance: number;
  loyaltyOrders: LoyaltyOrder[];
}

/**
 * A claim in one transaction: the account's checks, the purchases (read under a share lock, so
 * a feed refunding one waits for the claim) with their state, their record and the new balance.
 * Several checks with one number answer the candidates instead. Three statements between BEGIN
 * and COMMIT: the account, the purchases, the claim with its entries; and the wallet's job when
 * the member holds a card.
 */
async function claim(
  core: LoyaltyCore,
  request: { accountId: string; email: string },
  by: Claimant,
  purchasesOf: (tx: Executor, account: ClaimingAccount) => Promise<Found>,
): Promise<ClaimOutcome | CheckCandidate[]> {
  try {
    const outcome = await core.db.transaction(async (tx) => {
      const account = await claimingAccount(tx, core, request, by);
      const found = await purchasesOf(tx, account);
      // The exact check of a guest's one claim online: the count read after the account's lock.
      assertMayClaimOnline(core, found.claims, by);
      if ('candidates' in found) return found;
      const open = assertClaimable(core, found.purchases, found.claimed);
      return { account, ...(await recordClaim(tx, core, account, open, by)) };
    });
    if ('candidates' in outcome) return outcome.candidates;
    const { account, loyaltyOrders, balance, bonusPoints } = outcome;
    const pointsEarned = loyaltyOrders.reduce((sum, o) => sum + o.points, 0) + bonusPoints;
    return { accountId: account.id, pointsEarned, balance, loyaltyOrders };
  } catch (error) {
    // The unique index on standing claims refused a concurrent claim of the same purchase.
    if (isUniqueViolation(error)) throw refused('claimed', messages.claimed);
    throw error;
  }
}

/** A claim that cannot answer candidates. */
const claimOnly = (...args: Parameters<typeof claim>) => claim(...args) as Promise<ClaimOutcome>;

/** An order's tickets, by its order id or a scanned ticket barcode. */
export function claimTickets(core: LoyaltyCore, request: ClaimOf<TicketClaimRequest>, by: Claimant): Promise<ClaimOutcome> {
  return claimOnly(core, request, by, async (tx, account) => {
    const code = request.orderId.trim();
    const lock = isScannedCode(code) ? lockedPurchases.scannedTickets : lockedPurchases.orderTickets;
    const found = await lock(tx).execute({ code, accountId: account.id });
    if (found.length === 0) throw refused('unknownOrder', messages.unknown.ticket);
    assertOwnedBy(
      account,
      by,
      found.flatMap((t) => [t.purchaserEmail, t.holderEmail, t.registrationEmail]),
    );
    const valid = found.filter((t) => !t.refunded);
    if (valid.length === 0) throw refused('refunded', messages.refunded);
    const purchases = valid.map((t) => ({
      sourceType: 'ticket',
      sourceId: t.barcode,
      reference: t.orderId,
      product: t.product,
      amount: t.price ?? 0,
      purchasedAt: t.orderDate,
    }));
    return { claims: found[0]!.claims, purchases, claimed: claimedAmong(valid, (t) => t.barcode) };
  });
}

/**
 * The checks a claim may name with this code. Staff: every check with that number or receipt
 * code. A guest: the check whose receipt code was scanned; otherwise only checks the point of
 * sale gave no receipt code, since a check number is short enough to guess.
 */
async function claimableChecks(tx: Executor, account: AccountRow, code: string, by: Claimant) {
  const checks = await lockedPurchases.checks(tx).execute({ code, accountId: account.id });
  if (by.kind === 'staff') return checks;
  const scanned = checks.filter((c) => c.receiptCode === code);
  if (scanned.length > 0) return scanned;
  const typed = checks.filter((c) => c.receiptCode === null);
  if (typed.length === 0 && checks.length > 0) throw refused('scanReceipt', messages.scanReceipt);
  return typed;
}

/**
 * A food and beverage check by its number or its receipt's code. Several checks with that
 * number and no checkID: the candidates, nothing claimed.
 */
export function claimPurchase(
  core: LoyaltyCore,
  request: ClaimOf<PurchaseClaimRequest>,
  by: Claimant,
): Promise<ClaimOutcome | CheckCandidate[]> {
  return claim(core, request, by, async (tx, account) => {
    const checks = await claimableChecks(tx, account, request.checkNumber.trim(), by);
    if (checks.length === 0) throw refused('unknownCheck', messages.unknown['food-and-beverage']);
    const claims = checks[0]!.claims;
    // Before anything about the checks is told (as claim() does after it for every purchase).
    assertMayClaimOnline(core, claims, by);
    if (checks.length > 1 && !request.checkID) {
      return {
        claims,
        candidates: checks.map((c) => ({
          checkID: c.checkId,
          ORDER_DATE: c.orderDate.toISOString(),
          TERMINAL_ID: c.terminalId,
          IN_LOYALTY_ORDERS: c.claimedBy === account.id,
        })),
      };
    }
    const check = request.checkID ? checks.find((c) => c.checkId === request.checkID) : checks[0];
    if (!check) throw refused('unknownCheck', messages.unknown['food-and-beverage']);
    if (check.refunded) throw refused('refunded', messages.refunded);
    const purchase = {
      sourceType: 'food-and-beverage',
      sourceId: check.checkId,
      reference: check.checkNumber,
      product: `Food & Beverage (${check.terminalId})`,
      amount: check.total,
      purchasedAt: check.orderDate,
    };
    return { claims, purchases: [purchase], claimed: claimedAmong([check], (c) => c.checkId) };
  });
}

/** A hotel reservation by its number (its date: arrival). */
export function claimHotel(core: LoyaltyCore, request: ClaimOf<HotelClaimRequest>, by: Claimant): Promise<ClaimOutcome> {
  return claimOnly(core, request, by, async (tx, account) => {
    const reservationNumber = request.reservationNumber.trim();
    const [reservation] = await lockedPurchases.reservation(tx).execute({ code: reservationNumber, accountId: account.id });
    if (!reservation) throw refused('unknownReservation', messages.unknown.hotel);
    assertOwnedBy(account, by, [reservation.email]);
    if (reservation.cancelled) throw refused('cancelled', messages.cancelled);
    const purchase = {
      sourceType: 'hotel',
      sourceId: reservation.reservationNumber,
      reference: reservation.reservationNumber,
      product: `Hotel stay ${reservation.arrival} to ${reservation.departure}`,
      amount: reservation.total,
      purchasedAt: new Date(`${reservation.arrival}T12:00:00Z`),
    };
    return { claims: reservation.claims, purchases: [purchase], claimed: claimedAmong([reservation], (r) => r.reservationNumber) };
  });
}
