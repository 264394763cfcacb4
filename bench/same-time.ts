// npm run bench:same-time: the calls that must not tell whether someone is known answer in the
// same time either way (issue 47, item 7). For each call, 200 requests about someone known and
// 200 about a stranger, interleaved one known, one stranger (so a busy moment of a loaded
// machine falls on both sides alike), one request at a time, through HTTP; each request from
// its own client address and about an email of its own (no throttle is reached). Prints the
// median and p90 of each side and the ratio of the medians; the run fails when a ratio is
// outside 0.8 to 1.25 (the medians not within 20 % of each other).
//
//   POST /api/privacy/request        an email held (a ticket holder's) / an email nobody uses
//   POST /api/loyalty/statement-link a member's email / an email nobody uses
//   POST /api/loyalty/verify         a member's email / an email nobody uses
//
// Workers run as in production (the jobs that look up and mail run beside the requests).
//
//   BENCH_CALLS=200        calls each way
//   BENCH_DB=pglite        one database only (pglite or postgres); default both when PostgreSQL answers
//   TEST_DATABASE_URL      PostgreSQL server for the fresh database (default postgres://postgres@127.0.0.1:5432/test)
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { insertAccount } from '../apps/api/src/loyalty/loyalty.repo.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { benchHeader, databaseKinds, fmt, positiveNumber, type DatabaseKind } from './bench-support.ts';

const calls = positiveNumber('BENCH_CALLS', 200);
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const INTEGRATION_KEY = 'bench-integration-key-0123456789';
const MAX_RATIO = 1.25;
const failures: string[] = [];

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function benchDatabase(kind: DatabaseKind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-bench-same-time-'));
  const database = await createTestDatabase(kind, 10);
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench admin password',
    INTEGRATION_API_KEYS: `bench:${INTEGRATION_KEY}`,
    TRUST_PROXY: '127.0.0.1',
  });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-same-time-${process.pid}` });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // The known: members, and ticket holders of orders (what the privacy search finds), each of their own.
    const run = Date.now().toString(36);
    const member = (i: number) => `member.${run}.${i}@example.com`;
    const held = (i: number) => `held.${run}.${i}@example.com`;
    const stranger = (call: string, i: number) => `stranger.${call.replace(/\W/g, '-')}.${run}.${i}@example.com`;
    for (let i = 0; i < calls; i++) {
      await insertAccount(database.db, {
        email: member(i),
        firstName: 'Mem',
        lastName: `Ber ${i}`,
        createdBy: 'guest',
        createdAt: new Date(),
      });
      const orderId = String(60_000_000 + i);
      const put = await app.inject({
        method: 'PUT',
        url: `/api/integrations/orders/${orderId}`,
        headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
        payload: {
          orderDate: new Date().toISOString(),
          purchaser: { firstName: 'Hel', lastName: `D ${i}`, email: held(i) },
          tickets: [{ barcode: `${orderId}00000001`, product: 'Day Ticket', price: 10, isPassholder: false, credits: 0, cash: 0 }],
        },
      });
      if (put.statusCode !== 201) throw new Error(`seeding an order failed: ${put.statusCode} ${put.body}`);
    }
    let address = 0;
    const post = async (path: string, email: string) => {
      ++address;
      const started = performance.now();
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        },
        body: JSON.stringify({ email }),
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status !== 202) throw new Error(`${path} answered ${res.status}`);
      return ms;
    };
    console.log(`\n${kind}: ${fmt(calls)} calls each way, interleaved`);
    for (const [name, path, known] of [
      ['privacy request', '/api/privacy/request', held],
      ['statement link', '/api/loyalty/statement-link', member],
      ['loyalty verify', '/api/loyalty/verify', member],
    ] as const) {
      // A few of each first, not measured (the first calls compile their statements).
      for (let i = 0; i < 10; i++) await post(path, stranger(`${name}-warm`, i));
      const knownMs: number[] = [];
      const strangerMs: number[] = [];
      for (let i = 0; i < calls; i++) {
        // Which side goes first alternates too.
        if (i % 2 === 0) {
          knownMs.push(await post(path, known(i)));
          strangerMs.push(await post(path, stranger(name, i)));
        } else {
          strangerMs.push(await post(path, stranger(name, i)));
          knownMs.push(await post(path, known(i)));
        }
      }
      const [k, s] = [knownMs.sort((a, b) => a - b), strangerMs.sort((a, b) => a - b)];
      const ratio = quantile(k, 0.5) / quantile(s, 0.5);
      const ok = ratio <= MAX_RATIO && ratio >= 1 / MAX_RATIO;
      if (!ok) failures.push(`${kind} ${name}: known/stranger median ratio ${fmt(ratio, 2)}`);
      console.log(
        `  ${name.padEnd(16)} known median ${fmt(quantile(k, 0.5), 2).padStart(6)} ms (p90 ${fmt(quantile(k, 0.9), 2)})` +
          `  stranger median ${fmt(quantile(s, 0.5), 2).padStart(6)} ms (p90 ${fmt(quantile(s, 0.9), 2)})` +
          `  ratio ${fmt(ratio, 2)}${ok ? '' : '  OUTSIDE 0.80-1.25'}`,
      );
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const kinds = await databaseKinds(adminUrl);
  console.log(
    benchHeader(
      'bench:same-time',
      `the answers that must not tell whether someone is known, known vs stranger, the median of ${calls} calls each way`,
    ),
  );
  for (const kind of kinds) await benchDatabase(kind);
  if (failures.length > 0) {
    console.log(`RUN FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error('\nbench: the run failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
