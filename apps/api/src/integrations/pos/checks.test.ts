import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { feedTablesFingerprint, snapshotFeedTables } from '../../../test-support/integration-tables.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (checkId: string, body: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/integrations/checks/${checkId}`, headers: integrationAuth, payload: body as object });
const check = { checkNumber: '4012', orderDate: '2026-11-21T12:30:00-08:00', terminalId: 'FB-07', total: 23.5, refunded: false };
const rows = async () => (await snapshotFeedTables(t.database.db)).checks;

describe('PUT /api/integrations/checks/{checkId}', () => {
  it('creates with 201, answers 200 unchanged for the same body and 200 replaced for a change', async () => {
    const created = await put('FB07-1', check);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ outcome: 'created' });
    const held = await rows();
    expect(held).toEqual([
      expect.objectContaining({
        checkId: 'FB07-1',
        checkNumber: '4012',
        terminalId: 'FB-07',
        total: 23.5,
        refunded: false,
        orderDate: new Date('2026-11-21T20:30:00Z'),
      }),
    ]);

    const same = await put('FB07-1', check);
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ outcome: 'unchanged' });
    expect(await rows()).toEqual(held);

    const refunded = await put('FB07-1', { ...check, refunded: true });
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json()).toEqual({ outcome: 'replaced' });
    const after = await rows();
    expect(after[0]).toMatchObject({ refunded: true, createdAt: held[0]!.createdAt });
    expect(after[0]!.updatedAt.getTime()).toBeGreaterThanOrEqual(held[0]!.updatedAt.getTime());
  });

  it('keeps several checks that share a check number', async () => {
    expect((await put('FB02-2', { ...check, terminalId: 'FB-02', orderDate: '2026-11-22T18:05:00-08:00', total: 41.75 })).statusCode).toBe(
      201,
    );
    const sharing = (await rows()).filter((c) => c.checkNumber === '4012');
    expect(sharing.map((c) => c.checkId).sort()).toEqual(['FB02-2', 'FB07-1']);
  });

  it('defaults refunded to false', async () => {
    const { refunded: _refunded, ...withoutRefunded } = check;
    expect((await put('FB07-3', withoutRefunded)).statusCode).toBe(201);
    expect((await rows()).find((c) => c.checkId === 'FB07-3')?.refunded).toBe(false);
  });

  it.each<[string, string, unknown, string[]]>([
    ['a bad check id', 'bad id!', check, ['checkId']],
    ['a bad check number', 'C-9', { ...check, checkNumber: '40 12' }, ['checkNumber']],
    ['a negative total', 'C-9', { ...check, total: -5 }, ['total']],
    ['a total as text', 'C-9', { ...check, total: '23.50' }, ['total']],
    ['a missing terminal', 'C-9', { ...check, terminalId: undefined }, ['terminalId']],
    ['an unknown field', 'C-9', { ...check, tip: 3 }, ['tip']],
  ])('answers 400 naming each bad field for %s, and writes nothing', async (_name, checkId, body, paths) => {
    const before = await feedTablesFingerprint(t.database.db);
    const res = await put(encodeURIComponent(checkId), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual(paths);
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });
});
