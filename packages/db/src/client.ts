import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { listenOnPglite, listenOnPostgres, type ListenHandlers, type Listener } from './listen.ts';
import { tightenFolder } from './private-files.ts';

export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction or the database itself: what every repo function accepts. */
export type Executor = Pick<Db, '_' | 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers when the database can run a query (used by /readyz). */
  ping(): Promise<void>;
  /**
   * Runs SQL text as it is, with $1.. parameters, on the pool outside any transaction: what a
   * library that brings its own SQL needs (pg-boss's `db` adapter). Without values the text
   * may hold several statements (node-postgres answers one result per statement).
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * LISTENs on the channel (listen.ts): each NOTIFY on it, sent by any connection, arrives once
   * its transaction commits; onReconnect each time the LISTEN is (again) in place.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listener>;
  close(): Promise<void>;
  /** The pool's connections (open, idle, at most) and the requests waiting for one. */
  poolStats(): { total: number; idle: number; max: number; waiting: number };
}

export interface CreateDbOptions {
  /** postgres:// URL; unset means embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Folder for PGlite's files; unset with no databaseUrl means in memory. */
  dataDir?: string | undefined;
  /** PGlite in memory only: starts from this data folder (a tarball of PGlite's dumpDataDir) instead of an empty one. */
  loadDataDir?: Blob | undefined;
  /**
   * PGlite's buffer pool (its shared_buffers; PostgreSQL's 128MB unless set), which every start
   * allocates and zeroes (test databases, which hold little, start with 16MB).
   */
  pgliteSharedBuffers?: string | undefined;
  /** Pool size for PostgreSQL; unset: defaultPoolSize(). */
  poolSize?: number | undefined;
  /**
   * Told when a pooled connection is lost (server restart, admin command), idle or checked
   * out; the pool replaces it. The query that was running on it fails with the error.
   */
  onConnectionError?: (error: Error) => void;
  /** How long a request waits for a connection before failing (PostgreSQL). */
  connectionTimeoutMs?: number;
}

/**
 * The PostgreSQL pool's size unless configured: three connections per core, 4 to 10 (the usual
 * advice is two to three per core of the database's machine; 10 was the fixed size before, and
 * operators sized max_connections for it). More connections than cores only take turns
 * (docs/decisions.md, "Three connections per core"). A database on a machine of its own: set
 * DATABASE_POOL_SIZE from its cores, shared among the processes that use it.
 */
export const defaultPoolSize = (cores = availableParallelism()) => Math.min(10, Math.max(4, 3 * cores));

/** A PostgreSQL server that is gone answers at once; one that hangs must not hold a request longer. */
const CONNECTION_TIMEOUT_MS = 5_000;

/** PGlite's extensions the schema uses: pg_trgm, the trigram indexes of the staff loyalty lookup (migration 0006). */
export const pgliteExtensions = { pg_trgm };

const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));
// No schema: it is only for Drizzle's relational queries (db.query), which no code uses, and
// with it every transaction built a query builder per table (48) before its first statement.
export const drizzleConfig = { casing: 'snake_case' } as const;

type PgDb = NodePgDatabase;

/** A pool names at most this many statement texts, and remembers as many texts seen once. */
export const STATEMENT_CACHE_TEXTS = 1_000;

/**
 * A pool's naming of statement texts: a text's second coming names it (a statement the code
 * repeats, not a one-off), for at most STATEMENT_CACHE_TEXTS texts, each prepared at most once
 * on each of the pool's connections. Texts seen once are remembered as many, the oldest
 * forgotten first: one-offs (a search, an IN list of a new length) never take the places of
 * the statements the code repeats.
 */
function statementNames(): (text: string) => string | undefined {
  const named = new Map<string, string>();
  const seenOnce = new Set<string>();
  return (text) => {
    const name = named.get(text);
    if (name || named.size >= STATEMENT_CACHE_TEXTS) return name;
    if (!seenOnce.delete(text)) {
      seenOnce.add(text);
      if (seenOnce.size > STATEMENT_CACHE_TEXTS) seenOnce.delete(seenOnce.values().next().value!);
      return undefined;
    }
    const made = `s_${createHash('sha256').update(text).digest('base64url').slice(0, 43)}`;
    named.set(text, made);
    return made;
  };
}

