// Google's requests per second, kept across every process on the database: each request takes
// the next free slot of one row (rate_slots) in one statement, by the database's clock, and
// waits for it; a 429 moves the row past its Retry-After, so that no process sends before
// then. Written here because rate-limiter-flexible, which the failure throttles use, counts
// points in fixed windows: two windows back to back let twice the rate through within one
// second, and Google's quota is a rate. Processes sharing a database share the row.
import { sql } from 'drizzle-orm';
import type { Executor } from '@boardwalk/db/client';
import { rateSlots } from '@boardwalk/db/schema';

export interface RequestRate {
  /** Waits for this request's slot (no two requests of any process closer than 1/perSecond); answers the slot's moment (ms, the database's clock). */
  take(): Promise<number>;
  /** No request of any process goes before `seconds` from now (Google's Retry-After). */
  pause(seconds: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The database's clock in milliseconds, read once per statement. */
const clock = sql`(select extract(epoch from clock_timestamp()) * 1000 as now)`;

export function createRequestRate(db: Executor, key: string, perSecond: number): RequestRate {
  const interval = 1000 / perSecond;
  return {
    async take() {
      // The slot is the later of now and the row's next moment; the row moves one interval past it.
      const { rows } = (await db.execute(sql`
        with clock as ${clock}
        insert into ${rateSlots} (key, next_at) select ${key}, now + ${interval} from clock
        on conflict (key) do update set next_at = greatest(${rateSlots.nextAt}, (select now from clock)) + ${interval}
        returning next_at - ${interval} as slot`)) as unknown as { rows: { slot: number | string }[] };
      // Waited for by this machine's clock (as the database's, by NTP), so that the answer's
      // way back does not move the request later.
      const slot = Number(rows[0]?.slot ?? 0);
      const wait = slot - Date.now();
      if (wait > 0) await sleep(wait);
      return slot;
    },
    async pause(seconds) {
      await db.execute(sql`
        with clock as ${clock}
        insert into ${rateSlots} (key, next_at) select ${key}, now + ${seconds * 1000} from clock
        on conflict (key) do update set next_at = greatest(${rateSlots.nextAt}, excluded.next_at)`);
    },
  };
}
