// Every pass change reaches every wallet: changes are published as jobs in the transaction
// that makes them, coalesced per pass, compared with what the pass shows, and delivered to
// APNs and Google (local doubles here) with retries, dead-lettering and a staff Retry.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { startApnsDouble, type Push } from '../../../test-support/apns-double.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { GoogleDouble, writeServiceAccountKey } from '../../../test-support/google-double.ts';
import { loginAs } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { dayTicket, ticketInWallets as inWallets } from '../../../test-support/wallet-tickets.ts';
import { queueDelivery } from '../../platform/jobs/delivery.ts';
import { PASSES_CHANGED } from '../../guest/ticket/ticket.topics.ts';
import { APPLE_PUSH_QUEUE, RETIRED_APPLE_PUSH_QUEUE } from './apple-deliveries.service.ts';

const PASS_TYPE = 'pass.com.example.deliveries';
const ISSUER_ID = '3388000000022999999';
const CLIENT_EMAIL = 'wallet@boardwalk-deliveries.iam.gserviceaccount.com';
const GONE_TOKEN = 'ee'.repeat(32);
/** APNs answers this device 503 while failingPushes > 0 (counting down). */
const FLAKY_TOKEN = 'f1'.repeat(32);
let failingPushes = 0;
const FANOUT = 1000;

