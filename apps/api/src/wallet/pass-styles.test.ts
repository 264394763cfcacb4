// Passes in the style that fits the ticket, on the lock screen when it matters, and voided when
// they stop being valid: a dated admission is an event ticket for its visit day's park hours
// at the park's locations, a season pass carries its next operating days, a Stored Value Card
// is a store card; a refund, a redemption and a stopped share void the pass on the device
// (pushed through the APNs double, then fetched) and in Google Wallet (the double's object
// calls), and Google notifies a holder of at most 3 updates of an object in 24 hours.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVerifier } from 'fast-jwt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import type { SaveToWalletPayload } from './google/google-wallet.ts';
import type { Push } from '../../test-support/apns-double.ts';
import { anOrder, putOrder, staff } from '../../test-support/fixtures.ts';
import { pem, type GoogleDouble } from '../../test-support/google-double.ts';
import { opensslVerify, readPassStrings, unpackPass } from '../../test-support/pkpass-check.ts';
import {
  GOOGLE_CLIENT_EMAIL as CLIENT_EMAIL,
  GOOGLE_ISSUER_ID as ISSUER_ID,
  startWalletDoubles,
  WALLET_PASS_TYPE as PASS_TYPE,
} from '../../test-support/wallet-doubles.ts';
import { createTestApp, integrationAuth, settleDeliveries, type TestApp } from '../../test-support/test-app.ts';
import { hashSecret } from '../platform/secrets.ts';

const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';
const VISIT_DAY = '2030-07-04';
// The park is in America/Los_Angeles (PDT, -07:00, in July).
const VISIT_OPENS = '2030-07-04T10:00:00-07:00';
const VISIT_CLOSES = '2030-07-04T22:00:00-07:00';

const T = {
  dated: { orderId: '41000001', barcode: '4100000000000011' },
  season: { orderId: '41000002', barcode: '4100000000000028' },
  storedValue: { orderId: '41000003', barcode: '4100000000000035' },
  refund: { orderId: '41000004', barcode: '4100000000000042' },
  redeem: { orderId: '41000005', barcode: '4100000000000059' },
  shared: { orderId: '41000006', barcode: '4100000000000066' },
  budget: { orderId: '41000007', barcode: '4100000000000073' },
  reserved: { orderId: '41000009', barcode: '4100000000000097' },
};
const holder = { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com' };
const SEASON_EXPIRES = new Date(Date.now() + 8 * 24 * 3600 * 1000).toISOString();

let t: TestApp;
let dir: string;
let doubles: Awaited<ReturnType<typeof startWalletDoubles>>;
let pushes: Push[];
let google: GoogleDouble;
let rootCa: string;
let ipSeq = 0;
const nextIp = () => `10.41.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

type PassJson = Record<string, unknown> & { serialNumber: string; authenticationToken: string };

async function applePass(body: Record<string, unknown>): Promise<PassJson> {
  const res = await t.app.inject({ method: 'POST', url: '/api/apple-wallet/', payload: body, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  const unpacked = await unpackPass(res.rawPayload);
  try {
    expect(opensslVerify(unpacked.dir, rootCa).ok).toBe(true);
    return { ...(unpacked.pass as PassJson), files: [...unpacked.files.keys()] };
  } finally {
    await unpacked.cleanup();
  }
}

/** A device registers for the pass (a push token of its own). */
async function register(pass: PassJson, device: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/passkit/v1/devices/${device}/registrations/${PASS_TYPE}/${pass.serialNumber}`,
    headers: { authorization: `ApplePass ${pass.authenticationToken}` },
    payload: { pushToken: device.repeat(2) },
  });
  expect(res.statusCode).toBe(201);
}

