// The loyalty club: accounts by email, claims of purchases that earn Brownie points, and the
// reversal of a claim whose purchase a feed refunded or cancelled. Points are money: the ledger
// is append-only and the balance is its sum; a purchase has one standing claim at most (a
// unique index decides between concurrent claims); a claim has one earn entry and at most one
// reversal (another unique index).
import {
  ALLOWED_CHANGES,
  LOYALTY_WALLET_TOKEN,
  isScannedCode,
  type CheckCandidate,
  type ClaimedPurchase,
  type ClaimResult,
  type HotelClaimRequest,
  type LoyaltyOrder,
  type LoyaltyOrderType,
  type PurchaseClaimRequest,
  type TicketClaimRequest,
} from '@boardwalk/contract/loyalty';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import { attempt, type FailureThrottle } from '../../platform/throttle.ts';
import type { TicketChanges } from '../../platform/ticket-changes.plugin.ts';
import { findReservationCancelled, lockReservation } from '../../integrations/hotel/reservations.repo.ts';
import { findCheckRefunded, lockChecksByNumberOrCode } from '../../integrations/pos/checks.repo.ts';
import { findTicketRefunded, lockOrderTickets } from '../ticket/ticket-lock.repo.ts';
import {
  balanceOf,
  countLoyaltyOrders,
  findAccountIdByEmail,
  findStandingClaims,
  insertAccount,
  insertLedgerEntries,
  insertLoyaltyOrders,
  lockAccount,
  lockStandingClaimsOfSource,
  markReversed,
  type AccountRow,
  type LoyaltyOrderRow,
  type NewLedgerEntry,
  type NewLoyaltyOrder,
} from './loyalty.repo.ts';

export interface LoyaltyContext {
  db: Executor;
  config: Pick<Config, 'loyalty' | 'supportEmail'>;
  keys: Keys;
  /** Verify, create and public claims count their failures per client address (10 in 15 minutes, apart from order lookups). */
  throttle: FailureThrottle;
  clientAddress: string;
  /** Every ledger entry changes what the member's wallet card shows: the account is published. */
  ticketChanges: LedgerChanges;
}

export type LedgerChanges = Pick<TicketChanges, 'publishLoyaltyAccounts'>;

/**
 * Appends entries to the ledger (in the caller's transaction) and publishes their accounts,
 * so that every member card already in a wallet shows the new balance: the one way points
 * are written.
 */
export async function appendLedger(tx: Executor, changes: LedgerChanges, entries: NewLedgerEntry[]): Promise<void> {
  await insertLedgerEntries(tx, entries);
  await changes.publishLoyaltyAccounts(
    tx,
    entries.map((entry) => entry.accountId),
  );
}

/** Who makes a claim: the guest through the public calls, or a staff member on the guest's behalf. */
export type Claimant = { kind: 'guest' } | { kind: 'staff'; username: string };

/** A public claim is for an account the guest created in the last hour. */
const PUBLIC_CLAIM_WINDOW_SECONDS = 60 * 60;
/**
 * What create answers as the user id: a token signed for the new account, valid for the hour
 * in which it may claim online. It is the only thing that claims publicly and obtains a card:
 * the id verify answers for an email is the account's plain id and claims nothing.
 */
