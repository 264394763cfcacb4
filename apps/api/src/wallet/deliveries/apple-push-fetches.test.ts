// Proof of delivery: an Apple push accepted by APNs (the double here) is 'sent'; when its
// device then asks for its updated passes and fetches the pass (200 with the new tag), the
// push is 'fetched' with its push-to-fetch latency. The Deliveries tab counts the last 24
// hours (the clock moved an hour on for the pushes nobody fetched) and reports a device that
// fetched none of its last 3 pushes, until APNs answers 410 and its registration goes. A
// Google update records the object version Google answered.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { startApnsDouble } from '../../../test-support/apns-double.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { GoogleDouble, writeServiceAccountKey } from '../../../test-support/google-double.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { dayTicket, ticketInWallets as inWallets, type WalletTicket } from '../../../test-support/wallet-tickets.ts';
import { createTestApp, LATER_JOBS_POLL, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { reportApplePushes } from '../../staff/deliveries/deliveries.service.ts';
import { applePushFigures, findSilentDevices, recordPushesFetched } from './apple-push-fetches.repo.ts';

const PASS_TYPE = 'pass.com.example.fetches';
const ISSUER_ID = '3388000000022777777';
const CLIENT_EMAIL = 'wallet@boardwalk-fetches.iam.gserviceaccount.com';
const HOUR_MS = 60 * 60 * 1000;

let t: TestApp;
let dir: string;
let google: GoogleDouble;
let apns: Awaited<ReturnType<typeof startApnsDouble>>;
let admin: StaffLogin;
/** Push tokens APNs answers 410 for (the device no longer has the pass). */
const goneTokens = new Set<string>();
/** Push tokens APNs answers 500 for (tried again later). */
const failingTokens = new Set<string>();
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

interface Device {
  id: string;
  pushToken: string;
}
const device = (n: number): Device => ({ id: `fetchdevice${String(n).padStart(6, '0')}`, pushToken: `${n}f`.padEnd(64, 'a') });

/** A ticket with an Apple pass registered on these devices and a saved Google object. */
const ticketInWallets = (orderId: string, barcode: string, devices: Device[]) =>
  inWallets(t.app, { passType: PASS_TYPE, google, clientAddress: nextIp }, orderId, barcode, devices);

/** The feed changes the ticket (what its pass shows) and the deliveries run. */
async function changeTicket(ticket: WalletTicket, cash: number) {
  await putOrder(t.app, ticket.orderId, anOrder([dayTicket(ticket.barcode, cash)]));
  await settleDeliveries(t.app);
}

/** What a device does on a push: asks for its updated passes, then fetches each. */
const listUpdated = (d: Device, since?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/passkit/v1/devices/${d.id}/registrations/${PASS_TYPE}${since ? `?passesUpdatedSince=${since}` : ''}`,
  });
const fetchPass = (ticket: WalletTicket, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/passkit/v1/passes/${PASS_TYPE}/${ticket.serialNumber}`,
    headers: { authorization: `ApplePass ${ticket.token}`, ...headers },
  });

const pushesOf = (ticket: WalletTicket, d: Device) =>
  t.database.db
    .select()
    .from(schema.deliveries)
    .where(and(eq(schema.deliveries.serialNumber, ticket.serialNumber), eq(schema.deliveries.deviceLibraryIdentifier, d.id)));
