// The server side that bench:lookup and bench:stored-value share, forked once per database
// (argv[2]: pglite or postgres): a fresh database shared by the Boardwalk app and a bare Fastify
// route (PGlite is one in-process connection, so both live in this process), seeded and
// checked by the bench's own `prepare`, both listening on loopback. Tells the parent it is
// ready over IPC (load-driver.ts); any message from the parent means stop.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '@boardwalk/db/client';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp, type App } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { benchPoolSize } from './bench-support.ts';
import type { DatabaseKind, ServersMessage, ServersReady } from './load-driver.ts';

/** The pool both servers use on PostgreSQL (PGlite is one connection). */
const POOL_SIZE = benchPoolSize();
/** The integration key the seeding uses. */
export const BENCH_KEY = 'bench-integration-key-0123456789';

async function listen(server: FastifyInstance) {
  await server.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

/**
 * Builds the app on a fresh database with these settings, lets `prepare` make the bare route,
 * seed and check both, then reports ready with what `prepare` adds to the message.
 */
export async function serveBenchPair<R extends ServersReady>(
  env: Record<string, string>,
  prepare: (app: App, db: Db) => Promise<{ bare: FastifyInstance; report: Omit<R, keyof ServersReady> }>,
): Promise<void> {
  const kind: DatabaseKind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-'));
  let database: TestDatabase | undefined;
  let app: App | undefined;
  let bare: FastifyInstance | undefined;
  let closing: Promise<void> | undefined;
  /** Closes the servers and the database (a PostgreSQL one is dropped), then exits. */
  const closeAndExit = (code: number) =>
    (closing ??= (async () => {
      await app?.close().catch(() => undefined);
      await bare?.close().catch(() => undefined);
      await database?.close().catch((error: unknown) => console.error(`bench: closing the ${kind} database failed:`, error));
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(code);
    })());
  process.on('message', () => void closeAndExit(0));
  process.on('disconnect', () => void closeAndExit(0));
  // ^C reaches us too (same process group): still drop the database.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void closeAndExit(130));

  try {
    database = await createTestDatabase(kind, POOL_SIZE);
    const config = loadConfig({
      DEMO_DATA: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      INTEGRATION_API_KEYS: `bench:${BENCH_KEY}`,
      // Set, so the app does not print a generated one.
      ADMIN_PASSWORD: 'bench admin password',
      ...env,
    });
    app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-${process.pid}` });
    await app.ready();
    const prepared = await prepare(app, database.db);
    bare = prepared.bare;
    const { rows } = (await database.db.execute(sql`select version() as version`)) as unknown as { rows: { version: string }[] };
    process.send?.({
      type: 'ready',
      version: rows[0]?.version.split(' on ')[0] ?? kind,
      poolSize: kind === 'postgres' ? POOL_SIZE : null,
      boardwalkUrl: await listen(app),
      bareUrl: await listen(bare),
      ...prepared.report,
    } as R satisfies ServersMessage<R>);
  } catch (error) {
    process.send?.({
      type: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies ServersMessage<R>);
    await closeAndExit(1);
  }
}
