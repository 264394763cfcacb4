// Fuzzed bodies, path segments and tokens against the four share calls: never a 5xx, and
// nothing written (no share, no mail) on a 4xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let token = '';
let shareId = '';
let hashUrl = '';
const TICKET = { orderId: '60000001', barcode: '6000000000000011' };
const valid = { ...TICKET, hashUrl: '', firstName: 'Rosa', lastName: 'Diaz', email: 'rosa@example.com', phone: '3105550142' };

beforeAll(async () => {
  // A high limit: the fuzzer's valid bodies may each start a share.
  t = await createTestApp({ env: { TICKET_SHARE_LIMIT: '100', TICKET_SHARE_MAILS_PER_DAY: '1000' } });
  await putOrder(t.app, TICKET.orderId, anOrder([{ barcode: TICKET.barcode, category: 'Stored Value Card', credits: 10 }]));
  token = (await t.app.inject({ method: 'POST', url: '/api/login/', payload: TICKET })).json().ticketShareToken;
  const made = await t.app.inject({ method: 'POST', url: '/api/share/', payload: valid, headers: { authorization: `Bearer ${token}` } });
  shareId = made.json().id;
  hashUrl = made.json().directLink.split('/').at(-1);
});
afterAll(() => t.close());

async function snapshot() {
  const db = t.database.db;
  const [shares, [outbox]] = await Promise.all([db.select().from(schema.ticketShares), db.select({ n: count() }).from(schema.outbox)]);
  return JSON.stringify({ shares, outbox });
}

const anyValue = fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.constant(undefined));
/** Valid bodies with one field replaced by anything, random objects, and random JSON values. */
const bodies = fc.oneof(
  fc
    .record({
      key: fc.constantFrom(...Object.keys(valid), 'salesforceId', 'shareId', '__proto__', 'extra'),
      value: anyValue,
    })
    .map(({ key, value }) => ({ ...valid, [key]: value })),
  fc.dictionary(
    fc.constantFrom(...Object.keys(valid), 'salesforceId'),
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
  ),
  fc.jsonValue(),
);
/** Path segments: the right ones, near misses and anything. */
const segment = (right: () => string) =>
  fc.oneof(
    fc.constant(null).map(() => right()),
    fc.string({ unit: 'binary', maxLength: 120 }).map(encodeURIComponent),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.stringMatching(/^[A-Za-z0-9_-]{70,130}$/),
    fc.constantFrom('0', '', '%00', '..', '%2F', 'null'),
  );
const tokens = fc.oneof(
  fc.constant(null).map(() => `Bearer ${token}`),
  fc.constant(undefined),
  fc.string({ maxLength: 300 }).filter((s) => !/[\r\n\0]/.test(s)),
  fc.constant(null).map(() => `Bearer ${token.slice(0, -2)}xx`),
);

/** Sends a request; checks no 5xx and, on a 4xx, that nothing was written. */
async function check(request: {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
  authorization?: string | undefined;
}) {
  const before = await snapshot();
  const headers: Record<string, string> = {};
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  if (request.payload !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.inject({
    method: request.method,
    url: request.url,
    headers,
    ...(request.payload !== undefined && { payload: JSON.stringify(request.payload) ?? 'null' }),
  });
  expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.json().message).toEqual(expect.any(String));
    expect(await snapshot()).toBe(before);
  }
  return res;
}

describe('fuzzing the share calls', () => {
  it('POST /api/share/ never answers 5xx and writes nothing on 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, tokens, async (payload, authorization) => {
        await check({ method: 'POST', url: '/api/share/', payload, authorization });
      }),
      { numRuns: 150 },
    );
  });

  it('PUT /api/share/{ticket}/{shareId} never answers 5xx and writes nothing on 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        segment(() => TICKET.barcode),
        segment(() => shareId),
        bodies,
        tokens,
        async (ticket, id, payload, authorization) => {
          await check({ method: 'PUT', url: `/api/share/${ticket}/${id}`, payload, authorization });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('GET /api/share/{ticket} never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          segment(() => TICKET.barcode),
          fc.constant(null).map(() => hashUrl),
        ),
        tokens,
        async (ticket, authorization) => {
          await check({ method: 'GET', url: `/api/share/${ticket}`, authorization });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('DELETE /api/share/{orderId}/{ticket}/{shareId}/{salesforceId} never answers 5xx and writes nothing on 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        segment(() => TICKET.orderId),
        segment(() => TICKET.barcode),
        // Never the live share's id: a valid delete would stop the share the other properties use.
        segment(() => '00000000-0000-4000-8000-000000000000'),
        segment(() => ''),
        tokens,
        async (orderId, ticket, id, salesforceId, authorization) => {
          await check({ method: 'DELETE', url: `/api/share/${orderId}/${ticket}/${id}/${salesforceId}`, authorization });
        },
      ),
      { numRuns: 150 },
    );
  });
});
