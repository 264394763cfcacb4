// The loyalty core: what the guest's, the staff's, the wallet's and the tills' loyalty calls
// share. Points are money: the ledger is append-only and the balance is its sum; every entry
// is written by appendLedger (or appendClaims, a claim's), in the transaction of the change
// that earns, spends or takes back points, under the account's row lock. It keeps the lots
// (what each positive entry gave, what is left of it and when it expires) and publishes the
// account so that the member's wallet card follows, and tells the operator's systems
// (loyalty.points_changed).
import { eventRow, recordEventRows, type EventRow } from '../platform/events.ts';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../platform/config.ts';
import { AppError } from '../platform/errors.ts';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
import { balanceOf, lockAccount, type NewLedgerEntry } from './loyalty.repo.ts';
import { spendLots } from './loyalty-lots.repo.ts';
import { writeClaims, writeCredits, type ClaimEarning, type ClaimWritten } from './loyalty-credits.repo.ts';
import { LOYALTY_ACCOUNT_CHANGED } from './loyalty.topics.ts';
import { findTierChangesSince, tiersOf, type TierChange, type TierRule } from './loyalty-rewards.repo.ts';

/** What a ledger write needs besides its transaction: the change bus its accounts are published on, and the lots' lifetime. */
export interface LedgerChanges extends ChangeBus {
  /** A lot expires this many months after its entry (LOYALTY_POINTS_EXPIRE_MONTHS); 0: never. */
  pointsExpireMonths: number;
  /**
   * The time the changes are written at, for a past day (the demo's history, demo-history.service.ts):
   * entries, claims, lots and redemptions carry it. Unset: now (the transaction's time).
   */
  at?: Date | undefined;
}

/** The loyalty core's dependencies, built once when a feature registers; use cases take the per-request facts as arguments. */
export interface LoyaltyCore {
  db: Executor;
  config: Pick<Config, 'loyalty' | 'supportEmail' | 'parkTimezone' | 'publicUrl'>;
  /** A ledger entry changes what the member's wallet card shows: the account is published (a claim's, when it holds a card). */
  changes: LedgerChanges;
}

export const loyaltyCoreOf = (app: FastifyInstance): LoyaltyCore => ({
  db: app.database.db,
  config: app.config,
  changes: {
    publish: (tx, topic, keys) => app.jobs.publish(tx, topic, keys),
    pointsExpireMonths: app.config.loyalty.pointsExpireMonths,
  },
});

/**
 * Appends entries to the ledger (in the caller's transaction, under each account's row lock),
 * keeps the lots and publishes the accounts, so that every member card already in a wallet
 * shows the new balance: the way points are written, but for a claim's (appendClaims).
 * `locked`: the caller's transaction already holds the lock of every account the entries name
 * (a redemption), which spares a round trip. `events`: events that come with the entries (a
 * redemption's), written by the statement of the last spend, or after points given.
 */
export async function appendLedger(
  tx: Executor,
  changes: LedgerChanges,
  entries: NewLedgerEntry[],
  { locked = false, events = [] }: { locked?: boolean; events?: EventRow[] } = {},
): Promise<void> {
  if (entries.length === 0) return;
  const accounts = [...new Set(entries.map((entry) => entry.accountId))].sort();
  // The account's lock orders every change of its ledger and lots (taking it again in a transaction that holds it changes nothing).
  if (!locked) for (const accountId of accounts) await lockAccount(tx, accountId);
  const now = changes.at ?? new Date();
  if (changes.at) entries = entries.map((entry) => ({ ...entry, createdAt: changes.at }));
  if (entries.every((entry) => entry.points >= 0)) {
    // Points given (a raise, a redemption given back): one statement writes them, their lots and their events.
    await writeCredits(tx, entries, { months: changes.pointsExpireMonths, now });
    await recordEventRows(tx, events);
  } else if (entries.every((entry) => entry.points < 0)) {
    // Points taken (a redemption, a deduction, a reversal, the lots an expiry ends): each entry
    // is written by the statement that takes it from the lots, with its event; the change's
    // events come with the last. Only a claim's reversal moves a tier.
    const tiered = [...new Set(entries.filter((e) => e.kind === 'reversal').map((e) => e.accountId))];
    const tiersBefore = await tiersOf(tx, tiered, now);
    for (const [i, entry] of entries.entries()) await takeFromLots(tx, entry, i === entries.length - 1 ? events : []);
    await recordTiersMoved(tx, tiersBefore, await tiersOf(tx, tiered, now));
  } else {
    throw new Error('A ledger write gives points or takes them, not both');
  }
  await changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, accounts);
}

