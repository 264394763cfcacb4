// bench/park-wide: a park-wide change reaching every wallet, on PostgreSQL.
//
// BENCH_PASSES tickets (default 1,000,000) are loaded in bulk: half with an Apple pass held by
// a device of its own, half with a saved Google object, all undated (a dated admission's
// object would also be compared for its hours). A change of the park's locations is then
// published as the Park Locations tab publishes it, and the bench reports:
// - the time until every APNs push is sent (to a local HTTP/2 double in a process of its own,
//   bench/apns-double-process.ts, that takes 500 streams a connection and answers at once),
//   beside a baseline in the same process group: as many pushes
//   sent straight through the APNs client, with no database (BENCH_BASELINE_PUSHES, at most 200,000);
// - Google requests made (the classes) and the most made within any second, against the limit;
// - the guest lane: while the wave drains, one of 40 guests' own tickets changes every 250 ms
//   (the ticketing feed); the time until the guest's device is pushed and Google gets the
//   object, its p99 (the guests' devices are the first the wave pushes, before the changes);
// - the process's peak resident memory, the database's growth, and the pass fetches served a
//   second once the wave is done (2,000 devices fetching the changed pass, 20 at once).
// Its last line sums it up. Run at 100,000 and 1,000,000 to see memory stay flat.
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '@boardwalk/db/test-support/test-database';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { createHttp2ApnsClient } from '../apps/api/src/wallet/apple/apns.ts';
import { passTokenOf } from '../apps/api/src/wallet/apple/apple-pass-content.service.ts';
import { PARK_CHANGED } from '../apps/api/src/guest/ticket/ticket.topics.ts';
import { GOOGLE_ISSUER_ID, startGoogleDouble, WALLET_PASS_TYPE } from '../apps/api/test-support/wallet-doubles.ts';
import { anOrder } from '../apps/api/test-support/fixtures.ts';
import { fmt, positiveNumber } from './bench-support.ts';

const passes = positiveNumber('BENCH_PASSES', 1_000_000);
const baselinePushes = Math.min(positiveNumber('BENCH_BASELINE_PUSHES', 200_000), Math.ceil(passes / 2));
const GUESTS = 40;
const KEY = `bench-ticketing-${'0'.repeat(16)}`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
const token = (i: number) => i.toString(16).padStart(64, '0');
const guestOrder = (i: number) => `9${String(i).padStart(7, '0')}`;
const guestBarcode = (i: number) => `9${String(i).padStart(15, '0')}`;
const mib = (bytes: number) => bytes / 1024 / 1024;

const dir = await mkdtemp(join(tmpdir(), 'bw-park-wide-'));
// APNs: a double in a process of its own, telling when a guest's device is pushed (Date.now()).
const guestTokens = new Map(Array.from({ length: GUESTS }, (_, i) => [token(i + 1), i]));
const guestPushes: { guest: number; at: number }[] = [];
const apnsProcess = fork(fileURLToPath(new URL('./apns-double-process.ts', import.meta.url)), [dir], { execArgv: ['--import', 'tsx'] });
const apns = await new Promise<{ url: string; caFile: string }>((resolve) => apnsProcess.once('message', resolve));
apnsProcess.on('message', (message: { token?: string; at?: number }) => {
  const guest = message.token === undefined ? undefined : guestTokens.get(message.token);
  if (guest !== undefined) guestPushes.push({ guest, at: message.at! });
});
apnsProcess.send({ watch: [...guestTokens.keys()] });
// Google: a double in this process (a few dozen requests).
const { google, env: googleEnv } = await startGoogleDouble(dir);
const walletEnv = { APPLE_PASS_TYPE_ID: WALLET_PASS_TYPE, APNS_URL: apns.url, APNS_CA_FILE: apns.caFile, ...googleEnv };
const database = await createTestDatabase('postgres', 10);
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);

