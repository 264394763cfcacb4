import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { feedTablesFingerprint, snapshotFeedTables } from '../../../test-support/integration-tables.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (body: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/integrations/usage', headers: integrationAuth, payload: body as object });
const event = (i: number, overrides: Record<string, unknown> = {}) => ({
  barcode: '3400000000000017',
  attraction: 'Sea Dragon',
  location: 'West Pier',
  timestamp: new Date(Date.UTC(2026, 10, 21, 19, 0, i)).toISOString(),
  ...overrides,
});

describe('POST /api/integrations/usage', () => {
  it('accepts new events and counts those already held as duplicates', async () => {
    const first = await post({ events: [event(1), event(2), event(3, { attraction: 'Carousel' })] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ accepted: 3, duplicates: 0 });
    const before = await feedTablesFingerprint(t.database.db);
    const again = await post({ events: [event(1), event(2), event(3, { attraction: 'Carousel' })] });
    expect(again.json()).toEqual({ accepted: 0, duplicates: 3 });
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
    // Same barcode, attraction and instant (written with another offset, another location): a duplicate.
    const mixed = await post({ events: [event(4), event(1, { timestamp: '2026-11-21T11:00:01-08:00', location: 'Elsewhere' }), event(4)] });
    expect(mixed.json()).toEqual({ accepted: 1, duplicates: 2 });
    const rows = (await snapshotFeedTables(t.database.db)).attractionUsage;
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.timestamp.getTime() === Date.parse(event(4).timestamp))).toMatchObject({
      barcode: '3400000000000017',
      attraction: 'Sea Dragon',
      location: 'West Pier',
    });
  });

  it('takes up to 1000 events in a call and refuses 1001 with 400, writing nothing', async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => event(i, { barcode: '3400000000000024' }));
    expect((await post({ events: thousand })).json()).toEqual({ accepted: 1000, duplicates: 0 });
    const before = await feedTablesFingerprint(t.database.db);
    const tooMany = await post({ events: Array.from({ length: 1001 }, (_, i) => event(i, { barcode: '3400000000000031' })) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fields).toEqual([{ path: 'events', message: 'At most 1000 events per call' }]);
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });

  it.each<[string, unknown, string[]]>([
    ['no events', { events: [] }, ['events']],
    ['a missing events list', {}, ['events']],
    [
      'a bad event among good ones',
      { events: [event(1), event(2, { timestamp: 'yesterday' }), event(3, { barcode: '12' })] },
      ['events.1.timestamp', 'events.2.barcode'],
    ],
    ['an unknown field in an event', { events: [event(1, { gate: 7 })] }, ['events.0.gate']],
    ['an unknown top-level field', { events: [event(1)], batch: 1 }, ['batch']],
    ['an empty attraction', { events: [event(1, { attraction: '  ' })] }, ['events.0.attraction']],
  ])('answers 400 naming each bad field for %s, and writes nothing', async (_name, body, paths) => {
    const before = await feedTablesFingerprint(t.database.db);
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(paths.sort());
    expect(await feedTablesFingerprint(t.database.db)).toBe(before);
  });
});
