// The back office's Park Hours and Park Locations tabs: empty on a fresh install, their rules
// (an operating day closes after it opens and within 24 hours; at most 10 locations;
// coordinates in range), and a change republishes what passes show: the saved Apple passes
// (pushed, then fetched with the new locations) and Google's ticket classes (merchant
// locations), each class created once and then replaced.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import type { Push } from '../../test-support/apns-double.ts';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import type { GoogleDouble } from '../../test-support/google-double.ts';
import { unpackPass } from '../../test-support/pkpass-check.ts';
import { loginAs, type StaffLogin } from '../../test-support/staff.ts';
import { GOOGLE_ISSUER_ID as ISSUER_ID, startWalletDoubles, WALLET_PASS_TYPE as PASS_TYPE } from '../../test-support/wallet-doubles.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../test-support/test-app.ts';

const ORDER = '42000001';
const BARCODE = '4200000000000018';
const DEVICE = 'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5';

let t: TestApp;
let dir: string;
let doubles: Awaited<ReturnType<typeof startWalletDoubles>>;
let pushes: Push[];
let google: GoogleDouble;
let admin: StaffLogin;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: admin.headers, ...(payload && { payload }) });
const location = (name: string, latitude = 34.0094, longitude = -118.4973) => ({
  parkLocationName: name,
  parkLocationLatitude: latitude,
  parkLocationLongitude: longitude,
  parkLocationRelevantText: `Welcome to ${name}`,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-park-settings-'));
  doubles = await startWalletDoubles(dir);
  ({ pushes, google } = doubles);
  t = await createTestApp({
    env: {
      DATA_DIR: dir,
      PUBLIC_URL: 'https://wallet.example.com',
      ...doubles.env,
    },
  });
  admin = await loginAs(t.app, { accessLevel: 1000 });
  await putOrder(t.app, ORDER, anOrder([{ barcode: BARCODE, visitDate: '2030-07-04', holder: { firstName: 'Ana', lastName: 'Lopez' } }]));
});
afterAll(async () => {
  await t?.close();
  await doubles?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Park Hours and Park Locations', () => {
  it('are empty on a fresh install, with their permissions seeded', async () => {
    const [hours] = await t.database.db.select({ n: count() }).from(schema.parkHours);
    const [locations] = await t.database.db.select({ n: count() }).from(schema.parkLocations);
    expect([hours!.n, locations!.n]).toEqual([0, 0]);
    const names = (await t.database.db.select({ name: schema.permissions.name }).from(schema.permissions)).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['Park Hours List', 'Park Hours Create', 'Park Locations List', 'Park Locations Delete']));
  });

  it('refuse hours that close before they open or more than 24 hours later, and write nothing', async () => {
    const before = await call('POST', '/api/admin/park-hours/', {
      parkHoursOpens: '2030-07-04T22:00:00-07:00',
      parkHoursCloses: '2030-07-04T10:00:00-07:00',
    });
    expect(before.statusCode).toBe(400);
    expect(before.json()).toMatchObject({ message: 'Closes must be after Opens' });
    const tooLong = await call('POST', '/api/admin/park-hours/', {
      parkHoursOpens: '2030-07-04T10:00:00-07:00',
      parkHoursCloses: '2030-07-05T10:00:01-07:00',
    });
    expect(tooLong.statusCode).toBe(400);
    const [hours] = await t.database.db.select({ n: count() }).from(schema.parkHours);
    expect(hours!.n).toBe(0);
  });

  it('refuse coordinates out of range or with more than 6 decimals', async () => {
    expect((await call('POST', '/api/admin/park-locations/', location('North Pole', 91))).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/park-locations/', location('Date Line', 0, -180.5))).statusCode).toBe(400);
    const precise = await call('POST', '/api/admin/park-locations/', location('Too Precise', 34.00940001));
    expect(precise.statusCode).toBe(400);
    expect(precise.json<{ message: string }>().message).toContain('at most 6 decimals');
  });

  it('republish the passes when the hours or locations change: the device is pushed and fetches them', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/apple-wallet/',
      payload: { orderId: ORDER, barcode: BARCODE },
      remoteAddress: '10.42.0.1',
    });
    const unpacked = await unpackPass(res.rawPayload);
    await unpacked.cleanup();
    const pass = unpacked.pass as { serialNumber: string; authenticationToken: string; locations?: unknown; relevantDates?: unknown };
    expect(pass.locations).toBeUndefined();
    expect(pass.relevantDates).toBeUndefined();
    const auth = { authorization: `ApplePass ${pass.authenticationToken}` };
    const registered = await t.app.inject({
      method: 'POST',
      url: `/api/passkit/v1/devices/${DEVICE}/registrations/${PASS_TYPE}/${pass.serialNumber}`,
      headers: auth,
      payload: { pushToken: 'ef'.repeat(32) },
    });
    expect(registered.statusCode).toBe(201);
    await settleDeliveries(t.app);
    pushes.length = 0;

    expect((await call('POST', '/api/admin/park-locations/', location('Main Gate'))).statusCode).toBe(201);
    expect(
      (
        await call('POST', '/api/admin/park-hours/', {
          parkHoursOpens: '2030-07-04T10:00:00-07:00',
          parkHoursCloses: '2030-07-04T22:00:00-07:00',
        })
      ).statusCode,
    ).toBe(201);
    await settleDeliveries(t.app);
    expect(pushes.length).toBeGreaterThanOrEqual(1);
    const latest = await t.app.inject({ method: 'GET', url: `/api/passkit/v1/passes/${PASS_TYPE}/${pass.serialNumber}`, headers: auth });
    const fetched = await unpackPass(latest.rawPayload);
    await fetched.cleanup();
    expect(fetched.pass).toMatchObject({
      locations: [{ latitude: 34.0094, longitude: -118.4973, relevantText: 'Welcome to Main Gate' }],
      relevantDates: [{ startDate: '2030-07-04T17:00:00Z', endDate: '2030-07-05T05:00:00Z' }],
    });
  });

  it("create Google's classes once, then replace the ticket classes when the locations change", async () => {
    // The classes were sent at start and by the changes above: created (POST) once each, the member cards' too.
    const created = google.classCalls.filter((c) => c.method === 'POST').map((c) => c.body.id);
    expect(created.sort()).toEqual([
      `${ISSUER_ID}.brownie-points`,
      `${ISSUER_ID}.park-admission`,
      `${ISSUER_ID}.park-ticket`,
      `${ISSUER_ID}.stored-value`,
    ]);
    google.classCalls = [];

    // Hours are not on the classes: nothing is sent for them.
    await call('POST', '/api/admin/park-hours/', {
      parkHoursOpens: '2030-07-05T10:00:00-07:00',
      parkHoursCloses: '2030-07-05T22:00:00-07:00',
    });
    await settleDeliveries(t.app);
    expect(google.classCalls).toEqual([]);

    await call('POST', '/api/admin/park-locations/', location('Pier Entrance', 34.0087, -118.4988));
    await settleDeliveries(t.app);
    // The member cards' class carries no locations: it is not sent again.
    expect(google.classCalls.map((c) => c.method)).toEqual(['PUT', 'PUT', 'PUT']);
    for (const c of google.classCalls) expect(c.body.merchantLocations).toHaveLength(2);
  });

  it('refuse an 11th location', async () => {
    for (let i = 3; i <= 10; i++) expect((await call('POST', '/api/admin/park-locations/', location(`Spot ${i}`))).statusCode).toBe(201);
    const eleventh = await call('POST', '/api/admin/park-locations/', location('Spot 11'));
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json()).toMatchObject({ message: 'At most 10 park locations; delete one first.' });
    const [locations] = await t.database.db.select({ n: count() }).from(schema.parkLocations);
    expect(locations!.n).toBe(10);
  });
});
