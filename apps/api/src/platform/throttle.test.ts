// Failure throttles reserve before they act: an attempt takes its point atomically first,
// so attempts arriving together can never run more failures than the limit; a success or a
// server fault gives the point back, a failure keeps it. A lookup looks first and reserves
// before it answers: every answer holds a point, while the looks run together.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTeamMember } from '../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { AppError } from './errors.ts';
import { answer, attempt, createFailureThrottle, LOOKS_AT_ONCE, type ThrottleObserver } from './throttle.ts';

const miss = () => Promise.reject(new AppError('NOT_FOUND', 'no such thing'));
const hit = () => Promise.resolve('found');
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof AppError ? error.statusCode : 500),
  );

function counters() {
  const seen = { failed: new Map<string, number>(), refused: new Map<string, number>() };
  const bump = (map: Map<string, number>, counter: string) => map.set(counter, (map.get(counter) ?? 0) + 1);
  const observer: ThrottleObserver = { failed: (c) => bump(seen.failed, c), refused: (c) => bump(seen.refused, c) };
  return { seen, observer };
}

const memoryThrottle = (name: string, points: number, observer?: ThrottleObserver, clearOnSuccess = false) =>
  createFailureThrottle({ name, points, windowSeconds: 900, clearOnSuccess }, { keyPrefix: `unit-${Math.random()}` }, observer);

describe('attempt', () => {
  it('answers 429 with Retry-After on the attempt after the limit, and a hit then too', async () => {
    const throttle = memoryThrottle('a', 3);
    for (let i = 0; i < 3; i++) expect(await statusOf(throttle.attempt('k', miss))).toBe(404);
    const refused = await throttle.attempt('k', hit).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('TOO_MANY_ATTEMPTS');
    expect((refused as AppError).extra.retryAfterSeconds).toBeGreaterThan(800);
    expect(await statusOf(throttle.attempt('other', miss))).toBe(404);
  });

  it('lets only the limit of parallel misses run, whatever arrives at once', async () => {
    const throttle = memoryThrottle('b', 10);
    let ran = 0;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        statusOf(
          throttle.attempt('k', async () => {
            ran++;
            await new Promise((resolve) => setTimeout(resolve, 5));
            throw new AppError('NOT_FOUND', 'no such thing');
          }),
        ),
      ),
    );
    expect(ran).toBe(10);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });

  it('lets parallel hits all through: one waits for points held by attempts still running', async () => {
    const throttle = memoryThrottle('hits', 10);
    const slowHit = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 'found';
    };
    const statuses = await Promise.all(Array.from({ length: 50 }, () => statusOf(throttle.attempt('k', slowHit))));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // And every point came back.
    for (let i = 0; i < 10; i++) expect(await statusOf(throttle.attempt('k', miss))).toBe(404);
    expect(await statusOf(throttle.attempt('k', miss))).toBe(429);
  });

  it('lets the attempts waiting for points in first come, first served, a later arrival behind them', async () => {
    const throttle = memoryThrottle('line', 1);
    const order: string[] = [];
    const finish = new Map<string, () => void>();
    const held = (name: string) => () =>
      new Promise<string>((resolve) => {
        order.push(name);
        finish.set(name, () => resolve(name));
      });
    // Longer than an attempt sleeps between two looks: every waiter has looked again meanwhile.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 60));
    const attempts = new Map<string, Promise<string>>();
    const start = async (name: string) => {
      attempts.set(name, throttle.attempt('k', held(name)));
      await pause();
    };
    const end = async (name: string) => {
      finish.get(name)!();
      await attempts.get(name);
      await pause();
    };
    await start('a');
    await start('b');
    await start('c');
    await end('a');
    await start('d');
    await end('b');
    await end('c');
    await end('d');
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses at once, without waiting, once the failures are used up', async () => {
    const throttle = memoryThrottle('spent', 2);
    await statusOf(throttle.attempt('k', miss));
    await statusOf(throttle.attempt('k', miss));
    const started = Date.now();
    expect(await statusOf(throttle.attempt('k', hit))).toBe(429);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('gives the point back on a success and on a server fault', async () => {
    const throttle = memoryThrottle('c', 2);
    for (let i = 0; i < 5; i++) expect(await statusOf(throttle.attempt('k', hit))).toBe(200);
    for (let i = 0; i < 5; i++) expect(await statusOf(throttle.attempt('k', () => Promise.reject(new Error('database gone'))))).toBe(500);
    for (let i = 0; i < 5; i++) {
      const fault = () => Promise.reject(new AppError('INTERNAL', 'fault'));
      expect(await statusOf(throttle.attempt('k', fault))).toBe(500);
    }
    expect(await statusOf(throttle.attempt('k', miss))).toBe(404);
    expect(await statusOf(throttle.attempt('k', miss))).toBe(404);
    expect(await statusOf(throttle.attempt('k', hit))).toBe(429);
  });

  it('clears the key on a success when the counter says so, and gives one point back otherwise', async () => {
    const clearing = memoryThrottle('d', 3, undefined, true);
    const plain = memoryThrottle('e', 3);
    for (const throttle of [clearing, plain]) {
      await statusOf(throttle.attempt('k', miss));
      await statusOf(throttle.attempt('k', miss));
      expect(await statusOf(throttle.attempt('k', hit))).toBe(200);
    }
    // Cleared: three more misses before the refusal.
    for (let i = 0; i < 3; i++) expect(await statusOf(clearing.attempt('k', miss))).toBe(404);
    expect(await statusOf(clearing.attempt('k', miss))).toBe(429);
    // Not cleared: one more.
    expect(await statusOf(plain.attempt('k', miss))).toBe(404);
    expect(await statusOf(plain.attempt('k', miss))).toBe(429);
  });

  it('gives back the first counter’s point when the second refuses, and counts each counter apart', async () => {
    const { seen, observer } = counters();
    const perAddress = memoryThrottle('address', 10, observer);
    const perOrder = memoryThrottle('order', 2, observer);
    const both = (order: string, work: () => Promise<string>) => statusOf(attempt([perAddress.of('10.0.0.1'), perOrder.of(order)], work));
    expect(await both('o1', miss)).toBe(404);
    expect(await both('o1', miss)).toBe(404);
    for (let i = 0; i < 20; i++) expect(await both('o1', hit)).toBe(429);
    // The 20 refusals took nothing from the address: 8 misses left on other orders.
    for (let i = 0; i < 8; i++) expect(await both(`other-${i}`, miss)).toBe(404);
    expect(await both('o3', miss)).toBe(429);
    expect(Object.fromEntries(seen.failed)).toEqual({ address: 10, order: 10 });
    expect(Object.fromEntries(seen.refused)).toEqual({ order: 20, address: 1 });
  });

  it('does not count a 429 of a throttle inside the work as a failure', async () => {
    const outer = memoryThrottle('outer', 1);
    const inner = memoryThrottle('inner', 1);
    await statusOf(inner.attempt('k', miss));
    for (let i = 0; i < 3; i++) expect(await statusOf(outer.attempt('k', () => inner.attempt('k', hit)))).toBe(429);
    expect(await statusOf(outer.attempt('k', miss))).toBe(404);
  });
});

