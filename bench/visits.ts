// npm run bench:visits: passholder visit reservations on PostgreSQL. Bookings: each round's
// 200 passes book one entry window at once through POST /api/visits/book/ over HTTP (the pass
// looked up under the throttle, its lock and the window's taken, the places counted, the
// reservation, its event and the pass's republication written in one transaction, the calendar
// answered); beside it, the baseline: a bare insert of the same reservation rows, one
// transaction each, at the same concurrency. Then the booking page's lookup (POST /api/visits/,
// the pass's calendar of 14 days with three windows each) against a bare select of the same
// windows with their counts and the pass's reservations. Prints calls per second, p50 and p99 of
// each and their ratios; exits non-zero when a call fails.
//
//   BENCH_BOOKINGS=1000   measured bookings (and lookups): a window of BENCH_CONCURRENCY places each
//   BENCH_CONCURRENCY=200 calls in flight at once (the passes racing for one window)
//   BENCH_ROUNDS=5        rounds, Boardwalk's and the baseline's interleaved
//   BENCH_WARM_UP=200     calls per side first, not measured
//   TEST_DATABASE_URL     PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { Pool } from 'undici';
import { createTestDatabase, defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { operatingDay, shiftDate } from '../apps/api/src/platform/park-time.ts';
import { benchPoolSize, fmt, interleaved, positiveNumber, postgresProblem, type ConcurrentFigures } from './bench-support.ts';

const bookings = positiveNumber('BENCH_BOOKINGS', 1000);
const concurrency = positiveNumber('BENCH_CONCURRENCY', 200);
const rounds = positiveNumber('BENCH_ROUNDS', 5);
const warmUp = positiveNumber('BENCH_WARM_UP', 200);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const INTEGRATION_KEY = 'bench-integration-key-0123456789';
const PRODUCT = 'Gold Season Pass';
const HOUR = 3_600_000;

const orderIdOf = (side: number, i: number) => String(70_000_000 + side * 1_000_000 + i);
const barcodeOf = (side: number, i: number) => `24${orderIdOf(side, i)}000001`;

async function main() {
  const problem = await postgresProblem(adminUrl);
  if (problem) throw new Error(`${problem}: bench:visits measures PostgreSQL`);
  const database = await createTestDatabase('postgres', benchPoolSize());
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    DELIVERY_WORKERS: 'false',
    INTEGRATION_API_KEYS: `bench:${INTEGRATION_KEY}`,
    ADMIN_PASSWORD: 'bench admin password',
    // Every pass books once per window; the limit is not what is measured.
    VISIT_UPCOMING_LIMIT: '50',
    // Each call its own client address: the lookup throttle is not what is measured either.
    TRUST_PROXY: 'true',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const pool = new pg.Pool({ connectionString: database.url, max: 20 });
  const client = new Pool(base, { connections: concurrency });
  const total = bookings + warmUp;
  const windowsPerSide = Math.ceil(total / concurrency);
  const tomorrow = shiftDate(operatingDay(new Date(), config.parkTimezone), 1);

  try {
    console.log(
      `${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0]!.toFixed(2)}; seeding 2 x ${fmt(total)} passes...`,
    );
    await pool.query(`insert into visit_products (product) values ($1)`, [PRODUCT]);
    // Each side's windows: one per BENCH_CONCURRENCY calls, tomorrow from 10:00, a place for each pass.
    const windows: string[][] = [[], []];
    for (const side of [0, 1]) {
      for (let w = 0; w < windowsPerSide; w++) {
        const startsAt = new Date(Date.parse(`${tomorrow}T18:00:00Z`) + (side * windowsPerSide + w) * 60_000);
        const { rows } = await pool.query<{ id: string }>(
          `insert into visit_windows (starts_at, ends_at, capacity) values ($1, $2, $3) returning id`,
          [startsAt, new Date(startsAt.getTime() + 2 * HOUR), concurrency],
        );
        windows[side]!.push(rows[0]!.id);
      }
      for (let i = 0; i < total; i += 500) {
        const tickets = Array.from({ length: Math.min(500, total - i) }, (_, k) => i + k);
        await Promise.all(
          tickets.map(async (n) => {
            const put = await app.inject({
              method: 'PUT',
              url: `/api/integrations/orders/${orderIdOf(side, n)}`,
              headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
              payload: {
                orderDate: new Date().toISOString(),
                purchaser: { firstName: 'Bench', lastName: `Passholder ${n}` },
                tickets: [{ barcode: barcodeOf(side, n), product: PRODUCT, isPassholder: true, credits: 0, cash: 0 }],
              },
            });
            if (put.statusCode !== 201) throw new Error(`seeding a pass failed: ${put.statusCode} ${put.body}`);
          }),
        );
      }
    }
    const windowOf = (side: number, i: number) => windows[side]![Math.floor(i / concurrency)]!;

    const call = async (path: string, i: number, body: object) => {
      const response = await client.request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${path} ${i} failed: ${response.statusCode} ${text}`);
    };
    const book = (i: number) =>
      call('/api/visits/book/', i, { orderId: orderIdOf(0, i), barcode: barcodeOf(0, i), windowId: windowOf(0, i) });
    const bareBook = async (i: number) => {
      await pool.query(`insert into visit_reservations (window_id, barcode, order_id, day, status) values ($1, $2, $3, $4, 'booked')`, [
        windowOf(1, i),
        barcodeOf(1, i),
        orderIdOf(1, i),
        tomorrow,
      ]);
    };
    const lookUp = (i: number) => call('/api/visits/', i, { orderId: orderIdOf(0, i), barcode: barcodeOf(0, i) });
    const bareLookUp = async (i: number) => {
      await pool.query(
        `select w.*, count(r.*) filter (where r.status in ('booked', 'used', 'no_show')) as taken
         from visit_windows w left join visit_reservations r on r.window_id = w.id
         where w.starts_at >= now() - interval '1 day' and w.starts_at < now() + interval '14 days' group by w.id order by w.starts_at`,
      );
      await pool.query(`select * from visit_reservations where barcode = $1 and status in ('booked', 'waitlisted')`, [barcodeOf(1, i)]);
    };

    const options = { count: bookings, concurrency, rounds, warmUp };
    const [booked, bare] = await interleaved(
      [
        ['Boardwalk booking (HTTP)', book],
        ['bare insert of the same rows', bareBook],
      ],
      options,
    );
    const { rows } = await pool.query<{ window_id: string; n: string }>(
      `select window_id, count(*) as n from visit_reservations group by window_id having count(*) > $1`,
      [concurrency],
    );
    if (rows.length > 0) throw new Error(`a window passed its capacity: ${JSON.stringify(rows)}`);
    const [looked, bareLooked] = await interleaved(
      [
        ['Boardwalk calendar (HTTP)', lookUp],
        ['bare select of the same rows', bareLookUp],
      ],
      options,
    );

    const line = (f: ConcurrentFigures) =>
      `  ${f.name.padEnd(30)} ${fmt(f.perSecond).padStart(7)} calls/s  p50 ${fmt(f.p50, 1).padStart(6)} ms  p99 ${fmt(f.p99, 1).padStart(6)} ms`;
    console.log(
      `\nbench:visits, PostgreSQL, ${fmt(bookings)} calls, ${concurrency} at once on one window, in ${rounds} interleaved rounds after ${fmt(warmUp)} each to warm up, load average ${loadavg()[0]!.toFixed(2)}`,
    );
    console.log(line(booked));
    console.log(line(bare));
    console.log(
      `  ratio booking / bare insert: ${(booked.perSecond / bare.perSecond).toFixed(2)} (calls/s), p99 ${(booked.p99 / bare.p99).toFixed(2)}x`,
    );
    console.log(line(looked));
    console.log(line(bareLooked));
    console.log(
      `  ratio calendar / bare select: ${(looked.perSecond / bareLooked.perSecond).toFixed(2)} (calls/s), p99 ${(looked.p99 / bareLooked.p99).toFixed(2)}x`,
    );
  } finally {
    await pool.end();
    await client.close();
    await app.close();
    await database.close();
  }
}

await main();
