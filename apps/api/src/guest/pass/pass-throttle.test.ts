// Anti-enumeration: failed lookups throttled per client address (10 per 15 minutes) and per
// order id (5 per 15 minutes), then 429 with Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { createTwoInstances, twoInstancesAvailable, type TwoInstances } from '../../../test-support/two-instances.ts';

const ORDER = '30000001';
const BARCODE = '3000000000000011';

async function appWithOrder(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  await putOrder(t.app, ORDER, anOrder([{ barcode: BARCODE }]));
  return t;
}

const login = (t: TestApp, body: object, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress, headers });

/** A different unknown order id each time, so only the per-address counter moves. */
let unknown = 39000000;
const miss = () => ({ orderId: String(++unknown), barcode: '3000000000009999' });

describe('throttle per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithOrder();
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After after the tenth failed lookup, even for a right barcode', async () => {
    for (let i = 1; i <= 10; i++) expect((await login(t, miss(), '10.2.0.1')).statusCode).toBe(404);
    const blocked = await login(t, miss(), '10.2.0.1');
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(blocked.json().error).toBe('TOO_MANY_ATTEMPTS');
    expect((await login(t, { orderId: ORDER, barcode: BARCODE }, '10.2.0.1')).statusCode).toBe(429);
    // Another address is not affected.
    expect((await login(t, { orderId: ORDER, barcode: BARCODE }, '10.2.0.2')).statusCode).toBe(200);
  });

  it('does not count successful lookups', async () => {
    for (let i = 0; i < 15; i++) expect((await login(t, { orderId: ORDER, barcode: BARCODE }, '10.2.0.3')).statusCode).toBe(200);
  });

  it('counts failed registrations too', async () => {
    const body = { orderId: '38888888', barcode: '3000000000009999', firstName: 'A', lastName: 'B', email: 'a@b.co', phone: '3105550100' };
    for (let i = 1; i <= 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register/',
        payload: { ...body, orderId: String(38888800 + i) },
        remoteAddress: '10.2.0.4',
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await login(t, miss(), '10.2.0.4')).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: spoofing it does not reset the count', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await login(t, miss(), '10.2.0.5', { 'x-forwarded-for': `203.0.113.${i}` });
      expect(res.statusCode).toBe(404);
    }
    expect((await login(t, miss(), '10.2.0.5', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
  });
});

describe('throttle with TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithOrder({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => t.close());

  it('counts per forwarded client behind the trusted proxy', async () => {
    for (let i = 1; i <= 10; i++) await login(t, miss(), '127.0.0.1', { 'x-forwarded-for': '203.0.113.50' });
    expect((await login(t, miss(), '127.0.0.1', { 'x-forwarded-for': '203.0.113.50' })).statusCode).toBe(429);
    expect((await login(t, { orderId: ORDER, barcode: BARCODE }, '127.0.0.1', { 'x-forwarded-for': '203.0.113.51' })).statusCode).toBe(200);
  });

  it('does not trust X-Forwarded-For from an untrusted address', async () => {
    for (let i = 1; i <= 10; i++) await login(t, miss(), '10.9.9.9', { 'x-forwarded-for': `203.0.113.${100 + i}` });
    expect((await login(t, miss(), '10.9.9.9', { 'x-forwarded-for': '203.0.113.200' })).statusCode).toBe(429);
  });
});

describe('throttle per order id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithOrder();
  });
  afterAll(() => t.close());

  it('answers 429 after the fifth failed lookup for one order id, from any address, right barcode or not', async () => {
    for (let i = 1; i <= 5; i++) {
      expect((await login(t, { orderId: ORDER, barcode: `300000000000${9000 + i}` }, `10.3.0.${i}`)).statusCode).toBe(404);
    }
    const blocked = await login(t, { orderId: ORDER, barcode: BARCODE }, '10.3.0.99');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('resets the order count after a successful lookup', async () => {
    await putOrder(t.app, '30000002', anOrder([{ barcode: '3000000000000028' }]));
    for (let i = 1; i <= 4; i++) await login(t, { orderId: '30000002', barcode: '3000000000009999' }, `10.4.0.${i}`);
    expect((await login(t, { orderId: '30000002', barcode: '3000000000000028' }, '10.4.1.1')).statusCode).toBe(200);
    for (let i = 1; i <= 4; i++)
      expect((await login(t, { orderId: '30000002', barcode: '3000000000009999' }, `10.4.2.${i}`)).statusCode).toBe(404);
  });
});

// Two instances behind a load balancer share PostgreSQL and Redis: one counter for both.
describe.skipIf(!twoInstancesAvailable)('two instances on one PostgreSQL and Redis', () => {
  let instances: TwoInstances;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    instances = await createTwoInstances();
    ({ a, b } = instances);
    await putOrder(a.app, ORDER, anOrder([{ barcode: BARCODE }]));
  });
  afterAll(() => instances.close());

  it('share the per-address counter', async () => {
    for (let i = 1; i <= 10; i++) {
      const instance = i % 2 ? a : b;
      expect((await login(instance, miss(), '10.5.0.1')).statusCode).toBe(404);
    }
    expect((await login(a, { orderId: ORDER, barcode: BARCODE }, '10.5.0.1')).statusCode).toBe(429);
    expect((await login(b, { orderId: ORDER, barcode: BARCODE }, '10.5.0.1')).statusCode).toBe(429);
  });

  it('share the per-order counter, and both see the same data', async () => {
    expect((await login(b, { orderId: ORDER, barcode: BARCODE }, '10.5.1.1')).statusCode).toBe(200);
    for (let i = 1; i <= 5; i++) {
      const instance = i % 2 ? b : a;
      expect((await login(instance, { orderId: ORDER, barcode: '3000000000009999' }, `10.5.2.${i}`)).statusCode).toBe(404);
    }
    expect((await login(a, { orderId: ORDER, barcode: BARCODE }, '10.5.3.1')).statusCode).toBe(429);
    expect((await login(b, { orderId: ORDER, barcode: BARCODE }, '10.5.3.2')).statusCode).toBe(429);
  });
});
