// GET /metrics: the Prometheus text format, counters that follow the traffic, route patterns
// (never URLs) as labels, the METRICS_TOKEN guard, and the gauges read at each scrape.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { insertDelivery } from '../platform/jobs/deliveries.repo.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the text exposition format 0.0.4: every line is a HELP or TYPE comment
 * or a sample `name{label="value",...} number`; every sample's family has a TYPE line.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(comment[3], line).toMatch(/^(counter|gauge|histogram|summary|untyped)$/);
        types.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = sample[2] ?? '';
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (let m = labelPattern.exec(labelText); m; m = labelPattern.exec(labelText)) {
      labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed = labelPattern.lastIndex;
    }
    expect(consumed, `labels of ${line}`).toBe(labelText.length);
    const value = Number(sample[3] === '+Inf' ? Infinity : sample[3] === '-Inf' ? -Infinity : sample[3]);
    // prom-client writes NaN as "Nan"; Prometheus reads it case-insensitively (Go's ParseFloat).
    if (!/^nan$/i.test(sample[3]!)) expect(Number.isNaN(value), line).toBe(false);
    const name = sample[1]!;
    const family = [...types.keys()].find(
      (f) => name === f || (/^(_bucket|_sum|_count|_total|_created)$/.test(name.slice(f.length)) && name.startsWith(f)),
    );
    expect(family, `a TYPE line for ${name}`).toBeDefined();
    samples.push({ name, labels, value });
  }
  return samples;
}

const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

let t: TestApp;
const scrape = async (headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode, res.body).toBe(200);
  return { res, samples: parseExposition(res.body) };
};

beforeAll(async () => {
  // No workers: a queued job stays queued, so the queue depth is what this test put there.
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false' } });
});
afterAll(() => t.close());

