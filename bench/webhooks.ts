// npm run bench:webhooks: what the webhooks cost and how fast they drain.
//
// 1. Drain: BENCH_EVENTS (10,000) events (one ticket each) for 3 endpoints on a loopback
//    receiver, dispatched and delivered by one app's workers: from the first POST to the last of
//    the 30,000. Baseline, in the same process: a bare loop POSTing the same 30,000 bodies with
//    the same sender (signed, keep-alive), a worker's batch (100) at a time, with no database.
//    Goal: ratio >= 0.5 on PostgreSQL.
// 2. Registration: POST /api/register/ (which writes its events) on an app with one active
//    endpoint (its dispatcher and deliveries running beside) against an app with none,
//    interleaved, BENCH_REGISTRATIONS (4,000) each, 10 at once. Goal: p99 within 10%.
//
// BENCH_DB=pglite|postgres (default both when PostgreSQL answers), BENCH_PARTS=drain,register.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createTestDatabase, defaultTestDatabaseUrl, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { EVENT_EXAMPLES } from '@boardwalk/contract/events';
import { WEBHOOKS_API } from '@boardwalk/contract/webhooks';
import { integrationEvents } from '@boardwalk/db/schema';
import { buildApp, type App } from '../apps/api/src/app.ts';
import { eventOfRow } from '../apps/api/src/integrations/events/events.repo.ts';
import { webhookId } from '../apps/api/src/integrations/events/webhooks/webhook-delivery.ts';
import { createWebhookSender, newWebhookSecret } from '../apps/api/src/integrations/events/webhooks/webhook-sender.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { eventRow } from '../apps/api/src/platform/events.ts';
import { loginAs } from '../apps/api/test-support/staff.ts';
import { benchHeader, cpuMicrosSince, databaseKinds, fmt, interleaved, positiveNumber } from './bench-support.ts';

const events = positiveNumber('BENCH_EVENTS', 10_000);
const registrations = positiveNumber('BENCH_REGISTRATIONS', 4_000);
const ENDPOINTS = 3;
const BATCH = 100;
const parts = (process.env.BENCH_PARTS ?? 'drain,register').split(',');
const adminUrl = process.env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl;

