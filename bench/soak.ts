// npm run bench:soak: a busy day's mixed traffic at a fixed rate for SOAK_SECONDS against two
// server instances started as production starts them (compiled, `node apps/api/dist/server.js`,
// child processes of this one) on one PostgreSQL database and one Redis, every request to the
// instances in turn: lookups (POST /api/login/), registrations, feed PUTs of new orders
// (integration API), Apple Wallet passes (.pkpass, signed with the development chain the
// instances make in their shared DATA_DIR), Google Wallet links (development key), PDF
// vouchers, stored value, and loyalty claims (a new member created on one instance claims an
// order the feed PUT on the other). GET /healthz (no database) runs in the same mix as the
// baseline: each route's p50 is also given as a ratio to it.
//
// Prints per route the count, p50, p99 and max and the errors (a status other than the
// expected one, a wrong body, or no answer within 30 s: goal 0), and each instance's resident
// memory (RSS, from /proc) sampled every 10 s: at start, at end, and its trend as a
// least-squares slope in MiB per minute over the whole run and over its second half (goal: no
// growth trend). Exits non-zero on any error.
//
// PostgreSQL: a fresh database on the machine's server (TEST_DATABASE_URL's server), created
// here and dropped at the end. Redis: a private redis-server on a free port, because the
// instances keep their throttle counters under the production prefix, which other servers on
// the machine's Redis share.
//
//   SOAK_SECONDS=300     length of the measured run (after a 15 s warm-up at the same rate)
//   SOAK_RATE=60         requests per second offered (open loop: a slow answer does not slow the sending)
//   BENCH_BUILD=false    run the API already built in apps/api/dist instead of building it
//   TEST_DATABASE_URL    PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test)
import { LOYALTY_EMAIL_PROOF } from '@boardwalk/contract/loyalty';
import { createDb, type Database } from '@boardwalk/db/client';
import { loadKeys } from '../apps/api/src/platform/keys.plugin.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { defaultTestDatabaseUrl } from '@boardwalk/db/test-support/test-database';
import { fmt, positiveNumber, postgresProblem } from './bench-support.ts';
import {
  buildApi,
  httpClient,
  onInterrupt,
  quantile,
  rssMiB,
  sleep,
  slope,
  startInstance,
  startPrivateRedis,
  type Answer,
  type HttpClient,
  type PrivateRedis,
  type ServerInstance,
} from './production-servers.ts';

const seconds = positiveNumber('SOAK_SECONDS', 300);
const rate = positiveNumber('SOAK_RATE', 60);
const WARM_UP_SECONDS = 15;
const SAMPLE_SECONDS = 10;
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;
const KEY = 'bench-integration-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

/** Seeded orders, each a Stored Value Card and three day tickets, all with holder names. */
const SEED_ORDERS = 300;
const TICKETS_PER_ORDER = 4;
const seedOrderId = (i: number) => String(70_000_000 + i);
const seedBarcode = (i: number, n: number) => `71${String(i * TICKETS_PER_ORDER + n).padStart(14, '0')}`;

type Route =
  | 'GET /healthz (baseline)'
  | 'lookup'
  | 'registration'
  | 'feed PUT (new order)'
  | 'Apple Wallet .pkpass'
  | 'Google Wallet link'
  | 'voucher PDF'
  | 'stored value'
  | 'loyalty create'
  | 'loyalty claim';

/** The mix: how many of every 100 scheduled slots each kind takes (a loyalty slot is two calls). */
const MIX: [Route, number][] = [
  ['lookup', 30],
  ['registration', 10],
  ['feed PUT (new order)', 15],
  ['Apple Wallet .pkpass', 8],
  ['Google Wallet link', 8],
  ['voucher PDF', 8],
  ['stored value', 10],
  ['loyalty claim', 6],
  ['GET /healthz (baseline)', 5],
];
const SLOTS: Route[] = MIX.flatMap(([route, n]) => Array<Route>(n).fill(route));
// Spread the kinds over the 100 slots (a fixed shuffle: the same order each run).
for (let i = SLOTS.length - 1, seed = 12345; i > 0; i--) {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  const j = seed % (i + 1);
  [SLOTS[i], SLOTS[j]] = [SLOTS[j]!, SLOTS[i]!];
}

