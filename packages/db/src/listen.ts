// LISTEN/NOTIFY on either database, for the job queue's wake-ups (pg-boss's `listen` capability
// of its `db` adapter): a NOTIFY sent in a transaction arrives when it commits, never when it
// rolls back. Written here because pg-boss's own listener is a method of its pool-based
// connection, which Boardwalk does not use (its jobs are written in the callers' transactions,
// through Database.executeSql and Drizzle), and the package that only does this for
// node-postgres (pg-listen) has had no release since 2021.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Listener {
  close(): Promise<void>;
}

/** What a listen call is told: each notification's payload, and every (re)established LISTEN. */
export interface ListenHandlers {
  onNotification(payload: string): void;
  /**
   * The LISTEN is in place, the first time and after each reconnection: notifications sent while
   * it was down were lost, so its owner looks for what it missed.
   */
  onReconnect(): void;
}

/** A channel as LISTEN names it: quoted, so its case is kept (pg-boss's are lowercase hex). */
const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

/**
 * PGlite: the LISTEN runs through `run` (the pool of its one session, so it never lands inside
 * another caller's open transaction), and PGlite hands every notification its session receives
 * to onNotification, whichever connection ran the statement that carried it. Nothing to
 * reconnect: the session is this process's. Closing only stops the handing over: the session's
 * LISTEN serves every listener of the channel in this process (two apps on one database), and
 * ends with the database.
 */
export async function listenOnPglite(
  client: PGlite,
  run: (text: string) => Promise<unknown>,
  channel: string,
  handlers: ListenHandlers,
): Promise<Listener> {
  const unsubscribe = client.onNotification((from, payload) => {
    if (from === channel) handlers.onNotification(payload);
  });
  await run(`LISTEN ${quoted(channel)}`);
  handlers.onReconnect();
  return { close: async () => unsubscribe() };
}

/** The longest wait before trying to connect again (doubling from 1 s). */
const LONGEST_BACKOFF_MS = 30_000;

/** Ends a listening connection, whatever it says from now on. */
async function discard(client: pg.Client): Promise<void> {
  client.removeAllListeners();
  client.on('error', () => undefined);
  await client.end().catch(() => undefined);
}

/**
 * PostgreSQL: a connection of its own (a pooled one would take its LISTEN back to the pool),
 * with TCP keepalive, connected again with a doubling backoff after it drops. The first
 * connection's failure is the caller's (pg-boss then only polls), and nothing of it is left
 * running; a drop later is told to onError.
 */
export async function listenOnPostgres(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
  onError: (error: Error) => void,
  connectionTimeoutMillis: number,
): Promise<Listener> {
  let closed = false;
  let established = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempts = 0;

  const dropped = (target: pg.Client, error: Error) => {
    if (closed || client !== target) return;
    client = undefined;
    void discard(target);
    if (!established) return;
    onError(error);
    scheduleReconnect();
  };
  const scheduleReconnect = () => {
    if (closed || retry) return;
    const wait = Math.min(LONGEST_BACKOFF_MS, 1000 * 2 ** attempts++);
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((error: unknown) => {
        if (closed) return;
        onError(error instanceof Error ? error : new Error(String(error)));
        scheduleReconnect();
      });
    }, wait);
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString, keepAlive: true, connectionTimeoutMillis });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onNotification(message.payload);
    });
    next.on('error', (error) => dropped(next, error));
    next.on('end', () => dropped(next, new Error('the LISTEN connection ended')));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${quoted(channel)}`);
    } catch (error) {
      if (client === next) client = undefined;
      await discard(next);
      throw error;
    }
    if (closed) return;
    established = true;
    attempts = 0;
    handlers.onReconnect();
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      if (last) await discard(last);
    },
  };
}
