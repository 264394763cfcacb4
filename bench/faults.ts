// npm run bench:faults: what the server does when PostgreSQL or Redis goes away under load, with
// the server started as production starts it (compiled, `node apps/api/dist/server.js`, in
// child processes of this one).
//
// Why private databases: the machine's PostgreSQL (5432) and Redis (6379) serve other work
// (test runs, other benches) that a restart would break. So this bench starts its own
// PostgreSQL cluster (Debian's initdb and pg_ctl, as the postgres OS user, in a temporary
// folder, on a free loopback port) and its own redis-server (free port, no persistence), and
// restarts only those: `pg_ctl stop -m fast` (and, every second time, `-m immediate`: a
// crash, recovered from the WAL at the next start) / `pg_ctl start`, and redis-server killed
// (SIGKILL) and started again on the same port. Both are removed at the end (also on ^C).
// The servers and redis-server are children in this process group; PostgreSQL's postmaster
// detaches into a session of its own, so it is stopped explicitly (pg_ctl -m immediate).
//
// 1. PostgreSQL restarted under mixed load (lookups, registrations of fresh tickets, feed PUTs
//    of new orders, at a fixed rate), FAULT_OUTAGES times: the process never exits, /readyz
//    (polled every 100 ms) answers 503 while the database is gone and 200 within 5 s after
//    `pg_ctl start` returns, requests during the outage answer 503 fast (none waits out the
//    pool's 5 s connection timeout, p99 no slower than healthy requests; none without an
//    answer within 30 s, no 5xx but 503), every request after /readyz is 200 again
//    succeeds, and every write answered 2xx is in the database afterwards (each registration's
//    name and each new order's ticket, read back with SQL). Baseline: the same mix while the
//    database is up; the ratio compares the outage's answer times with it.
// 2. Redis killed and started again under load, two instances sharing it (TRUST_PROXY, so each
//    probe comes from an address of its own): 10 failed lookups from one address spread over
//    both instances make both answer 429 (shared); with Redis down one instance still answers
//    429 after its own 10 (in memory) while the lookup load keeps answering 200; after Redis is
//    back, the time until a new address is shared again.
// Exits non-zero when a goal is missed.
//
//   FAULT_OUTAGES=3          PostgreSQL restarts
//   FAULT_OUTAGE_SECONDS=5   how long PostgreSQL stays down each time
//   FAULT_RATE=150           requests per second of the mixed load (both parts)
//   BENCH_BUILD=false        run the API already built in apps/api/dist instead of building it
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { fmt, positiveNumber } from './bench-support.ts';
import {
  buildApi,
  httpClient,
  onInterrupt,
  quantile,
  sleep,
  startInstance,
  startPrivatePostgres,
  startPrivateRedis,
  type Answer,
  type HttpClient,
  type PrivatePostgres,
  type PrivateRedis,
  type ServerInstance,
} from './production-servers.ts';

const outages = positiveNumber('FAULT_OUTAGES', 3);
const outageSeconds = positiveNumber('FAULT_OUTAGE_SECONDS', 5);
const rate = positiveNumber('FAULT_RATE', 150);
const KEY = 'bench-integration-key-0123456789';
/** How each outage stops PostgreSQL, in turn. */
const STOP_MODES = ['fast', 'immediate'] as const;
const auth = { authorization: `Bearer ${KEY}` };
/** Goal (issue 15): ready within 5 s after PostgreSQL is back. */
const READY_GOAL_MS = 5000;
/**
 * Failing fast: a request that waited for a connection until the pool gave up (createDb's
 * connection timeout, 5 s) would take at least this long. Below it, and no slower than the
 * healthy requests (p99 ratio <= 1: the machine's other load weighs on both alike).
 */
const HANG_MS = 5000;