try {
  // ---- Baseline: pushes straight through the APNs client, no queue, no database ----
  const client = createHttp2ApnsClient({
    url: apns.url,
    topic: WALLET_PASS_TYPE,
    certPem: '',
    keyPem: '',
    extraCaPem: await readFile(apns.caFile, 'utf8'),
    connections: 2,
  });
  const baselineStart = performance.now();
  for (let from = 0; from < baselinePushes; from += 2000)
    await Promise.all(
      Array.from({ length: Math.min(2000, baselinePushes - from) }, (_, i) => client.push(token(1_000_000_000 + from + i))),
    );
  const baselineRate = baselinePushes / ((performance.now() - baselineStart) / 1000);
  await client.close();
  console.log(`baseline: ${fmt(baselinePushes)} pushes straight through the APNs client at ${fmt(baselineRate)}/s`);

  // ---- The park: N tickets, half on Apple devices, half saved to Google; 40 guests with both ----
  const loadStart = performance.now();
  const db = database.db;
  await db.execute(
    sql`insert into orders (order_id, order_date) select 'P' || lpad(i::text, 9, '0'), now() from generate_series(1, ${passes}) i`,
  );
  await db.execute(sql`insert into tickets (barcode, order_id, position, product)
    select '8' || lpad(i::text, 15, '0'), 'P' || lpad(i::text, 9, '0'), 1, 'Day Ticket' from generate_series(1, ${passes}) i`);
  await db.execute(sql`insert into wallet_passes (barcode, content_hash, google_issued, google_object_kind, google_content_hash)
    select '8' || lpad(i::text, 15, '0'), case when i % 2 = 0 then 'bench' end, i % 2 = 1,
      case when i % 2 = 1 then 'genericObject' end, case when i % 2 = 1 then 'bench' end
    from generate_series(1, ${passes}) i`);
  await db.execute(sql`insert into apple_device_registrations (device_library_identifier, serial_number, push_token)
    select 'd' || lpad(substr(p.barcode, 2)::bigint::text, 12, '0'), p.serial_number, lpad(to_hex(substr(p.barcode, 2)::bigint + 1000000), 64, '0')
    from wallet_passes p where p.content_hash = 'bench'`);
  await db.execute(sql`analyze`);
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const sizeBefore = Number(
    ((await db.execute(sql`select pg_database_size(current_database()) as n`)) as unknown as { rows: { n: string }[] }).rows[0]!.n,
  );
  console.log(
    `loaded ${fmt(passes)} tickets (${fmt(passes / 2)} Apple devices, ${fmt(passes / 2)} Google objects) in ${fmt(loadSeconds, 1)} s; database ${fmt(mib(sizeBefore))} MiB`,
  );

  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    INTEGRATION_API_KEYS: `ticketing:${KEY}`,
    ADMIN_PASSWORD: 'bench-admin-password',
    DATA_DIR: dir,
    PUBLIC_URL: 'https://wallet.example.com',
    DATABASE_URL: database.url!,
    ...walletEnv,
  });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-${Date.now()}` });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const putOrder = (i: number, cash: number) =>
    fetch(`${url}/api/integrations/orders/${guestOrder(i)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(anOrder([{ barcode: guestBarcode(i), cash }])),
    }).then((r) => r.text());

  // The guests: tickets through the feed, an Apple pass on a device of their own (sorted first,
  // so the wave pushes them before their changes), a saved Google object; all settled.
  for (let i = 0; i < GUESTS; i++) await putOrder(i, 10);
  await db.execute(sql`insert into wallet_passes (barcode, content_hash, google_issued, google_object_kind)
    select '9' || lpad(i::text, 15, '0'), 'guest', true, 'genericObject' from generate_series(0, ${GUESTS - 1}) i`);
  await db.execute(sql`insert into apple_device_registrations (device_library_identifier, serial_number, push_token)
    select 'a' || lpad(substr(p.barcode, 2)::bigint::text, 12, '0'), p.serial_number, lpad(to_hex(substr(p.barcode, 2)::bigint + 1), 64, '0')
    from wallet_passes p where p.barcode like '9%'`);
  const guestObjects = (
    (await db.execute(sql`select serial_number from wallet_passes where barcode like '9%' order by barcode`)) as unknown as {
      rows: { serial_number: string }[];
    }
  ).rows.map((r) => `${GOOGLE_ISSUER_ID}.${r.serial_number}`);
  for (const id of guestObjects) google.saved.add(id);
  for (let i = 0; i < GUESTS; i++) await putOrder(i, 11);
  const settle = async () => {
    while ((await app.jobs.pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  };
  await settle();

  // ---- The park-wide change ----
  google.classCalls = [];
  google.objectCalls = [];
  google.requestTimes = [];
  guestPushes.length = 0;
  const waveStart = performance.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into park_locations (name, latitude, longitude) values ('Main Gate', 34.0094, -118.4973)`);
    await app.jobs.publish(tx, PARK_CHANGED, ['park-locations create']);
  });
  const devices = passes / 2 + GUESTS;
  const waveRow = async () =>
    (
      (await db.execute(
        sql`select pushed, devices, failed, finished_at from wallet_waves order by created_at desc limit 1`,
      )) as unknown as {
        rows: { pushed: number; devices: number; failed: number; finished_at: Date | null }[];
      }
    ).rows[0];

  // The guest lane: a guest's change every 250 ms while the wave drains (once past the guests' devices).
  const lane: number[] = [];
  const changes: Promise<void>[] = [];
  while (((await waveRow())?.devices ?? 0) < Math.min(10_000, devices / 10)) await new Promise((resolve) => setTimeout(resolve, 20));
  let next = 0;
  let finished = false;
  while (!finished) {
    if (next < GUESTS) {
      const guest = next++;
      const objectId = guestObjects[guest]!;
      changes.push(
        (async () => {
          const at = Date.now();
          const seen = google.objectCalls.length;
          await putOrder(guest, 20 + guest);
          for (;;) {
            const pushed = guestPushes.find((p) => p.guest === guest && p.at > at);
            const updated = google.objectCalls.slice(seen).some((c) => c.body.id === objectId);
            if (pushed && updated) return void lane.push((Date.now() - at) / 1000);
            if (Date.now() - at > 60_000) return void lane.push(60);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })(),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    finished = (await waveRow())?.finished_at != null;
  }
  const appleSeconds = (performance.now() - waveStart) / 1000;
  await Promise.all(changes);
  const wave = await waveRow();
  await settle();

  // Google: every request the wave made (the classes), and the most within any second.
  const times = google.requestTimes.sort((a, b) => a - b);
  let mostInASecond = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    mostInASecond = Math.max(mostInASecond, i - j + 1);
  }
  const sizeAfter = Number(
    ((await db.execute(sql`select pg_database_size(current_database()) as n`)) as unknown as { rows: { n: string }[] }).rows[0]!.n,
  );

  // Pass fetches after the wave: devices fetching the changed pass, 20 at once.
  const sample = (
    (await db.execute(sql`select serial_number from wallet_passes where content_hash = 'bench' limit 2000`)) as unknown as {
      rows: { serial_number: string }[];
    }
  ).rows.map((r) => r.serial_number);
  // Each device fetches its pass (changed: 200, signed anew), then again as of that version (304).
  const lastModified = new Map<string, string>();
  const fetchAll = async (conditional: boolean) => {
    const started = performance.now();
    let notModified = 0;
    for (let from = 0; from < sample.length; from += 20) {
      await Promise.all(
        sample.slice(from, from + 20).map(async (serial) => {
          const since = conditional ? lastModified.get(serial) : undefined;
          const res = await fetch(`${url}/api/passkit/v1/passes/${WALLET_PASS_TYPE}/${serial}`, {
            headers: { authorization: `ApplePass ${passTokenOf(app.keys, serial)}`, ...(since && { 'if-modified-since': since }) },
          });
          await res.arrayBuffer();
          lastModified.set(serial, res.headers.get('last-modified') ?? '');
          if (res.status === 304) notModified++;
        }),
      );
    }
    return { rate: sample.length / ((performance.now() - started) / 1000), notModified };
  };
  const changed = await fetchAll(false);
  const unchanged = await fetchAll(true);
  await app.close();

  const waveRate = (wave?.pushed ?? 0) / appleSeconds;
  const p99 = percentile(lane, 0.99);
  console.log(
    `wave: ${fmt(wave?.pushed ?? 0)} of ${fmt(devices)} devices pushed (${fmt(wave?.failed ?? 0)} failed) in ${fmt(appleSeconds, 1)} s: ${fmt(waveRate)}/s, ratio ${fmt(waveRate / baselineRate, 2)} to the baseline`,
  );
  console.log(
    `google: ${google.classCalls.length} class requests, ${google.objectCalls.length - lane.length} object requests besides the guests' ${lane.length}, at most ${mostInASecond} within a second (limit ${config.google.requestsPerSecond}/s)`,
  );
  console.log(
    `guest lane: ${lane.length} own changes during the wave, p50 ${fmt(percentile(lane, 0.5), 2)} s, p99 ${fmt(p99, 2)} s (APNs and Google both)`,
  );
  console.log(`memory: peak ${fmt(mib(peakRss))} MiB resident; database grew ${fmt(mib(sizeAfter - sizeBefore), 1)} MiB during the wave`);
  console.log(
    `fetches: ${fmt(sample.length)} changed passes fetched after the wave at ${fmt(changed.rate)}/s (${changed.notModified} answered 304), then again at ${fmt(unchanged.rate)}/s (${unchanged.notModified} answered 304)`,
  );
  console.log(
    `park-wide: passes ${fmt(passes)}, apple all sent in ${fmt(appleSeconds, 1)} s, google requests ${times.length} at most ${mostInASecond}/s (limit ${config.google.requestsPerSecond}/s), guest lane p99 ${fmt(p99, 2)} s, peak memory ${fmt(mib(peakRss))} MiB`,
  );
} finally {
  clearInterval(sampler);
  await database.close();
  apnsProcess.disconnect();
  await google.close();
  await rm(dir, { recursive: true, force: true });
}
