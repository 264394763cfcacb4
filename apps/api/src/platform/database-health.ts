// Whether the database can be reached. A request that fails because it cannot is answered
// 503 (error-handler.ts), and the log says once that the database is gone; a background ping
// says once that it is back. Nothing here ends the process.

/** Node socket errors, and SQLSTATEs of a server shutting down, crashing, starting up or full. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** What node-postgres says when a connection is lost or cannot be had (it gives no code). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection closed',
  'is not currently accepting connections',
];

/** True when the error (or one it wraps: Drizzle wraps the driver's) means the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    // SQLSTATE class 08: connection exception.
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const message = current instanceof Error ? current.message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

interface HealthLog {
  warn(obj: object, msg: string): void;
  info(msg: string): void;
}

export interface DatabaseHealth {
  /** The database could not be reached: logged once, then watched until it answers. */
  lost(error: unknown): void;
  readonly reachable: boolean;
  stop(): void;
}

export function watchDatabaseHealth(ping: () => Promise<void>, log: HealthLog, intervalMs = 1000): DatabaseHealth {
  let down = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let pinging = false;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  return {
    lost(error) {
      if (down) return;
      down = true;
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'database unreachable: answering 503 until it is back');
      timer = setInterval(() => {
        if (pinging) return;
        pinging = true;
        ping()
          .then(
            () => {
              down = false;
              stop();
              log.info('database reachable again');
            },
            () => undefined,
          )
          .finally(() => (pinging = false));
      }, intervalMs);
      timer.unref();
    },
    get reachable() {
      return !down;
    },
    stop,
  };
}