/** The instances' DATA_DIR (the development wallet certificates they make and share). */
const dataDir = `/tmp/boardwalk-bench-faults-${process.pid}`;
const failures: string[] = [];
const goal = (ok: boolean, text: string) => {
  if (!ok) failures.push(text);
  return ok ? 'met' : 'MISSED';
};

/** Seeded orders: SEED_ORDERS x TICKETS_PER_ORDER tickets, each registered at most once by the load. */
const SEED_ORDERS = 200;
const TICKETS_PER_ORDER = 25;
const seedOrderId = (i: number) => String(40_000_000 + i);
const seedBarcode = (i: number, n: number) => `41${String(i * TICKETS_PER_ORDER + n).padStart(14, '0')}`;

async function seed(client: HttpClient) {
  for (let i = 0; i < SEED_ORDERS; i++) {
    const res = await client.call('PUT', `/api/integrations/orders/${seedOrderId(i)}`, {
      headers: auth,
      json: {
        orderDate: new Date().toISOString(),
        purchaser: { firstName: `Ana${i}`, lastName: 'Lopez' },
        tickets: Array.from({ length: TICKETS_PER_ORDER }, (_, n) => ({
          barcode: seedBarcode(i, n),
          product: 'Day Ticket',
          price: 49.5,
          holder: { firstName: `Holder${n}`, lastName: 'Lopez' },
        })),
      },
    });
    if (res.status !== 201) throw new Error(`seeding order ${seedOrderId(i)} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  }
}

type Kind = 'lookup' | 'registration' | 'feed PUT';
interface Sent {
  kind: Kind;
  at: number;
  answer: Answer;
  /** What a 2xx wrote: checked afterwards. */
  wrote?: { barcode: string; lastName?: string; orderId?: string };
}

/** The mixed load at a fixed rate (open loop: a hung request does not slow the sending). */
function mixedLoad(client: HttpClient, perSecond: number) {
  const sent: Sent[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  let nextTicket = 0;
  let nextOrder = 0;
  let running = true;
  const fire = () => {
    const i = n++;
    let kind: Kind = (['lookup', 'registration', 'feed PUT'] as const)[i % 3]!;
    // Each registration is of a ticket of its own; once all are registered, a lookup instead.
    if (kind === 'registration' && nextTicket >= SEED_ORDERS * TICKETS_PER_ORDER) kind = 'lookup';
    const at = performance.now();
    let request: Promise<Answer>;
    let wrote: Sent['wrote'];
    if (kind === 'lookup') {
      const t = (i * 7919) % (SEED_ORDERS * TICKETS_PER_ORDER);
      const o = Math.floor(t / TICKETS_PER_ORDER);
      request = client.call('POST', '/api/login/', { json: { orderId: seedOrderId(o), barcode: seedBarcode(o, t % TICKETS_PER_ORDER) } });
    } else if (kind === 'registration') {
      const t = nextTicket++;
      const o = Math.floor(t / TICKETS_PER_ORDER);
      const barcode = seedBarcode(o, t % TICKETS_PER_ORDER);
      wrote = { barcode, lastName: `Faults${i}` };
      request = client.call('POST', '/api/register/', {
        json: {
          orderId: seedOrderId(o),
          barcode,
          firstName: 'Rosa',
          lastName: wrote.lastName,
          email: 'rosa@example.com',
          phone: '3105550100',
        },
      });
    } else {
      const orderId = String(50_000_000 + nextOrder++);
      wrote = { barcode: `51${orderId.padStart(14, '0')}`, orderId };
      request = client.call('PUT', `/api/integrations/orders/${orderId}`, {
        headers: auth,
        json: { orderDate: new Date().toISOString(), tickets: [{ barcode: wrote.barcode, product: 'Day Ticket', price: 49.5 }] },
      });
    }
    const done = request.then((answer) => {
      sent.push({ kind, at, answer, ...(wrote && { wrote }) });
      inFlight.delete(done);
    });
    inFlight.add(done);
  };
  const started = performance.now();
  const loop = (async () => {
    while (running) {
      const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
      while (n < due) fire();
      await sleep(5);
    }
  })();
  return {
    sent,
    async stop() {
      running = false;
      await loop;
      await Promise.all(inFlight);
    },
  };
}

interface Probe {
  at: number;
  status: number;
}
/** GET /readyz every 100 ms. */
function pollReadiness(client: HttpClient) {
  const probes: Probe[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = performance.now();
      const answer = await client.call('GET', '/readyz');
      probes.push({ at, status: answer.status });
      await sleep(100);
    }
  })();
  return {
    probes,
    async stop() {
      running = false;
      await loop;
    },
  };
}

const statusCounts = (list: Sent[]) =>
  Object.entries(
    list.reduce<Record<string, number>>((counts, s) => {
      const key = s.answer.error ? 'no answer' : String(s.answer.status);
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {}),
  )
    .map(([k, v]) => `${k}: ${fmt(v)}`)
    .join(', ');
const latencies = (list: Sent[]) => {
  const ms = list.map((s) => s.answer.ms).sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), max: ms.at(-1) ?? NaN };
};
const latencyText = (l: ReturnType<typeof latencies>) => `p50 ${fmt(l.p50, 1)} ms, p99 ${fmt(l.p99, 1)} ms, max ${fmt(l.max, 1)} ms`;

async function postgresPart(postgres: PrivatePostgres, databaseUrl: string, lines: string[]) {
  const instance = await startInstance(
    'server',
    {
      DATABASE_URL: databaseUrl,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      INTEGRATION_API_KEYS: `bench:${KEY}`,
      DATA_DIR: dataDir,
    },
    { watch: ['database unreachable', 'database reachable again', 'unhandled error', '"level":50', '"level":60'] },
  );
  const client = httpClient(instance.url, { maxSockets: 256 });
  const probeClient = httpClient(instance.url, { maxSockets: 2, timeoutMs: 10_000 });
  try {
    await seed(client);
    const load = mixedLoad(client, rate);
    const readiness = pollReadiness(probeClient);
    const windows: { stopAt: number; stoppedAt: number; startAt: number; startedAt: number; endAt: number }[] = [];
    // 5 s of warm-up (the server's first requests), then 5 s of the baseline.
    await sleep(5000);
    const warmedAt = performance.now();
    await sleep(5000);
    for (let k = 0; k < outages; k++) {
      const stopAt = performance.now();
      await postgres.stop(STOP_MODES[k % 2]);
      const stoppedAt = performance.now();
      await sleep(outageSeconds * 1000);
      const startAt = performance.now();
      await postgres.start();
      const startedAt = performance.now();
      await sleep(5000);
      windows.push({ stopAt, stoppedAt, startAt, startedAt, endAt: performance.now() });
    }
    await load.stop();
    await readiness.stop();
    const alive = instance.child.exitCode === null && instance.child.signalCode === null;
    const sent = load.sent;

    // Phases by when each request was sent and answered. After /readyz answered 200 again,
    // every request must succeed until the next stop begins.
    const readyAgain = windows.map((w) => readiness.probes.find((p) => p.at >= w.startedAt && p.status === 200)?.at ?? Infinity);
    const answeredAt = (s: Sent) => s.at + s.answer.ms;
    const sentIn = (s: Sent, from: number, to: number) => s.at >= from && s.at < to;
    const warmUp = sent.filter((s) => s.at < warmedAt && answeredAt(s) < windows[0]!.stopAt);
    const healthy = sent.filter((s) => s.at >= warmedAt && answeredAt(s) < windows[0]!.stopAt);
    const outage = sent.filter((s) => windows.some((w) => sentIn(s, w.stoppedAt, w.startAt)));
    const starting = sent.filter((s) => windows.some((w) => sentIn(s, w.startAt, w.startedAt)));
    const between = sent.filter((s) => windows.some((w, i) => sentIn(s, w.startedAt, readyAgain[i]!)));
    const afterReady = sent.filter((s) =>
      windows.some((_w, i) => s.at >= readyAgain[i]! && answeredAt(s) < (windows[i + 1]?.stopAt ?? Infinity)),
    );
    // The rest: in flight when a stop began, or sent while pg_ctl stop ran.
    const classified = new Set([...warmUp, ...healthy, ...outage, ...starting, ...between, ...afterReady]);
    const stopping = sent.filter((s) => !classified.has(s));
    const readyDelays = windows.map((w, i) => readyAgain[i]! - w.startedAt);
    const notReadyDelays = windows.map(
      (w) => (readiness.probes.find((p) => p.at >= w.stopAt && p.status === 503)?.at ?? Infinity) - w.stopAt,
    );
    const readyDuringOutage = readiness.probes.filter(
      (p) => windows.some((w) => p.at >= w.stoppedAt && p.at < w.startAt) && p.status !== 503,
    );
    const badDuring = [...stopping, ...outage, ...starting, ...between].filter(
      (s) => s.answer.error || (s.answer.status >= 500 && s.answer.status !== 503),
    );
    const retryAfterMissing = [...stopping, ...outage, ...starting, ...between].filter(
      (s) => s.answer.status === 503 && s.answer.headers['retry-after'] !== '5',
    );
    const afterFailed = afterReady.filter((s) => s.answer.status < 200 || s.answer.status > 299);
    const healthyFailed = [...warmUp, ...healthy].filter((s) => s.answer.status < 200 || s.answer.status > 299);

    // Every 2xx write, read back.
    const writes = sent.filter((s) => s.wrote && s.answer.status >= 200 && s.answer.status < 300);
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const regs = new Map(
      (
        await check.query<{ barcode: string; last_name: string }>('select barcode, last_name from registrations where barcode = any($1)', [
          writes.filter((s) => s.kind === 'registration').map((s) => s.wrote!.barcode),
        ])
      ).rows.map((r) => [r.barcode, r.last_name]),
    );
    const orderTickets = new Map(
      (
        await check.query<{ barcode: string; order_id: string }>('select barcode, order_id from tickets where barcode = any($1)', [
          writes.filter((s) => s.kind === 'feed PUT').map((s) => s.wrote!.barcode),
        ])
      ).rows.map((r) => [r.barcode, r.order_id]),
    );
    await check.end();
    const lost = writes.filter((s) =>
      s.kind === 'registration'
        ? regs.get(s.wrote!.barcode) !== s.wrote!.lastName
        : orderTickets.get(s.wrote!.barcode) !== s.wrote!.orderId,
    );

    const healthyLatency = latencies(healthy);
    const outageLatency = latencies(outage);
    const settledOutage = latencies(outage.filter((s) => windows.some((w) => sentIn(s, w.stoppedAt + 1000, w.startAt))));
    const byKind = (list: Sent[]) =>
      (['lookup', 'registration', 'feed PUT'] as const)
        .map((kind) => `${kind} ${latencyText(latencies(list.filter((s) => s.kind === kind)))}`)
        .join('; ');
    const ms = (values: number[]) => values.map((v) => (Number.isFinite(v) ? fmt(v) : 'never')).join(', ');
    lines.push(
      `PostgreSQL (${postgres.version}, private cluster on port ${postgres.port}) restarted ${outages} times (pg_ctl stop -m ${Array.from({ length: outages }, (_, k) => STOP_MODES[k % 2]).join('/')}, ${outageSeconds} s down, pg_ctl start), ${rate} req/s of lookups, registrations and feed PUTs:`,
      `  requests: ${fmt(sent.length)} in all; warm-up (5 s): ${statusCounts(warmUp)}; then, answered before the first stop: ${statusCounts(healthy)}`,
      `  in flight when a stop began or sent while pg_ctl stop ran: ${statusCounts(stopping)}`,
      `  database down: ${statusCounts(outage)}; ${latencyText(outageLatency)}; from 1 s after pg_ctl stop returned: ${latencyText(settledOutage)}`,
      `  while starting (pg_ctl start running): ${statusCounts(starting)}; back, before /readyz said so: ${statusCounts(between)}`,
      `  after /readyz answered 200 again (answered before the next stop): ${statusCounts(afterReady)}; ${latencyText(latencies(afterReady))}`,
      `  baseline, the same mix for 5 s before the first stop: ${latencyText(healthyLatency)} (${byKind(healthy)})`,
      `  ratio outage answer time / healthy answer time: p50 ${fmt(outageLatency.p50 / healthyLatency.p50, 2)}, p99 ${fmt(outageLatency.p99 / healthyLatency.p99, 2)}`,
      `  /readyz 503 after the stop began, ms: ${ms(notReadyDelays)}; 200 after pg_ctl start returned, ms: ${ms(readyDelays)} ` +
        `(goal <= ${READY_GOAL_MS}: ${goal(
          readyDelays.every((d) => d <= READY_GOAL_MS),
          'readyz not 200 within 5 s of PostgreSQL back',
        )})`,
      `  /readyz probes while down that were not 503: ${readyDuringOutage.length} of ${readiness.probes.filter((p) => windows.some((w) => p.at >= w.stoppedAt && p.at < w.startAt)).length} ` +
        `(goal 0: ${goal(readyDuringOutage.length === 0, 'readyz answered other than 503 while the database was down')})`,
      `  the process: ${alive ? `still running (pid ${instance.pid})` : `EXITED (${instance.child.signalCode ?? instance.child.exitCode})`} ` +
        `(goal: never exits: ${goal(alive, 'the server process exited')})`,
      `  answers from stop to /readyz 200 that were not 503 or 2xx/4xx (5xx other than 503, no answer): ${badDuring.length} ` +
        `(goal 0: ${goal(badDuring.length === 0, `${badDuring.length} requests hung or answered a 5xx other than 503`)}); 503 without Retry-After: 5: ${retryAfterMissing.length}`,
      `  outage answers fail fast: max ${fmt(outageLatency.max)} ms (goal < ${HANG_MS}, the pool's connection timeout), p99 ratio to healthy ${fmt(outageLatency.p99 / healthyLatency.p99, 2)} ` +
        `(goal <= 1): ${goal(outage.length > 0 && outageLatency.max < HANG_MS && outageLatency.p99 <= healthyLatency.p99, 'requests during the outage were slow to fail')}`,
      `  failed after /readyz 200: ${afterFailed.length} (goal 0: ${goal(afterFailed.length === 0 && healthyFailed.length === 0, 'requests failed while the database was up')})`,
      `  2xx writes read back: ${fmt(writes.length - lost.length)} of ${fmt(writes.length)} (${fmt(writes.filter((s) => s.kind === 'registration').length)} registrations, ${fmt(writes.filter((s) => s.kind === 'feed PUT').length)} new orders); lost: ${lost.length} (goal 0: ${goal(lost.length === 0, `${lost.length} writes answered 2xx are not in the database`)})`,
      `  log: ${[...instance.logCounts].map(([k, v]) => `"${k}" x${v}`).join(', ')}`,
    );
    if (badDuring.length > 0)
      lines.push(
        `  e.g. ${badDuring
          .slice(0, 3)
          .map((s) => `${s.kind}: ${s.answer.error ?? `${s.answer.status} ${s.answer.body.toString().slice(0, 120)}`}`)
          .join(' | ')}`,
      );
  } finally {
    client.close();
    probeClient.close();
    await instance.stop();
  }
}

/** Lookups that fail (orders that do not exist, one per call) from `address`, on the given instances in turn. */
async function failedLookups(clients: HttpClient[], address: string, count: number) {
  const statuses: number[] = [];
  for (let k = 0; k < count; k++) {
    const answer = await clients[k % clients.length]!.call('POST', '/api/login/', {
      headers: { 'x-forwarded-for': address },
      json: { orderId: String(60_000_000 + Math.floor(Math.random() * 30_000_000)), barcode: '6100000000000000' },
    });
    statuses.push(answer.status);
  }
  return statuses;
}

let addressSeq = 0;
const nextAddress = () => `10.${(addressSeq >> 16) & 255}.${(addressSeq >> 8) & 255}.${addressSeq++ & 255}`;

/** 10 failures from a new address spread over both instances, then one more on each: 429 on both when shared. */
async function sharedProbe(clients: HttpClient[]) {
  const address = nextAddress();
  const spread = await failedLookups(clients, address, 10);
  const after = [await failedLookups([clients[0]!], address, 1), await failedLookups([clients[1]!], address, 1)].flat();
  return { spread, after, shared: after.every((s) => s === 429) };
}

async function redisPart(redis: PrivateRedis, databaseUrl: string, lines: string[]) {
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    TRUST_PROXY: '127.0.0.1',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    INTEGRATION_API_KEYS: `bench:${KEY}`,
    DATA_DIR: dataDir,
    DELIVERY_WORKERS: 'false',
  };
  const watch = ['redis error', 'unhandled error', '"level":50'];
  const instances: ServerInstance[] = [];
  try {
    instances.push(await startInstance('instance 1', env, { watch }));
    instances.push(await startInstance('instance 2', env, { watch }));
    const clients = instances.map((i) => httpClient(i.url, { maxSockets: 128 }));
    // Background: lookups of seeded tickets from many addresses, both instances in turn.
    const background: { at: number; answer: Answer }[] = [];
    let running = true;
    let n = 0;
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    const loop = (async () => {
      while (running) {
        const due = Math.floor(((performance.now() - started) / 1000) * rate);
        while (n < due) {
          const i = n++;
          const t = (i * 7919) % (SEED_ORDERS * TICKETS_PER_ORDER);
          const o = Math.floor(t / TICKETS_PER_ORDER);
          const at = performance.now();
          const done = clients[i % 2]!.call('POST', '/api/login/', {
            headers: { 'x-forwarded-for': `10.200.${(i >> 8) & 255}.${i & 255}` },
            json: { orderId: seedOrderId(o), barcode: seedBarcode(o, t % TICKETS_PER_ORDER) },
          }).then((answer) => {
            background.push({ at, answer });
            inFlight.delete(done);
          });
          inFlight.add(done);
        }
        await sleep(5);
      }
    })();

    // 5 s of warm-up (the instances' first requests) before the probes.
    await sleep(5000);
    const warmedAt = performance.now();
    const before = await sharedProbe(clients);
    const killAt = performance.now();
    await redis.kill();
    await sleep(1000);
    const downAddress = nextAddress();
    const downSpread = await failedLookups(clients, downAddress, 10);
    const downOne = await failedLookups([clients[0]!], nextAddress(), 11);
    const downProbeEnd = performance.now();
    await sleep(2000);
    const startAt = performance.now();
    await redis.start();
    const startedAt = performance.now();
    // A probe that finds the counter shared began after both instances were back on Redis.
    let sharedAgainMs = Infinity;
    let probeMs = NaN;
    let attempts = 0;
    while (performance.now() - startedAt < 30_000) {
      attempts++;
      const probeAt = performance.now();
      if ((await sharedProbe(clients)).shared) {
        sharedAgainMs = probeAt - startedAt;
        probeMs = performance.now() - probeAt;
        break;
      }
      await sleep(100);
    }
    const upAgain = await sharedProbe(clients);
    const endAt = performance.now();
    running = false;
    await loop;
    await Promise.all(inFlight);
    for (const c of clients) c.close();
    const alive = instances.every((i) => i.child.exitCode === null && i.child.signalCode === null);

    const phase = (from: number, to: number) =>
      background.filter((b) => b.at >= from && b.at < to).map((b) => ({ kind: 'lookup' as Kind, ...b }));
    const warmUp = phase(0, warmedAt);
    const up = phase(warmedAt, killAt);
    const down = phase(killAt, startAt);
    const back = phase(startedAt, endAt);
    const notOk = (list: Sent[]) => list.filter((s) => s.answer.status !== 200).length;
    const show = (statuses: number[]) => statuses.join(' ');
    lines.push(
      `Redis (private redis-server on port ${redis.port}) killed and started again, two instances, ${rate} req/s of lookups across both:`,
      `  up: 10 failures from one address over both instances: ${show(before.spread)}; then one on each: ${show(before.after)} ` +
        `(goal 429 429, shared: ${goal(before.shared, 'throttling not shared while Redis was up')})`,
      `  down: 10 failures from one address over both: ${show(downSpread)} (each instance counts its own 5: no 429 expected)`,
      `  down: 11 failures from one address on instance 1: ${show(downOne)} ` +
        `(goal: the 11th is 429, in memory: ${goal(downOne[10] === 429 && downOne.slice(0, 10).every((s) => s === 404), 'throttling stopped while Redis was down')})`,
      `  after redis-server started again: shared again by ${Number.isFinite(sharedAgainMs) ? `${fmt(sharedAgainMs)} ms (the start of probe ${attempts}, which took ${fmt(probeMs)} ms)` : 'NEVER (30 s)'}; ` +
        `then: ${show(upAgain.spread)} / ${show(upAgain.after)} (goal shared: ${goal(upAgain.shared, 'throttling not shared again after Redis came back')})`,
      `  lookup load: warm-up (5 s) ${statusCounts(warmUp)}; Redis up ${statusCounts(up)}, ${latencyText(latencies(up))}`,
      `  lookup load: Redis down ${statusCounts(down)}, ${latencyText(latencies(down))}`,
      `  lookup load: Redis back ${statusCounts(back)}, ${latencyText(latencies(back))}`,
      `  lookups not 200: ${notOk([...warmUp, ...up, ...down, ...back])} (goal 0: ${goal(notOk([...warmUp, ...up, ...down, ...back]) === 0, 'lookups failed around the Redis restart')}); ` +
        `the processes: ${alive ? 'both still running' : 'ONE EXITED'} (${goal(alive, 'an instance exited')}); probes while down took until ${fmt(downProbeEnd - killAt)} ms after the kill`,
      `  log: ${instances.map((i) => `${i.name}: ${[...i.logCounts].map(([k, v]) => `"${k}" x${v}`).join(', ')}`).join('; ')}`,
    );
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
  }
}

