import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, TEST_INTEGRATION_KEY, type TestApp } from '../../test-support/test-app.ts';
import { feedTablesFingerprint } from '../../test-support/integration-tables.fixtures.ts';
import { matchIntegrationKey } from './integration-auth.plugin.ts';

const calls = [
  { method: 'PUT', url: '/api/integrations/orders/63000001', payload: anOrder([{ barcode: '6300000000000015' }]) },
  { method: 'GET', url: '/api/integrations/orders/63000001' },
  {
    method: 'POST',
    url: '/api/integrations/usage',
    payload: {
      events: [{ barcode: '6300000000000015', attraction: 'Sea Dragon', location: 'West Pier', timestamp: '2026-11-21T11:02:09-08:00' }],
    },
  },
  {
    method: 'PUT',
    url: '/api/integrations/checks/C-1',
    payload: { checkNumber: '4012', orderDate: '2026-11-21T12:30:00-08:00', terminalId: 'FB-07', total: 23.5 },
  },
  { method: 'PUT', url: '/api/integrations/reservations/H1', payload: { arrival: '2026-12-01', departure: '2026-12-03', total: 412 } },
] as const;

const POS_KEY = 'pos-system-secret-abcdefghijklmnop';
const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { INTEGRATION_API_KEYS: `ticketing:${TEST_INTEGRATION_KEY},pos:${POS_KEY}`, LOG_LEVEL: 'info' },
    logStream: { write: (line) => void lines.push(line) },
  });
});
afterAll(() => t.close());

describe('integration API keys', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer not-the-key-0123456789abcdef' }],
    ['a key of another scheme', { authorization: `Basic ${TEST_INTEGRATION_KEY}` }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['a prefix of the key', { authorization: `Bearer ${TEST_INTEGRATION_KEY.slice(0, -1)}` }],
  ])('answers 401 to %s on every route, and writes nothing', async (_name, headers) => {
    const before = await feedTablesFingerprint(t.database.db);
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHORIZED', message: expect.any(String) });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });

  it('checks the key before the body: a bad body without a key is a 401', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/integrations/orders/1', payload: { nonsense: true } });
    expect(res.statusCode).toBe(401);
  });

  it('accepts each configured key and logs the key name, never the key', async () => {
    lines.length = 0;
    const ticketing = await t.app.inject({ ...calls[0], headers: integrationAuth });
    expect(ticketing.statusCode).toBe(201);
    expect(ticketing.headers['www-authenticate']).toBeUndefined();
    const pos = await t.app.inject({ ...calls[3], headers: { authorization: `bearer ${POS_KEY}` } });
    expect(pos.statusCode).toBe(201);
    const entries = lines.map((l) => JSON.parse(l) as { integration?: string });
    expect(entries.filter((e) => e.integration).map((e) => e.integration)).toEqual(['ticketing', 'pos']);
    const log = lines.join('');
    expect(log).not.toContain(TEST_INTEGRATION_KEY);
    expect(log).not.toContain(POS_KEY);
  });

  it('refuses every call when no keys are configured', async () => {
    const bare = await createTestApp({ env: { INTEGRATION_API_KEYS: '' } });
    try {
      for (const call of calls) {
        expect((await bare.app.inject({ ...call, headers: integrationAuth })).statusCode).toBe(401);
        expect((await bare.app.inject({ ...call, headers: { authorization: 'Bearer ' } })).statusCode).toBe(401);
      }
      const counts = JSON.parse(await feedTablesFingerprint(bare.database.db)) as Record<string, unknown[]>;
      expect(Object.values(counts).every((rows) => rows.length === 0)).toBe(true);
    } finally {
      await bare.close();
    }
  });

  it('compares keys by digest, whatever their lengths', () => {
    const digest = (s: string) => createHash('sha256').update(s).digest();
    const keys = new Map([
      ['a', digest('first-secret-0123456789')],
      ['b', digest('second-secret-0123456789')],
    ]);
    expect(matchIntegrationKey(keys, 'second-secret-0123456789')).toBe('b');
    expect(matchIntegrationKey(keys, 'x')).toBeNull();
    expect(matchIntegrationKey(keys, 'first-secret-0123456789'.repeat(100))).toBeNull();
    expect(matchIntegrationKey(new Map(), 'anything')).toBeNull();
  });
});
