// The gate feed: attraction usage is history only; balances come from the order feed. An event
// sent again changes nothing.
import type { UsageEvent, UsageResult } from '@boardwalk/contract/integrations';
import type { Executor } from '@boardwalk/db/client';
import { insertUsageEvents } from './usage.repo.ts';

/** POST /api/integrations/usage: stores the new events in one statement. */
export async function recordUsage(opts: { db: Executor; events: UsageEvent[] }): Promise<UsageResult> {
  const accepted = await insertUsageEvents(
    opts.db,
    opts.events.map((e) => ({ barcode: e.barcode, attraction: e.attraction, location: e.location, timestamp: new Date(e.timestamp) })),
  );
  return { accepted, duplicates: opts.events.length - accepted };
}