/** The device fetches the latest pass. */
async function fetchLatest(pass: PassJson): Promise<PassJson> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/passkit/v1/passes/${PASS_TYPE}/${pass.serialNumber}`,
    headers: { authorization: `ApplePass ${pass.authenticationToken}` },
  });
  expect(res.statusCode).toBe(200);
  const unpacked = await unpackPass(res.rawPayload);
  await unpacked.cleanup();
  return unpacked.pass as PassJson;
}

const pushedTo = (device: string) => pushes.filter((p) => p.path === `/3/device/${device.repeat(2)}`).length;

async function googleLink(body: Record<string, unknown>): Promise<SaveToWalletPayload> {
  const res = await t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: body, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  const verify = createVerifier({ key: pem(google.publicKey), algorithms: ['RS256'], allowedAud: 'google', allowedIss: CLIENT_EMAIL });
  return (verify(res.body.slice(SAVE_PREFIX.length)) as { payload: SaveToWalletPayload }).payload;
}
const objectCallsOf = (id: string) => google.objectCalls.filter((c) => c.body.id === id);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-pass-styles-'));
  rootCa = join(dir, 'certs', 'apple-dev-root.pem');
  doubles = await startWalletDoubles(dir);
  ({ pushes, google } = doubles);
  t = await createTestApp({
    env: {
      DATA_DIR: dir,
      PUBLIC_URL: 'https://wallet.example.com',
      BRAND_NAME: 'Seabreeze Pier',
      PARK_TIMEZONE: 'America/Los_Angeles',
      ...doubles.env,
    },
  });
  const { db } = t.database;
  // The visit day's hours, the day after's, and the next twelve days from now (a season pass's).
  const day = 24 * 3600 * 1000;
  await db.insert(schema.parkHours).values([
    { opensAt: new Date(VISIT_OPENS), closesAt: new Date(VISIT_CLOSES) },
    { opensAt: new Date('2030-07-05T10:00:00-07:00'), closesAt: new Date('2030-07-05T22:00:00-07:00') },
    ...Array.from({ length: 12 }, (_, i) => ({
      opensAt: new Date(Date.now() + i * day + 3600 * 1000),
      closesAt: new Date(Date.now() + i * day + 10 * 3600 * 1000),
    })),
  ]);
  await db.insert(schema.parkLocations).values([
    { name: 'Main Gate', latitude: 34.0094, longitude: -118.4973, relevantText: 'Have your ticket ready at the Main Gate.' },
    { name: 'Pier Entrance', latitude: 34.0087, longitude: -118.4988, relevantText: null },
  ]);
  const dated = { product: 'Day Admission', category: 'Day Ticket', visitDate: VISIT_DAY, holder, cash: 5 };
  await putOrder(t.app, T.dated.orderId, anOrder([{ ...dated, barcode: T.dated.barcode }]));
  await putOrder(
    t.app,
    T.season.orderId,
    anOrder([
      { barcode: T.season.barcode, product: 'Season Pass', category: 'Season Pass', isPassholder: true, holder, expires: SEASON_EXPIRES },
    ]),
  );
  const playCard = { product: 'Play Card', category: 'Stored Value Card', credits: 40, holder };
  await putOrder(t.app, T.storedValue.orderId, anOrder([{ ...playCard, barcode: T.storedValue.barcode }]));
  await putOrder(t.app, T.refund.orderId, anOrder([{ ...dated, barcode: T.refund.barcode }]));
  await putOrder(t.app, T.redeem.orderId, anOrder([{ ...dated, barcode: T.redeem.barcode }]));
  await putOrder(t.app, T.shared.orderId, anOrder([{ ...playCard, barcode: T.shared.barcode }]));
  await putOrder(t.app, T.budget.orderId, anOrder([{ barcode: T.budget.barcode, holder, cash: 1 }]));
  const gold = { product: 'Gold Season Pass', isPassholder: true, holder, expires: SEASON_EXPIRES };
  await putOrder(t.app, T.reserved.orderId, anOrder([{ ...gold, barcode: T.reserved.barcode }], { orderDate: new Date().toISOString() }));
  await db.insert(schema.visitProducts).values({ product: 'Gold Season Pass' });
});
afterAll(async () => {
  await t?.close();
  await doubles?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  google.objectCalls = [];
});

describe('the style that fits the ticket', () => {
  it("makes a dated admission an event ticket with semantic tags, relevant in its visit day's park hours at the park's locations", async () => {
    const pass = await applePass(T.dated);
    expect(pass.eventTicket).toBeDefined();
    expect(pass.generic).toBeUndefined();
    expect(pass.semantics).toEqual({
      eventType: 'PKEventTypeGeneric',
      eventName: 'Day Admission',
      venueName: 'Seabreeze Pier',
      venueLocation: { latitude: 34.0094, longitude: -118.4973 },
      eventStartDate: '2030-07-04T17:00:00Z',
      eventEndDate: '2030-07-05T05:00:00Z',
      attendeeName: 'Ana Lopez',
    });
    const relevant = pass.relevantDates as { startDate: string; endDate: string }[];
    expect(relevant).toHaveLength(1);
    expect(Date.parse(relevant[0]!.startDate)).toBeGreaterThanOrEqual(Date.parse(VISIT_OPENS));
    expect(Date.parse(relevant[0]!.endDate)).toBeLessThanOrEqual(Date.parse(VISIT_CLOSES));
    expect(pass.relevantDate).toBe('2030-07-04T17:00:00Z');
    expect(pass.locations).toEqual([
      { latitude: 34.0094, longitude: -118.4973, relevantText: 'Have your ticket ready at the Main Gate.' },
      { latitude: 34.0087, longitude: -118.4988 },
    ]);
    const fields = pass.eventTicket as Record<string, { key: string; value: string }[]>;
    // A calendar day the phone writes in its language ("Jul 4, 2030" on an English phone).
    expect(fields.headerFields![0]).toMatchObject({ key: 'visitDate', value: '2030-07-04T12:00:00+00:00', dateStyle: 'PKDateStyleMedium' });
    expect(fields.auxiliaryFields!.find((f) => f.key === 'hours')?.value).toBe('10:00 AM – 10:00 PM');
    expect(pass.voided).toBeUndefined();
  });

  it('keeps a season pass the generic style, relevant on its next operating days within its validity (at most 10)', async () => {
    const pass = await applePass(T.season);
    expect(pass.generic).toBeDefined();
    const relevant = pass.relevantDates as { startDate: string; endDate: string }[];
    // Twelve operating days ahead, but the pass expires in eight.
    expect(relevant.length).toBeGreaterThanOrEqual(7);
    expect(relevant.length).toBeLessThanOrEqual(8);
    for (const r of relevant) {
      expect(Date.parse(r.endDate)).toBeGreaterThan(Date.now());
      expect(Date.parse(r.startDate)).toBeLessThan(Date.parse(SEASON_EXPIRES));
    }
    expect(pass.locations).toHaveLength(2);
  });

  it('makes a Stored Value Card a store card with its balance, and no relevant dates', async () => {
    const pass = await applePass(T.storedValue);
    const card = pass.storeCard as Record<string, { key: string; value: string }[]>;
    expect(card.primaryFields![0]).toMatchObject({ key: 'balance', value: '40 Credits' });
    expect(pass.relevantDates).toBeUndefined();
    expect(pass.locations).toHaveLength(2);
  });

  it('refuses a visit date that is not a calendar date, naming the field, and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/integrations/orders/41000099',
      headers: integrationAuth,
      payload: anOrder([{ barcode: '4100000000000998', visitDate: '2030-02-30' }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fields: [expect.objectContaining({ path: 'tickets.0.visitDate' })] });
    const held = await t.app.inject({ method: 'GET', url: '/api/integrations/orders/41000099', headers: integrationAuth });
    expect(held.statusCode).toBe(404);
  });

  it('gives each kind its Google class, carrying the locations as merchant locations', async () => {
    const dated = await googleLink(T.dated);
    expect(dated.eventTicketObjects![0]).toMatchObject({
      classId: `${ISSUER_ID}.park-admission`,
      state: 'ACTIVE',
      ticketHolderName: 'Ana Lopez',
      validTimeInterval: { start: { date: '2030-07-04T17:00:00.000Z' }, end: { date: '2030-07-05T05:00:00.000Z' } },
    });
    expect(dated.eventTicketClasses![0]!.merchantLocations).toEqual([
      { latitude: 34.0094, longitude: -118.4973 },
      { latitude: 34.0087, longitude: -118.4988 },
    ]);
    const storedValue = await googleLink(T.storedValue);
    expect(storedValue.loyaltyObjects![0]).toMatchObject({
      classId: `${ISSUER_ID}.stored-value`,
      loyaltyPoints: { label: 'Credits', balance: { double: 40 } },
    });
    const season = await googleLink(T.season);
    expect(season.genericObjects![0]!.classId).toBe(`${ISSUER_ID}.park-ticket`);
    expect(season.genericClasses![0]!.merchantLocations).toHaveLength(2);
  });
});

describe("a season pass's visit reservation", () => {
  const HOUR = 3600 * 1000;
  /** A window of two hours starting on the hour, `hours` from now. */
  async function aWindow(hours: number) {
    const startsAt = new Date(Math.ceil((Date.now() + hours * HOUR) / HOUR) * HOUR);
    const [w] = await t.database.db
      .insert(schema.visitWindows)
      .values({ startsAt, endsAt: new Date(startsAt.getTime() + 2 * HOUR), capacity: 5 })
      .returning();
    return w!;
  }
  const visits = (path: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/visits/${path}`, payload: { ...T.reserved, ...payload }, remoteAddress: nextIp() });
  /** The pass's reservation of a window, from the calendar booking answers. */
  const reservationOf = (calendar: { json: () => unknown }, windowId: string) =>
    (calendar.json() as { days: { windows: { windowId: string; reservationId: string | null }[] }[] }).days
      .flatMap((d) => d.windows)
      .find((w) => w.windowId === windowId)!.reservationId;
  const w3c = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  /** How the park's clock writes a window in English ("Sun, Nov 29, 10:00 AM – 12:00 PM"). */
  const written = (w: { startsAt: Date; endsAt: Date }) => {
    const zone = { timeZone: 'America/Los_Angeles' } as const;
    const day = new Intl.DateTimeFormat('en-US', { ...zone, weekday: 'short', month: 'short', day: 'numeric' }).format(w.startsAt);
    const time = new Intl.DateTimeFormat('en-US', { ...zone, hour: 'numeric', minute: '2-digit' });
    return `${day}, ${time.format(w.startsAt)} – ${time.format(w.endsAt)}`;
  };
  const visitField = (pass: PassJson) =>
    (pass.generic as Record<string, { key: string; value: string; label: string; changeMessage?: string }[]>).auxiliaryFields!.find(
      (f) => f.key === 'visit',
    );

  it('shows the next booked window: an Apple field (in Spanish too) with relevantDates of exactly that window, a Google module valid from it; moved and gone with the bookings', async () => {
    const first = await aWindow(26);
    const second = await aWindow(50);
    const booked = await visits('book/', { windowId: first.id });
    expect(booked.statusCode, booked.body).toBe(200);
    const alsoBooked = await visits('book/', { windowId: second.id });
    expect(alsoBooked.statusCode).toBe(200);

    const res = await t.app.inject({ method: 'POST', url: '/api/apple-wallet/', payload: T.reserved, remoteAddress: nextIp() });
    expect(res.statusCode, res.body).toBe(200);
    const unpacked = await unpackPass(res.rawPayload);
    expect(opensslVerify(unpacked.dir, rootCa).ok).toBe(true);
    const pass = unpacked.pass as PassJson;
    const es = readPassStrings(unpacked.files.get('es.lproj/pass.strings')!);
    await unpacked.cleanup();
    expect(visitField(pass)).toEqual({
      key: 'visit',
      label: 'Reservation',
      value: written(first),
      changeMessage: 'Your reservation is now %@',
    });
    expect(pass.relevantDates).toEqual([{ startDate: w3c(first.startsAt), endDate: w3c(first.endsAt) }]);
    expect(pass.relevantDate).toBe(w3c(first.startsAt));
    // A Spanish phone reads the label, the window (its park clock's words) and the lock-screen message in Spanish.
    expect(es.get('Reservation')).toBe('Reserva');
    expect(es.get('Your reservation is now %@')).toBe('Su reserva ahora es %@');
    expect(es.get(written(first))).toMatch(/^[a-z]{3}, \d{1,2} de [a-z]{3}, \d{1,2}:00 [ap]\.\s?m\. – \d{1,2}:00 [ap]\.\s?m\.$/);
    // Four fields beside the barcode at most: the order date goes to the back.
    const generic = pass.generic as Record<string, { key: string }[]>;
    expect(generic.auxiliaryFields!.map((f) => f.key)).toEqual(['visit', 'expires']);
    expect(generic.backFields!.map((f) => f.key)).toContain('orderDate');
    const device = 'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5';
    await register(pass, device);

    const link = await googleLink(T.reserved);
    const object = link.genericObjects![0]!;
    expect(object.textModulesData).toContainEqual(
      expect.objectContaining({ id: 'next_visit', header: 'Reservation', body: written(first) }),
    );
    expect(object.validTimeInterval).toEqual({ start: { date: first.startsAt.toISOString() }, end: { date: SEASON_EXPIRES } });
    google.saved.add(object.id);
    await settleDeliveries(t.app);
    const before = pushedTo(device);

    // Cancelled: the next one shows, on the device (pushed, fetched) and at Google.
    expect((await visits('cancel/', { reservationId: reservationOf(booked, first.id) })).statusCode).toBe(200);
    await settleDeliveries(t.app);
    expect(pushedTo(device)).toBe(before + 1);
    const moved = await fetchLatest(pass);
    expect(visitField(moved)?.value).toBe(written(second));
    expect(moved.relevantDates).toEqual([{ startDate: w3c(second.startsAt), endDate: w3c(second.endsAt) }]);
    const update = objectCallsOf(object.id).at(-1)!.body as typeof object;
    expect(update.textModulesData).toContainEqual(expect.objectContaining({ id: 'next_visit', body: written(second) }));
    expect(update.validTimeInterval?.start).toEqual({ date: second.startsAt.toISOString() });

    // None left: the operating days again, no field, valid until the expiry only.
    expect((await visits('cancel/', { reservationId: reservationOf(alsoBooked, second.id) })).statusCode).toBe(200);
    await settleDeliveries(t.app);
    const none = await fetchLatest(pass);
    expect(visitField(none)).toBeUndefined();
    expect((none.relevantDates as unknown[]).length).toBeGreaterThan(1);
    const last = objectCallsOf(object.id).at(-1)!.body as typeof object;
    expect(last.textModulesData!.some((m) => m.id === 'next_visit')).toBe(false);
    expect(last.validTimeInterval).toEqual({ end: { date: SEASON_EXPIRES } });
  });
});