/**
 * A client class with a statement cache, one per pool. node-postgres sends every statement
 * unnamed, so PostgreSQL parses and plans it again at each call; drivers elsewhere keep a cache
 * (postgres.js prepares every statement, JDBC after a threshold). This one names a statement
 * with parameters once its text has come twice (statementNames): PostgreSQL then plans it once
 * per connection (or keeps custom plans where the parameters matter). The name is the text's
 * hash, so one text is one statement on every connection. pg-boss's job insert, made in the
 * transaction of every change that reaches a wallet or a member card: 0.59 ms planned at each
 * call, 0.16 ms named (bench:claims). Nothing to install does this for node-postgres.
 */
function statementCachingClient(): typeof pg.Client {
  const statementName = statementNames();
  return class StatementCachingClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super(config);
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
        if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
          const name = statementName(config);
          if (name) return query({ name, text: config, values }, callback);
        } else if (typeof config === 'object' && config !== null && !('submit' in config)) {
          const c = config as pg.QueryConfig;
          // Drizzle gives the values beside the config.
          const name = !c.name && (Array.isArray(values) ? values : c.values)?.length ? statementName(c.text) : undefined;
          if (name) return query({ ...c, name }, values, callback);
        }
        return query(config, values, callback);
      }) as pg.Client['query'];
    }
  };
}

/**
 * The pool of PGlite's one session. pg-pool's query() destroys the client of a query that
 * failed, as a server's connection may be broken then; PGlite's session lives in this process
 * and outlives any failed query, and the client that holds it must stay (a new one on the same
 * session would meet the old one's end). Its query() runs on the client and gives it back.
 *
 * Each checkout first lets the event loop run what is waiting (timers, sockets): PGlite answers
 * through promises alone, so back-to-back transactions (job batches, woken one after another)
 * never left it, and for 10 s of a 1,000-ticket fan-out on a loaded machine no HTTP answer was
 * read: APNs pushes and Google updates that had arrived timed out and were sent again.
 */
class SessionPool extends pg.Pool {
  /** Set when the database closes: a new request for the connection fails at once. */
  closing = false;

  override async connect(): Promise<pg.PoolClient> {
    if (this.closing) throw new Error('The database is closed');
    const client = await super.connect();
    // Handed over by the previous holder's release, in the same turn of the event loop.
    await yieldToIo();
    return client;
  }

  override query(text: unknown, values?: unknown): never {
    return this.connect().then(async (client) => {
      try {
        return await client.query(text as string, values as unknown[]);
      } finally {
        client.release();
      }
    }) as never;
  }
}

/**
 * db.transaction on the pool, releasing its connection whatever happens. Drizzle 0.45 sends
 * BEGIN before its try/finally: a connection that died just before (the server restarted)
 * was never given back, and each such loss shrank the pool until every request waited for
 * a connection. Here the transaction runs on a Drizzle bound to one checked-out client
 * (made once per client), and a connection error destroys that client instead of returning it.
 */
function poolTransaction(pool: pg.Pool): PgDb['transaction'] {
  const bound = new WeakMap<pg.PoolClient, PgDb>();
  const boundTo = (client: pg.PoolClient): PgDb => {
    const existing = bound.get(client);
    if (existing) return existing;
    const made = drizzlePg({ client, ...drizzleConfig });
    bound.set(client, made);
    return made;
  };
  return async (work, txConfig) => {
    const client = await pool.connect();
    let lost: Error | undefined;
    try {
      return await boundTo(client).transaction(work, txConfig);
    } catch (error) {
      if (!(client as unknown as { _queryable?: boolean })._queryable) lost = error as Error;
      throw error;
    } finally {
      client.release(lost);
    }
  };
}

/** Beside the embedded database's folder (DATA_DIR/pglite): the id of the process that has it open. */
export const PGLITE_LOCK_FILE = 'pglite.pid';

/**
 * The live process, other than this one, that has the embedded database in dataDir open, or
 * null. PGlite itself does not exclude a second process (its postmaster.pid holds no real
 * pid), and two processes on one folder corrupt it; a lock left by a process that died is
 * ignored.
 */
