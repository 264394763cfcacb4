// A park-wide change (Park Locations, Park Hours) as a wave: Google gets one request per
// class and none per object, every Apple device one push, a device's fetch answers 304 where
// the pass shows the same, and a guest's own change reaches APNs and Google while a wave of
// 10,000 devices drains.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import type { Push } from '../../../test-support/apns-double.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import type { GoogleDouble } from '../../../test-support/google-double.ts';
import { readPassStrings, unpackPass } from '../../../test-support/pkpass-check.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { startWalletDoubles, WALLET_PASS_TYPE as PASS_TYPE } from '../../../test-support/wallet-doubles.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

const DAY_TICKET = { order: '43000001', barcode: '4300000000000016' };
const ADMISSION = { order: '43000002', barcode: '4300000000000023' };
/** The ticket whose pass the wave's 10,000 other devices hold. */
const CROWD = { order: '43000003', barcode: '4300000000000030' };
const DEVICE = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
const TOKEN = 'a1'.repeat(32);
const WAVE_DEVICES = 10_000;

let t: TestApp;
let dir: string;
let doubles: Awaited<ReturnType<typeof startWalletDoubles>>;
let pushes: Push[];
let google: GoogleDouble;
let admin: StaffLogin;
/** Milliseconds APNs takes to answer each push (a wave then takes seconds to drain). */
let apnsDelayMs = 0;
let pass: { serialNumber: string; authenticationToken: string };

