// The point-of-sale feed: one check per check id; several checks may share a check number
// (different days or terminals).
import type { CheckFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { FeedWrite } from '../feed-write.ts';
import { CHECK_REFUNDED } from './check.topics.ts';
import { upsertCheckRow } from './checks.repo.ts';

/** PUT /api/integrations/checks/{checkId}: creates or replaces the check, idempotently. */
export function upsertCheck(opts: FeedWrite & { checkId: string; check: CheckFeed }): Promise<UpsertOutcome> {
  const { checkId, check } = opts;
  return opts.db.transaction(async (tx) => {
    const outcome = await upsertCheckRow(tx, {
      checkId,
      checkNumber: check.checkNumber,
      orderDate: new Date(check.orderDate),
      terminalId: check.terminalId,
      total: check.total,
      refunded: check.refunded,
      receiptCode: check.receiptCode ?? null,
    });
    // A claimed check that was refunded gives its points back.
    if (outcome === 'replaced' && check.refunded) await opts.changes.publish(tx, CHECK_REFUNDED, [checkId], opts.system);
    return outcome;
  });
}