describe('Google objects keep their kind', () => {
  it('keeps updating a generic object handed out before tickets had kinds, whatever the ticket is now', async () => {
    const legacy = { orderId: '41000008', barcode: '4100000000000080' };
    const card = { product: 'Play Card', category: 'Stored Value Card', credits: 10, holder, barcode: legacy.barcode };
    await putOrder(t.app, legacy.orderId, anOrder([card]));
    // A link an older version handed out: migration 0013 marks its object generic.
    const [row] = await t.database.db
      .insert(schema.walletPasses)
      .values({ barcode: legacy.barcode, googleIssued: true, googleObjectKind: 'genericObject' })
      .returning();
    const objectId = `${ISSUER_ID}.${row!.serialNumber}`;
    google.saved.add(objectId);
    await putOrder(t.app, legacy.orderId, anOrder([{ ...card, credits: 12 }]));
    await settleDeliveries(t.app);
    expect(objectCallsOf(objectId).map((c) => c.path)).toEqual([`/walletobjects/v1/genericObject/${objectId}`]);
    // Its link again: still the generic object, in the generic class.
    const again = await googleLink(legacy);
    expect(again.genericObjects![0]!.id).toBe(objectId);
    expect(again.loyaltyObjects).toBeUndefined();
  });
});

describe('voided when no longer valid', () => {
  it('voids a refunded ticket: the device is pushed and fetches voided, Google makes the object inactive; a refund undone makes it valid again', async () => {
    const pass = await applePass(T.refund);
    const device = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
    await register(pass, device);
    const objectId = (await googleLink(T.refund)).eventTicketObjects![0]!.id;
    google.saved.add(objectId);
    await settleDeliveries(t.app);
    const before = pushedTo(device);

    const refunded = { product: 'Day Admission', category: 'Day Ticket', visitDate: VISIT_DAY, holder, cash: 5, barcode: T.refund.barcode };
    await putOrder(t.app, T.refund.orderId, anOrder([{ ...refunded, refunded: true }]));
    await settleDeliveries(t.app);
    expect(pushedTo(device)).toBe(before + 1);
    expect((await fetchLatest(pass)).voided).toBe(true);
    expect(objectCallsOf(objectId).at(-1)?.body.state).toBe('INACTIVE');

    await putOrder(t.app, T.refund.orderId, anOrder([refunded]));
    await settleDeliveries(t.app);
    expect(pushedTo(device)).toBe(before + 2);
    expect((await fetchLatest(pass)).voided).toBeUndefined();
    expect(objectCallsOf(objectId).at(-1)?.body.state).toBe('ACTIVE');
  });

  it('voids a redeemed single-use admission, not a redeemed season pass', async () => {
    const pass = await applePass(T.redeem);
    const device = 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2';
    await register(pass, device);
    const objectId = (await googleLink(T.redeem)).eventTicketObjects![0]!.id;
    google.saved.add(objectId);
    const season = await applePass(T.season);
    await settleDeliveries(t.app);
    const before = pushedTo(device);

    const redeemed = '2030-07-04T11:00:00-07:00';
    await putOrder(
      t.app,
      T.redeem.orderId,
      anOrder([
        { product: 'Day Admission', category: 'Day Ticket', visitDate: VISIT_DAY, holder, cash: 5, barcode: T.redeem.barcode, redeemed },
      ]),
    );
    await putOrder(
      t.app,
      T.season.orderId,
      anOrder([
        {
          barcode: T.season.barcode,
          product: 'Season Pass',
          category: 'Season Pass',
          isPassholder: true,
          holder,
          expires: SEASON_EXPIRES,
          redeemed,
        },
      ]),
    );
    await settleDeliveries(t.app);
    expect(pushedTo(device)).toBe(before + 1);
    expect((await fetchLatest(pass)).voided).toBe(true);
    expect(objectCallsOf(objectId).at(-1)?.body.state).toBe('INACTIVE');
    expect((await fetchLatest(season)).voided).toBeUndefined();
  });

  it("voids a shared guest's own pass when sharing stops, while the owner's stays valid", async () => {
    const share = await staff.share(t.database.db, {
      barcode: T.shared.barcode,
      hashUrlHash: hashSecret('x'.repeat(88)),
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: 'rosa@example.com',
    });
    const owner = await applePass(T.shared);
    const guest = await applePass({ ...T.shared, shareId: share.shareId });
    expect(guest.serialNumber).not.toBe(owner.serialNumber);
    const ownerDevice = 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3';
    const guestDevice = 'd4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4';
    await register(owner, ownerDevice);
    await register(guest, guestDevice);
    const ownerObject = (await googleLink(T.shared)).loyaltyObjects![0]!.id;
    const guestObject = (await googleLink({ ...T.shared, shareId: share.shareId })).loyaltyObjects![0]!.id;
    google.saved.add(ownerObject).add(guestObject);
    await settleDeliveries(t.app);
    const [ownerBefore, guestBefore] = [pushedTo(ownerDevice), pushedTo(guestDevice)];

    const login = await t.app.inject({ method: 'POST', url: '/api/login/', payload: T.shared, remoteAddress: nextIp() });
    const token = login.json<{ ticketShareToken: string }>().ticketShareToken;
    const stop = await t.app.inject({
      method: 'DELETE',
      url: `/api/share/${T.shared.orderId}/${T.shared.barcode}/${share.shareId}/`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(stop.statusCode).toBe(204);
    await settleDeliveries(t.app);

    expect(pushedTo(guestDevice)).toBe(guestBefore + 1);
    expect(pushedTo(ownerDevice)).toBe(ownerBefore);
    expect((await fetchLatest(guest)).voided).toBe(true);
    expect((await fetchLatest(owner)).voided).toBeUndefined();
    expect(objectCallsOf(guestObject).at(-1)?.body.state).toBe('INACTIVE');
    // The owner's object (never sent before, so sent once) stays active.
    expect(objectCallsOf(ownerObject).map((c) => c.body.state)).not.toContain('INACTIVE');

    // A later change of the ticket leaves the stopped share's pass voided.
    await putOrder(
      t.app,
      T.shared.orderId,
      anOrder([{ product: 'Play Card', category: 'Stored Value Card', credits: 35, holder, barcode: T.shared.barcode }]),
    );
    await settleDeliveries(t.app);
    expect((await fetchLatest(guest)).voided).toBe(true);
    expect(objectCallsOf(guestObject).at(-1)?.body.state).toBe('INACTIVE');
    expect(objectCallsOf(ownerObject).at(-1)?.body.state).toBe('ACTIVE');
  });
});

describe("Google's notification budget", () => {
  it('asks Google to notify at most 3 updates of an object in 24 hours; the 4th goes out silently', async () => {
    const objectId = (await googleLink(T.budget)).genericObjects![0]!.id;
    google.saved.add(objectId);
    for (const cash of [2, 3, 4, 5]) {
      await putOrder(t.app, T.budget.orderId, anOrder([{ barcode: T.budget.barcode, holder, cash }]));
      await settleDeliveries(t.app);
    }
    const calls = objectCallsOf(objectId);
    expect(calls.map((c) => c.body.textModulesData?.find((m) => m.id === 'balance')?.body)).toEqual(['$2.00', '$3.00', '$4.00', '$5.00']);
    expect(calls.map((c) => (c.body as { notifyPreference?: string }).notifyPreference ?? null)).toEqual([
      'notifyOnUpdate',
      'notifyOnUpdate',
      'notifyOnUpdate',
      null,
    ]);
  });
});
