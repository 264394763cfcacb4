// The point-of-sale feed (integration-api.md "Point of sale"): one check per check id;
// several checks may share a check number (different days or terminals).
import type { CheckFeed, UpsertOutcome } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { upsertCheckRow } from './checks.repo.ts';

/** PUT /api/integrations/checks/{checkId}: creates or replaces the check, idempotently. */
export function upsertCheck(opts: { db: Executor; checkId: string; check: CheckFeed }): Promise<UpsertOutcome> {
  const { db, checkId, check } = opts;
  return upsertCheckRow(db, {
    checkId,
    checkNumber: check.checkNumber,
    orderDate: new Date(check.orderDate),
    terminalId: check.terminalId,
    total: check.total,
    refunded: check.refunded,
  });
}