describe('answer', () => {
  /** A look that takes 5 ms and tells how many looks ran at once. */
  function looks(result: () => Promise<string>) {
    const seen = { ran: 0, running: 0, most: 0 };
    const look = async () => {
      seen.ran++;
      seen.most = Math.max(seen.most, ++seen.running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.running--;
      return result();
    };
    return { seen, look };
  }

  it('runs the looks of 50 parallel hits together, and every one answers', async () => {
    const throttle = memoryThrottle('answer-hits', 10);
    const { seen, look } = looks(hit);
    const statuses = await Promise.all(Array.from({ length: 50 }, () => statusOf(answer([throttle.of('k')], look))));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // attempt() would have run them ten at a time.
    expect(seen.most).toBe(50);
    // And every point came back.
    for (let i = 0; i < 10; i++) expect(await statusOf(answer([throttle.of('k')], miss))).toBe(404);
    expect(await statusOf(answer([throttle.of('k')], miss))).toBe(429);
  });

  it('answers only the limit of parallel misses, the rest 429, a hit among them too', async () => {
    const throttle = memoryThrottle('answer-misses', 10);
    const { look } = looks(() => Promise.reject(new AppError('NOT_FOUND', 'no such thing')));
    const statuses = await Promise.all([
      ...Array.from({ length: 40 }, () => statusOf(answer([throttle.of('k')], look))),
      // Arrives last: its look runs, but its answer finds the failures used up.
      new Promise((resolve) => setTimeout(resolve, 1)).then(() => statusOf(answer([throttle.of('k')], looks(hit).look))),
    ]);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(31);
  });

  it(`looks at most ${LOOKS_AT_ONCE} times at once for one key; beyond, a lookup reserves first`, async () => {
    const throttle = memoryThrottle('answer-burst', 10);
    const { seen, look } = looks(() => Promise.reject(new AppError('NOT_FOUND', 'no such thing')));
    const statuses = await Promise.all(Array.from({ length: 3 * LOOKS_AT_ONCE }, () => statusOf(answer([throttle.of('k')], look))));
    // The bound's looks, and at most the limit's attempts reserving first beside them.
    expect(seen.most).toBeLessThanOrEqual(LOOKS_AT_ONCE + 10);
    expect(seen.ran).toBeLessThanOrEqual(LOOKS_AT_ONCE + 10);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3 * LOOKS_AT_ONCE - 10);
    const hits = looks(hit);
    const answers = await Promise.all(Array.from({ length: 3 * LOOKS_AT_ONCE }, () => statusOf(answer([throttle.of('other')], hits.look))));
    expect(answers.every((s) => s === 200)).toBe(true);
    expect(hits.seen.most).toBeLessThanOrEqual(LOOKS_AT_ONCE + 10);
  });

  it('refuses a key whose failures are used up without looking', async () => {
    const throttle = memoryThrottle('answer-spent', 2);
    for (let i = 0; i < 2; i++) expect(await statusOf(answer([throttle.of('k')], miss))).toBe(404);
    const { seen, look } = looks(hit);
    expect(await statusOf(answer([throttle.of('k')], look))).toBe(429);
    expect(seen.ran).toBe(0);
  });

  it('takes the points of every key for an answer: a spent second key refuses, the first keeps its points', async () => {
    const perAddress = memoryThrottle('answer-address', 10);
    const perOrder = memoryThrottle('answer-order', 1);
    expect(await statusOf(answer([perAddress.of('a'), perOrder.of('o')], miss))).toBe(404);
    for (let i = 0; i < 5; i++) expect(await statusOf(answer([perAddress.of('a'), perOrder.of('o')], hit))).toBe(429);
    for (let i = 0; i < 9; i++) expect(await statusOf(answer([perAddress.of('a'), perOrder.of(`o${i}`)], miss))).toBe(404);
    expect(await statusOf(answer([perAddress.of('a'), perOrder.of('o-last')], hit))).toBe(429);
  });
});