describe('GET /metrics', () => {
  it('answers the Prometheus text format with process metrics', async () => {
    const { res, samples } = await scrape();
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
    expect(value(samples, 'boardwalk_database_up', {})).toBe(1);
  });

  it('counts requests and their latency per route pattern and status, and failed and throttled lookups', async () => {
    const before = (await scrape()).samples;
    const route = { method: 'POST', route: '/api/login/' };
    const barcode = '7311111111111111';
    const lookups = 12;
    for (let i = 0; i < lookups; i++) {
      await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '73111111', barcode }, remoteAddress: '203.0.113.9' });
    }
    const { res, samples } = await scrape();
    const moved = (name: string, labels: Record<string, string>) => value(samples, name, labels) - value(before, name, labels);

    // Per order id: 5 failures in 15 minutes, then every attempt refused with 429.
    expect(moved('boardwalk_http_requests_total', { ...route, status_code: '404' })).toBe(5);
    expect(moved('boardwalk_http_requests_total', { ...route, status_code: '429' })).toBe(lookups - 5);
    expect(moved('boardwalk_http_request_duration_seconds_count', { ...route, status_code: '404' })).toBe(5);
    expect(moved('boardwalk_http_request_duration_seconds_bucket', { ...route, status_code: '404', le: '+Inf' })).toBe(5);
    expect(moved('boardwalk_throttle_failures_total', { counter: 'lookup-address' })).toBe(5);
    expect(moved('boardwalk_throttle_refusals_total', { counter: 'lookup-order' })).toBe(lookups - 5);
    // The scrape before counts too.
    expect(moved('boardwalk_http_requests_total', { method: 'GET', route: '/metrics', status_code: '200' })).toBe(1);
    expect(res.body).not.toContain(barcode);
    expect(res.body).not.toContain('73111111');

    // A barcode in the URL: the label is the route's pattern.
    const photo = await t.app.inject(`/api/replace-photo/${barcode}/${'A'.repeat(43)}`);
    const after = await scrape();
    const photoLabels = { method: 'GET', route: '/api/replace-photo/:barcode/:uid', status_code: String(photo.statusCode) };
    expect(
      value(after.samples, 'boardwalk_http_requests_total', photoLabels) - value(samples, 'boardwalk_http_requests_total', photoLabels),
    ).toBe(1);
    expect(after.res.body).not.toContain(barcode);
    const routes = new Set(after.samples.filter((s) => s.labels.route).map((s) => s.labels.route));
    for (const r of routes) expect(r, 'a route pattern').not.toMatch(/\d{8,}|A{43}/);
  });

  it('counts pages and unknown paths under one label', async () => {
    await t.app.inject('/api/no-such-thing/7322222222222222');
    const { res, samples } = await scrape();
    expect(value(samples, 'boardwalk_http_requests_total', { route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain('7322222222222222');
  });

  it('shows deliveries by target and state, and the queue depth, read at each scrape', async () => {
    const before = (await scrape()).samples;
    const jobId = await t.app.database.db.transaction((tx) => t.app.jobs.send(tx, { name: 'mail', data: { probe: true } }));
    await insertDelivery(t.app.database.db, {
      id: randomUUID(),
      target: 'mail',
      barcode: null,
      recipient: 'someone@example.com',
      queue: 'mail',
      payload: {},
      jobId: jobId!,
    });
    const { samples } = await scrape();
    expect(value(samples, 'boardwalk_deliveries', { target: 'mail', state: 'queued' })).toBe(
      value(before, 'boardwalk_deliveries', { target: 'mail', state: 'queued' }) + 1,
    );
    for (const target of ['apple', 'google', 'mail']) {
      for (const state of ['queued', 'sent', 'skipped', 'retrying', 'dead']) {
        expect(samples.some((s) => s.name === 'boardwalk_deliveries' && s.labels.target === target && s.labels.state === state)).toBe(true);
      }
    }
    expect(value(samples, 'boardwalk_queue_jobs', { queue: 'mail', state: 'created' })).toBe(
      value(before, 'boardwalk_queue_jobs', { queue: 'mail', state: 'created' }) + 1,
    );
  });

  it('shows the connection pool (PGlite: one connection)', async () => {
    const { samples } = await scrape();
    const pool = samples.filter((s) => s.name === 'boardwalk_database_pool_connections');
    expect(pool.map((s) => s.labels.state).sort()).toEqual(['idle', 'total', 'waiting']);
    const total = value(samples, 'boardwalk_database_pool_connections', { state: 'total' });
    if (testDbKind() === 'postgres') expect(total).toBeGreaterThanOrEqual(1);
    else expect(total).toBe(1);
  });

  it('shows whether Redis is connected, when one is configured', async (ctx) => {
    expect((await scrape()).samples.some((s) => s.name === 'boardwalk_redis_up')).toBe(false);
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
    } catch {
      redis.disconnect();
      ctx.skip('Redis is not reachable');
    }
    const withRedis = await createTestApp({ database: t.database, redis });
    try {
      const up = parseExposition((await withRedis.app.inject('/metrics')).body);
      expect(value(up, 'boardwalk_redis_up', {})).toBe(1);
      const ended = new Promise((resolve) => redis.once('end', resolve));
      await redis.quit();
      await ended;
      const down = parseExposition((await withRedis.app.inject('/metrics')).body);
      expect(down.filter((s) => s.name === 'boardwalk_redis_up').map((s) => s.value)).toEqual([0]);
    } finally {
      await withRedis.close();
      redis.disconnect();
    }
  });

  it('still answers while the database is gone, with database_up 0', async () => {
    const gone = await createTestApp();
    try {
      await gone.database.close();
      const res = await gone.app.inject('/metrics');
      expect(res.statusCode).toBe(200);
      const samples = parseExposition(res.body);
      expect(value(samples, 'boardwalk_database_up', {})).toBe(0);
      expect(samples.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true);
    } finally {
      await gone.app.close();
    }
  });

  it('keeps counters per app: a second app starts from zero', async () => {
    const other = await createTestApp({ database: t.database });
    try {
      const res = await other.app.inject('/metrics');
      const samples = parseExposition(res.body);
      expect(value(samples, 'boardwalk_http_requests_total', { route: '/api/login/' })).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('METRICS_TOKEN', () => {
  const token = 'scrape-token-0123456789abcdef';
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ database: t.database, env: { METRICS_TOKEN: token } });
  });
  afterAll(() => guarded.close());
  const get = (authorization?: string) =>
    guarded.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  it.each([
    ['no Authorization', undefined],
    ['a wrong token', 'Bearer scrape-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${token.slice(0, -1)}`],
    ['the token with more after it', `Bearer ${token}0`],
    ['another scheme', `Basic ${token}`],
  ])('answers 401 to %s', async (_, authorization) => {
    const res = await get(authorization);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(res.json()).toMatchObject({ error: 'UNAUTHORIZED' });
    expect(res.body).not.toContain('boardwalk_http_requests_total');
  });

  it('answers the metrics to the token', async () => {
    const res = await get(`Bearer ${token}`);
    expect(res.statusCode).toBe(200);
    expect(parseExposition(res.body).length).toBeGreaterThan(10);
  });
});

describe('in production (NODE_ENV=production)', () => {
  const token = 'scrape-token-0123456789abcdef';
  const appWith = (env: Record<string, string>) => createTestApp({ database: t.database, env: { NODE_ENV: 'production', ...env } });

  it('refuses every scrape without METRICS_TOKEN, saying which variable to set', async () => {
    const closed = await appWith({});
    try {
      for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
        const res = await closed.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ error: 'FORBIDDEN' });
        expect(res.json().message).toMatch(/METRICS_TOKEN/);
        expect(res.json().message).toMatch(/METRICS_PUBLIC=true/);
        expect(res.body).not.toContain('boardwalk_http_requests_total');
      }
    } finally {
      await closed.close();
    }
  });

  it('answers anyone with METRICS_PUBLIC=true', async () => {
    const open = await appWith({ METRICS_PUBLIC: 'true' });
    try {
      const res = await open.app.inject('/metrics');
      expect(res.statusCode).toBe(200);
      expect(parseExposition(res.body).length).toBeGreaterThan(10);
    } finally {
      await open.close();
    }
  });

  it('answers only to the token with METRICS_TOKEN', async () => {
    const guarded = await appWith({ METRICS_TOKEN: token });
    try {
      expect((await guarded.app.inject('/metrics')).statusCode).toBe(401);
      const res = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('stays open in development and tests without METRICS_TOKEN', async () => {
    for (const NODE_ENV of ['development', 'test']) {
      const dev = await createTestApp({ database: t.database, env: { NODE_ENV } });
      try {
        expect((await dev.app.inject('/metrics')).statusCode, NODE_ENV).toBe(200);
      } finally {
        await dev.close();
      }
    }
  });
});
