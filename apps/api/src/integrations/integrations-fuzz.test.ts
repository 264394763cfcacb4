// Fuzzed calls against every integration endpoint: random JSON values, random path
// parameters and mutations of valid bodies. Never a 5xx; on any 4xx nothing was written;
// a call that succeeded changes nothing when sent again.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { feedTablesFingerprint } from '../../test-support/integration-tables.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RUNS = 150;

// ---- Valid bodies ------------------------------------------------------------------------

/** Mostly valid values, now and then one that is not: a body is refused for one bad field. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 30, arbitrary: valid }, { weight: 1, arbitrary: invalid });
/** Text, sometimes with what a feed should not send: control characters, lone surrogates, blanks. */
const someText = mostly(
  fc.string({ minLength: 1, maxLength: 20 }),
  fc.oneof(fc.string({ unit: 'binary', minLength: 0, maxLength: 8 }), fc.constantFrom('\u0000', 'a\ud800b', '   ', 'x'.repeat(201))),
);
const money = mostly(
  fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100),
  fc.double(),
);
const someDate = mostly(
  fc.date({ min: new Date('1950-01-01'), max: new Date('2900-01-01'), noInvalidDate: true }),
  fc.date({ min: new Date('1800-01-01'), max: new Date('9999-01-01'), noInvalidDate: true }),
);
const instant = fc
  .tuple(someDate, fc.constantFrom('Z', '-08:00', '+05:30', '+14:00'))
  .map(([d, offset]) => (offset === 'Z' ? d.toISOString() : d.toISOString().replace('Z', offset)));
const calendarDay = someDate.map((d) => d.toISOString().slice(0, 10));
const email = mostly(fc.constantFrom('ana@example.com', 'b.lopez+park@example.org'), fc.oneof(fc.emailAddress(), someText));
const person = fc.record(
  {
    firstName: someText,
    lastName: someText,
    email,
    phone: mostly(fc.stringMatching(/^\+?\d{10,15}$/), fc.stringMatching(/^\+?\d{0,20}$/)),
  },
  { requiredKeys: [] },
);
// Small pools, so orders, checks and reservations are created, replaced, resent and collide.
const orderIds = ['71000001', '71000002', '71000003'];
const barcodes = ['7100000000000011', '7100000000000028', '7100000000000035', '7100000000000042', '7100000000000059', '71000066'];

const ticket = fc.record(
  {
    barcode: fc.constantFrom(...barcodes),
    product: someText,
    price: money,
    category: someText,
    categoryId: someText,
    packId: someText,
    merchItemId: someText,
    isPassholder: fc.boolean(),
    holder: person,
    credits: money,
    cash: money,
    expires: fc.option(instant, { nil: null }),
    redeemed: fc.option(instant, { nil: null }),
    refunded: fc.boolean(),
    isPassActivated: fc.boolean(),
    iCloudBindingLink: fc.option(mostly(fc.webUrl({ validSchemes: ['https'] }), someText), { nil: null }),
  },
  { requiredKeys: ['barcode', 'product'] },
);
const order = fc.record(
  { orderDate: instant, purchaser: person, tickets: fc.array(ticket, { minLength: 1, maxLength: 3 }) },
  { requiredKeys: ['orderDate', 'tickets'] },
);
const usage = fc.record({
  events: fc.array(
    fc.record({
      barcode: mostly(fc.constantFrom(...barcodes), fc.constantFrom('12', '')),
      attraction: mostly(fc.constantFrom('Sea Dragon', 'Carousel'), fc.constantFrom(' ', '\u0000')),
      location: someText,
      timestamp: instant,
    }),
    { minLength: 0, maxLength: 5 },
  ),
});
const check = fc.record(
  {
    checkNumber: mostly(fc.constantFrom('4012', '4013'), fc.constantFrom('40 12', '')),
    orderDate: instant,
    terminalId: someText,
    total: money,
    refunded: fc.boolean(),
  },
  { requiredKeys: ['checkNumber', 'orderDate', 'terminalId', 'total'] },
);
const reservation = fc.record(
  { firstName: someText, lastName: someText, email, arrival: calendarDay, departure: calendarDay, total: money, cancelled: fc.boolean() },
  { requiredKeys: ['arrival', 'departure', 'total'] },
);

// ---- Mutations ---------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => pathsOf(v, [...prefix, i]))];
  if (typeof value === 'object' && value !== null)
    return [prefix, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
  return [prefix];
}

