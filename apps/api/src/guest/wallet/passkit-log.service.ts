// POST /api/passkit/v1/log: devices report problems with the web service. Anyone can call
// it, so what reaches the log is bounded: requests per client address are throttled, and of
// each request only a few lines of bounded length are kept, control characters removed and
// secrets masked; the rest is dropped (Apple expects 200 whatever the log says).
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { guestMessages } from '@boardwalk/contract/errors';
import { AppError } from '../../platform/errors.ts';
import { maskUrl } from '../../platform/logging.ts';

export const DEVICE_LOG_LIMITS = {
  /** Log requests one client address may send per window; the next answers 429. */
  requestsPerAddress: 10,
  windowSeconds: 15 * 60,
  /** Lines kept of one request (the rest dropped). */
  linesPerRequest: 5,
  /** Characters kept of one line. */
  lineLength: 200,
} as const;

/**
 * Control characters (C0, DEL, C1), format characters (bidirectional overrides, zero-width
 * ones) and the line and paragraph separators: each becomes a space.
 */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** One device log line as it may be logged: no control characters, secrets masked, at most DEVICE_LOG_LIMITS.lineLength characters. */
export function deviceLogLine(message: string): string {
  const plain = message.replace(CONTROL, ' ');
  // Barcodes and long tokens as everywhere, and any other run that could be a pass token.
  const masked = maskUrl(plain).replace(/[A-Za-z0-9_+/=-]{16,}/g, (m) => `${m.slice(0, 4)}…[${m.length}]`);
  return masked.slice(0, DEVICE_LOG_LIMITS.lineLength);
}

export interface DeviceLog {
  /** Logs what a device reported from this client address; 429 TOO_MANY_ATTEMPTS once the address used up its requests. */
  accept(clientAddress: string, logs: string[]): Promise<void>;
}

/** The device log with its counter per client address: in Redis when configured (shared by every instance), in memory otherwise. */
export function createDeviceLog(options: { redis?: Redis | undefined; keyPrefix: string; log: FastifyBaseLogger }): DeviceLog {
  const limiterOptions = {
    keyPrefix: `${options.keyPrefix}:passkit-log`,
    points: DEVICE_LOG_LIMITS.requestsPerAddress,
    duration: DEVICE_LOG_LIMITS.windowSeconds,
  };
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        ...limiterOptions,
        storeClient: options.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(limiterOptions),
      })
    : new RateLimiterMemory(limiterOptions);

  return {
    async accept(clientAddress, logs) {
      try {
        await limiter.consume(clientAddress);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        throw new AppError('TOO_MANY_ATTEMPTS', guestMessages.tooManyAttempts, {
          retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
        });
      }
      const kept = logs.slice(0, DEVICE_LOG_LIMITS.linesPerRequest);
      for (const message of kept) options.log.warn({ message: deviceLogLine(message) }, 'Apple Wallet device log');
      if (logs.length > kept.length) options.log.warn({ dropped: logs.length - kept.length }, 'Apple Wallet device log: lines dropped');
    },
  };
}
