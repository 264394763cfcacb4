// Throttling of failed attempts: a counter per key that only failures keep; once it reaches
// its limit every attempt answers 429 with Retry-After until the window ends.
// rate-limiter-flexible keeps the counters, in Redis when one is configured (so every
// instance shares them), in memory otherwise.
//
// An attempt reserves before it acts: it takes a point atomically first, then does the work,
// and gives the point back unless the work failed. So attempts arriving together can never run
// more failures than the limit. A lookup, which only reads, looks first and reserves before it
// answers (answer()): what a guess learns is its answer, and every answer holds a point, so
// the limit holds the same, while lookups from one address run together instead of ten at a
// time. A second count, of the failures kept, tells a key that used up its failures (429)
// from one whose points are only held by attempts still running: an attempt waits for those
// to settle (most give their point back) rather than being refused.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';
import { guestMessages } from '@boardwalk/contract/errors';

export interface FailureLimit {
  /** Names the counter, e.g. "lookup-address". */
  name: string;
  /** Failures allowed in the window; the next attempt is refused. */
  points: number;
  windowSeconds: number;
  /**
   * A success clears the key's failures (the right order id or username was proved), instead
   * of only giving back the point the attempt took.
   */
  clearOnSuccess?: boolean;
  /**
   * What keeps a point: a failure (the default), or a success, for a limit on what callers
   * make (accounts per address) rather than on what they guess. Then a failure gives its
   * point back.
   */
  keeps?: 'failures' | 'successes';
}

/** One counter's key in one attempt; only attempt() uses these. */
export interface ThrottleKey {
  readonly counter: string;
  /** Takes a point atomically; throws TOO_MANY_ATTEMPTS when the key has none left. */
  reserve(): Promise<void>;
  /** Throws TOO_MANY_ATTEMPTS when reserve() would refuse at once (failures used up); takes nothing. */
  refuseIfSpent(): Promise<void>;
  /** Counts a look of this key in this process: false (counting nothing) when LOOKS_AT_ONCE run already. */
  startLook(): boolean;
  endLook(): void;
  /** Gives the point back; after a success, clears the key's failures when the counter says so. */
  release(succeeded: boolean): Promise<void>;
  /** The attempt failed: the point stays taken, and the failure is counted. */
  failed(): Promise<void>;
}

export interface FailureThrottle {
  readonly name: string;
  /** This counter's key, for attempt() with another counter. */
  of(key: string): ThrottleKey;
  /** attempt() under this counter alone. */
  attempt<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** The two counters of order lookups. */
export interface LookupThrottles {
  perAddress: FailureThrottle;
  perOrder: FailureThrottle;
}

/** The two counters of staff logins. */
export interface StaffLoginThrottles {
  perAddress: FailureThrottle;
  perUsername: FailureThrottle;
}

/** Told of each failure a counter keeps and each attempt it refuses (the metrics). */
export interface ThrottleObserver {
  failed(counter: string): void;
  refused(counter: string): void;
}

/**
 * A failure is the work refusing the caller (an AppError 4xx: not found, wrong password,
 * conflict). A 429 from a throttle inside the work is not the caller's miss, and a server
 * fault (5xx, any other error) is not the caller's either: both give the point back, so an
 * outage never locks guests out.
 */
const isFailure = (error: unknown) => error instanceof AppError && error.statusCode < 500 && error.code !== 'TOO_MANY_ATTEMPTS';

/**
 * Runs `work` under every key: each takes a point first, in order (a refusal by a later key
 * gives back the points the earlier ones took, and answers its 429); then the work runs. A
 * failure keeps every point; a success or a server fault gives them back.
 */
export async function attempt<T>(keys: readonly ThrottleKey[], work: () => Promise<T>): Promise<T> {
  const taken: ThrottleKey[] = [];
  const giveBack = (succeeded: boolean) => Promise.allSettled(taken.map((key) => key.release(succeeded)));
  try {
    for (const key of keys) {
      await key.reserve();
      taken.push(key);
    }
  } catch (error) {
    await giveBack(false);
    throw error;
  }
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (isFailure(error)) await Promise.allSettled(taken.map((key) => key.failed()));
    else await giveBack(false);
    throw error;
  }
  await Promise.all(taken.map((key) => key.release(true)));
  return result;
}

/**
 * At most this many looks of one key (an address, an order id) run at once in a process under
 * answer(); more reserve first, as attempt() does. So a burst of guesses from a new address
 * costs at most 50 reads before its misses count, and at most 50 refused guesses could be told
 * apart by how long their look took.
 */
export const LOOKS_AT_ONCE = 50;

/**
 * attempt() for work that only reads, such as a lookup: a key whose failures are used up
 * refuses at once, without a look; otherwise the look runs first and its answer, found or
 * not, is then given under attempt(), so it takes its points as any attempt does and a miss
 * keeps them. Points are held only while an answer is given, not while the database is read:
 * 50 right lookups from one address (a park's Wi-Fi) run at once rather than ten at a time
 * (bench:lookup, docs/decisions.md "Throttles reserve before they act; lookups before they
 * answer"). Never for work that writes or costs what a guess should not (a password's hash):
 * that reserves first.
 */
export async function answer<T>(keys: readonly ThrottleKey[], look: () => Promise<T>): Promise<T> {
  const looking = keys.filter((key) => key.startLook());
  if (looking.length < keys.length) {
    for (const key of looking) key.endLook();
    return attempt(keys, look);
  }
  let outcome: { found: T } | { error: unknown };
  try {
    // One key after the other: a refusal is counted once.
    for (const key of keys) await key.refuseIfSpent();
    try {
      outcome = { found: await look() };
    } catch (error) {
      outcome = { error };
    }
  } finally {
    for (const key of keys) key.endLook();
  }
  return attempt(keys, async () => {
    if ('error' in outcome) throw outcome.error;
    return outcome.found;
  });
}