const report = (now?: Date) => reportApplePushes(t.database.db, now);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-fetches-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  google = new GoogleDouble(publicKey, CLIENT_EMAIL);
  await google.start();
  const keyFile = join(dir, 'service-account.json');
  await writeServiceAccountKey(keyFile, privateKey, CLIENT_EMAIL, `${google.baseUrl}/token`);
  apns = await startApnsDouble(dir, (token) =>
    goneTokens.has(token)
      ? { status: 410, reason: 'Unregistered' }
      : failingTokens.has(token)
        ? { status: 500, reason: 'InternalServerError' }
        : { status: 200 },
  );
  t = await createTestApp({
    env: {
      DATA_DIR: dir,
      PUBLIC_URL: 'https://wallet.example.com',
      APPLE_PASS_TYPE_ID: PASS_TYPE,
      APNS_URL: apns.url,
      APNS_CA_FILE: apns.caFile,
      GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
      GOOGLE_WALLET_KEY_FILE: keyFile,
      GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
      DELIVERY_COALESCE_SECONDS: '0',
      ...LATER_JOBS_POLL,
      DELIVERY_RETRY_LIMIT: '1',
      DELIVERY_RETRY_DELAY_SECONDS: '1',
    },
  });
  admin = await loginAs(t.app, { accessLevel: 1000 });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await google?.close();
  apns?.server.close();
  await rm(dir, { recursive: true, force: true });
});
// Each test counts its own pushes.
beforeEach(async () => {
  await t.database.db.delete(schema.deliveries);
});

describe('an Apple push is fetched', () => {
  it('a device registers, a feed change pushes it, it fetches the pass: the delivery shows fetched with its latency', async () => {
    const phone = device(1);
    const ticket = await ticketInWallets('53000001', '5300000000000011', [phone]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 7);
    const [pushed] = await pushesOf(ticket, phone);
    expect(pushed).toMatchObject({ target: 'apple', state: 'sent', fetchedAt: null, listedAt: null });
    expect(pushed!.sentAt).toBeInstanceOf(Date);

    const listed = await listUpdated(phone);
    expect(listed.json<{ serialNumbers: string[] }>().serialNumbers).toEqual([ticket.serialNumber]);
    expect((await pushesOf(ticket, phone))[0]).toMatchObject({ state: 'sent', listedAt: expect.any(Date) });
    // A 304 (the device says it has this version already) is not a fetch of the new one.
    const later = new Date(Date.now() + HOUR_MS).toUTCString();
    expect((await fetchPass(ticket, { 'if-modified-since': later })).statusCode).toBe(304);
    expect((await pushesOf(ticket, phone))[0]!.state).toBe('sent');

    expect((await fetchPass(ticket)).statusCode).toBe(200);
    const [fetched] = await pushesOf(ticket, phone);
    expect(fetched!.state).toBe('fetched');
    expect(fetched!.fetchedAt!.getTime()).toBeGreaterThanOrEqual(fetched!.sentAt!.getTime());

    const now = await report();
    expect(now).toMatchObject({ sent: 1, fetched: 1, notFetchedAfterHour: 0, silentDevices: [] });
    const latency = (fetched!.fetchedAt!.getTime() - fetched!.sentAt!.getTime()) / 1000;
    expect(now.p50Seconds).toBeCloseTo(latency, 0);
    expect(now.p95Seconds).toBeCloseTo(latency, 0);

    // Staff read the same figures, and the delivery with its fetched time in the list.
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/pushes', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sent: 1, fetched: 1, notFetchedAfterHour: 0 });
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/?filter=fetched', headers: admin.headers });
    expect(list.json<Record<string, unknown>[]>()).toEqual([
      expect.objectContaining({ deliveryState: 'fetched', deliveryFetched: fetched!.fetchedAt!.toISOString(), deliveryTarget: 'apple' }),
    ]);
  });

  it('two devices pushed, one fetches: only its push is fetched; the other is not fetched after the hour (clock moved)', async () => {
    const [fetching, silent] = [device(2), device(3)];
    const ticket = await ticketInWallets('53000002', '5300000000000028', [fetching, silent]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 8);
    await listUpdated(fetching);
    expect((await fetchPass(ticket)).statusCode).toBe(200);
    expect((await pushesOf(ticket, fetching))[0]!.state).toBe('fetched');
    expect((await pushesOf(ticket, silent))[0]!.state).toBe('sent');

    expect(await report()).toMatchObject({ sent: 2, fetched: 1, notFetchedAfterHour: 0 });
    expect(await report(new Date(Date.now() + 59 * 60 * 1000))).toMatchObject({ notFetchedAfterHour: 0 });
    expect(await report(new Date(Date.now() + HOUR_MS + 60_000))).toMatchObject({ sent: 2, fetched: 1, notFetchedAfterHour: 1 });
    // A day and more later they are out of the window.
    const dayLater = new Date(Date.now() + 25 * HOUR_MS);
    expect(await report(dayLater)).toMatchObject({
      since: new Date(dayLater.getTime() - 24 * HOUR_MS).toISOString(),
      sent: 0,
      fetched: 0,
      p50Seconds: null,
    });

    // The second device fetching later (it listed first) is its own fetch.
    await listUpdated(silent);
    expect((await fetchPass(ticket)).statusCode).toBe(200);
    expect((await pushesOf(ticket, silent))[0]!.state).toBe('fetched');
  });
});

