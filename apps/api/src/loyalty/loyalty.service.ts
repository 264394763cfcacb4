// The loyalty core: what the guest's, the staff's, the wallet's and the tills' loyalty calls
// share. Points are money: the ledger is append-only and the balance is its sum; every entry
// is written by appendLedger, in the transaction of the change that earns, spends or takes
// back points, and publishes its account so that the member's wallet card follows.
import type { FastifyInstance } from 'fastify';
import type { Executor } from '@boardwalk/db/client';
import type { Config } from '../platform/config.ts';
import { AppError } from '../platform/errors.ts';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';
import { balanceOf, insertLedgerEntries, type NewLedgerEntry } from './loyalty.repo.ts';
import { LOYALTY_ACCOUNT_CHANGED } from './loyalty.topics.ts';

export type LedgerChanges = ChangeBus;

/** The loyalty core's dependencies, built once when a feature registers; use cases take the per-request facts as arguments. */
export interface LoyaltyCore {
  db: Executor;
  config: Pick<Config, 'loyalty' | 'supportEmail'>;
  /** Every ledger entry changes what the member's wallet card shows: the account is published. */
  changes: LedgerChanges;
}

export const loyaltyCoreOf = (app: FastifyInstance): LoyaltyCore => ({
  db: app.database.db,
  config: app.config,
  changes: app.jobs,
});

/**
 * Appends entries to the ledger (in the caller's transaction) and publishes their accounts,
 * so that every member card already in a wallet shows the new balance: the one way points
 * are written.
 */
export async function appendLedger(tx: Executor, changes: LedgerChanges, entries: NewLedgerEntry[]): Promise<void> {
  await insertLedgerEntries(tx, entries);
  await changes.publish(
    tx,
    LOYALTY_ACCOUNT_CHANGED,
    entries.map((entry) => entry.accountId),
  );
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