interface Mutation {
  at: number;
  kind: 'replace' | 'delete' | 'unknown-field' | 'none';
  value: Json;
  key: string;
}

/** A copy of body with one node replaced, deleted, or given an extra field. */
function mutate(body: unknown, m: Mutation): unknown {
  if (m.kind === 'none') return body;
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  const paths = pathsOf(copy);
  const path = paths[m.at % paths.length]!;
  if (path.length === 0)
    return m.kind === 'replace'
      ? m.value
      : m.kind === 'unknown-field' && typeof copy === 'object' && copy !== null
        ? { ...copy, [m.key]: m.value }
        : copy;
  const parent = path.slice(0, -1).reduce<Json>((node, k) => (node as Record<string, Json>)[k]!, copy) as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (m.kind === 'replace') parent[last] = m.value;
  else if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const node = parent[last];
    if (typeof node === 'object' && node !== null && !Array.isArray(node)) (node as Record<string, Json>)[m.key] = m.value;
    else parent[last] = m.value;
  }
  return copy;
}

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'delete', 'unknown-field', 'none'),
  value: fc.jsonValue() as fc.Arbitrary<Json>,
  key: fc.constantFrom('extra', 'colour', '__proto__', 'constructor', ''),
});

/** Bodies for one endpoint: mostly mutated valid ones, some random JSON. */
const bodies = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.tuple(valid, mutation).map(([body, m]) => mutate(body, m)) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
const param = (valid: string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });

// ---- Properties --------------------------------------------------------------------------

async function send(method: 'PUT' | 'POST' | 'GET', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { ...integrationAuth, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
}

async function expectSafe(method: 'PUT' | 'POST' | 'GET', url: string, body?: unknown) {
  const before = await feedTablesFingerprint(t.database.db);
  const res = await send(method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.json()).toMatchObject({ statusCode: res.statusCode, message: expect.stringMatching(/\S/) });
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  } else if (method === 'PUT') {
    // Idempotent: the same call again is 200 "unchanged" and writes nothing.
    const written = await feedTablesFingerprint(t.database.db);
    const again = await send(method, url, body);
    expect([again.statusCode, again.json()]).toEqual([200, { outcome: 'unchanged' }]);
    expect(await feedTablesFingerprint(t.database.db)).toBe(written);
  }
  return res.statusCode;
}

describe('fuzzed integration calls', () => {
  it('PUT orders: never a 5xx, nothing written on a 4xx, idempotent on success', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(param(orderIds), bodies(order), async (orderId, body) => {
        statuses.add(await expectSafe('PUT', `/api/integrations/orders/${encodeURIComponent(orderId)}`, body));
      }),
      { numRuns: RUNS },
    );
    // The generators reach every outcome, not only refusals.
    expect([...statuses]).toEqual(expect.arrayContaining([400, 201]));
  });

  it('GET orders: never a 5xx and never a write', async () => {
    await fc.assert(
      fc.asyncProperty(param(orderIds), async (orderId) => {
        const before = await feedTablesFingerprint(t.database.db);
        expect((await send('GET', `/api/integrations/orders/${encodeURIComponent(orderId)}`)).statusCode).toBeLessThan(500);
        expect(await feedTablesFingerprint(t.database.db)).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST usage: never a 5xx, nothing written on a 4xx', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodies(usage), async (body) => {
        statuses.add(await expectSafe('POST', '/api/integrations/usage', body));
      }),
      { numRuns: RUNS },
    );
    expect([...statuses]).toEqual(expect.arrayContaining([400, 200]));
  });

  it('PUT checks: never a 5xx, nothing written on a 4xx, idempotent on success', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(param(['FB07-1', 'FB02-2']), bodies(check), async (checkId, body) => {
        statuses.add(await expectSafe('PUT', `/api/integrations/checks/${encodeURIComponent(checkId)}`, body));
      }),
      { numRuns: RUNS },
    );
    expect([...statuses]).toEqual(expect.arrayContaining([400, 201]));
  });

  it('PUT reservations: never a 5xx, nothing written on a 4xx, idempotent on success', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(param(['H7734001', 'H7734002']), bodies(reservation), async (number, body) => {
        statuses.add(await expectSafe('PUT', `/api/integrations/reservations/${encodeURIComponent(number)}`, body));
      }),
      { numRuns: RUNS },
    );
    expect([...statuses]).toEqual(expect.arrayContaining([400, 201]));
  });
});