describe('a device that never fetches', () => {
  it('is reported after 3 unfetched pushes in a row, not 2; a fetch ends the run; a 410 removes it', async () => {
    const d = device(4);
    const ticket = await ticketInWallets('53000003', '5300000000000035', [d]);
    await t.database.db.delete(schema.deliveries);
    const inAnHour = () => new Date(Date.now() + HOUR_MS + 60_000);

    await changeTicket(ticket, 11);
    await changeTicket(ticket, 12);
    expect((await report(inAnHour())).silentDevices).toEqual([]);
    await changeTicket(ticket, 13);
    expect((await report()).silentDevices).toEqual([]); // not an hour yet
    const reported = await report(inAnHour());
    expect(reported.silentDevices).toEqual([
      expect.objectContaining({ barcode: ticket.barcode, unfetchedPushes: 3, recipient: expect.stringMatching(/^device .+…$/) }),
    ]);
    expect(await findSilentDevices(t.database.db, inAnHour())).toEqual([
      { recipient: expect.any(String), barcode: ticket.barcode, unfetchedPushes: 3, lastPushAt: expect.any(Date) },
    ]);
    expect(JSON.stringify(reported)).not.toContain(d.id);
    expect(JSON.stringify(reported)).not.toContain(d.pushToken);

    // The device fetches once: all three pushes announced older tags, all fetched.
    await listUpdated(d);
    await fetchPass(ticket);
    expect((await pushesOf(ticket, d)).map((r) => r.state)).toEqual(['fetched', 'fetched', 'fetched']);
    expect((await report(inAnHour())).silentDevices).toEqual([]);

    // Three more it never fetches: reported again; then APNs says 410 and the registration goes.
    for (const cash of [14, 15, 16]) await changeTicket(ticket, cash);
    expect((await report(inAnHour())).silentDevices).toMatchObject([{ unfetchedPushes: 3 }]);
    goneTokens.add(d.pushToken);
    await changeTicket(ticket, 17);
    const registrations = await t.database.db
      .select()
      .from(schema.appleDeviceRegistrations)
      .where(eq(schema.appleDeviceRegistrations.deviceLibraryIdentifier, d.id));
    expect(registrations).toEqual([]);
    expect((await report(inAnHour())).silentDevices).toEqual([]);
  });
});

