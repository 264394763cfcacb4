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
  /**
   * Waits for this request's slot (no two requests of any process closer than 1/perSecond);
   * answers the slot's moment (ms, the database's clock). Takes no slot and throws RateBusy
   * when the next free one is more than `maxWaitMs` away (the caller's job tries again later).
   */
  take(): Promise<number>;
  /** No request of any process goes before `seconds` from now (Google's Retry-After). */
  pause(seconds: number): Promise<void>;
}

/** The rate's next free slot is further away than a request may wait in hand. */
export class RateBusy extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The database's clock in milliseconds, read once per statement. */
const clock = sql`(select extract(epoch from clock_timestamp()) * 1000 as now)`;

/** No pause is longer (Google's Retry-After): a row further ahead is from a clock that went back, and counts as now. */
const LONGEST_PAUSE_MS = 60 * 60 * 1000;

export function createRequestRate(db: Executor, key: string, perSecond: number, maxWaitMs = 15_000): RequestRate {
  const interval = 1000 / perSecond;
  const next = sql`(case when ${rateSlots.nextAt} > (select now from clock) + ${LONGEST_PAUSE_MS} then 0 else ${rateSlots.nextAt} end)`;
  return {
    async take() {
      // The slot is the later of now and the row's next moment; the row moves one interval past it.
      const { rows } = (await db.execute(sql`
        with clock as ${clock}
        insert into ${rateSlots} (key, next_at) select ${key}, now + ${interval} from clock
        on conflict (key) do update set next_at = greatest(${next}, (select now from clock)) + ${interval}
          where ${next} <= (select now from clock) + ${maxWaitMs}
        returning next_at - ${interval} as slot, next_at - ${interval} - (select now from clock) as wait_ms`)) as unknown as {
        rows: { slot: number | string; wait_ms: number | string }[];
      };
      const row = rows[0];
      if (!row) throw new RateBusy(`Google's request rate is taken for more than ${maxWaitMs / 1000} s`);
      // The wait by the database's clock (no clock of this machine's is compared with it); the
      // answer's way back only makes the request later, never earlier.
      const wait = Number(row.wait_ms);
      if (wait > 0) await sleep(wait);
      return Number(row.slot);
    },
    async pause(seconds) {
      await db.execute(sql`
        with clock as ${clock}
        insert into ${rateSlots} (key, next_at) select ${key}, now + ${seconds * 1000} from clock
        on conflict (key) do update set next_at = greatest(${next}, excluded.next_at)`);
    },
  };
}