const staffCall = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: admin.headers, payload });
const auth = () => ({ authorization: `ApplePass ${pass.authenticationToken}` });
const fetchPass = (ifModifiedSince?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/passkit/v1/passes/${PASS_TYPE}/${pass.serialNumber}`,
    headers: { ...auth(), ...(ifModifiedSince && { 'if-modified-since': ifModifiedSince }) },
  });
const listUpdated = (since: string) =>
  t.app.inject({ method: 'GET', url: `/api/passkit/v1/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=${since}` });

async function googleObjectOf(order: { order: string; barcode: string }): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: { orderId: order.order, barcode: order.barcode } });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await t.database.db
    .select({ serialNumber: schema.walletPasses.serialNumber })
    .from(schema.walletPasses)
    .where(sql`${schema.walletPasses.barcode} = ${order.barcode}`);
  return `${doubles.env.GOOGLE_WALLET_ISSUER_ID}.${row!.serialNumber}`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-park-waves-'));
  doubles = await startWalletDoubles(dir, () =>
    apnsDelayMs ? new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), apnsDelayMs)) : { status: 200 },
  );
  ({ pushes, google } = doubles);
  t = await createTestApp({
    // A guest's own change is timed while a wave drains: its job wakes the workers as it commits.
    env: { DATA_DIR: dir, PUBLIC_URL: 'https://wallet.example.com', APNS_CONNECTIONS: '1', ...doubles.env },
  });
  admin = await loginAs(t.app, { accessLevel: 1000 });
  await putOrder(
    t.app,
    DAY_TICKET.order,
    anOrder([{ barcode: DAY_TICKET.barcode, cash: 10, holder: { firstName: 'Ana', lastName: 'Lopez' } }]),
  );
  await putOrder(t.app, ADMISSION.order, anOrder([{ barcode: ADMISSION.barcode, visitDate: '2030-07-04' }]));
  const added = await t.app.inject({
    method: 'POST',
    url: '/api/apple-wallet/',
    payload: { orderId: DAY_TICKET.order, barcode: DAY_TICKET.barcode },
  });
  const unpacked = await unpackPass(added.rawPayload);
  await unpacked.cleanup();
  pass = unpacked.pass as typeof pass;
  const registered = await t.app.inject({
    method: 'POST',
    url: `/api/passkit/v1/devices/${DEVICE}/registrations/${PASS_TYPE}/${pass.serialNumber}`,
    headers: auth(),
    payload: { pushToken: TOKEN },
  });
  expect(registered.statusCode).toBe(201);
  for (const order of [DAY_TICKET, ADMISSION]) google.saved.add(await googleObjectOf(order));
  // A first update of each object, after which Google is known to show what it shows.
  await putOrder(t.app, ADMISSION.order, anOrder([{ barcode: ADMISSION.barcode, visitDate: '2030-07-04', cash: 1 }]));
  await putOrder(
    t.app,
    DAY_TICKET.order,
    anOrder([{ barcode: DAY_TICKET.barcode, cash: 11, holder: { firstName: 'Ana', lastName: 'Lopez' } }]),
  );
  await settleDeliveries(t.app);
});
afterAll(async () => {
  await t?.close();
  await doubles?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a park-wide change', () => {
  it('sends Google one request per ticket class and none per object, pushes every device once, and the pass shows the new location', async () => {
    const before = await fetchPass();
    const lastModified = before.headers['last-modified'] as string;
    const tag = (await listUpdated('0')).json<{ lastUpdated: string }>().lastUpdated;
    pushes.length = 0;
    google.classCalls = [];
    google.objectCalls = [];

    const created = await staffCall('POST', '/api/admin/park-locations/', {
      parkLocationName: 'Main Gate',
      parkLocationLatitude: 34.0094,
      parkLocationLongitude: -118.4973,
    });
    expect(created.statusCode).toBe(201);
    await settleDeliveries(t.app);

    expect(google.classCalls.map((c) => c.method)).toEqual(['PUT', 'PUT', 'PUT']);
    expect(google.objectCalls).toEqual([]);
    expect(pushes.map((p) => p.path)).toEqual([`/3/device/${TOKEN}`]);
    const [wave] = await t.database.db.select().from(schema.walletWaves);
    expect(wave).toMatchObject({ reason: 'park-locations create', devices: 1, pushed: 1, failed: 0 });
    expect(wave!.finishedAt).not.toBeNull();

    // The device asks what changed since its tag: its pass, which it fetches: changed, so 200.
    const listed = await listUpdated(tag);
    expect(listed.json()).toMatchObject({ serialNumbers: [pass.serialNumber] });
    const after = await fetchPass(lastModified);
    expect(after.statusCode).toBe(200);
    const fetched = await unpackPass(after.rawPayload);
    await fetched.cleanup();
    expect(fetched.pass).toMatchObject({ locations: [{ latitude: 34.0094, longitude: -118.4973 }] });
    // Fetched again as of that version: 304.
    expect((await fetchPass(after.headers['last-modified'] as string)).statusCode).toBe(304);
  });

  it('answers 304 to a fetch of a pass the wave did not change (hours of another day)', async () => {
    const current = await fetchPass();
    const lastModified = current.headers['last-modified'] as string;
    // Hours of a day the day ticket has nothing to do with: the wave pushes the device all the same.
    pushes.length = 0;
    const hours = await staffCall('POST', '/api/admin/park-hours/', {
      parkHoursOpens: '2031-01-10T10:00:00-08:00',
      parkHoursCloses: '2031-01-10T18:00:00-08:00',
    });
    expect(hours.statusCode).toBe(201);
    await settleDeliveries(t.app);
    expect(pushes).toHaveLength(1);
    const fetched = await fetchPass(lastModified);
    expect(fetched.statusCode).toBe(304);
    expect(fetched.headers['last-modified']).toBe(lastModified);
  });

  it('answers 200 to a fetch after a wave that began within the second its tag was set ahead to (changes in a row)', async () => {
    // A pass changed again within the same second gets the next whole second as its tag
    // (nextUpdatedAt): the wave that follows at once is dated a microsecond after that tag.
    await t.database.db
      .update(schema.walletPasses)
      .set({ updatedAt: sql`date_trunc('second', now()) + interval '3 seconds'` })
      .where(sql`${schema.walletPasses.serialNumber} = ${pass.serialNumber}`);
    const current = await fetchPass();
    const lastModified = current.headers['last-modified'] as string;
    const created = await staffCall('POST', '/api/admin/park-locations/', {
      parkLocationName: 'West Gate',
      parkLocationLatitude: 34.0101,
      parkLocationLongitude: -118.4961,
    });
    expect(created.statusCode).toBe(201);
    await settleDeliveries(t.app);
    const [row] = await t.database.db
      .select({
        waveJustAfterTag: sql<boolean>`(select max(created_at) from wallet_waves) = ${schema.walletPasses.updatedAt} + interval '1 microsecond'`,
      })
      .from(schema.walletPasses)
      .where(sql`${schema.walletPasses.serialNumber} = ${pass.serialNumber}`);
    expect(row!.waveJustAfterTag).toBe(true);

    const fetched = await fetchPass(lastModified);
    expect(fetched.statusCode).toBe(200);
    const unpacked = await unpackPass(fetched.rawPayload);
    await unpacked.cleanup();
    expect((unpacked.pass as { locations: { latitude: number }[] }).locations.map((l) => l.latitude)).toContain(34.0101);
  });

  it('puts a park notice on every Google class as a message (no object sent) and on the back of the Apple pass, in Spanish too', async () => {
    pushes.length = 0;
    google.classCalls = [];
    google.objectCalls = [];
    const notice = await staffCall('POST', '/api/admin/park-notices/', {
      parkNoticeText: 'The park closes at 6 pm today.',
      parkNoticeTextEs: 'El parque cierra hoy a las 6 p. m.',
    });
    expect(notice.statusCode, notice.body).toBe(201);
    await settleDeliveries(t.app);

    expect(google.objectCalls).toEqual([]);
    expect(google.classCalls).toHaveLength(3);
    for (const call of google.classCalls)
      expect((call.body as { messages?: unknown }).messages).toEqual([
        {
          id: 'notice0',
          header: 'Park Notice',
          body: 'The park closes at 6 pm today.',
          localizedHeader: {
            defaultValue: { language: 'en-US', value: 'Park Notice' },
            translatedValues: [{ language: 'es', value: 'Aviso del parque' }],
          },
          localizedBody: {
            defaultValue: { language: 'en-US', value: 'The park closes at 6 pm today.' },
            translatedValues: [{ language: 'es', value: 'El parque cierra hoy a las 6 p. m.' }],
          },
          messageType: 'TEXT',
        },
      ]);
    expect(pushes.map((p) => p.path)).toEqual([`/3/device/${TOKEN}`]);
    const fetched = await unpackPass((await fetchPass()).rawPayload);
    await fetched.cleanup();
    const back = (fetched.pass as { generic: { backFields: { key: string; label: string; value: string; changeMessage?: string }[] } })
      .generic.backFields;
    expect(back.find((f) => f.key === 'notice0')).toEqual({
      key: 'notice0',
      label: 'Park Notice',
      value: 'The park closes at 6 pm today.',
      changeMessage: '%@',
    });
    const es = readPassStrings(fetched.files.get('es.lproj/pass.strings')!);
    expect(es.get('The park closes at 6 pm today.')).toBe('El parque cierra hoy a las 6 p. m.');
    expect(es.get('Park Notice')).toBe('Aviso del parque');
  });

  it("lets a guest's own change reach APNs and Google while a wave of 10,000 devices drains", async () => {
    await putOrder(t.app, CROWD.order, anOrder([{ barcode: CROWD.barcode }]));
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/apple-wallet/',
      payload: { orderId: CROWD.order, barcode: CROWD.barcode },
    });
    expect(added.statusCode).toBe(200);
    await t.database.db.execute(sql`
      insert into apple_device_registrations (device_library_identifier, serial_number, push_token)
      select 'wave-' || lpad(i::text, 6, '0'), (select serial_number from wallet_passes where barcode = ${CROWD.barcode}), lpad(to_hex(i), 64, '0')
      from generate_series(1, ${WAVE_DEVICES}) as i`);
    // APNs answers each push in 150 ms: the wave's 400 streams push 10,000 devices in about 4 s.
    apnsDelayMs = 150;
    pushes.length = 0;
    google.objectCalls = [];
    const changedAt = performance.now();
    await staffCall('POST', '/api/admin/park-locations/', {
      parkLocationName: 'Pier Entrance',
      parkLocationLatitude: 34.0087,
      parkLocationLongitude: -118.4988,
    });
    // Once the wave is under way, the guest's balance changes (the ticketing feed).
    while (pushes.length < 500) await new Promise((resolve) => setTimeout(resolve, 20));
    const ownAt = performance.now();
    await putOrder(
      t.app,
      DAY_TICKET.order,
      anOrder([{ barcode: DAY_TICKET.barcode, cash: 25, holder: { firstName: 'Ana', lastName: 'Lopez' } }]),
    );
    await settleDeliveries(t.app, 60_000);

    const wavePushes = pushes.filter((p) => p.path !== `/3/device/${TOKEN}`);
    expect(wavePushes).toHaveLength(WAVE_DEVICES);
    // The guest's device: pushed by the wave and by its own change, which came before the wave's end.
    const own = pushes.filter((p) => p.path === `/3/device/${TOKEN}` && p.at > ownAt);
    expect(own.length).toBeGreaterThanOrEqual(1);
    const waveEnd = Math.max(...wavePushes.map((p) => p.at));
    expect(own[0]!.at).toBeLessThan(waveEnd);
    expect(own[0]!.at - ownAt).toBeLessThan(3000);
    expect(waveEnd - changedAt).toBeGreaterThan(3000);
    // And Google got the new balance (the object is the guest's own change, not the wave's).
    expect(google.objectCalls.map((c) => c.body.textModulesData?.find((m) => m.id === 'balance')?.body)).toEqual(['$25.00']);
  }, 90_000);
});
