// Throttling of failed attempts (decisions.md "Security"): a counter per key that only
// failures move; once it reaches its limit every attempt answers 429 with Retry-After
// until the window ends. rate-limiter-flexible keeps the counters, in Redis when one is
// configured (so every instance shares them), in memory otherwise.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';
import { guestMessages } from '@boardwalk/contract/errors';

export interface FailureLimit {
  /** Names the counter, e.g. "lookup-ip". */
  name: string;
  /** Failures allowed in the window; the next attempt is refused. */
  points: number;
  windowSeconds: number;
}

export interface FailureThrottle {
  /** Throws TOO_MANY_ATTEMPTS when the key has used up its failures. */
  assertAllowed(key: string): Promise<void>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
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

/** Told of each failure a counter records and each attempt it refuses (the metrics). */
export interface ThrottleObserver {
  failed(counter: string): void;
  refused(counter: string): void;
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

  return {
    async assertAllowed(key) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= limit.points) {
        observer?.refused(limit.name);
        throw new AppError('TOO_MANY_ATTEMPTS', guestMessages.tooManyAttempts, {
          retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        });
      }
    },
    async recordFailure(key) {
      observer?.failed(limit.name);
      try {
        await limiter.consume(key);
      } catch (error) {
        // A refusal only means the limit is now reached; anything else is a real failure.
        if (!(error instanceof RateLimiterRes)) throw error;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
