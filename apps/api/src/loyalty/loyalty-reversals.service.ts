// Reversals: a claim whose purchase a feed refunded, cancelled or dropped, or that staff took
// back, loses what it earned. A claim has at most one reversal (the claim is marked reversed
// under its row lock, and a unique index on the ledger backs it); the purchase can then be
// claimed again.
import type { LoyaltyOrderType } from '@boardwalk/contract/loyalty';
import { REVERSAL_CAUSES, type ReversalCause as SystemCause } from '@boardwalk/contract/loyalty-statement';
import type { Executor } from '@boardwalk/db/client';
import { findReservationCancelled } from '../integrations/hotel/reservations.repo.ts';
import { findCheckRefunded } from '../integrations/pos/checks.repo.ts';
import { findTicketRefunded } from '../integrations/ticketing/ticket-lock.repo.ts';
import { findStandingClaims, lockAccount, lockStandingClaimsOfSource, markReversed, type NewLedgerEntry } from './loyalty.repo.ts';
import { bonusReversalOf } from './loyalty-campaigns.service.ts';
import { appendLedger, type LoyaltyCore, type LedgerChanges } from './loyalty.service.ts';

/** A standing claim, locked by the caller, with the points its earn entry gave. */
export interface StandingClaim {
  id: string;
  accountId: string;
  earned: number;
  sourceType: string;
  sourceId: string;
}

/** Who takes a claim back and why: the system after a feed's change, or a staff member. */
export type ReversalCause =
  { reason: string; causedBy: 'system'; system: string | null } | { reason: string; causedBy: 'staff'; staffMember: string };

/**
 * Reverses one standing claim in the caller's transaction: marks it reversed and writes the
 * reversal entry taking back what it earned. False when it already was reversed (nothing written).
 */
export async function reverseClaim(tx: Executor, changes: LedgerChanges, claim: StandingClaim, cause: ReversalCause): Promise<boolean> {
  if (!(await markReversed(tx, claim.id))) return false;
  const reversal: NewLedgerEntry = {
    accountId: claim.accountId,
    points: -claim.earned,
    kind: 'reversal',
    reason: cause.reason,
    loyaltyOrderId: claim.id,
    sourceType: claim.sourceType,
    sourceId: claim.sourceId,
    causedBy: cause.causedBy,
    staffMember: cause.causedBy === 'staff' ? cause.staffMember : null,
    system: cause.causedBy === 'system' ? cause.system : null,
  };
  // A campaign's bonus on the purchase goes with it, exactly.
  const bonus = await bonusReversalOf(tx, reversal);
  await appendLedger(tx, changes, bonus ? [reversal, bonus] : [reversal]);
  return true;
}

/** The reason a system's reversal records, by the purchase's state (the statement reads the cause back: reversalCauseOf). */
const REVERSAL_REASON: Record<SystemCause, string> = { refunded: 'refunded', cancelled: 'cancelled', removed: 'removed by its feed' };

/** The cause of a reversal the park's systems made, from the reason it recorded; null for any other reason. */
export const reversalCauseOf = (reason: string): SystemCause | null =>
  REVERSAL_CAUSES.find((cause) => REVERSAL_REASON[cause] === reason) ?? null;

/** What a claimed purchase is now: still valid, refunded, cancelled, or gone from its feed. */
async function purchaseState(tx: Executor, sourceType: LoyaltyOrderType, sourceId: string): Promise<'valid' | SystemCause> {
  if (sourceType === 'hotel') {
    const cancelled = await findReservationCancelled(tx, sourceId);
    return cancelled === null ? 'removed' : cancelled ? 'cancelled' : 'valid';
  }
  const refunded = sourceType === 'ticket' ? await findTicketRefunded(tx, sourceId) : await findCheckRefunded(tx, sourceId);
  return refunded === null ? 'removed' : refunded ? 'refunded' : 'valid';
}

/**
 * A feed resent or dropped a purchase (a purchase-changed job): each standing claim of it that
 * is no longer valid is reversed, with one reversal entry taking back what it earned. Runs
 * again harmlessly: a reversed claim is no longer standing. `system`: the integration key whose
 * feed call changed the purchase, recorded on each reversal (null: the import command).
 */
export async function reverseInvalidClaims(
  core: Pick<LoyaltyCore, 'db' | 'changes'>,
  sourceType: LoyaltyOrderType,
  sourceId: string,
  system: string | null,
): Promise<number> {
  return core.db.transaction(async (tx) => {
    // The accounts first, then the claims: the order every change of points takes its locks in.
    const accounts = [...new Set((await findStandingClaims(tx, sourceType, [sourceId])).map((c) => c.accountId))].sort();
    for (const accountId of accounts) await lockAccount(tx, accountId);
    const standing = await lockStandingClaimsOfSource(tx, sourceType, sourceId);
    if (standing.length === 0) return 0;
    const state = await purchaseState(tx, sourceType, sourceId);
    if (state === 'valid') return 0;
    let reversed = 0;
    for (const claim of standing) {
      if (
        await reverseClaim(
          tx,
          core.changes,
          { ...claim, sourceType, sourceId },
          { reason: REVERSAL_REASON[state], causedBy: 'system', system },
        )
      ) {
        reversed++;
      }
    }
    return reversed;
  });
}
