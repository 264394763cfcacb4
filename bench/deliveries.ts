// bench/deliveries: what durable delivery costs and how fast it drains.
//
// 1. Feed latency: PUT /api/integrations/orders/{id} (each changes a ticket whose Google object
//    a guest saved) against an app whose Google double takes 2 s per object update, beside the
//    same PUT on an app with no wallet credentials, interleaved in rounds, both with the default
//    settings (2 s coalescing). Goal: p50 and p99 ratio <= 1.2 (the feed never waits for Google).
// 2. Drain: BENCH_UPDATES (10,000) APNs pushes queued as delivery jobs, then drained by one
//    app's workers to a local HTTP/2 APNs double; baseline: the same pushes sent straight
//    through the APNs client, APPLE_PUSH_BATCH (500) at a time (the workers' batch), with no queue,
//    before the drain and after it (the ratio is to their mean).
// 3. The Deliveries tab: BENCH_DELIVERY_ROWS (100,000) deliveries over 7 days (apple pushes
//    mostly fetched, Google updates, mail; some dead and retrying), read over HTTP with a
//    staff login token one request at a time: the list's first page for the default filter
//    (retrying or dead), every state and the fetched ones, and the Apple push figures; beside
//    a bare prepared select of one delivery by key, then again without migration 0015's
//    indexes (dropped in the run's own database) to show what they buy.
//
// BENCH_DB=pglite|postgres (default both, PostgreSQL when reachable), BENCH_SECONDS per way (8),
// BENCH_PARTS=feed,drain,tab (default all three), BENCH_CPU_PROF=dir (a CPU profile of each drain),
// DATABASE_POOL_SIZE (the drain's pool; default: the app's).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp, type App } from '../apps/api/src/app.ts';
import { createHttp2ApnsClient } from '../apps/api/src/wallet/apple/apns.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { queueDelivery } from '../apps/api/src/platform/jobs/delivery.ts';
import { APPLE_PUSH_BATCH, APPLE_PUSH_QUEUE } from '../apps/api/src/wallet/deliveries/apple-deliveries.service.ts';
import { startApnsDouble } from '../apps/api/test-support/apns-double.ts';
import { anOrder } from '../apps/api/test-support/fixtures.ts';
import { GoogleDouble, writeServiceAccountKey } from '../apps/api/test-support/google-double.ts';
import { benchPoolSize, cpuMicrosSince, fmt, measureSequential, positiveNumber, profiled, type Measurement } from './bench-support.ts';

const seconds = positiveNumber('BENCH_SECONDS', 8);
const updates = positiveNumber('BENCH_UPDATES', 10_000);
const deliveryRows = positiveNumber('BENCH_DELIVERY_ROWS', 100_000);
const KEY = `bench-ticketing-${'0'.repeat(16)}`;
const ORDERS = 20;
const CLIENT_EMAIL = 'bench@boardwalk-bench.iam.gserviceaccount.com';
const ISSUER_ID = '3388000000022000001';

type Kind = 'pglite' | 'postgres';