export function pgliteHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, PGLITE_LOCK_FILE), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The embedded database in ${dataDir} is open in process ${pid}; it takes one process at a time (stop that process first).`);
  }
}

/** Marks dataDir's embedded database as open in this process; answers the release. */
export function lockPglite(dataDir: string): () => void {
  const holder = pgliteHolder(dataDir);
  if (holder !== null) throw new DatabaseInUseError(dataDir, holder);
  const file = join(dataDir, PGLITE_LOCK_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}

/**
 * The database over a node-postgres pool: Drizzle, whose transactions release their connection
 * whatever happens, with the schema brought up to date; `close` ends it.
 */
async function poolDatabase(
  pool: pg.Pool,
  kind: Database['kind'],
  onConnectionError: (error: Error) => void,
  listen: Database['listen'],
  close: () => Promise<void>,
): Promise<Database> {
  // Without a listener, a lost connection is an unhandled 'error' that ends the process. The
  // pool listens while a connection is idle; while it is checked out (inside a transaction,
  // between two queries) only the client itself can, so every client gets its own listener.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => client.on('error', onConnectionError));
  const db = drizzlePg({ client: pool, ...drizzleConfig });
  db.transaction = poolTransaction(pool);
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind,
    ping: async () => void (await pool.query('select 1')),
    executeSql: (text, values) => pool.query(text, values),
    listen,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, max: pool.options.max, waiting: pool.waitingCount }),
    close,
  };
}

/**
 * Opens the database and brings its schema up to date. Both databases are driven alike:
 * Drizzle over a node-postgres pool of statement-caching clients. PGlite is reached through its
 * own node-postgres connection (@electric-sql/pglite/node-postgres) as a pool of one (PGlite
 * is one session): a transaction holds it, so nothing else runs inside another's transaction,
 * and a statement the code repeats is parsed and planned once, as on PostgreSQL (a primary-key
 * select: 199 us through PGlite's own query(), 84 us named; see docs/decisions.md).
 */
export async function createDb(options: CreateDbOptions): Promise<Database> {
  const lost = options.onConnectionError ?? ((error: Error) => console.warn(`database connection lost: ${error.message}`));
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? defaultPoolSize(),
      connectionTimeoutMillis: options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS,
      Client: statementCachingClient(),
    });
    const { databaseUrl } = options;
    const listen = (channel: string, handlers: ListenHandlers) =>
      listenOnPostgres(databaseUrl, channel, handlers, lost, options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS);
    // Closing while the server is gone must not throw out of a shutdown.
    return poolDatabase(pool, 'postgres', lost, listen, () => pool.end().catch((error: Error) => lost(error)));
  }
  let dataDir: string | undefined;
  let unlock: () => void = () => undefined;
  if (options.dataDir) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    unlock = lockPglite(options.dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, {
      extensions: pgliteExtensions,
      ...(options.pgliteSharedBuffers && {
        startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.pgliteSharedBuffers}`],
      }),
      ...(options.loadDataDir && !dataDir && { loadDataDir: options.loadDataDir }),
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const pgConfig = createPgConfig(client);
  // node-postgres hands a Parse the query's `types`: with Drizzle, its type parsers (an object),
  // which node-postgres's own serializer skips, while PGlite's expects parameter types (an
  // array) and throws; Drizzle sends no parameter types, so anything else is dropped.
  const { connection } = pgConfig;
  const parse = connection.parse.bind(connection);
  connection.parse = (query: { types?: unknown }) => parse({ ...query, types: Array.isArray(query.types) ? query.types : undefined });
  // One connection, kept while idle (PGlite's session holds the named statements); a request
  // waits for it as long as it takes, as it waits for PGlite itself.
  const pool = new SessionPool({ ...pgConfig, max: 1, idleTimeoutMillis: 0, Client: statementCachingClient() });
  // PGlite writes the files it unpacks 0666: its folder is made private once open, and again once closed.
  const tighten = () => void (dataDir && tightenFolder(dataDir));
  const listen = (channel: string, handlers: ListenHandlers) => listenOnPglite(client, (text) => pool.query(text), channel, handlers);
  const database = await poolDatabase(pool, 'pglite', lost, listen, async () => {
    // pg-pool never answers a request still waiting for the connection when it ends: new
    // requests are refused from now on, and it ends once the waiting ones have had their turn.
    pool.closing = true;
    while (pool.waitingCount > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await pool.end();
    await client.close();
    try {
      tighten();
    } finally {
      unlock();
    }
  });
  tighten();
  return database;
}
