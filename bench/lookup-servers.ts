// The server side of bench/lookup.ts, forked once per database (argv[2]: pglite or postgres):
// a fresh database shared by the Boardwalk app and a bare Fastify route (PGlite is one
// in-process connection, so both live here), seeded, checked, listening on loopback.
// Tells the parent it is ready over IPC; any message from the parent means stop.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { tickets } from '@boardwalk/db/schema';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp, type App } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { seedLookupData, type SeedReport } from './lookup-seed.ts';
import type { DatabaseKind, ServersMessage, ServersReady } from './load-driver.ts';

export interface Ready extends ServersReady {
  seed: SeedReport;
  /** How many looked-up passes each lateral join changed: proof the joins do real work. */
  coverage: Record<string, number>;
}

export type ServerMessage = ServersMessage<Ready>;

/** createDb's default pool, as production runs it (PGlite is one connection). */
const POOL_SIZE = 10;
const BENCH_KEY = `bench-ticketing-${'0'.repeat(16)}`;

interface Pass {
  barcode: string;
  backgroundColor: string;
  ticketShares: unknown[];
  firstName: string | null;
  skipRegistration: boolean;
  excluded: string | null;
  isWristband: boolean;
}

/** Every seeded lookup must answer 200 on both servers before any load: a miss would trip the throttle. */
async function checkLookups(app: App, bare: FastifyInstance, lookups: SeedReport['lookups']) {
  const defaultBackground = `#${app.config.defaultPassColors.background.toLowerCase()}`;
  const joins: Record<string, (p: Pass) => boolean> = {
    customized: (p) => p.backgroundColor !== defaultBackground,
    'with shares': (p) => p.ticketShares.length > 0,
    registered: (p) => p.firstName?.startsWith('Guest') ?? false,
    'skip registration': (p) => p.skipRegistration,
    excluded: (p) => p.excluded !== null,
    wristbands: (p) => p.isWristband,
  };
  const coverage = Object.fromEntries(Object.keys(joins).map((name) => [name, 0]));
  for (const lookup of lookups) {
    const request = { method: 'POST', url: '/api/login/', payload: lookup } as const;
    const answers = { Boardwalk: await app.inject(request), bare: await bare.inject(request) };
    for (const [name, res] of Object.entries(answers)) {
      if (res.statusCode !== 200) throw new Error(`${name} lookup of ${JSON.stringify(lookup)} answered ${res.statusCode}: ${res.body}`);
    }
    const pass = answers.Boardwalk.json<Pass>();
    if (pass.barcode !== lookup.barcode) throw new Error(`Boardwalk lookup of ${lookup.barcode} answered barcode ${pass.barcode}`);
    for (const [name, applies] of Object.entries(joins)) if (applies(pass)) coverage[name] = (coverage[name] ?? 0) + 1;
  }
  return coverage;
}

async function listen(server: FastifyInstance) {
  await server.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

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
  const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'silent', DATA_DIR: dataDir, INTEGRATION_API_KEYS: `bench:${BENCH_KEY}` });
  app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-${process.pid}` });
  const db = database.db;
  // The least any lookup needs: the ticket's primary-key select, prepared once like the
  // product's lookup, at the same path with the same body.
  const selectTicket = db
    .select()
    .from(tickets)
    .where(eq(tickets.barcode, sql.placeholder('barcode')))
    .prepare('bare_ticket');
  bare = Fastify().post<{ Body: { barcode: string } }>('/api/login/', async (request, reply) => {
    const [row] = await selectTicket.execute({ barcode: request.body.barcode });
    return row ?? reply.code(404).send({ error: 'NOT_FOUND' });
  });
  await app.ready();
  const seed = await seedLookupData(app, db, `Bearer ${BENCH_KEY}`);
  const coverage = await checkLookups(app, bare, seed.lookups);
  const { rows } = (await db.execute(sql`select version() as version`)) as unknown as { rows: { version: string }[] };
  process.send?.({
    type: 'ready',
    version: rows[0]?.version.split(' on ')[0] ?? kind,
    poolSize: kind === 'postgres' ? POOL_SIZE : null,
    boardwalkUrl: await listen(app),
    bareUrl: await listen(bare),
    seed,
    coverage,
  } satisfies ServerMessage);
} catch (error) {
  process.send?.({
    type: 'failed',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  } satisfies ServerMessage);
  await closeAndExit(1);
}