async function startApp(database: TestDatabase, env: Record<string, string> = {}): Promise<{ app: App; url: string }> {
  const config = loadConfig({
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'bench-admin-password',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    DELIVERY_POLL_SECONDS: '0.5',
    ...env,
  });
  const app = await buildApp({ config, database, logger: false, throttleKeyPrefix: `bench-${Date.now()}` });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** A receiver answering 204 at once, counting what it got and when the first and the last came. */
async function startReceiver() {
  const got = { count: 0, first: 0, last: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      if (got.count++ === 0) got.first = now;
      got.last = now;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { got, url, close: () => server.close() };
}

/** Adds an endpoint through the staff API (all event types). */
async function addEndpoint(app: App, url: string) {
  const staff = await loginAs(app, { accessLevel: 100 });
  const res = await app.inject({ method: 'POST', url: WEBHOOKS_API, headers: staff.headers, payload: { url, eventTypes: null } });
  if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${res.body}`);
}

async function drain(kind: 'pglite' | 'postgres') {
  const database = await createTestDatabase(kind, 10);
  const receiver = await startReceiver();
  try {
    const queuing = await startApp(database, { DELIVERY_WORKERS: 'false' });
    for (let i = 0; i < ENDPOINTS; i++) await addEndpoint(queuing.app, receiver.url);
    await queuing.app.close();
    // The events, one ticket each, as the changes write them.
    const rows = Array.from({ length: events }, (_, i) => {
      const barcode = `86${String(i).padStart(14, '0')}`;
      return eventRow('guest.registered', `ticket:${barcode}`, { ...EVENT_EXAMPLES['guest.registered'], barcode });
    });
    for (let start = 0; start < rows.length; start += 1000) {
      await database.db.insert(integrationEvents).values(rows.slice(start, start + 1000));
    }
    const written = await database.db.select().from(integrationEvents);

    // Baseline: the same bodies POSTed by a bare loop, a batch at a time.
    const sender = createWebhookSender({ allowPrivateNetworks: true });
    const secret = newWebhookSecret();
    const bodies = written.flatMap((row) => Array.from({ length: ENDPOINTS }, () => JSON.stringify(eventOfRow(row))));
    const bareCpu = process.cpuUsage();
    const bareStart = performance.now();
    for (let start = 0; start < bodies.length; start += BATCH) {
      await Promise.all(
        bodies.slice(start, start + BATCH).map(async (body, i) => {
          const outcome = await sender.send(receiver.url, [secret], { id: webhookId(crypto.randomUUID()), timestamp: new Date(), body });
          if (outcome.outcome !== 'delivered') throw new Error(`bare POST ${start + i}: ${JSON.stringify(outcome)}`);
        }),
      );
    }
    const bare = bodies.length / ((performance.now() - bareStart) / 1000);
    const bareCpuPerPost = cpuMicrosSince(bareCpu) / bodies.length;
    receiver.got.count = 0;

    const started = performance.now();
    const worker = await startApp(database);
    const drainCpu = process.cpuUsage();
    while (receiver.got.count < bodies.length) await new Promise((resolve) => setTimeout(resolve, 20));
    const drainCpuPerPost = cpuMicrosSince(drainCpu) / bodies.length;
    const drainSeconds = (receiver.got.last - receiver.got.first) / 1000;
    const withStart = (performance.now() - started) / 1000;
    await worker.app.close();
    const { rows: states } = await database.executeSql(`select state, count(*)::int as n from webhook_messages group by state`);
    const rate = bodies.length / drainSeconds;
    console.log(`\n${kind}: drain of ${fmt(events)} events to ${ENDPOINTS} endpoints (${fmt(bodies.length)} POSTs)`);
    console.log(`baseline: a bare loop POSTing the same bodies, ${BATCH} at a time: ${fmt(bare)} POSTs/s`);
    console.log(
      `dispatched and delivered by one app's workers:  ${fmt(rate)} POSTs/s in ${fmt(drainSeconds, 2)} s from the first to the last (ratio ${fmt(rate / bare, 2)}x); ${fmt(withStart, 2)} s with the app's start`,
    );
    // CPU time of this process (the app or the bare loop, and the receiver) per POST: what a
    // change costs in the app's own work, read apart from what else the machine is doing.
    console.log(
      `CPU of this process per POST: bare ${fmt(bareCpuPerPost, 1)} µs, app ${fmt(drainCpuPerPost, 1)} µs (${fmt(drainCpuPerPost / bareCpuPerPost, 2)}x)`,
    );
    console.log(
      `messages by state: ${states.map((r) => `${String(r.state)} ${String(r.n)}`).join(', ')}; POSTs received ${receiver.got.count}`,
    );
  } finally {
    receiver.close();
    await database.close();
  }
}

async function register(kind: 'pglite' | 'postgres') {
  const receiver = await startReceiver();
  const databases = [await createTestDatabase(kind), await createTestDatabase(kind)];
  const apps = await Promise.all(databases.map((database) => startApp(database)));
  try {
    await addEndpoint(apps[1]!.app, receiver.url);
    const tickets = registrations + 200;
    for (const database of databases) {
      await database.executeSql(
        `insert into orders (order_id, order_date) select (88000000 + o)::text, now() from generate_series(1, ${tickets}) o`,
        [],
      );
      await database.executeSql(
        `insert into tickets (barcode, order_id, position, product) select '87' || lpad(o::text, 14, '0'), (88000000 + o)::text, 0, 'Day Ticket' from generate_series(1, ${tickets}) o`,
        [],
      );
    }
    const registerOn =
      ({ url }: { url: string }) =>
      async (i: number) => {
        const res = await fetch(`${url}/api/register/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            orderId: String(88000000 + i + 1),
            barcode: `87${String(i + 1).padStart(14, '0')}`,
            firstName: 'Bench',
            lastName: `Guest ${i}`,
            email: `guest${i}@example.com`,
            phone: '3125550100',
            optInEmailMarketing: i % 2 === 0,
          }),
        });
        if (res.status !== 200) throw new Error(`register ${i}: ${res.status} ${await res.text()}`);
      };
    const [none, one] = await interleaved(
      [
        ['no endpoint', registerOn(apps[0]!)],
        ['one active endpoint', registerOn(apps[1]!)],
      ],
      { count: registrations, concurrency: 10, rounds: 8, warmUp: 200 },
    );
    console.log(`\n${kind}: POST /api/register/, ${fmt(registrations)} each, 10 at once, interleaved`);
    for (const side of [none, one])
      console.log(`${side.name.padEnd(20)} ${fmt(side.perSecond)}/s, p50 ${fmt(side.p50, 2)} ms, p99 ${fmt(side.p99, 2)} ms`);
    console.log(`p99 ratio (one endpoint / none): ${fmt(one.p99 / none.p99, 2)} (goal <= 1.10); webhooks received ${receiver.got.count}`);
  } finally {
    for (const { app } of apps) await app.close();
    receiver.close();
    for (const database of databases) await database.close();
  }
}

console.log(benchHeader('webhooks', 'drain of events to 3 endpoints against a bare POST loop; registration with and without an endpoint'));
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const kind of await databaseKinds(adminUrl)) {
  if (parts.includes('drain')) await drain(kind);
  if (parts.includes('register')) await register(kind);
}
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
