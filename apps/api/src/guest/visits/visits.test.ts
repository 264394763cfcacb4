// Passholder visit reservations on a fresh database: the staff tabs' rules and figures, the
// calendar, booking, moving, cancelling, the capacity under 200 concurrent bookings, the
// waitlist promoted once by tier then time with two workers (mail in the guest's language),
// tier opening times at their boundary (the day before daylight saving ends), blockout days,
// the limit, no-shows from the gate feed and the block they cause, and the gate's answer. Places
// freed go to the waitlist first; a booking ended or used stays; the queue passes over a pass
// whose day is spent, confirms a place before giving up a booking, breaks ties by row id.
import { TZDate } from '@date-fns/tz';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VISIT_REFUSALS, type VisitCalendar, type VisitGateAnswer } from '@boardwalk/contract/visits';
import { attractionUsage, loyaltyAccounts, outbox, visitReservations, type VisitStatus } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { eventsOfType } from '../../../test-support/events.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { claimTickets } from '../../loyalty/loyalty-claims.service.ts';
import { insertAccount } from '../../loyalty/loyalty.repo.ts';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';
import type { ChangeBus } from '../../platform/jobs/jobs.plugin.ts';
import { operatingDay, operatingDayBounds, shiftDate } from '../../platform/park-time.ts';
import { markVisitNoShows, markVisitsUsed, promoteWaitlist, type WaitlistDeps } from './visit-waitlist.service.ts';
import { dayOpensAt } from './visits.service.ts';

const TZ = 'America/Los_Angeles';
const PRODUCT = 'Gold Season Pass';

let t: TestApp;
/** A second instance on the same database: a second worker. */
let second: TestApp;
let admin: StaffLogin;