/**
 * A claim's write, the other way points are written (in the caller's transaction, which holds
 * the account's lock): the claimed purchases and an earn entry for each, with their lots and
 * events, in one statement; then the account is published if it holds a wallet card. Most
 * claims are a new member's first, with no card yet: their job would find nothing to update.
 * A card issued meanwhile cannot miss these points: recording it (a wallet_passes row naming
 * the account) waits for the account's lock, which this transaction holds, and its issuing
 * then publishes the account, so its job reads the member after this claim.
 * A claim's campaign bonuses (each claim's `bonus`) are written by the same statement, each after
 * its earn; `events`: what comes with them (a campaign's budget spent).
 */
export async function appendClaims(
  tx: Executor,
  changes: LedgerChanges,
  accountId: string,
  claims: ClaimEarning[],
  by: Pick<NewLedgerEntry, 'causedBy' | 'staffMember'>,
  events: EventRow[] = [],
): Promise<ClaimWritten> {
  const written = await writeClaims(tx, accountId, claims, by, {
    months: changes.pointsExpireMonths,
    now: changes.at ?? new Date(),
    at: changes.at ?? null,
  });
  await recordEventRows(tx, events);
  if (written.cardHolder) await changes.publish(tx, LOYALTY_ACCOUNT_CHANGED, [accountId]);
  return written;
}

/** loyalty.tier_changed for each account whose tier is not what it was. */
async function recordTiersMoved(
  tx: Executor,
  before: Map<string, { memberNumber: string; tier: string | null }>,
  after: Map<string, { memberNumber: string; tier: string | null }>,
): Promise<void> {
  const changes = [...after].flatMap(([accountId, { memberNumber, tier }]) => {
    const from = before.get(accountId)?.tier ?? null;
    return from === tier ? [] : [{ memberNumber, from, to: tier }];
  });
  await recordTierChanges(tx, changes);
}

/** Events per statement: three parameters each, well under PostgreSQL's 65,535. */
const EVENTS_PER_STATEMENT = 1000;

/** loyalty.tier_changed for each change, in tx. */
export async function recordTierChanges(tx: Executor, changes: TierChange[]): Promise<void> {
  for (let start = 0; start < changes.length; start += EVENTS_PER_STATEMENT) {
    await recordEventRows(
      tx,
      changes
        .slice(start, start + EVENTS_PER_STATEMENT)
        .map((change) => eventRow('loyalty.tier_changed', `member:${change.memberNumber}`, change)),
    );
  }
}

/**
 * A staff change of the tiers (create, edit, deactivate, delete) moves the members whose
 * earned points now reach another tier: each is told (loyalty.tier_changed), in the change's
 * transaction. `before`: the tiers as they were.
 */
export async function recordTierChangesOfTiersEdit(tx: Executor, before: TierRule[], now = new Date()): Promise<void> {
  await recordTierChanges(tx, await findTierChangesSince(tx, before, now));
}

/** A claim's reversal and its bonus's: they take from the claim's lots first and may take more than the lots hold. */
const TAKEN_BACK = new Set<string>(['reversal', 'bonus-reversal']);

/**
 * Writes a negative entry, its event and `events` by the statement that takes its points from
 * its account's lots: an expiry from its lot only, a claim's reversal from the claim's lot
 * first, any other spend oldest expiry first. Only a reversal may take more than the lots hold
 * (owed: a negative balance, which the next points given repay first); any other spend was
 * checked against the balance, so the lots cover it.
 */
async function takeFromLots(tx: Executor, entry: NewLedgerEntry, events: EventRow[]): Promise<void> {
  const first = {
    lotId: entry.lotId ?? null,
    loyaltyOrderId: TAKEN_BACK.has(entry.kind) ? (entry.loyaltyOrderId ?? null) : null,
  };
  const taken = await spendLots(tx, first, entry, events);
  if (taken < -entry.points && !TAKEN_BACK.has(entry.kind)) {
    throw new Error(`The lots of account ${entry.accountId} do not cover a ${entry.kind} of ${-entry.points} points`);
  }
}

/**
 * A staff member's adjustment of a locked account, in the caller's transaction: a ledger entry
 * with their reason. Only a deduction that would take the balance below zero is refused; a
 * raise is always accepted, also on a balance a reversal left negative.
 */
export async function adjustPoints(
  tx: Executor,
  changes: LedgerChanges,
  adjustment: { accountId: string; points: number; reason: string; staffMember: string },
): Promise<{ before: number; after: number }> {
  const { accountId, points, reason, staffMember } = adjustment;
  const before = await balanceOf(tx, accountId);
  if (points < 0 && before + points < 0) {
    throw new AppError('VALIDATION_FAILED', `The balance is ${before} points: a deduction cannot take it below zero.`);
  }
  await appendLedger(tx, changes, [{ accountId, points, kind: 'adjustment', reason, causedBy: 'staff', staffMember }]);
  return { before, after: before + points };
}