let t: TestApp;
let env: Record<string, string>;
let dir: string;
let google: GoogleDouble;
let apns: Awaited<ReturnType<typeof startApnsDouble>>;
let pushes: Push[];
let ipSeq = 0;
const nextIp = () => `10.7.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const pushTokenOf = (p: Push) => p.path.replace('/3/device/', '');
const deliveryRows = () => t.database.db.select().from(schema.deliveries);

/** A ticket with an Apple pass on these devices and a saved Google object. */
const ticketInWallets = (orderId: string, barcode: string, devices: { id: string; pushToken: string }[]) =>
  inWallets(t.app, { passType: PASS_TYPE, google, clientAddress: nextIp }, orderId, barcode, devices);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-deliveries-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  google = new GoogleDouble(publicKey, CLIENT_EMAIL);
  await google.start();
  const keyFile = join(dir, 'service-account.json');
  await writeServiceAccountKey(keyFile, privateKey, CLIENT_EMAIL, `${google.baseUrl}/token`);
  apns = await startApnsDouble(dir, (token) => {
    if (token === GONE_TOKEN) return { status: 410, reason: 'Unregistered' };
    if (token === FLAKY_TOKEN && failingPushes > 0) {
      failingPushes -= 1;
      return { status: 503, reason: 'ServiceUnavailable' };
    }
    return { status: 200 };
  });
  pushes = apns.pushes;
  env = {
    DATA_DIR: dir,
    PUBLIC_URL: 'https://wallet.example.com',
    APPLE_PASS_TYPE_ID: PASS_TYPE,
    APNS_URL: apns.url,
    APNS_CA_FILE: apns.caFile,
    GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
    GOOGLE_WALLET_KEY_FILE: keyFile,
    GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
    DELIVERY_RETRY_LIMIT: '2',
    DELIVERY_RETRY_DELAY_SECONDS: '1',
    // Google's request rate is google-rate.test.ts's: at the default 15 a second the fan-out's
    // 1,000 updates waited 67 s for their slots (and put off the ones more than 15 s away).
    GOOGLE_WALLET_REQUESTS_PER_SECOND: '1000',
    // Tests wait for retries and for jobs put off to later (a new job wakes the workers at once):
    // the queue looks for the jobs that came due every half second.
    DELIVERY_POLL_SECONDS: '0.5',
  };
  // Deliveries run as soon as they are queued (createTestApp's window of 0): the test of the
  // coalescing window has an app of its own (appWithCoalescingWindow).
  t = await createTestApp({ env });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await google?.close();
  apns?.server.close();
  await rm(dir, { recursive: true, force: true });
});
/**
 * The calling test runs on an app (and database) of its own with a coalescing window of
 * COALESCE_SECONDS: on the file's app every settle would wait the window out. 5 s, not the
 * default 2 s: the test's 20 changes must all fall within the window, and on a loaded 2-core
 * CI machine they once took 2.3 s.
 */
const COALESCE_SECONDS = 5;
async function appWithCoalescingWindow() {
  const main = t;
  t = await createTestApp({ env: { ...env, DELIVERY_COALESCE_SECONDS: String(COALESCE_SECONDS) } });
  onTestFinished(async () => {
    await t.close();
    t = main;
  });
}

beforeEach(() => {
  pushes.length = 0;
  google.objectCalls = [];
  google.failWith = null;
});

describe('coalescing', () => {
  it('20 feed changes to one ticket within a second: one push per device and one Google update with the last state', async () => {
    await appWithCoalescingWindow();
    const devices = [
      { id: 'coalesce0device0a', pushToken: 'a1'.repeat(32) },
      { id: 'coalesce0device0b', pushToken: 'b1'.repeat(32) },
    ];
    const { objectId } = await ticketInWallets('51000001', '5100000000000011', devices);
    pushes.length = 0;
    google.objectCalls = [];
    const started = Date.now();
    for (let i = 1; i <= 20; i++) await putOrder(t.app, '51000001', anOrder([dayTicket('5100000000000011', i)]));
    expect(Date.now() - started).toBeLessThan(COALESCE_SECONDS * 1000);
    // Answered before anything was delivered: delivery waits for the coalescing window.
    expect(pushes).toHaveLength(0);
    await settleDeliveries(t.app);
    expect(pushes.map(pushTokenOf).sort()).toEqual(devices.map((d) => d.pushToken).sort());
    expect(google.objectCalls).toHaveLength(1);
    expect(google.objectCalls[0]!.body.id).toBe(objectId);
    expect(google.objectCalls[0]!.body.textModulesData?.find((m) => m.id === 'balance')?.body).toBe('$20.00');
  });

  it('skips a Google update when the object would not change, as Apple does', async () => {
    await ticketInWallets('51000002', '5100000000000028', [{ id: 'samestate0device', pushToken: 'a2'.repeat(32) }]);
    google.objectCalls = [];
    await putOrder(t.app, '51000002', anOrder([dayTicket('5100000000000028', 9)]));
    await settleDeliveries(t.app);
    expect(google.objectCalls).toHaveLength(1);
    google.objectCalls = [];
    pushes.length = 0;
    // The price is not on the pass: the feed changed the ticket, the passes did not change.
    await putOrder(t.app, '51000002', anOrder([{ ...dayTicket('5100000000000028', 9), price: 12 }]));
    await settleDeliveries(t.app);
    expect(google.objectCalls).toEqual([]);
    expect(pushes).toEqual([]);
  });
});

describe('retries and permanent answers', () => {
  it('Google answers 503 for a while, then 200: the update arrives, once', async () => {
    const { objectId } = await ticketInWallets('52000001', '5200000000000011', []);
    google.failWith = 503;
    await putOrder(t.app, '52000001', anOrder([dayTicket('5200000000000011', 33)]));
    await expect.poll(() => google.objectCalls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    google.failWith = null;
    await expect
      .poll(async () => (await deliveryRows()).find((d) => d.barcode === '5200000000000011' && d.target === 'google')?.state, {
        timeout: 20_000,
      })
      .toBe('sent');
    const accepted = google.objectCalls.filter((c) => c.body.id === objectId).slice(-1);
    expect(accepted[0]!.body.textModulesData?.find((m) => m.id === 'balance')?.body).toBe('$33.00');
    // Nothing more comes: exactly one call after the failures.
    await settleDeliveries(t.app);
    const calls = google.objectCalls.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(google.objectCalls.length).toBe(calls);
  });

  it('the last retry dead-letters the delivery; the Deliveries tab lists it and Retry delivers it', async () => {
    await ticketInWallets('52000002', '5200000000000028', []);
    google.failWith = 503;
    await putOrder(t.app, '52000002', anOrder([dayTicket('5200000000000028', 44)]));
    const dead = async () => (await deliveryRows()).find((d) => d.barcode === '5200000000000028' && d.target === 'google');
    await expect.poll(async () => (await dead())?.state, { timeout: 30_000 }).toBe('dead');
    const row = (await dead())!;
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBe('Google Wallet API answered 503 to the object update');
    // pg-boss keeps the failed job and a copy in the dead-letter queue. It fails the job once
    // the handler has returned, just after the delivery row was marked dead: wait for it.
    const jobState = async () => (await t.database.executeSql(`select state from pgboss.job where id = $1`, [row.jobId])).rows[0]!.state;
    await expect.poll(jobState, { timeout: 10_000 }).toBe('failed');
    const { rows: letters } = await t.database.executeSql(
      `select count(*)::int as n from pgboss.job where name = 'dead-letters' and data->>'deliveryId' = $1`,
      [row.id],
    );
    expect(letters[0]!.n).toBe(1);

    const staff = await loginAs(t.app, { accessLevel: 1000 });
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/', headers: staff.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(
      expect.objectContaining({
        deliveryGUID: row.id,
        deliveryState: 'dead',
        deliveryAttempts: 3,
        deliveryTarget: 'google',
        deliveryBarcode: '5200000000000028',
      }),
    );
    const counts = await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/counts', headers: staff.headers });
    expect(counts.json().dead).toBeGreaterThanOrEqual(1);

    google.failWith = null;
    const retry = await t.app.inject({ method: 'POST', url: `/api/admin/deliveries/retry/${row.id}`, headers: staff.headers });
    expect(retry.statusCode).toBe(202);
    // A second Retry of a delivery already queued again is refused.
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/deliveries/retry/${row.id}`, headers: staff.headers })).statusCode).toBe(
      409,
    );
    await settleDeliveries(t.app);
    expect(await dead()).toMatchObject({ state: 'sent', attempts: 4, lastError: null });
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/', headers: staff.headers })).json() as {
      deliveryGUID: string;
    }[];
    expect(after.map((d) => d.deliveryGUID)).not.toContain(row.id);
    const audit = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.recordId, row.id));
    expect(audit).toMatchObject([{ action: 'retry', resource: 'deliveries', username: staff.username }]);
  });

  it('Retry of two dead deliveries of one queue, the second before the first is fetched: both are queued and delivered', async () => {
    // The Google queue keeps one waiting job per singleton key: each Retry has a key of its own.
    const barcodes = ['5200000000000035', '5200000000000042'];
    for (const [i, barcode] of barcodes.entries()) await ticketInWallets(`5200000${3 + i}`, barcode, []);
    google.failWith = 503;
    for (const [i, barcode] of barcodes.entries()) await putOrder(t.app, `5200000${3 + i}`, anOrder([dayTicket(barcode, 45)]));
    const googleRows = async () => {
      const rows = await deliveryRows();
      return barcodes.map((barcode) => rows.find((d) => d.barcode === barcode && d.target === 'google'));
    };
    await expect.poll(async () => (await googleRows()).map((d) => d?.state), { timeout: 30_000 }).toEqual(['dead', 'dead']);

    google.failWith = null;
    const staff = await loginAs(t.app, { accessLevel: 1000 });
    for (const row of await googleRows()) {
      const retry = await t.app.inject({ method: 'POST', url: `/api/admin/deliveries/retry/${row!.id}`, headers: staff.headers });
      expect(retry.statusCode).toBe(202);
    }
    await settleDeliveries(t.app);
    expect((await googleRows()).map((d) => d?.state)).toEqual(['sent', 'sent']);
  });

  it('Retry needs its own permission', async () => {
    const lister = await loginAs(t.app, { accessLevel: 5, permissions: ['Deliveries List'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/', headers: lister.headers })).statusCode).toBe(200);
    const retry = await t.app.inject({
      method: 'POST',
      url: '/api/admin/deliveries/retry/00000000-0000-4000-8000-000000000000',
      headers: lister.headers,
    });
    expect(retry.statusCode).toBe(403);
  });

  it('one push of a batch failing: it alone is retried (once per try) and recorded; the others are sent once', async () => {
    await ticketInWallets('52000004', '5200000000000043', [
      { id: 'flaky0device000001', pushToken: FLAKY_TOKEN },
      { id: 'fine00device000001', pushToken: 'c4'.repeat(32) },
      { id: 'fine00device000002', pushToken: 'c5'.repeat(32) },
    ]);
    failingPushes = 1;
    await putOrder(t.app, '52000004', anOrder([dayTicket('5200000000000043', 5)]));
    await expect
      .poll(async () => (await deliveryRows()).filter((d) => d.target === 'apple' && d.barcode === '5200000000000043'), { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          expect.objectContaining({ state: 'sent', attempts: 2 }),
          expect.objectContaining({ state: 'sent', attempts: 1 }),
          expect.objectContaining({ state: 'sent', attempts: 1 }),
        ]),
      );
    await settleDeliveries(t.app);
    const tokens = pushes.map(pushTokenOf);
    expect(tokens.filter((token) => token === FLAKY_TOKEN)).toHaveLength(2);
    expect(tokens.filter((token) => token === 'c4'.repeat(32) || token === 'c5'.repeat(32))).toHaveLength(2);
  });

  it('APNs 410 removes the registration and is not retried', async () => {
    const { serialNumber } = await ticketInWallets('52000003', '5200000000000035', [
      { id: 'gone0device0000001', pushToken: GONE_TOKEN },
      { id: 'kept0device0000001', pushToken: 'c3'.repeat(32) },
    ]);
    await putOrder(t.app, '52000003', anOrder([dayTicket('5200000000000035', 5)]));
    await settleDeliveries(t.app);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(pushes.filter((p) => pushTokenOf(p) === GONE_TOKEN)).toHaveLength(1);
    const registrations = await t.database.db
      .select()
      .from(schema.appleDeviceRegistrations)
      .where(eq(schema.appleDeviceRegistrations.serialNumber, serialNumber));
    expect(registrations.map((r) => r.deviceLibraryIdentifier)).toEqual(['kept0device0000001']);
    const gone = (await deliveryRows()).filter((d) => d.target === 'apple' && d.barcode === '5200000000000035');
    expect(gone.map((d) => d.state).sort()).toEqual(['sent', 'skipped']);
    expect(gone.find((d) => d.state === 'skipped')).toMatchObject({ attempts: 1, lastError: expect.stringContaining('410') });
  });
});