export const LOYALTY_CLAIM_TOKEN = { purpose: 'loyalty-claim', ttlSeconds: PUBLIC_CLAIM_WINDOW_SECONDS } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const refused = (message: string) => new AppError('VALIDATION_FAILED', message);
const messages = {
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

/** Runs a guest call under the address throttle, its point taken first: a refusal (4xx) keeps it. */
function throttled<T>(ctx: LoyaltyContext, call: () => Promise<T>): Promise<T> {
  return ctx.throttle.attempt(ctx.clientAddress, call);
}

/** POST /api/loyalty/verify: the account's user id; 404 when the email has none. */
export function verifyAccount(ctx: LoyaltyContext, email: string): Promise<string> {
  return throttled(ctx, async () => {
    const id = await findAccountIdByEmail(ctx.db, email);
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
  ctx: LoyaltyContext & { accountsLimit: FailureThrottle },
  request: { email: string; firstName: string; lastName: string },
): Promise<string> {
  return attempt([ctx.throttle.of(ctx.clientAddress), ctx.accountsLimit.of(ctx.clientAddress)], async () => {
    // The server's clock, like every time a claim is compared with (the one-hour window).
    const id = await insertAccount(ctx.db, { ...request, createdBy: 'guest', createdAt: new Date() });
    if (!id) throw new AppError('CONFLICT', 'A loyalty account already uses this email');
    return ctx.keys.signToken(LOYALTY_CLAIM_TOKEN.purpose, id, LOYALTY_CLAIM_TOKEN.ttlSeconds);
  });
}

/** Whole points for an amount in USD at a rate per USD, rounded down, computed in cents. */
export const pointsFor = (amountUsd: number, pointsPerUsd: number) => Math.floor((Math.round(amountUsd * 100) * pointsPerUsd) / 100);

/** One purchase as a claim would record it (a ticket order gives one per ticket). */
type Purchase = Omit<NewLoyaltyOrder, 'accountId'>;

/** A purchase is claimable: not refunded or cancelled, not too old, not claimed, worth points. */
function assertClaimable(ctx: LoyaltyContext, purchases: Purchase[], claimedIds: Set<string>) {
  const { claimDays } = ctx.config.loyalty;
  if (purchases.every((p) => p.purchasedAt.getTime() < Date.now() - claimDays * DAY_MS)) throw refused(messages.tooOld(claimDays));
  const open = purchases.filter((p) => !claimedIds.has(p.sourceId));
  if (open.length === 0) throw refused(messages.claimed);
  return open;
}

/**
 * Records the claim of these purchases for the account, with one earn entry each, in the
 * caller's transaction. A concurrent claim of the same purchase makes the unique index refuse
 * the insert; the caller turns that into "already claimed".
 */
async function recordClaim(tx: Executor, ctx: LoyaltyContext, account: AccountRow, purchases: Purchase[], by: Claimant) {
  const rate = (type: string) => ctx.config.loyalty.pointsPerUsd[type as LoyaltyOrderType];
  const earned = purchases.map((p) => pointsFor(p.amount, rate(p.sourceType)));
  if (earned.every((points) => points <= 0)) throw refused(messages.nothingToEarn);
  const rows = await insertLoyaltyOrders(
    tx,
    purchases.map((p) => ({ ...p, accountId: account.id })),
  );
  await appendLedger(
    tx,
    ctx.ticketChanges,
    rows.map((row, i) => ({
      accountId: account.id,
      points: earned[i]!,
      kind: 'earn',
      reason: 'claimed',
      loyaltyOrderId: row.id,
      sourceType: row.sourceType,
      sourceId: row.sourceId,
      causedBy: by.kind,
      staffMember: by.kind === 'staff' ? by.username : null,
    })),
  );
  return rows.map((row, i) => toLoyaltyOrder(row, earned[i]!));
}

const toLoyaltyOrder = (row: LoyaltyOrderRow, points: number): LoyaltyOrder => ({
  id: row.id,
  type: row.sourceType as LoyaltyOrderType,
  reference: row.reference,
  sourceId: row.sourceId,
  product: row.product,
  amount: row.amount,
  purchasedAt: row.purchasedAt.toISOString(),
  claimedAt: row.claimedAt.toISOString(),
  points,
});

/** The unique index on standing claims refused a concurrent claim of the same purchase. */
const isDuplicateClaim = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505';
};

/**
 * The account a guest's claim names by its claim token. A token past its hour, or the plain id
 * verify answers, names an account that can no longer claim online.
 */
function accountOfClaimToken(ctx: LoyaltyContext, userID: string): string {
  const check = ctx.keys.verifyToken(LOYALTY_CLAIM_TOKEN.purpose, userID);
  if (check.ok) return check.subject;
  if (check.reason === 'expired' || UUID.test(userID)) throw refused(messages.notPublic(ctx.config.supportEmail));
  throw refused(messages.unknownAccount);
}

/**
 * The account a claim is for, locked: it must exist and carry the email given. A guest names
 * it by its claim token; the account must be guest-created, younger than an hour, with no claim
 * yet. Staff name it by its id.
 */
async function claimingAccount(tx: Executor, ctx: LoyaltyContext, request: { userID: string; email: string }, by: Claimant) {
  const account = await lockAccount(tx, by.kind === 'guest' ? accountOfClaimToken(ctx, request.userID) : request.userID);
  if (!account) throw refused(messages.unknownAccount);
  if (account.email.toLowerCase() !== request.email.trim().toLowerCase()) throw refused(messages.emailMismatch);
  if (by.kind === 'guest') {
    if (account.createdBy !== 'guest' || Date.now() - account.createdAt.getTime() > PUBLIC_CLAIM_WINDOW_SECONDS * 1000) {
      throw refused(messages.notPublic(ctx.config.supportEmail));
    }
    if ((await countLoyaltyOrders(tx, account.id)) > 0) throw refused(messages.alreadyClaimedOnline(ctx.config.supportEmail));
  }
  return account;
}

/** A guest claims only a purchase under their own email; staff check ownership themselves. */
function assertOwnedBy(account: AccountRow, by: Claimant, emails: (string | null)[]) {
  if (by.kind === 'staff') return;
  const email = account.email.toLowerCase();
  if (!emails.some((e) => e?.trim().toLowerCase() === email)) throw refused(messages.notYours);
}

/** Several checks share the number: the guest picks one (nothing is claimed). */
interface Candidates {
  candidates: CheckCandidate[];
}

/** What a claim recorded: the claimed purchases with every identifier, what they earned and the new balance. */
export interface ClaimOutcome {
  accountId: string;
  pointsEarned: number;
  balance: number;
  loyaltyOrders: LoyaltyOrder[];
}

/**
 * A claim in one transaction: the account's checks, the purchases (read under a share lock, so
 * a feed refunding one waits for the claim), their record and the new balance. Several checks
 * with one number answer the candidates instead.
 */
async function claim(
  ctx: LoyaltyContext,
  request: { userID: string; email: string },
  by: Claimant,
  purchasesOf: (tx: Executor, account: AccountRow) => Promise<Purchase[] | Candidates>,
): Promise<ClaimOutcome | CheckCandidate[]> {
  try {
    const outcome = await ctx.db.transaction(async (tx) => {
      const account = await claimingAccount(tx, ctx, request, by);
      const purchases = await purchasesOf(tx, account);
      if ('candidates' in purchases) return purchases;
      const orders = await recordClaim(tx, ctx, account, purchases, by);
      return { account, orders, balance: await balanceOf(tx, account.id) };
    });
    if ('candidates' in outcome) return outcome.candidates;
    const { account, orders, balance } = outcome;
    return { accountId: account.id, pointsEarned: orders.reduce((sum, o) => sum + o.points, 0), balance, loyaltyOrders: orders };
  } catch (error) {
    if (isDuplicateClaim(error)) throw refused(messages.claimed);
    throw error;
  }
}

/** A claim that cannot answer candidates. */
const claimOnly = (...args: Parameters<typeof claim>) => claim(...args) as Promise<ClaimOutcome>;

/** An order's tickets, by its order id or a scanned ticket barcode. */
export function claimTickets(ctx: LoyaltyContext, request: TicketClaimRequest, by: Claimant): Promise<ClaimOutcome> {
  return claimOnly(ctx, request, by, async (tx, account) => {
    const code = request.orderId.trim();
    const found = await lockOrderTickets(tx, isScannedCode(code) ? { barcode: code } : { orderId: code });
    if (found.length === 0) throw refused(messages.unknown.ticket);
    assertOwnedBy(
      account,
      by,
      found.flatMap((t) => [t.purchaserEmail, t.holderEmail, t.registrationEmail]),
    );
    const valid = found.filter((t) => !t.refunded);
    if (valid.length === 0) throw refused(messages.refunded);
    const purchases = valid.map((t) => ({
      sourceType: 'ticket',
      sourceId: t.barcode,
      reference: t.orderId,
      product: t.product,
      amount: t.price ?? 0,
      purchasedAt: t.orderDate,
    }));
    const claimed = await findStandingClaims(
      tx,
      'ticket',
      purchases.map((p) => p.sourceId),
    );
    return assertClaimable(ctx, purchases, new Set(claimed.map((c) => c.sourceId)));
  });
}

/**
 * The checks a claim may name with this code. Staff: every check with that number or receipt
 * code. A guest: the check whose receipt code was scanned; otherwise only checks the point of
 * sale gave no receipt code, since a check number is short enough to guess.
 */
async function claimableChecks(tx: Executor, code: string, by: Claimant) {
  const checks = await lockChecksByNumberOrCode(tx, code);
  if (by.kind === 'staff') return checks;
  const scanned = checks.filter((c) => c.receiptCode === code);
  if (scanned.length > 0) return scanned;
  const typed = checks.filter((c) => c.receiptCode === null);
  if (typed.length === 0 && checks.length > 0) throw refused(messages.scanReceipt);
  return typed;
}

/**
 * A food and beverage check by its number or its receipt's code. Several checks with that
 * number and no checkID: the candidates, nothing claimed.
 */
export function claimPurchase(ctx: LoyaltyContext, request: PurchaseClaimRequest, by: Claimant): Promise<ClaimOutcome | CheckCandidate[]> {
  return claim(ctx, request, by, async (tx, account) => {
    const checks = await claimableChecks(tx, request.checkNumber.trim(), by);
    const claimed = await findStandingClaims(
      tx,
      'food-and-beverage',
      checks.map((c) => c.checkId),
    );
    if (checks.length > 1 && !request.checkID) {
      const inAccount = new Set(claimed.filter((c) => c.accountId === account.id).map((c) => c.sourceId));
      return {
        candidates: checks.map((c) => ({
          checkID: c.checkId,
          ORDER_DATE: c.orderDate.toISOString(),
          TERMINAL_ID: c.terminalId,
          IN_LOYALTY_ORDERS: inAccount.has(c.checkId),
        })),
      };
    }
    const check = request.checkID ? checks.find((c) => c.checkId === request.checkID) : checks[0];
    if (!check) throw refused(messages.unknown['food-and-beverage']);
    if (check.refunded) throw refused(messages.refunded);
    const purchase = {
      sourceType: 'food-and-beverage',
      sourceId: check.checkId,
      reference: check.checkNumber,
      product: `Food & Beverage (${check.terminalId})`,
      amount: check.total,
      purchasedAt: check.orderDate,
    };
    return assertClaimable(ctx, [purchase], new Set(claimed.map((c) => c.sourceId)));
  });
}

/** A hotel reservation by its number (its date: arrival). */
export function claimHotel(ctx: LoyaltyContext, request: HotelClaimRequest, by: Claimant): Promise<ClaimOutcome> {
  return claimOnly(ctx, request, by, async (tx, account) => {
    const reservationNumber = request.reservationNumber.trim();
    const reservation = await lockReservation(tx, reservationNumber);
    if (!reservation) throw refused(messages.unknown.hotel);
    assertOwnedBy(account, by, [reservation.email]);
    if (reservation.cancelled) throw refused(messages.cancelled);
    const purchase = {
      sourceType: 'hotel',
      sourceId: reservation.reservationNumber,
      reference: reservation.reservationNumber,
      product: `Hotel stay ${reservation.arrival} to ${reservation.departure}`,
      amount: reservation.total,
      purchasedAt: new Date(`${reservation.arrival}T12:00:00Z`),
    };
    const claimed = await findStandingClaims(tx, 'hotel', [reservationNumber]);
    return assertClaimable(ctx, [purchase], new Set(claimed.map((c) => c.sourceId)));
  });
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
  ctx: LoyaltyContext,
  claimOf: (ctx: LoyaltyContext, request: R, by: Claimant) => Promise<ClaimOutcome | CheckCandidate[]>,
  request: R,
): Promise<ClaimResult | CheckCandidate[]> {
  return throttled(ctx, async () => {
    const outcome = await claimOf(ctx, request, GUEST);
    if (Array.isArray(outcome)) return outcome;
    return {
      pointsEarned: outcome.pointsEarned,
      balance: outcome.balance,
      loyaltyOrders: outcome.loyaltyOrders.map(toClaimedPurchase),
      allowedChanges: ALLOWED_CHANGES.claimed,
      walletToken: ctx.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, outcome.accountId, LOYALTY_WALLET_TOKEN.ttlSeconds),
    };
  });
}

const REVERSAL_REASON = { refunded: 'refunded', cancelled: 'cancelled', missing: 'removed by its feed' } as const;

/** What a claimed purchase is now: still valid, refunded, cancelled, or gone from its feed. */
async function purchaseState(
  tx: Executor,
  sourceType: LoyaltyOrderType,
  sourceId: string,
): Promise<'valid' | keyof typeof REVERSAL_REASON> {
  if (sourceType === 'hotel') {
    const cancelled = await findReservationCancelled(tx, sourceId);
    return cancelled === null ? 'missing' : cancelled ? 'cancelled' : 'valid';
  }
  const refunded = sourceType === 'ticket' ? await findTicketRefunded(tx, sourceId) : await findCheckRefunded(tx, sourceId);
  return refunded === null ? 'missing' : refunded ? 'refunded' : 'valid';
}

/**
 * A feed resent or dropped a purchase (a purchase-changed job): each standing claim of it that
 * is no longer valid is reversed, with one reversal entry taking back what it earned. Runs
 * again harmlessly: a reversed claim is no longer standing.
 */
export async function reverseInvalidClaims(
  ctx: { db: Executor; ticketChanges: LedgerChanges },
  sourceType: LoyaltyOrderType,
  sourceId: string,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const standing = await lockStandingClaimsOfSource(tx, sourceType, sourceId);
    if (standing.length === 0) return 0;
    const state = await purchaseState(tx, sourceType, sourceId);
    if (state === 'valid') return 0;
    let reversed = 0;
    for (const claimRow of standing) {
      if (!(await markReversed(tx, claimRow.id))) continue;
      await appendLedger(tx, ctx.ticketChanges, [
        {
          accountId: claimRow.accountId,
          points: -claimRow.earned,
          kind: 'reversal',
          reason: REVERSAL_REASON[state],
          loyaltyOrderId: claimRow.id,
          sourceType,
          sourceId,
          causedBy: 'system',
        },
      ]);
      reversed++;
    }
    return reversed;
  });
}
