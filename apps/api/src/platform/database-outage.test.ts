// The server survives its database going away and coming back, again and again: while it is
// gone requests answer 503 with Retry-After (never 500), the log says so once per outage, and
// once it is back every request succeeds. Outages here: connections refused and every backend
// of the test database terminated (pg_terminate_backend), 20 times, under concurrent load that
// includes requests inside transactions (feed PUTs, registrations).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, defaultTestDatabaseUrl, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { isDatabaseUnavailable, watchDatabaseHealth } from './database-health.ts';

const OUTAGES = 20;

describe('database health', () => {
  it('tells a lost database from a wrong query, through the errors that wrap it', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('invalid byte sequence'), { code: '22021' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });

  it('says once that the database is gone and once that it is back', async () => {
    const lines: string[] = [];
    let up = false;
    const health = watchDatabaseHealth(
      () => (up ? Promise.resolve() : Promise.reject(new Error('Connection terminated'))),
      { warn: (_obj, msg) => void lines.push(msg), info: (msg) => void lines.push(msg) },
      20,
    );
    for (let i = 0; i < 50; i++) health.lost(new Error('Connection terminated'));
    expect(health.reachable).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    up = true;
    await expect.poll(() => health.reachable).toBe(true);
    health.stop();
    expect(lines).toEqual(['database unreachable: answering 503 until it is back', 'database reachable again']);
  });
});

describe.skipIf(testDbKind() !== 'postgres')(`PostgreSQL going away ${OUTAGES} times under load`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: pg.Client;
  let name: string;
  const logLines: string[] = [];
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => void crashes.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    database = await createTestDatabase('postgres', 5);
    name = new URL(database.url!).pathname.slice(1);
    t = await createTestApp({ database, env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void logLines.push(line) } });
    for (let i = 0; i < 5; i++) await putOrder(t.app, `7200000${i}`, anOrder([{ barcode: `720000000000001${i}`, cash: 1 }]));
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await t?.close();
    // Hangs if any transaction that met a dead connection kept its client (see createDb).
    await database?.close();
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  });

  let seq = 0;
  /** One request of the mix: a lookup, a feed PUT (a transaction) or a registration (a transaction). */
  async function oneRequest() {
    const i = seq++ % 5;
    const ticket = { orderId: `7200000${i}`, barcode: `720000000000001${i}` };
    const kind = seq % 3;
    const res =
      kind === 0
        ? await t.app.inject({
            method: 'POST',
            url: '/api/login/',
            payload: ticket,
            remoteAddress: `10.6.${seq % 250}.${(seq >> 8) % 250}`,
          })
        : kind === 1
          ? await t.app.inject({
              method: 'PUT',
              url: `/api/integrations/orders/${ticket.orderId}`,
              headers: integrationAuth,
              payload: anOrder([{ barcode: ticket.barcode, cash: seq }]),
            })
          : await t.app.inject({
              method: 'POST',
              url: '/api/register/',
              payload: { ...ticket, firstName: 'Ana', lastName: `Lopez${seq}`, email: 'ana@example.com', phone: '3105550100' },
              remoteAddress: `10.5.${seq % 250}.${(seq >> 8) % 250}`,
            });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], message: res.statusCode >= 500 ? res.body : '' };
  }

  /** Requests side by side, `parallel` at a time, for `ms`. */
  async function load(ms: number, parallel = 6) {
    const answers: Awaited<ReturnType<typeof oneRequest>>[] = [];
    const until = Date.now() + ms;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (Date.now() < until) answers.push(await oneRequest());
      }),
    );
    return answers;
  }

  it('never exits, answers 503 while the database is gone, and every request succeeds once it is back', async () => {
    const during: Awaited<ReturnType<typeof oneRequest>>[] = [];
    const after: Awaited<ReturnType<typeof oneRequest>>[] = [];
    for (let outage = 0; outage < OUTAGES; outage++) {
      // Load running while every connection (idle, checked out, inside a transaction) is killed.
      const running = load(600);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
      during.push(...(await running));
      during.push(...(await load(200)));
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      // Back: the health watch sees it within its ping interval; then every request succeeds.
      await expect.poll(async () => (await t.app.inject('/readyz')).statusCode, { timeout: 10_000 }).toBe(200);
      await expect.poll(() => t.app.databaseHealth.reachable, { timeout: 10_000 }).toBe(true);
      after.push(...(await load(300)));
    }
    const statuses = (list: typeof during) =>
      list.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});
    console.log(`${OUTAGES} outages: during ${JSON.stringify(statuses(during))}, after ${JSON.stringify(statuses(after))}`);
    expect(crashes).toEqual([]);
    expect(during.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    const unavailable = during.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThanOrEqual(OUTAGES);
    expect(unavailable.every((a) => a.retryAfter === '5' && a.message.includes('briefly unavailable'))).toBe(true);
    expect(after.length).toBeGreaterThan(OUTAGES * 10);
    expect(after.filter((a) => a.status !== 200 && a.status !== 201)).toEqual([]);
    // Once per outage at most, not once per request.
    const gone = logLines.filter((l) => l.includes('database unreachable')).length;
    const back = logLines.filter((l) => l.includes('database reachable again')).length;
    expect(gone).toBeGreaterThanOrEqual(1);
    expect(gone).toBeLessThanOrEqual(OUTAGES);
    expect(back).toBe(gone);
    expect(logLines.filter((l) => l.includes('unhandled error'))).toEqual([]);
  }, 180_000);
});