/** Waits until a push of the ticket to the device is as `is` says. */
async function pushUntil(ticket: WalletTicket, d: Device, is: (push: typeof schema.deliveries.$inferSelect) => boolean) {
  const until = Date.now() + 15_000;
  while (!(await pushesOf(ticket, d)).some(is)) {
    if (Date.now() > until) throw new Error(`the push is not as expected: ${JSON.stringify(await pushesOf(ticket, d))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a push fetched before it was sent, or on a later list', () => {
  it('a push being retried when its device lists and fetches the pass is fetched, latency 0, and its successful retry leaves it fetched', async () => {
    const phone = device(11);
    const ticket = await ticketInWallets('53000011', '5300000000000110', [phone]);
    await t.database.db.delete(schema.deliveries);
    failingTokens.add(phone.pushToken);
    try {
      await putOrder(t.app, ticket.orderId, anOrder([dayTicket(ticket.barcode, 41)]));
      await pushUntil(ticket, phone, (p) => p.state === 'retrying');
      // The device has the pass (an earlier push, or the guest opened it): it lists and fetches.
      expect((await listUpdated(phone)).statusCode).toBe(200);
      expect((await fetchPass(ticket)).statusCode).toBe(200);
    } finally {
      failingTokens.delete(phone.pushToken);
    }
    // Its retry, APNs accepting it now.
    const until = Date.now() + 15_000;
    while (apns.pushes.filter((p) => p.path.endsWith(phone.pushToken)).length < 2) {
      if (Date.now() > until) throw new Error('the push was not tried again');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await settleDeliveries(t.app);
    const [push] = await pushesOf(ticket, phone);
    expect(push).toMatchObject({ state: 'fetched', listedAt: expect.any(Date), fetchedAt: expect.any(Date) });
    expect(push!.sentAt).toEqual(push!.fetchedAt);
    expect(await report()).toMatchObject({ sent: 1, fetched: 1, p50Seconds: 0, p95Seconds: 0 });
  });

  it('a listing answered 204 proves nothing (it carries no pass token, only a device id anyone may send): only the fetch does', async () => {
    const phone = device(12);
    const ticket = await ticketInWallets('53000012', '5300000000000127', [phone]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 51);
    const listed = await listUpdated(phone);
    const { lastUpdated } = listed.json<{ lastUpdated: string }>();
    // The device already has this version (304): not yet proof.
    expect((await fetchPass(ticket, { 'if-modified-since': new Date(Date.now() + HOUR_MS).toUTCString() })).statusCode).toBe(304);
    expect((await pushesOf(ticket, phone))[0]!.state).toBe('sent');
    // A list with the tag it was given, as anyone knowing the device id can send: nothing newer (204), nothing proven.
    expect((await listUpdated(phone, lastUpdated)).statusCode).toBe(204);
    expect((await pushesOf(ticket, phone))[0]!.state).toBe('sent');
    // The fetch with the pass's token is the proof.
    expect((await fetchPass(ticket)).statusCode).toBe(200);
    expect((await pushesOf(ticket, phone))[0]!.state).toBe('fetched');
  });

  it('two devices fetching the pass at once are credited one each', async () => {
    const [a, b] = [device(13), device(14)];
    const ticket = await ticketInWallets('53000013', '5300000000000134', [a, b]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 61);
    await changeTicket(ticket, 62);
    await changeTicket(ticket, 63);
    expect((await listUpdated(a)).statusCode).toBe(200);
    expect((await listUpdated(b)).statusCode).toBe(200);
    const fetches = await Promise.all([fetchPass(ticket), fetchPass(ticket)]);
    expect(fetches.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await pushesOf(ticket, a)).map((r) => r.state)).toEqual(['fetched', 'fetched', 'fetched']);
    expect((await pushesOf(ticket, b)).map((r) => r.state)).toEqual(['fetched', 'fetched', 'fetched']);

    // The same race many times over, the fetches' records started together, each device with
    // many pushes waiting (a long update, so a second fetch meets it halfway).
    await t.database.executeSql(
      `insert into deliveries (target, recipient, state, queue, payload, sent_at, serial_number, device_library_identifier, pass_updated_at, listed_at)
       select target, recipient, state, queue, payload, sent_at, serial_number, device_library_identifier, pass_updated_at, listed_at
       from deliveries, generate_series(1, 100) where serial_number = $1`,
      [ticket.serialNumber],
    );
    const [pass] = await t.database.db.select().from(schema.walletPasses).where(eq(schema.walletPasses.serialNumber, ticket.serialNumber));
    for (let round = 0; round < 20; round++) {
      await t.database.db
        .update(schema.deliveries)
        .set({ state: 'sent', fetchedAt: null })
        .where(eq(schema.deliveries.serialNumber, ticket.serialNumber));
      const credited = await Promise.all([
        recordPushesFetched(t.database.db, ticket.serialNumber, pass!.updatedAt),
        recordPushesFetched(t.database.db, ticket.serialNumber, pass!.updatedAt),
      ]);
      expect(credited, `round ${round}`).toEqual([303, 303]);
    }
  });
});

describe('the push figures', () => {
  it('leave out Apple deliveries from before proof of delivery (no pass recorded)', async () => {
    const phone = device(15);
    const ticket = await ticketInWallets('53000015', '5300000000000158', [phone]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 71);
    // As migration 0015 left an old push: sent (its time backfilled), no pass or device recorded.
    await t.database.db.insert(schema.deliveries).values({
      target: 'apple',
      barcode: ticket.barcode,
      recipient: 'device old…',
      state: 'sent',
      queue: 'apple-push',
      payload: {},
      sentAt: new Date(Date.now() - 2 * HOUR_MS),
    });
    expect(await report()).toMatchObject({ sent: 1, fetched: 0, notFetchedAfterHour: 0 });
  });

  it('count a push not fetched within the expected time by that one time, in both of its conditions', async () => {
    const phone = device(16);
    const ticket = await ticketInWallets('53000016', '5300000000000165', [phone]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 81);
    await listUpdated(phone);
    await fetchPass(ticket);
    // Fetched 90 minutes after it was sent, looked at 3 hours after.
    const [push] = await pushesOf(ticket, phone);
    await t.database.db
      .update(schema.deliveries)
      .set({ fetchedAt: new Date(push!.sentAt!.getTime() + 90 * 60_000) })
      .where(eq(schema.deliveries.id, push!.id));
    const later = new Date(push!.sentAt!.getTime() + 3 * HOUR_MS);
    expect(await applePushFigures(t.database.db, later)).toMatchObject({ sent: 1, notFetchedAfterHour: 1 });
    expect(await applePushFigures(t.database.db, later, 2 * HOUR_MS)).toMatchObject({ sent: 1, notFetchedAfterHour: 0 });
  });
});

describe('a Google update', () => {
  it('records the object version Google answered', async () => {
    const ticket = await ticketInWallets('53000004', '5300000000000042', []);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 21);
    await changeTicket(ticket, 22);
    const rows = await t.database.db
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.target, 'google'))
      .orderBy(schema.deliveries.sentAt);
    expect(rows.map((r) => [r.state, r.objectVersion])).toEqual([
      ['sent', String(google.versions.get(ticket.objectId)! - 1)],
      ['sent', String(google.versions.get(ticket.objectId))],
    ]);
    expect(rows.every((r) => r.sentAt instanceof Date)).toBe(true);
  });
});

describe('the Deliveries list filter', () => {
  it('lists the retrying and dead ones by default, any state by the filter, and refuses an unknown filter', async () => {
    const ticket = await ticketInWallets('53000005', '5300000000000059', [device(5)]);
    await t.database.db.delete(schema.deliveries);
    await changeTicket(ticket, 31);
    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/deliveries/${query}`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ deliveryState: string; deliveryTarget: string }[]>();
    };
    expect(await list('')).toEqual([]);
    expect(await list('?filter=failed')).toEqual([]);
    expect((await list('?filter=all')).map((r) => r.deliveryTarget).sort()).toEqual(['apple', 'google']);
    expect((await list('?filter=sent')).map((r) => r.deliveryState)).toEqual(['sent', 'sent']);
    expect(await list('?filter=dead')).toEqual([]);

    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/?filter=everything', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('filter must be one of failed, all, queued');
  });

  it('the push figures need the Deliveries list permission', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/pushes' })).statusCode).toBe(401);
    const clerk = await loginAs(t.app, { accessLevel: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/deliveries/pushes', headers: clerk.headers })).statusCode).toBe(403);
  });
});
