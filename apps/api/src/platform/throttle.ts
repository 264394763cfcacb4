// Throttling of failed attempts: a counter per key that only failures keep; once it reaches
// its limit every attempt answers 429 with Retry-After until the window ends.
// rate-limiter-flexible keeps the counters, in Redis when one is configured (so every
// instance shares them), in memory otherwise.
//
// An attempt reserves before it looks: it takes a point atomically first (refused: 429), then
// does the work, and gives the point back unless the work failed. So parallel attempts from
// one address can never run more failures than the limit, however many arrive at once.
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
}

/** One counter's key in one attempt; only attempt() uses these. */
export interface ThrottleKey {
  readonly counter: string;
  /** Takes a point atomically; throws TOO_MANY_ATTEMPTS when the key has none left. */
  reserve(): Promise<void>;
  /** Gives the point back; after a success, clears the key's failures when the counter says so. */
  release(succeeded: boolean): Promise<void>;
  /** The attempt failed: the point stays taken. */
  failed(): void;
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
    if (isFailure(error)) for (const key of taken) key.failed();
    else await giveBack(false);
    throw error;
  }
  await Promise.all(taken.map((key) => key.release(true)));
  return result;
}

export function createFailureThrottle(
  limit: FailureLimit,
  store: { redis?: Redis | undefined; keyPrefix: string },
  observer?: ThrottleObserver,
): FailureThrottle {
  const options = { keyPrefix: `${store.keyPrefix}:${limit.name}`, points: limit.points, duration: limit.windowSeconds };
  const limiter: RateLimiterAbstract = store.redis
    ? new RateLimiterRedis({
        ...options,
        storeClient: store.redis,
        rejectIfRedisNotReady: true,
        // Keeps throttling (per instance) while Redis is unreachable.
        insuranceLimiter: new RateLimiterMemory(options),
      })
    : new RateLimiterMemory(options);

  const of = (key: string): ThrottleKey => ({
    counter: limit.name,
    async reserve() {
      try {
        await limiter.consume(key);
      } catch (error) {
        // A RateLimiterRes is the refusal; anything else is a real failure of the store.
        if (!(error instanceof RateLimiterRes)) throw error;
        observer?.refused(limit.name);
        throw new AppError('TOO_MANY_ATTEMPTS', guestMessages.tooManyAttempts, {
          retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
        });
      }
    },
    async release(succeeded) {
      if (succeeded && limit.clearOnSuccess) await limiter.delete(key);
      else await limiter.reward(key, 1);
    },
    failed() {
      observer?.failed(limit.name);
    },
  });

  return { name: limit.name, of, attempt: (key, work) => attempt([of(key)], work) };
}
