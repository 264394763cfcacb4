// What every feed's write takes besides its record (orders, checks, reservations), whether the
// record came over HTTP (feed-route.ts) or in an import file (ingest.service.ts).
import type { Executor } from '@boardwalk/db/client';
import type { ChangeBus } from '../platform/jobs/jobs.plugin.ts';

export interface FeedWrite {
  db: Executor;
  changes: ChangeBus;
  /** The integration key's name whose call this is (null: the import command): recorded on what its change causes. */
  system?: string | null;
}