// The routes, with 50 misses sent at once from one address: the counter is in memory on
// PGlite, and in Redis (and in memory) on PostgreSQL.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const stores = testDbKind() === 'postgres' && process.env.BW_SKIP_REDIS !== '1' ? (['memory', 'redis'] as const) : (['memory'] as const);
const PARALLEL = 50;

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

describe.each(stores)('parallel misses through the routes, counters in %s', (store) => {
  let t: TestApp;
  let redis: Redis | undefined;
  beforeAll(async () => {
    redis = store === 'redis' ? new Redis(redisUrl) : undefined;
    t = await createTestApp({ ...(redis && { redis }), env: { DELIVERY_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await t.close();
    await redis?.quit();
  });

  const together = (count: number, send: (i: number) => Promise<{ statusCode: number }>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i).then((res) => res.statusCode)));

  it('order lookups: at most 10 misses per address are looked up, the rest answer 429', async () => {
    const statuses = await together(PARALLEL, (i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { orderId: String(61000000 + i), barcode: '6100000000009999' },
        remoteAddress: '10.61.0.1',
      }),
    );
    expect(tally(statuses)).toEqual({ 404: 10, 429: PARALLEL - 10 });
  });

  it('order lookups: 50 right lookups at once from one address all answer 200', async () => {
    await putOrder(t.app, '66000000', anOrder([{ barcode: '6600000000000011' }]));
    const statuses = await together(PARALLEL, () =>
      t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { orderId: '66000000', barcode: '6600000000000011' },
        remoteAddress: '10.66.0.1',
      }),
    );
    expect(tally(statuses)).toEqual({ 200: PARALLEL });
  });

  it('order lookups: at most 5 misses per order id, from any addresses', async () => {
    const statuses = await together(PARALLEL, (i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { orderId: '62000000', barcode: `62000000000${String(10000 + i)}` },
        remoteAddress: `10.62.${Math.floor(i / 200)}.${i % 200}`,
      }),
    );
    expect(tally(statuses)).toEqual({ 404: 5, 429: PARALLEL - 5 });
  });

  it('staff logins: at most 10 failures per address and 5 per username', async () => {
    await createTeamMember(t.app, { accessLevel: 10, username: 'race@example.com', password: 'race-password-123' });
    const login = (teamMemberUsername: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/app/login/', payload: { teamMemberUsername, teamMemberPassword: 'wrong' }, remoteAddress });
    const perAddress = await together(PARALLEL, (i) => login(`guess-${i}@example.com`, '10.63.0.1'));
    expect(tally(perAddress)).toEqual({ 401: 10, 429: PARALLEL - 10 });
    const perUsername = await together(PARALLEL, (i) => login('race@example.com', `10.64.0.${i + 1}`));
    expect(tally(perUsername)).toEqual({ 401: 5, 429: PARALLEL - 5 });
  });

  it('loyalty verify: at most 10 codes mailed per address', async () => {
    const statuses = await together(PARALLEL, (i) =>
      t.app.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { email: `race-${i}@example.com` }, remoteAddress: '10.65.0.1' }),
    );
    expect(tally(statuses)).toEqual({ 202: 10, 429: PARALLEL - 10 });
  });
});
