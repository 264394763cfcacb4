import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { feedTablesFingerprint, snapshotFeedTables } from '../../../test-support/integration-tables.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (number: string, body: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/integrations/reservations/${number}`, headers: integrationAuth, payload: body as object });
const reservation = {
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana@example.com',
  arrival: '2026-12-01',
  departure: '2026-12-03',
  total: 412,
  cancelled: false,
};
const rows = async () => (await snapshotFeedTables(t.database.db)).reservations;

describe('PUT /api/integrations/reservations/{reservationNumber}', () => {
  it('creates with 201, answers 200 unchanged for the same body and 200 replaced for a change', async () => {
    expect((await put('H7734001', reservation)).statusCode).toBe(201);
    const held = await rows();
    expect(held).toEqual([
      expect.objectContaining({
        reservationNumber: 'H7734001',
        firstName: 'Ana',
        arrival: '2026-12-01',
        departure: '2026-12-03',
        total: 412,
        cancelled: false,
      }),
    ]);

    const same = await put('H7734001', reservation);
    expect([same.statusCode, same.json()]).toEqual([200, { outcome: 'unchanged' }]);
    expect(await rows()).toEqual(held);

    // The whole resource is replaced: fields left out become empty.
    const { email: _email, ...withoutEmail } = reservation;
    const cancelled = await put('H7734001', { ...withoutEmail, cancelled: true });
    expect([cancelled.statusCode, cancelled.json()]).toEqual([200, { outcome: 'replaced' }]);
    expect((await rows())[0]).toMatchObject({ cancelled: true, email: null, createdAt: held[0]!.createdAt });
  });

  it('takes a reservation without guest names', async () => {
    expect((await put('H7734002', { arrival: '2026-12-01', departure: '2026-12-01', total: 0 })).statusCode).toBe(201);
    expect((await rows()).find((r) => r.reservationNumber === 'H7734002')).toMatchObject({
      firstName: null,
      lastName: null,
      email: null,
      cancelled: false,
    });
  });

  it.each<[string, string, unknown, string[]]>([
    ['a departure before the arrival', 'H1', { ...reservation, departure: '2026-11-30' }, ['departure']],
    ['an impossible date', 'H1', { ...reservation, arrival: '2026-02-30' }, ['arrival']],
    ['year 0', 'H1', { ...reservation, arrival: '0000-01-01' }, ['arrival']],
    ['a timestamp as the arrival', 'H1', { ...reservation, arrival: '2026-12-01T15:00:00Z' }, ['arrival']],
    ['a bad email', 'H1', { ...reservation, email: 'ana' }, ['email']],
    ['a bad number', 'H 1', reservation, ['reservationNumber']],
    ['an unknown field', 'H1', { ...reservation, room: '12' }, ['room']],
  ])('answers 400 naming each bad field for %s, and writes nothing', async (_name, number, body, paths) => {
    const before = await feedTablesFingerprint(t.database.db);
    const res = await put(encodeURIComponent(number), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual(paths);
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });
});
