// The gate feed: attraction usage is history only; balances come from the order feed. An event
// sent again changes nothing.
import type { UsageEvent, UsageResult } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { ATTRACTION_VISITED } from './gate.topics.ts';
import { insertUsageEvents } from './usage.repo.ts';

/**
 * POST /api/integrations/usage: stores the new events in one statement, in the caller's
 * transaction, and publishes the barcodes they visited with (a loyalty challenge counts them).
 */
export async function recordUsage(opts: { db: Executor; changes: ChangeBus; events: UsageEvent[] }): Promise<UsageResult> {
  const barcodes = await insertUsageEvents(
    opts.db,
    opts.events.map((e) => ({ barcode: e.barcode, attraction: e.attraction, location: e.location, timestamp: new Date(e.timestamp) })),
  );
  await opts.changes.publish(opts.db, ATTRACTION_VISITED, [...new Set(barcodes)]);
  return { accepted: barcodes.length, duplicates: opts.events.length - barcodes.length };
}