async function main() {
  if (process.env.BENCH_BUILD !== 'false') {
    console.log('Building the API as production runs it...');
    console.log(`built in ${fmt(buildApi(), 1)} s`);
  }
  console.log('Starting a private PostgreSQL cluster and redis-server...');
  let postgres: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  const cleanup = async () => {
    await redis?.destroy();
    postgres?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  onInterrupt(cleanup);
  const load = loadavg();
  const lines: string[] = [];
  try {
    postgres = await startPrivatePostgres();
    redis = await startPrivateRedis();
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE boardwalk');
    await admin.end();
    const databaseUrl = postgres.adminUrl.replace(/\/postgres$/, '/boardwalk');
    await postgresPart(postgres, databaseUrl, lines);
    await redisPart(redis, databaseUrl, lines);
  } catch (error) {
    failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await cleanup();
  }
  lines.unshift(
    `bench:faults ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}; load average at start ${load.map((l) => fmt(l, 2)).join(' ')}, at end ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );
  if (failures.length > 0) lines.push(`NOT MET: ${failures.join('; ')}`);
  else lines.push('ALL GOALS MET');
  const rule = '='.repeat(100);
  console.log(`\n${rule}\n${lines.join('\n')}\n${rule}`);
  if (failures.length > 0) process.exitCode = 1;
}

await main();