describe('the APNs queue', () => {
  const pushOf = (serialNumber: string, deviceLibraryIdentifier: string, queue: string) => ({
    queue,
    target: 'apple' as const,
    barcode: null,
    recipient: 'device test',
    payload: { serialNumber, deviceLibraryIdentifier },
    singletonKey: `${deviceLibraryIdentifier}:${serialNumber}`,
  });

  it(`a push waiting for a device absorbs the next push of the same pass (${APPLE_PUSH_QUEUE})`, async () => {
    const { serialNumber } = await ticketInWallets('55000001', '5500000000000011', [
      { id: 'absorb0device0001', pushToken: 'e1'.repeat(32) },
    ]);
    await settleDeliveries(t.app);
    pushes.length = 0;
    const queued = await t.database.db.transaction(async (tx) => [
      await queueDelivery(t.app.jobs, tx, pushOf(serialNumber, 'absorb0device0001', APPLE_PUSH_QUEUE)),
      await queueDelivery(t.app.jobs, tx, pushOf(serialNumber, 'absorb0device0001', APPLE_PUSH_QUEUE)),
    ]);
    expect(queued).toEqual([true, false]);
    await settleDeliveries(t.app);
    expect(pushes.map(pushTokenOf)).toEqual(['e1'.repeat(32)]);
    // Coalescing only: 'short', whose fetch does not check every candidate against the running jobs as 'stately' does.
    const { rows } = await t.database.executeSql(`select policy from pgboss.queue where name = $1`, [APPLE_PUSH_QUEUE]);
    expect(rows).toEqual([{ policy: 'short' }]);
  });

  it(`a push queued under the earlier queue (${RETIRED_APPLE_PUSH_QUEUE}, by a process of the previous version) is still delivered`, async () => {
    const { serialNumber } = await ticketInWallets('55000002', '5500000000000028', [
      { id: 'retired0device001', pushToken: 'e2'.repeat(32) },
    ]);
    await settleDeliveries(t.app);
    pushes.length = 0;
    await t.database.db.transaction((tx) =>
      queueDelivery(t.app.jobs, tx, pushOf(serialNumber, 'retired0device001', RETIRED_APPLE_PUSH_QUEUE)),
    );
    await settleDeliveries(t.app);
    expect(pushes.map(pushTokenOf)).toEqual(['e2'.repeat(32)]);
    const [row] = (await deliveryRows()).filter((d) => d.queue === RETIRED_APPLE_PUSH_QUEUE);
    expect(row).toMatchObject({ state: 'sent', attempts: 1 });
  });
});