async function startApp(database: TestDatabase, env: Record<string, string>): Promise<{ app: App; url: string }> {
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    INTEGRATION_API_KEYS: `ticketing:${KEY}`,
    ADMIN_PASSWORD: 'bench-admin-password',
    ...env,
  });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-${Date.now()}` });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const putOrder = (url: string, orderId: string, cash: number) =>
  fetch(`${url}/api/integrations/orders/${orderId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(anOrder([{ barcode: `${orderId}00000001`, cash }])),
  });

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function feedLatency(kind: Kind) {
  const dir = await mkdtemp(join(tmpdir(), 'bw-bench-deliveries-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const google = new GoogleDouble(publicKey, CLIENT_EMAIL);
  google.delayMs = 2000;
  await google.start();
  const keyFile = join(dir, 'key.json');
  await writeServiceAccountKey(keyFile, privateKey, CLIENT_EMAIL, `${google.baseUrl}/token`);
  const databases = [await createTestDatabase(kind), await createTestDatabase(kind)];
  const slow = await startApp(databases[0]!, {
    DATA_DIR: dir,
    GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
    GOOGLE_WALLET_KEY_FILE: keyFile,
    GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
  });
  const plain = await startApp(databases[1]!, { DATA_DIR: dir });
  try {
    for (const { url } of [slow, plain]) {
      for (let i = 0; i < ORDERS; i++) {
        const orderId = String(70_000_000 + i);
        if ((await putOrder(url, orderId, 0)).status !== 201) throw new Error('seeding failed');
        const link = await fetch(`${url}/api/google-wallet/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.0.${i}` },
          body: JSON.stringify({ orderId, barcode: `${orderId}00000001` }),
        });
        const jwt = (await link.text()).split('/').at(-1)!;
        const objects = (
          JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { payload: { genericObjects: { id: string }[] } }
        ).payload.genericObjects;
        google.saved.add(objects[0]!.id);
      }
    }
    const times: Record<'slow' | 'plain', number[]> = { slow: [], plain: [] };
    let cash = 1;
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      for (const [name, { url }] of [
        ['plain', plain],
        ['slow', slow],
      ] as const) {
        const until = performance.now() + (seconds * 1000) / rounds;
        for (let i = 0; performance.now() < until; i++) {
          const t0 = performance.now();
          const res = await putOrder(url, String(70_000_000 + (i % ORDERS)), cash++);
          times[name].push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`feed PUT answered ${res.status}`);
        }
      }
    }
    const row = (name: 'slow' | 'plain') => {
      const sorted = [...times[name]].sort((a, b) => a - b);
      return { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    };
    const s = row('slow');
    const p = row('plain');
    console.log(`\n${kind}: feed PUT latency, ${ORDERS} orders, ${seconds} s per way in ${rounds} interleaved rounds`);
    console.log('way                                   PUTs   p50 ms   p99 ms');
    console.log(`no wallet configured (baseline)  ${fmt(p.count).padStart(9)} ${fmt(p.p50, 2).padStart(8)} ${fmt(p.p99, 2).padStart(8)}`);
    console.log(`Google double taking 2 s a call  ${fmt(s.count).padStart(9)} ${fmt(s.p50, 2).padStart(8)} ${fmt(s.p99, 2).padStart(8)}`);
    console.log(
      `ratio p50 ${fmt(s.p50 / p.p50, 2)}x, p99 ${fmt(s.p99 / p.p99, 2)}x (goal <= 1.2); Google object calls during the run: ${google.objectCalls.length}`,
    );
  } finally {
    await slow.app.close();
    await plain.app.close();
    for (const database of databases) await database.close();
    await google.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function drain(kind: Kind) {
  const dir = await mkdtemp(join(tmpdir(), 'bw-bench-drain-'));
  const apns = await startApnsDouble(dir);
  const database = await createTestDatabase(kind, benchPoolSize());
  const env = { DATA_DIR: dir, APNS_URL: apns.url, APNS_CA_FILE: apns.caFile, DELIVERY_POLL_SECONDS: '0.5' };
  try {
    // Tickets with a pass on one device each, and one queued push per device.
    const db = database.db;
    await db.insert(schema.orders).values({ orderId: '71000001', orderDate: new Date() });
    const devices: { deviceLibraryIdentifier: string; serialNumber: string; pushToken: string; barcode: string }[] = [];
    for (let start = 0; start < updates; start += 1000) {
      const barcodes = Array.from({ length: Math.min(1000, updates - start) }, (_, i) => `71${String(start + i).padStart(14, '0')}`);
      await db
        .insert(schema.tickets)
        .values(barcodes.map((barcode, i) => ({ barcode, orderId: '71000001', position: start + i, product: 'Day Ticket' })));
      const passes = await db
        .insert(schema.walletPasses)
        .values(barcodes.map((barcode) => ({ barcode, contentHash: 'bench' })))
        .returning();
      const rows = passes.map((p, i) => ({
        deviceLibraryIdentifier: `bench${start + i}`,
        serialNumber: p.serialNumber,
        pushToken: (start + i + 1).toString(16).padStart(64, '0'),
        barcode: barcodes[i]!,
      }));
      await db.insert(schema.appleDeviceRegistrations).values(rows.map(({ barcode: _barcode, ...r }) => r));
      devices.push(...rows);
    }
    const queuing = await startApp(database, { ...env, DELIVERY_WORKERS: 'false' });
    const queuedAt = performance.now();
    for (let start = 0; start < devices.length; start += 1000) {
      await db.transaction(async (tx) => {
        for (const d of devices.slice(start, start + 1000)) {
          await queueDelivery(queuing.app.jobs, tx, {
            queue: APPLE_PUSH_QUEUE,
            target: 'apple',
            barcode: d.barcode,
            recipient: d.deviceLibraryIdentifier,
            payload: { serialNumber: d.serialNumber, deviceLibraryIdentifier: d.deviceLibraryIdentifier },
            singletonKey: `${d.deviceLibraryIdentifier}:${d.serialNumber}`,
          });
        }
      });
    }
    const queueSeconds = (performance.now() - queuedAt) / 1000;
    await queuing.app.close();

    // Baseline: the same pushes straight through the APNs client, a workers' batch at a time,
    // before the drain and again after it (this machine's speed drifts between runs by a third:
    // the ratio is to their mean), after 2,000 pushes to warm up (the first run was 20 to 50%
    // slower than the one after the drain).
    await sendDirect(
      apns.url,
      dir,
      devices.slice(0, 2000).map((d) => d.pushToken),
    );
    const baseline = async () => {
      const cpu = process.cpuUsage();
      const rate = await sendDirect(
        apns.url,
        dir,
        devices.map((d) => d.pushToken),
      );
      apns.pushes.length = 0;
      return { rate, cpuMs: cpuMicrosSince(cpu) / 1000 };
    };
    const before = await baseline();

    const drainCpu = process.cpuUsage();
    const started = performance.now();
    // With BENCH_CPU_PROF, the profiler's own cost is in the drain's time and CPU.
    const worker = await profiled(`drain-${kind}`, async () => {
      const app = await startApp(database, env);
      while (apns.pushes.length < devices.length) await new Promise((resolve) => setTimeout(resolve, 20));
      return app;
    });
    const withStartSeconds = (performance.now() - started) / 1000;
    const drainCpuMs = cpuMicrosSince(drainCpu) / 1000;
    // The drain: from the first push to the last (the app's start, before its workers take the
    // first batch, is printed apart).
    const drainSeconds = (apns.pushes.at(-1)!.at - apns.pushes[0]!.at) / 1000;
    await worker.app.close();
    const { rows } = await database.executeSql(`select state, count(*)::int as n from deliveries group by state`);
    const received = { all: apns.pushes.length, distinct: new Set(apns.pushes.map((p) => p.path)).size };
    const after = await baseline();
    const direct = (before.rate + after.rate) / 2;
    const rate = devices.length / drainSeconds;
    console.log(`\n${kind}: drain of ${fmt(devices.length)} queued APNs pushes (queued in ${fmt(queueSeconds, 1)} s)`);
    console.log(
      `baseline: direct APNs client, ${APPLE_PUSH_BATCH} at a time: ${fmt(direct, 0)} pushes/s (${fmt(before.rate, 0)} before the drain, ${fmt(after.rate, 0)} after)`,
    );
    console.log(
      `queue drained by one app's workers:         ${fmt(rate, 0)} pushes/s in ${fmt(drainSeconds, 2)} s from the first push to the last (ratio ${fmt(rate / direct, 2)}x); ${fmt(withStartSeconds, 2)} s with the app's start`,
    );
    console.log(
      `CPU of this process (the app, the APNs double and, on PGlite, the database): direct ${fmt(before.cpuMs)} and ${fmt(after.cpuMs)} ms, drain ${fmt(drainCpuMs)} ms with the app's start`,
    );
    console.log(
      `deliveries by state: ${rows.map((r) => `${String(r.state)} ${String(r.n)}`).join(', ')}; pushes received ${received.all}, distinct ${received.distinct}`,
    );
  } finally {
    apns.server.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The baseline: pushes per second straight through the APNs client, a workers' batch at a time. */
async function sendDirect(url: string, dir: string, tokens: string[]): Promise<number> {
  // The double does not check the client certificate: its own pair will do.
  const certPem = await readFile(join(dir, 'apns-cert.pem'), 'utf8');
  const client = createHttp2ApnsClient({
    url,
    topic: 'pass.com.boardwalk.demo',
    certPem,
    keyPem: await readFile(join(dir, 'apns-key.pem'), 'utf8'),
    extraCaPem: certPem,
  });
  const started = performance.now();
  for (let i = 0; i < tokens.length; i += APPLE_PUSH_BATCH) {
    const results = await Promise.all(tokens.slice(i, i + APPLE_PUSH_BATCH).map((token) => client.push(token)));
    if (results.some((r) => r.outcome !== 'sent')) throw new Error('direct push failed');
  }
  const rate = tokens.length / ((performance.now() - started) / 1000);
  await client.close();
  return rate;
}

/** Deliveries of 7 days, one every 6 s back from now (100,000 by default), as the workers and devices leave them. */
async function seedDeliveries(database: TestDatabase) {
  await database.executeSql(
    `insert into deliveries (target, recipient, barcode, state, attempts, queue, payload, serial_number,
       device_library_identifier, pass_updated_at, sent_at, listed_at, fetched_at, object_version, created_at, updated_at)
     select target, 'device ' || substr(md5(i::text), 1, 12) || '…', lpad((i % 40000)::text, 16, '1'), state, 1,
       target || '-queue', '{}'::jsonb,
       case when target = 'apple' then md5((i % 30000)::text)::uuid end,
       case when target = 'apple' then 'bench' || (i % 2000) end,
       case when target = 'apple' then at end,
       case when state in ('sent', 'fetched') then at end,
       case when state = 'fetched' then at + interval '1 second' end,
       case when state = 'fetched' then at + (i % 90) * interval '1 second' end,
       case when target = 'google' and state = 'sent' then (i % 50)::text end,
       at, at
     from (
       select i, now() - i * interval '6 seconds' as at,
         case when i % 20 < 14 then 'apple' when i % 20 < 19 then 'google' else 'mail' end as target,
         case when i % 100 < 2 then 'dead' when i % 100 < 3 then 'retrying' when i % 100 < 13 then 'sent'
              when i % 100 < 20 then 'skipped' else 'fetched' end as state
       from generate_series(1, $1::int) i
     ) s`,
    [deliveryRows],
  );
  // Fetched is an Apple state; the others' delivered rows are sent.
  await database.executeSql(`update deliveries set state = 'sent' where state = 'fetched' and target <> 'apple'`);
  await database.executeSql('analyze deliveries');
}

async function deliveriesTab(kind: Kind) {
  const dir = await mkdtemp(join(tmpdir(), 'bw-bench-deliveries-tab-'));
  const database = await createTestDatabase(kind, 10);
  const email = 'bench.admin@boardwalk.test';
  const password = 'bench-admin-password';
  const { app, url } = await startApp(database, { DATA_DIR: dir, ADMIN_EMAIL: email, ADMIN_PASSWORD: password, DELIVERY_WORKERS: 'false' });
  try {
    await seedDeliveries(database);
    const login = await fetch(`${url}/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teamMemberUsername: email, teamMemberPassword: password }),
    });
    if (login.status !== 201) throw new Error(`login answered ${login.status}`);
    const headers = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
    const get = (path: string) => async () => {
      const res = await fetch(`${url}/api/admin/deliveries/${path}`, { headers });
      const body = (await res.json()) as unknown;
      if (res.status !== 200 || (Array.isArray(body) && body.length === 0)) throw new Error(`GET ${path}: ${res.status}`);
    };
    const [{ id }] = (await database.db.select({ id: schema.deliveries.id }).from(schema.deliveries).limit(1)) as [{ id: string }];
    const byKey = database.db
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, sql.placeholder('id')))
      .prepare('bench_delivery_by_key');
    const bare = async () => {
      if ((await byKey.execute({ id })).length !== 1) throw new Error('bare select found nothing');
    };
    const ways = [
      ['list: retrying or dead', get('')],
      ['list: every state', get('?filter=all')],
      ['list: fetched', get('?filter=fetched')],
      ['Apple push figures', get('pushes')],
    ] as const;
    const sample = (name: string, once: () => Promise<void>) => measureSequential(name, seconds / 2, once, () => undefined);
    const print = (rows: Measurement[], baseline: Measurement) => {
      for (const r of rows)
        console.log(
          `  ${r.name.padEnd(40)} median ${fmt(r.median, 2).padStart(7)} ms  p99 ${fmt(r.p99, 2).padStart(7)} ms  (${fmt(r.count)} calls)${r === baseline ? '' : `  x${fmt(r.median / baseline.median, 1)} of bare`}`,
        );
    };

    console.log(
      `\n${kind}: the Deliveries tab over ${fmt(deliveryRows)} deliveries, one request at a time; load average ${fmt(loadavg()[0] ?? 0, 2)}`,
    );
    const baseline = await sample('bare prepared select by key', bare);
    const indexed = [baseline];
    for (const [name, once] of ways) indexed.push(await sample(name, once));
    print(indexed, baseline);

    for (const index of [
      'deliveries_updated_at_index',
      'deliveries_target_sent_at_index',
      'deliveries_serial_number_device_library_identifier_index',
    ])
      await database.executeSql(`drop index ${index}`);
    await database.executeSql('analyze deliveries');
    console.log(`${kind}: the same without migration 0015's indexes`);
    const bare2 = await sample('bare prepared select by key', bare);
    const plain = [bare2];
    for (const [name, once] of ways) plain.push(await sample(name, once));
    print(plain, bare2);
  } finally {
    await app.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const kinds: Kind[] = process.env.BENCH_DB ? [process.env.BENCH_DB as Kind] : ['pglite', 'postgres'];
  const parts = (process.env.BENCH_PARTS ?? 'feed,drain,tab').split(',');
  for (const kind of kinds) {
    if (parts.includes('feed')) await feedLatency(kind);
    if (parts.includes('drain')) await drain(kind);
    if (parts.includes('tab')) await deliveriesTab(kind);
  }
}

await main();