interface Call {
  route: Route;
  instance: number;
  at: number;
  answer: Answer;
  /** Why the answer is wrong, if it is. */
  problem?: string;
}

async function seed(client: HttpClient) {
  const hashes: string[] = [];
  for (let i = 0; i < SEED_ORDERS; i++) {
    const res = await client.call('PUT', `/api/integrations/orders/${seedOrderId(i)}`, {
      headers: auth,
      json: {
        orderDate: new Date().toISOString(),
        purchaser: { firstName: `Ana${i}`, lastName: 'Lopez', email: `ana${i}@example.com` },
        tickets: Array.from({ length: TICKETS_PER_ORDER }, (_, n) => ({
          barcode: seedBarcode(i, n),
          product: n === 0 ? 'Fun Card' : 'Day Ticket',
          category: n === 0 ? 'Stored Value Card' : 'Day Ticket',
          price: n === 0 ? 50 : 49.5,
          holder: { firstName: `Holder${n}`, lastName: `Lopez${i}` },
          credits: n === 0 ? i % 40 : 0,
          cash: n === 0 ? (i % 7) * 2.5 : 0,
        })),
      },
    });
    if (res.status !== 201) throw new Error(`seeding order ${seedOrderId(i)} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    // The stored value link of the card, as its guest gets it.
    const login = await client.call('POST', '/api/login/', { json: { orderId: seedOrderId(i), barcode: seedBarcode(i, 0) } });
    const hash = login.status === 200 ? (JSON.parse(login.body.toString()) as { barcodeHash: string | null }).barcodeHash : null;
    if (!hash) throw new Error(`the login of card ${seedBarcode(i, 0)} answered ${login.status} without a barcodeHash`);
    hashes.push(hash);
  }
  return hashes;
}

/** Every `SAMPLE_SECONDS`: the instances' RSS and the load average. */
interface Sample {
  t: number;
  rss: number[];
  load: number;
}

async function main() {
  const problem = await postgresProblem(adminUrl);
  if (problem) throw new Error(`${problem}: bench:soak runs on PostgreSQL`);
  if (process.env.BENCH_BUILD !== 'false') {
    console.log('Building the API as production runs it...');
    console.log(`built in ${fmt(buildApi(), 1)} s`);
  }
  const dbName = `bw_soak_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'boardwalk-soak-'));
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
  let redis: PrivateRedis | undefined;
  const instances: ServerInstance[] = [];
  let created = false;
  let keysDatabase: Database | undefined;
  const cleanup = async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await keysDatabase?.close();
    await redis?.destroy();
    if (created) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
      created = false;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  onInterrupt(cleanup);
  try {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    created = true;
    const { rows } = await admin.query<{ version: string }>('select version()');
    await admin.end();
    redis = await startPrivateRedis();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      INTEGRATION_API_KEYS: `bench:${KEY}`,
      // No wallet update may leave the machine (none is expected: no pass is saved to a device).
      GOOGLE_WALLET_API_URL: 'http://127.0.0.1:9/walletobjects/v1',
      // Every new member comes from this one address: the per-address account limit is not what is soaked.
      LOYALTY_ACCOUNTS_PER_ADDRESS_PER_HOUR: '10000',
    };
    const watch = ['"level":40', '"level":50', '"level":60'];
    // One after the other: the first migrates the database and makes the development certificates.
    instances.push(await startInstance('instance 1', env, { watch }));
    instances.push(await startInstance('instance 2', env, { watch }));
    const clients = instances.map((i) => httpClient(i.url, { maxSockets: 128 }));
    // A new member's email proven as its mailed code proves it (what confirm answers): signed with the
    // servers' own keys, read from the database they share (the soak has no mailbox to read codes from).
    keysDatabase = await createDb({ databaseUrl, poolSize: 1 });
    const keys = await loadKeys(keysDatabase.db);
    const proofOf = (email: string) => keys.signToken(LOYALTY_EMAIL_PROOF.purpose, email, LOYALTY_EMAIL_PROOF.ttlSeconds);
    console.log(`Seeding ${SEED_ORDERS} orders of ${TICKETS_PER_ORDER} tickets through the feed...`);
    const hashes = await seed(clients[0]!);

    const calls: Call[] = [];
    const claimable: string[] = [];
    let memberSeq = 0;
    let slotSeq = 0;
    let newOrderSeq = 0;
    const inFlight = new Set<Promise<void>>();

    /** One call: timed, checked, kept. */
    const record = async (
      route: Route,
      instance: number,
      send: (c: HttpClient) => Promise<Answer>,
      check: (a: Answer) => string | undefined,
    ): Promise<Answer> => {
      const at = performance.now();
      const answer = await send(clients[instance]!);
      const problem = answer.error ?? check(answer);
      calls.push({ route, instance, at, answer, ...(problem && { problem }) });
      return answer;
    };
    const status = (want: number) => (a: Answer) => (a.status === want ? undefined : `${a.status} ${a.body.toString().slice(0, 160)}`);
    const body = (want: number, test: (a: Answer) => boolean, what: string) => (a: Answer) =>
      status(want)(a) ?? (test(a) ? undefined : `not ${what}`);

    const fire = async (slot: number) => {
      const route = SLOTS[slot % SLOTS.length]!;
      const instance = slot % 2;
      const t = (slot * 7919) % (SEED_ORDERS * TICKETS_PER_ORDER);
      const o = Math.floor(t / TICKETS_PER_ORDER);
      const ticket = { orderId: seedOrderId(o), barcode: seedBarcode(o, t % TICKETS_PER_ORDER) };
      switch (route) {
        case 'GET /healthz (baseline)':
          await record(route, instance, (c) => c.call('GET', '/healthz'), status(200));
          return;
        case 'lookup':
          await record(route, instance, (c) => c.call('POST', '/api/login/', { json: ticket }), status(200));
          return;
        case 'registration':
          await record(
            route,
            instance,
            (c) =>
              c.call('POST', '/api/register/', {
                json: { ...ticket, firstName: 'Rosa', lastName: `Soak${slot}`, email: 'rosa@example.com', phone: '3105550100' },
              }),
            status(200),
          );
          return;
        case 'feed PUT (new order)': {
          const orderId = String(80_000_000 + newOrderSeq++);
          const answer = await record(
            route,
            instance,
            (c) =>
              c.call('PUT', `/api/integrations/orders/${orderId}`, {
                headers: auth,
                json: {
                  orderDate: new Date().toISOString(),
                  // Bought by the member who will claim it: a public claim needs the purchase under the member's email.
                  purchaser: { firstName: 'Carl', lastName: 'Diaz', email: `soak-${orderId}@example.com` },
                  tickets: [{ barcode: `81${orderId.padStart(14, '0')}`, product: 'Day Ticket', price: 59.99, holder: {} }],
                },
              }),
            status(201),
          );
          if (answer.status === 201) claimable.push(orderId);
          return;
        }
        case 'Apple Wallet .pkpass':
          await record(
            route,
            instance,
            (c) => c.call('POST', '/api/apple-wallet/', { json: ticket }),
            body(
              200,
              (a) => a.headers['content-type'] === 'application/vnd.apple.pkpass' && a.body.subarray(0, 2).toString() === 'PK',
              'a pkpass',
            ),
          );
          return;
        case 'Google Wallet link':
          await record(
            route,
            instance,
            (c) => c.call('POST', '/api/google-wallet/', { json: ticket }),
            body(200, (a) => a.body.toString().startsWith('https://pay.google.com/gp/v/save/'), 'a save link'),
          );
          return;
        case 'voucher PDF':
          await record(
            route,
            instance,
            (c) => c.call('POST', '/api/voucher/', { json: ticket }),
            body(200, (a) => a.body.subarray(0, 5).toString() === '%PDF-', 'a PDF'),
          );
          return;
        case 'stored value':
          await record(
            route,
            instance,
            (c) => c.call('POST', '/api/stored-value/', { json: { barcodeHash: hashes[slot % hashes.length] } }),
            status(200),
          );
          return;
        case 'loyalty claim': {
          // A new member on this instance claims, on the other, an order the feed PUT earlier.
          const orderId = claimable.shift();
          const email = `soak-${orderId ?? `none-${memberSeq++}`}@example.com`;
          const createdMember = await record(
            'loyalty create',
            instance,
            (c) => c.call('POST', '/api/loyalty/create', { json: { email, firstName: 'Soak', lastName: 'Member', proof: proofOf(email) } }),
            status(200),
          );
          if (createdMember.status !== 200 || !orderId) return;
          await record(
            route,
            1 - instance,
            (c) => c.call('POST', '/api/loyalty/tickets/', { json: { orderId, email, userID: createdMember.body.toString() } }),
            body(200, (a) => (JSON.parse(a.body.toString()) as { pointsEarned?: number }).pointsEarned === 59, '59 points earned'),
          );
          return;
        }
      }
    };

    /** Sends at `rate` per second for `ms` (open loop), then waits for the answers. */
    const run = async (ms: number, onTick?: () => void) => {
      const started = performance.now();
      let sent = 0;
      while (performance.now() - started < ms) {
        const due = Math.floor(((performance.now() - started) / 1000) * rate);
        while (sent < due) {
          sent++;
          const done = fire(slotSeq++).then(() => void inFlight.delete(done));
          inFlight.add(done);
        }
        onTick?.();
        await sleep(5);
      }
      await Promise.all(inFlight);
      return sent;
    };

    console.log(`Warming up for ${WARM_UP_SECONDS} s at ${rate} req/s...`);
    await run(WARM_UP_SECONDS * 1000);
    const warmUpCalls = calls.splice(0);
    const samples: Sample[] = [];
    // Log lines before the run (the development-key and no-web-build warnings at start) are not counted.
    const logAtStart = instances.map((i) => [...i.logCounts.values()]);
    const t0 = performance.now();
    const sample = () =>
      samples.push({ t: (performance.now() - t0) / 1000, rss: instances.map((i) => rssMiB(i.pid)), load: loadavg()[0] ?? 0 });
    sample();
    console.log(
      `Soaking for ${seconds} s at ${rate} req/s over both instances (RSS at start ${samples[0]!.rss.map((r) => `${fmt(r, 1)} MiB`).join(', ')})...`,
    );
    let nextSample = SAMPLE_SECONDS;
    const slotsSent = await run(seconds * 1000, () => {
      const t = (performance.now() - t0) / 1000;
      if (t >= nextSample) {
        sample();
        const s = samples.at(-1)!;
        console.log(
          `  ${fmt(s.t)} s: RSS ${s.rss.map((r) => `${fmt(r, 1)} MiB`).join(', ')}; ${fmt(calls.length)} calls; load ${fmt(s.load, 2)}`,
        );
        nextSample += SAMPLE_SECONDS;
      }
    });
    const elapsed = (performance.now() - t0) / 1000;
    if (elapsed - samples.at(-1)!.t > 1) sample();
    for (const c of clients) c.close();
    const alive = instances.map((i) => i.child.exitCode === null && i.child.signalCode === null);

    // The figures.
    const baseline = quantile(
      calls
        .filter((c) => c.route === 'GET /healthz (baseline)')
        .map((c) => c.answer.ms)
        .sort((a, b) => a - b),
      0.5,
    );
    const lines = [
      `bench:soak ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'CPU'}`,
      `${rows[0]?.version.split(' on ')[0] ?? 'PostgreSQL'} (fresh database ${dbName}), private redis-server; two instances (production build), every call to them in turn`,
      `${fmt(elapsed)} s at ${rate} slots/s offered (${fmt(slotsSent)} slots, ${fmt(calls.length)} calls, ${fmt(calls.length / elapsed, 1)} calls/s) after ${WARM_UP_SECONDS} s of warm-up (${fmt(warmUpCalls.length)} calls, errors ${warmUpCalls.filter((c) => c.problem).length})`,
      `load average: at start ${fmt(samples[0]!.load, 2)}, mean ${fmt(samples.reduce((s, x) => s + x.load, 0) / samples.length, 2)}, max ${fmt(Math.max(...samples.map((s) => s.load)), 2)}, at end ${fmt(samples.at(-1)!.load, 2)} (2 cores shared with other work)`,
      `${'route'.padEnd(26)} ${['calls', 'p50 ms', 'p99 ms', 'max ms', 'p50/base', 'errors'].map((h) => h.padStart(9)).join('')}`,
    ];
    const routes = [...new Set<Route>(['GET /healthz (baseline)', ...MIX.map(([r]) => r), 'loyalty create'])];
    for (const route of routes) {
      const of = calls.filter((c) => c.route === route);
      const ms = of.map((c) => c.answer.ms).sort((a, b) => a - b);
      const cells = [
        fmt(of.length),
        fmt(quantile(ms, 0.5), 1),
        fmt(quantile(ms, 0.99), 1),
        fmt(ms.at(-1) ?? NaN, 1),
        `${fmt(quantile(ms, 0.5) / baseline, 1)}x`,
        fmt(of.filter((c) => c.problem).length),
      ];
      lines.push(`${route.padEnd(26)} ${cells.map((c) => c.padStart(9)).join('')}`);
    }
    const all = calls.map((c) => c.answer.ms).sort((a, b) => a - b);
    const errors = calls.filter((c) => c.problem);
    lines.push(
      `${'all'.padEnd(26)} ${[fmt(calls.length), fmt(quantile(all, 0.5), 1), fmt(quantile(all, 0.99), 1), fmt(all.at(-1) ?? NaN, 1), '', fmt(errors.length)].map((c) => c.padStart(9)).join('')}`,
    );
    lines.push(`errors: ${errors.length} (goal 0: ${errors.length === 0 ? 'met' : 'MISSED'})`);
    for (const e of errors.slice(0, 5)) lines.push(`  e.g. ${e.route} on instance ${e.instance + 1}: ${e.problem}`);
    const half = samples.filter((s) => s.t >= elapsed / 2);
    for (const [k, instance] of instances.entries()) {
      const points = samples.map((s) => ({ x: s.t / 60, y: s.rss[k]! }));
      const values = points.map((p) => p.y);
      lines.push(
        `${instance.name} (pid ${instance.pid}, ${alive[k] ? 'running' : 'EXITED'}): RSS start ${fmt(values[0]!, 1)} MiB, end ${fmt(values.at(-1)!, 1)} MiB, ` +
          `min ${fmt(Math.min(...values), 1)}, max ${fmt(Math.max(...values), 1)}; trend ${fmt(slope(points), 2)} MiB/min over the run, ` +
          `${fmt(slope(half.map((s) => ({ x: s.t / 60, y: s.rss[k]! }))), 2)} MiB/min over its second half (${samples.length} samples, every ${SAMPLE_SECONDS} s); ` +
          `log lines during the run warn/error/fatal: ${[...instance.logCounts.values()].map((n, w) => n - logAtStart[k]![w]!).join('/')}`,
      );
    }
    lines.push(`RSS samples (MiB): ${samples.map((s) => `${fmt(s.t)}s ${s.rss.map((r) => fmt(r)).join('/')}`).join(', ')}`);
    const logged = instances.some((i, k) => [...i.logCounts.values()].some((n, w) => n > logAtStart[k]![w]!));
    if (logged)
      for (const l of instances.flatMap((i) => i.tail.filter((line) => watch.some((w) => line.includes(w))).slice(-2)))
        lines.push(`  log: ${l.slice(0, 200)}`);
    const rule = '='.repeat(110);
    console.log(`\n${rule}\n${lines.join('\n')}\n${rule}`);
    if (errors.length > 0 || alive.includes(false)) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

try {
  await main();
} catch (error) {
  console.error('\nbench:soak failed:', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
}