describe('transactions', () => {
  it('a rolled-back change publishes nothing', async () => {
    await ticketInWallets('53000001', '5300000000000011', [{ id: 'rollback0device01', pushToken: 'd4'.repeat(32) }]);
    const before = await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = 'ticket-changed'`);
    // The barcode of another order: the whole PUT is refused and rolled back.
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/integrations/orders/53000002',
      headers: integrationAuth,
      payload: anOrder([dayTicket('5300000000000011', 99)]),
    });
    expect(res.statusCode).toBe(409);
    const after = await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = 'ticket-changed'`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});

describe('staff changes', () => {
  it(`a colour change on a customization mapped to ${FANOUT} tickets answers at once; then ${FANOUT} Apple and ${FANOUT} Google updates arrive, each once`, async () => {
    const db = t.database.db;
    await db
      .insert(schema.passCustomizations)
      .values({ name: 'Fan Blue', backgroundColor: '0000ff', color: 'ffffff', instructions: 'Enjoy' });
    await db.insert(schema.passCustomizationCategories).values({ categoryId: 'FANOUT', customizationName: 'Fan Blue' });
    await db.insert(schema.orders).values({ orderId: '54000001', orderDate: new Date('2026-11-20T18:15:00Z') });
    const barcodes = Array.from({ length: FANOUT }, (_, i) => `54${String(i).padStart(14, '0')}`);
    await db.insert(schema.tickets).values(
      barcodes.map((barcode, position) => ({
        barcode,
        orderId: '54000001',
        position,
        product: 'Day Ticket',
        categoryId: 'FANOUT',
        cash: 1,
      })),
    );
    // Passes whose stored hashes are made up: a first fan-out brings them up to date before any
    // phone or Google object is there to update, so the setup delivers nothing.
    const passes = await db
      .insert(schema.walletPasses)
      .values(barcodes.map((barcode) => ({ barcode, contentHash: 'before-the-first-comparison' })))
      .returning();
    await db.transaction((tx) => t.app.jobs.publish(tx, PASSES_CHANGED, ['test setup']));
    await settleDeliveries(t.app, 180_000);
    // And no job of the setup left to retry later, when the phones are there.
    const retrying = async () => (await t.app.jobs.depths()).filter((d) => d.state === 'retry');
    await expect.poll(retrying, { timeout: 60_000, interval: 500 }).toEqual([]);
    await settleDeliveries(t.app, 180_000);
    await db.update(schema.walletPasses).set({ googleIssued: true }).where(like(schema.walletPasses.barcode, '54%'));
    await db.insert(schema.appleDeviceRegistrations).values(
      passes.map((p, i) => ({
        deviceLibraryIdentifier: `fan${i}device`,
        serialNumber: p.serialNumber,
        pushToken: i.toString(16).padStart(64, '0'),
      })),
    );
    for (const p of passes) google.saved.add(`${ISSUER_ID}.${p.serialNumber}`);
    pushes.length = 0;
    google.objectCalls = [];

    const [custom] = await db.select().from(schema.passCustomizations).where(eq(schema.passCustomizations.name, 'Fan Blue'));
    const staff = await loginAs(t.app, { accessLevel: 1000 });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/pass-customization/${custom!.passCustomizationGuid}`,
      headers: staff.headers,
      payload: { passCustomizationBackgroundColor: '00aa55' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Answered before the fan-out ran.
    expect(pushes).toHaveLength(0);
    expect(google.objectCalls).toHaveLength(0);
    await settleDeliveries(t.app, 180_000);

    const tokens = pushes.map(pushTokenOf);
    expect(tokens).toHaveLength(FANOUT);
    expect(new Set(tokens).size).toBe(FANOUT);
    const objects = google.objectCalls.map((c) => c.body.id);
    expect(objects).toHaveLength(FANOUT);
    expect(new Set(objects).size).toBe(FANOUT);
    expect(google.objectCalls[0]!.body).toMatchObject({ hexBackgroundColor: '#00aa55' });
  }, 300_000);
});