beforeAll(async () => {
  const env = {
    DELIVERY_WORKERS: 'false',
    PARK_TIMEZONE: TZ,
    LOG_LEVEL: 'error',
    VISIT_DAYS_AHEAD: '7',
    VISIT_BOOKING_DAYS: '30',
    VISIT_UPCOMING_LIMIT: '3',
    VISIT_NO_SHOW_LIMIT: '2',
    VISIT_NO_SHOW_PERIOD_DAYS: '30',
    VISIT_NO_SHOW_BLOCK_DAYS: '14',
  };
  t = await createTestApp({ env });
  second = await createTestApp({ database: t.database, env });
  admin = await loginAs(t.app, { accessLevel: 100 });
  const rule = await tab('POST', 'visit-products', { visitProductProduct: PRODUCT });
  expect(rule.statusCode, rule.body).toBe(201);
});
afterAll(async () => {
  await second.close();
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const tab = (method: 'POST' | 'PUT' | 'GET', key: string, payload?: Record<string, unknown>, id = '') =>
  t.app.inject({ method, url: `/api/admin/${key}/${id}`, headers: admin.headers, ...(payload && { payload }) });

/** An hour of a day (YYYY-MM-DD) on the park's clock. */
const at = (day: string, hour: number, minute = 0) =>
  new Date(new TZDate(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), hour, minute, 0, TZ).getTime());
const today = () => operatingDay(new Date(), TZ);
const HOUR = 3_600_000;
/**
 * Now, or, within two hours of 2:00 AM (where one operating day ends and the next begins), the
 * clock moved to two hours past it: a test of windows around now keeps them in one operating day
 * whenever it runs.
 */
function clearOfDayEdge(): Date {
  const now = Date.now();
  const { start, end } = operatingDayBounds(operatingDay(new Date(now), TZ), TZ);
  const edge = [start.getTime(), end.getTime()].find((at) => Math.abs(now - at) < 2 * HOUR);
  if (edge === undefined) return new Date(now);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(edge + 2 * HOUR);
  return new Date(edge + 2 * HOUR);
}

let windowSeq = 0;
/** An entry window through the Entry Windows tab, `days` from today (each call its own minute: starts are unique). */
async function aWindow(days: number, capacity: number, hours: [number, number] = [10, 12]) {
  const day = shiftDate(today(), days);
  const minute = ++windowSeq % 60;
  const res = await tab('POST', 'visit-windows', {
    visitWindowStarts: at(day, hours[0], minute).toISOString(),
    visitWindowEnds: at(day, hours[1], minute).toISOString(),
    visitWindowCapacity: capacity,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json<{ visitWindowID: string }>().visitWindowID, day };
}

let orderSeq = 0;
/** Passes of one new order (a product that needs a reservation unless told), each with its holder's email. */
async function passes(n: number, overrides: { product?: string; isPassholder?: boolean } = {}) {
  const orderId = String(61_000_000 + ++orderSeq);
  const list = Array.from({ length: n }, (_, i) => ({
    orderId,
    barcode: `24${orderId}${String(i + 1).padStart(8, '0')}`,
  }));
  await putOrder(
    t.app,
    orderId,
    anOrder(
      list.map((p, i) => ({
        barcode: p.barcode,
        product: overrides.product ?? PRODUCT,
        isPassholder: overrides.isPassholder ?? true,
        holder: { firstName: 'Pia', lastName: `Holder ${i}`, email: `holder.${p.barcode}@example.com`, phone: '3105550100' },
      })),
    ),
  );
  return list;
}
const aPass = async (overrides: { product?: string; isPassholder?: boolean } = {}) => (await passes(1, overrides))[0]!;

let ipSeq = 0;
const call = (path: string, payload: Record<string, unknown>, language = 'en', app = t.app) =>
  app.inject({
    method: 'POST',
    url: `/api/visits/${path}`,
    payload,
    remoteAddress: `10.51.${Math.floor(++ipSeq / 250) % 250}.${ipSeq % 250}`,
    headers: { 'accept-language': language },
  });
const calendar = async (pass: { orderId: string; barcode: string }) => {
  const res = await call('', pass);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VisitCalendar>();
};
const windowIn = (cal: VisitCalendar, windowId: string) => cal.days.flatMap((d) => d.windows).find((w) => w.windowId === windowId);
const book = (pass: { orderId: string; barcode: string }, windowId: string, language = 'en') =>
  call('book/', { ...pass, windowId }, language);
const waitlist = (pass: { orderId: string; barcode: string }, windowId: string, language = 'en') =>
  call('waitlist/', { ...pass, windowId }, language);
const reasonOf = (res: { json: () => unknown }) => (res.json() as { reason?: string }).reason;
const statusOf = async (barcode: string) =>
  await t.database.db
    .select({ status: visitReservations.status, windowId: visitReservations.windowId })
    .from(visitReservations)
    .where(eq(visitReservations.barcode, barcode));

/** Sets the status of the pass's reservation in a window (what the gate feed or the no-show sweep would do). */
const setStatus = (barcode: string, windowId: string, status: VisitStatus) =>
  t.database.db
    .update(visitReservations)
    .set({ status })
    .where(and(eq(visitReservations.barcode, barcode), eq(visitReservations.windowId, windowId)));
const cancelIn = async (pass: { orderId: string; barcode: string }, windowId: string) => {
  const res = await call('cancel/', { ...pass, reservationId: windowIn(await calendar(pass), windowId)!.reservationId });
  expect(res.statusCode, res.body).toBe(200);
};

const deps = (app: TestApp['app']): WaitlistDeps => ({
  db: app.database.db,
  tickets: app.tickets,
  changes: app.jobs,
  mailer: app.mailer,
  config: app.config,
});

/** The gate feed reports a use of the pass at `at`, and the visits queue marks its booking used. */
async function usedAtGate(barcode: string, at: Date) {
  const usage = await t.app.inject({
    method: 'POST',
    url: '/api/integrations/usage',
    headers: integrationAuth,
    payload: { events: [{ barcode, attraction: 'Sea Dragon', location: 'West Pier', timestamp: at.toISOString() }] },
  });
  expect(usage.statusCode, usage.body).toBe(200);
  expect(await markVisitsUsed(deps(t.app), barcode)).toBe(1);
}

const gate = async (barcode: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/integrations/visits/${barcode}`, headers: integrationAuth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VisitGateAnswer>();
};

describe('the staff tabs', () => {
  it('refuses a window that ends before it starts (4xx naming the field), and shows what is booked and waitlisted', async () => {
    const day = shiftDate(today(), 2);
    const bad = await tab('POST', 'visit-windows', {
      visitWindowStarts: at(day, 12).toISOString(),
      visitWindowEnds: at(day, 10).toISOString(),
      visitWindowCapacity: 5,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Ends must be after Starts' });

    const w = await aWindow(2, 1);
    const [a, b] = await passes(2);
    expect((await book(a!, w.id)).statusCode).toBe(200);
    expect((await waitlist(b!, w.id)).statusCode).toBe(200);
    const listed = await tab('GET', 'visit-windows', undefined, `?pageSize=200`);
    expect(listed.json<Record<string, unknown>[]>().find((r) => r.visitWindowID === w.id)).toMatchObject({
      visitWindowBooked: 1,
      visitWindowWaitlisted: 1,
    });

    // A window holding reservations keeps its times; its capacity may change.
    const moved = await tab('PUT', 'visit-windows', { visitWindowStarts: at(day, 9).toISOString() }, w.id);
    expect(moved.statusCode).toBe(409);
    // The row is still used by reservations: it is not deleted.
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/admin/visit-windows/${w.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json<{ message: string }>().message).toContain('passholder reservations');
  });
});

describe('booking', () => {
  it('answers a pass whose product needs no reservation with required false, and the gate admits it on the pass alone', async () => {
    const day = await aPass({ product: 'Day Ticket', isPassholder: false });
    expect(await calendar(day)).toEqual({ required: false, blockedUntil: null, upcoming: 0, limit: 3, days: [], timeZone: TZ });
    const w = await aWindow(1, 5);
    const refused = await book(day, w.id);
    expect(refused.statusCode).toBe(403);
    expect(reasonOf(refused)).toBe(VISIT_REFUSALS.notRequired);
    expect(await gate(day.barcode)).toMatchObject({ required: false, reservedNow: false, window: null });
  });

  it('books a window, moves the booking to another window of that day, cancels it: events, pass republished, places counted', async () => {
    const pass = await aPass();
    const morning = await aWindow(1, 5, [10, 12]);
    const noon = await aWindow(1, 5, [12, 14]);
    const first = await book(pass, morning.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(windowIn(first.json<VisitCalendar>(), morning.id)).toMatchObject({ state: 'booked', placesLeft: 4 });
    // Booking it again is refused; booking the noon window moves the day's booking.
    expect(reasonOf(await book(pass, morning.id))).toBe(VISIT_REFUSALS.alreadyHeld);
    const moved = (await book(pass, noon.id)).json<VisitCalendar>();
    expect(windowIn(moved, morning.id)).toMatchObject({ state: 'open', placesLeft: 5, reservationId: null });
    const booked = windowIn(moved, noon.id)!;
    expect(booked).toMatchObject({ state: 'booked', placesLeft: 4 });
    expect(moved.upcoming).toBe(1);

    const cancelled = await call('cancel/', { ...pass, reservationId: booked.reservationId });
    expect(windowIn(cancelled.json<VisitCalendar>(), noon.id)).toMatchObject({ state: 'open', placesLeft: 5 });
    // Cancelling again changes nothing.
    expect((await call('cancel/', { ...pass, reservationId: booked.reservationId })).statusCode).toBe(200);

    const mine = (events: Record<string, unknown>[]) => events.filter((e) => e.barcode === pass.barcode).map((e) => e.startsAt);
    expect(mine(await eventsOfType(t.app, 'reservation.booked'))).toEqual([morning, noon].map(() => expect.any(String)));
    expect(mine(await eventsOfType(t.app, 'reservation.cancelled'))).toHaveLength(2);
  });

  it('refuses bad input with 400 and an unknown window or reservation with 404, changing nothing', async () => {
    const pass = await aPass();
    expect((await call('book/', { ...pass, windowId: 'not-a-uuid' })).statusCode).toBe(400);
    expect((await call('book/', { ...pass, windowId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await call('cancel/', { ...pass, reservationId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect(
      (await call('book/', { orderId: pass.orderId, barcode: '2499999999999999', windowId: '00000000-0000-4000-8000-000000000000' }))
        .statusCode,
    ).toBe(404);
    expect(await statusOf(pass.barcode)).toEqual([]);
  });

  it('gives 10 of 200 passes racing for the last 10 places a booking, and the 190 others a 409 that offers the waitlist', async () => {
    const w = await aWindow(3, 10);
    const all = (await Promise.all(Array.from({ length: 20 }, () => passes(10)))).flat();
    const answers = await Promise.all(all.map((p, i) => book(p, w.id).then((r) => ({ r, i }))));
    const ok = answers.filter(({ r }) => r.statusCode === 200);
    const full = answers.filter(({ r }) => r.statusCode === 409 && reasonOf(r) === VISIT_REFUSALS.full);
    expect(ok).toHaveLength(10);
    expect(full).toHaveLength(190);
    expect(full[0]!.r.json<{ message: string }>().message).toContain('Join the waitlist');
    expect(windowIn(await calendar(all[full[0]!.i]!), w.id)).toMatchObject({ state: 'full', placesLeft: 0 });
    // Joining the waitlist is a call of its own.
    expect((await waitlist(all[full[0]!.i]!, w.id)).statusCode).toBe(200);
  });

  it('refuses a blockout day, a window already ended, and a pass past its limit of upcoming reservations', async () => {
    const pass = await aPass();
    const blocked = await aWindow(4, 5);
    const res = await tab('POST', 'visit-blockouts', { visitBlockoutDay: blocked.day, visitBlockoutProduct: PRODUCT });
    expect(res.statusCode, res.body).toBe(201);
    expect(windowIn(await calendar(pass), blocked.id)).toBeDefined();
    expect((await calendar(pass)).days.find((d) => d.day === blocked.day)?.blocked).toBe(true);
    expect(reasonOf(await book(pass, blocked.id))).toBe(VISIT_REFUSALS.blockedDay);

    const ended = await aWindow(-1, 5);
    expect(reasonOf(await book(pass, ended.id))).toBe(VISIT_REFUSALS.past);

    for (const days of [5, 6]) expect((await book(pass, (await aWindow(days, 5)).id)).statusCode).toBe(200);
    const full = await aWindow(5, 0, [14, 16]);
    expect((await waitlist(pass, full.id)).statusCode).toBe(200);
    const over = await book(pass, (await aWindow(6, 5, [14, 16])).id); // a move that day stays within the limit
    expect(over.statusCode).toBe(200);
    const fourth = await book(pass, (await aWindow(7, 5)).id);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ reason: VISIT_REFUSALS.limit, params: { limit: 3 } });
  });

  it('keeps a place freed by a cancellation for the waitlist: booking it is refused as full, as the calendar and the tab count it', async () => {
    const w = await aWindow(3, 1, [16, 18]);
    const [holder, waiting, other] = await passes(3);
    expect((await book(holder!, w.id)).statusCode).toBe(200);
    expect((await waitlist(waiting!, w.id)).statusCode).toBe(200);
    await cancelIn(holder!, w.id);

    // The queue has not run yet: the place is the waitlist's.
    const refused = await book(other!, w.id);
    expect(refused.statusCode).toBe(409);
    expect(reasonOf(refused)).toBe(VISIT_REFUSALS.full);
    expect(await statusOf(other!.barcode)).toEqual([]);
    expect(windowIn(await calendar(other!), w.id)).toMatchObject({ state: 'full', placesLeft: 0 });
    const listed = await tab('GET', 'visit-windows', undefined, `?pageSize=200`);
    expect(listed.json<Record<string, unknown>[]>().find((r) => r.visitWindowID === w.id)).toMatchObject({
      visitWindowBooked: 0,
      visitWindowWaitlisted: 1,
    });
    // The waitlist is offered, and the queue books the first in line.
    expect((await waitlist(other!, w.id)).statusCode).toBe(200);
    expect(await promoteWaitlist(deps(t.app), w.id)).toBe(1);
    expect(windowIn(await calendar(waiting!), w.id)).toMatchObject({ state: 'booked' });
    expect(windowIn(await calendar(other!), w.id)).toMatchObject({ state: 'waitlisted', waitlistPosition: 1 });
  });

  it('refuses moving or cancelling a booking whose window ended before it is marked a no-show (past), changing nothing', async () => {
    const pass = await aPass();
    const morning = await aWindow(1, 5, [10, 12]);
    const afternoon = await aWindow(1, 5, [14, 16]);
    const first = await book(pass, morning.id);
    expect(first.statusCode).toBe(200);
    const reservationId = windowIn(first.json<VisitCalendar>(), morning.id)!.reservationId;

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at(morning.day, 12, 30));
    const moved = await book(pass, afternoon.id);
    expect(moved.statusCode).toBe(409);
    expect(reasonOf(moved)).toBe(VISIT_REFUSALS.past);
    const cancelled = await call('cancel/', { ...pass, reservationId });
    expect(cancelled.statusCode).toBe(409);
    expect(reasonOf(cancelled)).toBe(VISIT_REFUSALS.past);
    expect(await statusOf(pass.barcode)).toEqual([{ status: 'booked', windowId: morning.id }]);
  });
});

describe('the waitlist', () => {
  it('joins only a full window, then moves by itself: the higher tier first, then the earliest, each promoted once with two workers', async () => {
    const w = await aWindow(2, 1, [14, 16]);
    const [holder, early, late, gold] = await passes(4);
    expect(reasonOf(await waitlist(early!, w.id))).toBe(VISIT_REFUSALS.notFull);
    expect((await book(holder!, w.id)).statusCode).toBe(200);

    // Gold: a member whose season pass this is, with the points of a tier.
    await t.database.executeSql(
      `insert into loyalty_tiers (name, points_to_reach, visit_days_ahead) values ('Visit Gold', 100, 14) on conflict do nothing`,
    );
    const accountId = (await insertAccount(t.database.db, {
      email: `gold.${gold!.barcode}@example.com`,
      firstName: 'Gil',
      lastName: 'Gold',
      createdBy: 'staff',
      createdAt: new Date(),
    }))!;
    await t.database.db.update(loyaltyAccounts).set({ seasonPassId: gold!.barcode }).where(eq(loyaltyAccounts.id, accountId));
    const bought = String(61_900_000 + ++orderSeq);
    await putOrder(t.app, bought, anOrder([{ barcode: `${bought}00000001`, price: 150 }], { orderDate: new Date().toISOString() }));
    await claimTickets(
      loyaltyCoreOf(t.app),
      { accountId, email: `gold.${gold!.barcode}@example.com`, orderId: bought },
      { kind: 'staff', username: 'visits.tester' },
    );

    expect((await waitlist(early!, w.id, 'es')).statusCode).toBe(200);
    expect((await waitlist(late!, w.id)).statusCode).toBe(200);
    expect((await waitlist(gold!, w.id)).statusCode).toBe(200);
    expect(windowIn(await calendar(gold!), w.id)).toMatchObject({ state: 'waitlisted', waitlistPosition: 1 });
    expect(windowIn(await calendar(early!), w.id)).toMatchObject({ state: 'waitlisted', waitlistPosition: 2 });
    // Early also books another window that day: promoted, that booking is given up.
    const other = await aWindow(2, 3, [16, 18]);
    expect((await book(early!, other.id)).statusCode).toBe(200);

    // The holder cancels: one place, two workers and a retry: Gold is promoted once.
    const held = windowIn(await calendar(holder!), w.id)!;
    await call('cancel/', { ...holder!, reservationId: held.reservationId });
    const promoted = await Promise.all([
      promoteWaitlist(deps(t.app), w.id),
      promoteWaitlist(deps(second.app), w.id),
      promoteWaitlist(deps(t.app), w.id),
    ]);
    expect(promoted.reduce((a, b) => a + b, 0)).toBe(1);
    expect(windowIn(await calendar(gold!), w.id)).toMatchObject({ state: 'booked' });

    // A capacity raise through the tab moves the rest: Early, then Late.
    expect((await tab('PUT', 'visit-windows', { visitWindowCapacity: 3 }, w.id)).statusCode).toBe(200);
    expect(await Promise.all([promoteWaitlist(deps(second.app), w.id), promoteWaitlist(deps(t.app), w.id)]).then((n) => n[0] + n[1])).toBe(
      2,
    );
    expect(windowIn(await calendar(early!), w.id)).toMatchObject({ state: 'booked' });
    expect(windowIn(await calendar(early!), other.id)).toMatchObject({ state: 'open', reservationId: null });
    const promotions = (await eventsOfType(t.app, 'reservation.promoted')).filter((e) =>
      [gold, early, late].some((p) => p!.barcode === e.barcode),
    );
    expect(promotions.map((e) => e.barcode)).toEqual([gold!.barcode, early!.barcode, late!.barcode]);

    // Each told once by mail, in the language they joined in.
    const mails = await t.database.db.select().from(outbox);
    const to = (p: { barcode: string }) => mails.filter((m) => m.to === `holder.${p.barcode}@example.com`);
    expect(to(gold!)).toHaveLength(1);
    expect(to(early!).map((m) => m.subject)).toEqual([expect.stringMatching(/^Tiene reserva para el /)]);
    expect(to(late!)[0]!.subject).toMatch(/^You are booked for /);
    const body = t.app.mailer.readBody(to(late!)[0]!)!;
    expect(body).toContain(`/${late!.orderId}/${late!.barcode}?lang=en`);
  });

  it('gives up the place of a pass whose booking that day was used or has ended, and books the next in line', async () => {
    const w = await aWindow(2, 1, [14, 16]);
    const morning = await aWindow(2, 5, [10, 12]);
    const [holder, visitor, missed, next] = await passes(4);
    expect((await book(holder!, w.id)).statusCode).toBe(200);
    for (const p of [visitor!, missed!]) {
      expect((await book(p, morning.id)).statusCode).toBe(200);
      expect((await waitlist(p, w.id)).statusCode).toBe(200);
    }
    expect((await waitlist(next!, w.id)).statusCode).toBe(200);
    // The visitor came in the morning (the gate feed marked it used); the other did not come (not yet a no-show).
    await setStatus(visitor!.barcode, morning.id, 'used');
    await cancelIn(holder!, w.id);

    expect(await promoteWaitlist(deps(t.app), w.id, at(w.day, 12, 30))).toBe(1);
    expect(await statusOf(next!.barcode)).toEqual([{ status: 'booked', windowId: w.id }]);
    const sorted = async (barcode: string) => (await statusOf(barcode)).sort((a, b) => a.status.localeCompare(b.status));
    expect(await sorted(visitor!.barcode)).toEqual([
      { status: 'cancelled', windowId: w.id },
      { status: 'used', windowId: morning.id },
    ]);
    expect(await sorted(missed!.barcode)).toEqual([
      { status: 'booked', windowId: morning.id },
      { status: 'cancelled', windowId: w.id },
    ]);
    const givenUp = (await eventsOfType(t.app, 'reservation.cancelled')).filter((e) => e.barcode === visitor!.barcode);
    expect(givenUp).toHaveLength(1);
  });

  it("confirms the waitlist place before giving up the pass's other booking: a place left meanwhile costs the pass nothing", async () => {
    const w = await aWindow(2, 1, [18, 20]);
    const morning = await aWindow(2, 5, [10, 12]);
    const [holder, mover, next] = await passes(3);
    expect((await book(holder!, w.id)).statusCode).toBe(200);
    expect((await book(mover!, morning.id)).statusCode).toBe(200);
    expect((await waitlist(mover!, w.id)).statusCode).toBe(200);
    expect((await waitlist(next!, w.id)).statusCode).toBe(200);
    const place = windowIn(await calendar(mover!), w.id)!.reservationId!;
    await cancelIn(holder!, w.id);

    // The mover leaves the waitlist while the queue runs: at the first change the promotion tells.
    const leaving: ChangeBus = {
      publish: async (tx, topic, keys, system) => {
        await tx
          .update(visitReservations)
          .set({ status: 'cancelled', cancelledAt: new Date() })
          .where(and(eq(visitReservations.id, place), eq(visitReservations.status, 'waitlisted')));
        await t.app.jobs.publish(tx, topic, keys, system);
      },
    };
    const promoted = await promoteWaitlist({ ...deps(t.app), changes: leaving }, w.id);
    // The place stood when the queue took it: promoted, the morning given up; never left with neither.
    expect(promoted).toBe(1);
    expect((await statusOf(mover!.barcode)).filter((r) => r.status === 'booked')).toHaveLength(1);
    expect(await statusOf(next!.barcode)).toEqual([{ status: 'waitlisted', windowId: w.id }]);
  });

  it('orders passes of one tier that joined at the same instant by row id: their positions and the promotion agree', async () => {
    const w = await aWindow(3, 1, [14, 16]);
    const [holder, a, b] = await passes(3);
    expect((await book(holder!, w.id)).statusCode).toBe(200);
    expect((await waitlist(a!, w.id)).statusCode).toBe(200);
    expect((await waitlist(b!, w.id)).statusCode).toBe(200);
    await t.database.db
      .update(visitReservations)
      .set({ joinedAt: new Date() })
      .where(and(eq(visitReservations.windowId, w.id), eq(visitReservations.status, 'waitlisted')));
    const positions = await Promise.all([a!, b!].map(async (p) => windowIn(await calendar(p), w.id)!.waitlistPosition));
    expect([...positions].sort()).toEqual([1, 2]);
    const firstInLine = positions[0] === 1 ? a! : b!;

    await cancelIn(holder!, w.id);
    expect(await promoteWaitlist(deps(t.app), w.id)).toBe(1);
    expect(windowIn(await calendar(firstInLine), w.id)).toMatchObject({ state: 'booked' });
  });
});

describe('tier opening times', () => {
  it('open a day at the operating day start that many days before, in the park, the day before daylight saving ends too', async () => {
    // Daylight saving ends on 2026-11-01 at 2:00 AM in Los Angeles.
    expect(dayOpensAt('2026-11-01', 1, TZ).toISOString()).toBe('2026-10-31T09:00:00.000Z');
    expect(dayOpensAt('2026-11-02', 1, TZ).toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(dayOpensAt('2026-11-08', 7, TZ).toISOString()).toBe('2026-11-01T10:00:00.000Z');
  });

  it('refuses a booking a moment before the day opens to the pass and takes it at that moment (clock moved)', async () => {
    const pass = await aPass();
    const w = await aWindow(10, 5);
    const opensAt = dayOpensAt(w.day, 7, TZ);
    expect((await calendar(pass)).days.find((d) => d.day === w.day)?.opensAt).toBe(opensAt.toISOString());
    const early = await book(pass, w.id);
    expect(early.json()).toMatchObject({ reason: VISIT_REFUSALS.notOpen, params: { opensAt: opensAt.toISOString() } });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(opensAt.getTime() - 1);
    expect(reasonOf(await book(pass, w.id))).toBe(VISIT_REFUSALS.notOpen);
    vi.setSystemTime(opensAt);
    expect((await book(pass, w.id)).statusCode).toBe(200);
    expect((await calendar(pass)).days.find((d) => d.day === w.day)?.opensAt).toBeNull();
  });
});

describe('no-shows and the gate', () => {
  it('answers the gate for reserved now, another window, not reserved; marks the pass used from the usage feed', async () => {
    const pass = await aPass();
    const other = await aPass();
    const now = clearOfDayEdge();
    const day = today();
    // A window open now and one later today (unique starts: seconds apart).
    const open = await tab('POST', 'visit-windows', {
      visitWindowStarts: new Date(now.getTime() - 30 * 60_000 + 7_000).toISOString(),
      visitWindowEnds: new Date(now.getTime() + 30 * 60_000).toISOString(),
      visitWindowCapacity: 5,
    });
    const later = await tab('POST', 'visit-windows', {
      visitWindowStarts: new Date(now.getTime() + 60 * 60_000 + 7_000).toISOString(),
      visitWindowEnds: new Date(now.getTime() + 90 * 60_000).toISOString(),
      visitWindowCapacity: 5,
    });
    const openId = open.json<{ visitWindowID: string }>().visitWindowID;
    const laterId = later.json<{ visitWindowID: string }>().visitWindowID;
    expect(await gate(pass.barcode)).toMatchObject({ required: true, reservedNow: false, window: null });
    expect((await book(pass, openId)).statusCode).toBe(200);
    expect(await gate(pass.barcode)).toMatchObject({ required: true, reservedNow: true, window: { endsAt: expect.any(String) } });
    expect((await book(other, laterId)).statusCode).toBe(200);
    const wrong = await gate(other.barcode);
    expect(wrong.reservedNow).toBe(false);
    expect(wrong.window?.startsAt).toBe(new Date(now.getTime() + 60 * 60_000 + 7_000).toISOString());

    await usedAtGate(pass.barcode, now);
    expect(await statusOf(pass.barcode)).toEqual([{ status: 'used', windowId: openId }]);
    expect(day).toBe(operatingDay(now, TZ));
  });

  it('shows a booking used at the gate as booked, with nothing to cancel, and refuses booking it again', async () => {
    const pass = await aPass();
    const now = clearOfDayEdge();
    const open = await tab('POST', 'visit-windows', {
      visitWindowStarts: new Date(now.getTime() - 20 * 60_000 + 11_000).toISOString(),
      visitWindowEnds: new Date(now.getTime() + 40 * 60_000).toISOString(),
      visitWindowCapacity: 5,
    });
    expect(open.statusCode, open.body).toBe(201);
    const openId = open.json<{ visitWindowID: string }>().visitWindowID;
    expect((await book(pass, openId)).statusCode).toBe(200);
    await usedAtGate(pass.barcode, now);

    const cal = await calendar(pass);
    expect(windowIn(cal, openId)).toMatchObject({ state: 'booked', placesLeft: 4, reservationId: null });
    expect(cal.upcoming).toBe(0);
    expect(reasonOf(await book(pass, openId))).toBe(VISIT_REFUSALS.alreadyHeld);

    // Its window ended (the clock moved past it): the day still shows the visit, so nothing looks bookable that day.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now.getTime() + 41 * 60_000);
    expect(windowIn(await calendar(pass), openId)).toMatchObject({ state: 'booked', reservationId: null });
  });

  it('marks one reservation of a day used when the pass missed two windows that day and its use arrives late', async () => {
    const pass = await aPass();
    const morning = await aWindow(1, 5, [10, 12]);
    const noon = await aWindow(1, 5, [12, 14]);
    expect((await book(pass, morning.id)).statusCode).toBe(200);
    await setStatus(pass.barcode, morning.id, 'no_show');
    expect((await book(pass, noon.id)).statusCode).toBe(200);
    await setStatus(pass.barcode, noon.id, 'no_show');
    // The gate feed's use of 11:00 arrives after both windows were marked missed.
    await t.database.db
      .insert(attractionUsage)
      .values({ barcode: pass.barcode, attraction: 'Sea Dragon', location: 'West Pier', timestamp: at(morning.day, 11) });

    expect(await markVisitsUsed(deps(t.app), pass.barcode)).toBe(1);
    const rows = await statusOf(pass.barcode);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        { status: 'used', windowId: morning.id },
        { status: 'no_show', windowId: noon.id },
      ]),
    );
    // Run again, it changes nothing.
    expect(await markVisitsUsed(deps(t.app), pass.barcode)).toBe(0);
  });

  it('makes an unused booking a no-show at its window end; two in the period block new bookings for 14 days after the last', async () => {
    const pass = await aPass();
    const first = await aWindow(1, 5);
    const secondWindow = await aWindow(2, 5);
    const later = await aWindow(20, 5);
    expect((await book(pass, first.id)).statusCode).toBe(200);
    expect((await book(pass, secondWindow.id)).statusCode).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at(first.day, 12, 30));
    await markVisitNoShows(deps(t.app));
    expect((await statusOf(pass.barcode)).find((r) => r.windowId === first.id)?.status).toBe('no_show');
    expect((await calendar(pass)).blockedUntil).toBeNull();

    vi.setSystemTime(at(secondWindow.day, 13));
    expect(await markVisitNoShows(deps(t.app))).toBeGreaterThanOrEqual(1);
    const noShows = (await eventsOfType(t.app, 'reservation.no_show')).filter((e) => e.barcode === pass.barcode);
    expect(noShows).toHaveLength(2);
    const until = new Date(new Date(noShows[1]!.endsAt as string).getTime() + 14 * 24 * 3_600_000);
    expect((await calendar(pass)).blockedUntil).toBe(until.toISOString());
    const refused = await book(pass, later.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ reason: VISIT_REFUSALS.noShows, params: { blockedUntil: until.toISOString() } });

    vi.setSystemTime(until);
    expect((await calendar(pass)).blockedUntil).toBeNull();
    expect((await book(pass, later.id)).statusCode).toBe(200);
  });
});
