// The point-of-sale feed (integration-api.md "Point of sale"): one check per check id;
// several checks may share a check number (different days or terminals).
import type { CheckFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { findCheckForUpdate, insertCheckIfAbsent, updateCheck, type CheckValues } from './checks.repo.ts';
import { differs } from './row-diff.ts';

/** PUT /api/integrations/checks/{checkId}: creates or replaces the check, idempotently. */
export async function upsertCheck(opts: { db: Executor; checkId: string; check: CheckFeed }): Promise<UpsertOutcome> {
  const { db, checkId, check } = opts;
  const next: CheckValues = {
    checkId,
    checkNumber: check.checkNumber,
    orderDate: new Date(check.orderDate),
    terminalId: check.terminalId,
    total: check.total,
    refunded: check.refunded,
  };
  return db.transaction(async (tx) => {
    if (await insertCheckIfAbsent(tx, next)) return 'created';
    const current = await findCheckForUpdate(tx, checkId);
    if (current && !differs(current, next)) return 'unchanged';
    await updateCheck(tx, next);
    return 'replaced';
  });
}