/**
 * How long an attempt waits, while the points left are held by attempts still running, for
 * them to settle before it answers 429 anyway; and the longest the first in line sleeps
 * between two looks (an attempt of this process that settles wakes it at once; with Redis,
 * points given back by another instance are only seen at the next look).
 */
const SETTLE_WAIT_MS = 2000;
const LOOK_AGAIN_MS = 25;

/** An attempt of this process waiting in line for a key's points. */
interface Waiter {
  /** Lets it look again now. */
  wake(): void;
}

export function createFailureThrottle(
  limit: FailureLimit,
  store: { redis?: Redis | undefined; keyPrefix: string },
  observer?: ThrottleObserver,
): FailureThrottle {
  const limiter = (keyPrefix: string): RateLimiterAbstract => {
    const options = { keyPrefix, points: limit.points, duration: limit.windowSeconds };
    return store.redis
      ? new RateLimiterRedis({
          ...options,
          storeClient: store.redis,
          rejectIfRedisNotReady: true,
          // Keeps throttling (per instance) while Redis is unreachable.
          insuranceLimiter: new RateLimiterMemory(options),
        })
      : new RateLimiterMemory(options);
  };
  // Points taken: the failures kept plus the attempts running. Its window is the counter's.
  const taken = limiter(`${store.keyPrefix}:${limit.name}`);
  // The failures kept alone, in the same window (cleared when a window of points taken starts).
  const failures = limiter(`${store.keyPrefix}:${limit.name}:failed`);

  // The attempts of this process waiting for a key's points, in line: only the first looks
  // again, when an attempt settles (and every LOOK_AGAIN_MS, for points given back by another
  // instance), and a newcomer queues behind them. Polling alone made 50 lookups at once from
  // one address wait 127 ms at p99 for points long given back, and let late comers overtake.
  const lines = new Map<string, Waiter[]>();
  const settled = (key: string) => lines.get(key)?.[0]?.wake();
  const joinLine = (key: string): Waiter => {
    const waiter: Waiter = { wake: () => undefined };
    lines.set(key, [...(lines.get(key) ?? []), waiter]);
    return waiter;
  };
  const leaveLine = (key: string, waiter: Waiter) => {
    const line = (lines.get(key) ?? []).filter((w) => w !== waiter);
    if (line.length === 0) lines.delete(key);
    else lines.set(key, line);
    // The next in line looks at once: more points may be free.
    line[0]?.wake();
  };
  const lookAgain = (waiter: Waiter) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => waiter.wake(), LOOK_AGAIN_MS);
      waiter.wake = () => {
        clearTimeout(timer);
        waiter.wake = () => undefined;
        resolve();
      };
    });

  const refuse = (msBeforeNext: number) => {
    observer?.refused(limit.name);
    return new AppError('TOO_MANY_ATTEMPTS', guestMessages.tooManyAttempts, {
      retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
    });
  };

  /** Refuses once the key's failures kept reach the limit. */
  const refuseIfFailuresUsedUp = async (key: string) => {
    const failed = await failures.get(key);
    if (failed && failed.consumedPoints >= limit.points) throw refuse(failed.msBeforeNext);
  };

  // This process's looks of each key running under answer().
  const looking = new Map<string, number>();

  const of = (key: string): ThrottleKey => ({
    counter: limit.name,
    async refuseIfSpent() {
      // Points taken fill the window (a window that ended starts again at the next point).
      const points = await taken.get(key);
      if (points && points.consumedPoints >= limit.points) await refuseIfFailuresUsedUp(key);
    },
    startLook() {
      const running = looking.get(key) ?? 0;
      if (running >= LOOKS_AT_ONCE) return false;
      looking.set(key, running + 1);
      return true;
    },
    endLook() {
      const running = (looking.get(key) ?? 1) - 1;
      if (running === 0) looking.delete(key);
      else looking.set(key, running);
    },
    async reserve() {
      const deadline = Date.now() + SETTLE_WAIT_MS;
      let inLine: Waiter | undefined;
      try {
        for (;;) {
          const first = lines.get(key)?.[0];
          if (inLine ? first === inLine : first === undefined) {
            try {
              const res = await taken.consume(key);
              // The first point of a window: failures kept from an earlier window no longer count.
              if (res.consumedPoints === 1) await failures.delete(key);
              return;
            } catch (error) {
              // A RateLimiterRes is the refusal; anything else is a real failure of the store.
              if (!(error instanceof RateLimiterRes)) throw error;
            }
            // The refused point goes back: the count stays failures plus attempts running.
            await taken.reward(key, 1);
            await refuseIfFailuresUsedUp(key);
          }
          // Attempts still running hold the points left: wait for them, not for the window.
          if (Date.now() >= deadline) throw refuse(1000);
          inLine ??= joinLine(key);
          await lookAgain(inLine);
        }
      } finally {
        if (inLine) leaveLine(key, inLine);
      }
    },
    async release(succeeded) {
      // A success the limit counts keeps its point, recorded as kept: a full limit refuses at once.
      if (succeeded && limit.keeps === 'successes') await failures.penalty(key, 1);
      else if (succeeded && limit.clearOnSuccess) await Promise.all([taken.delete(key), failures.delete(key)]);
      else await taken.reward(key, 1);
      settled(key);
    },
    async failed() {
      if (limit.keeps === 'successes') await taken.reward(key, 1);
      else {
        observer?.failed(limit.name);
        await failures.penalty(key, 1);
      }
      // A waiter looks again: at a point given back, or at failures that now refuse it.
      settled(key);
    },
  });

  return { name: limit.name, of, attempt: (key, work) => attempt([of(key)], work) };
}
