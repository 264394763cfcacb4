// POST /api/passkit/v1/log: devices report problems with the web service. Anyone can call
// it, so what reaches the log is bounded: requests per client address are limited (the
// passkitLogLimit counter of the throttle plugin), and of each request only a few lines of
// bounded length are kept, control characters removed and secrets masked; the rest is dropped
// (Apple expects 200 whatever the log says).
import type { FastifyBaseLogger } from 'fastify';
import { maskUrl } from '../../platform/logging.ts';

export const DEVICE_LOG_LIMITS = {
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

/** Logs what a device reported: its first lines, each made safe to log; how many were dropped. */
export function logDeviceMessages(log: Pick<FastifyBaseLogger, 'warn'>, logs: string[]): void {
  const kept = logs.slice(0, DEVICE_LOG_LIMITS.linesPerRequest);
  for (const message of kept) log.warn({ message: deviceLogLine(message) }, 'Apple Wallet device log');
  if (logs.length > kept.length) log.warn({ dropped: logs.length - kept.length }, 'Apple Wallet device log: lines dropped');
}
