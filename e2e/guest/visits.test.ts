// Visit reservations on a passholder's pass page, through the real server: book, move, cancel;
// a full window's waitlist, joined and left; a day not open yet and a blocked-out day; the
// no-show block; a refusal worded by its reason; Spanish. The entry windows and the blockout are
// made here by staff, relative to the real day (the run's demo is placed on a fixed day); each
// test on a Gold season pass (the demo's reservation product) of its own, at 360 and 1280 px,
// axe clean, screenshots.
import { TZDate } from '@date-fns/tz';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISIT_REFUSALS, type VisitCalendar } from '@boardwalk/contract/visits';
import {
  appTookOver,
  alertText,
  answerWithError,
  expectNoAxeViolations,
  guestTabs,
  launchBrowser,
  openPass,
  screenshot,
  WIDTHS,
  type Width,
} from '../support/browser.ts';
import { operatingDayStart } from '../../apps/api/src/platform/park-time.ts';
import { anOrderId, feed } from '../support/feed.ts';
import { apiLogin, staffApi } from '../support/staff.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
let adminToken: string;

const TZ = 'America/Los_Angeles';
/** The park's day `days` from today's operating day (before 2:00 AM, still yesterday's). */
function parkDay(days: number): { y: number; m: number; d: number } {
  const local = new TZDate(operatingDayStart(new Date(), TZ).getTime(), TZ);
  const day = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + days, 12, 0, 0, TZ);
  return { y: day.getFullYear(), m: day.getMonth(), d: day.getDate() };
}
const atPark = (days: number, hour: number, minute = 5) => {
  const { y, m, d } = parkDay(days);
  return new Date(new TZDate(y, m, d, hour, minute, 0, TZ).getTime());
};

async function aWindow(days: number, hour: number, capacity: number) {
  const made = await staffApi(adminToken, 'POST', '/api/admin/visit-windows/', {
    visitWindowStarts: atPark(days, hour).toISOString(),
    visitWindowEnds: atPark(days, hour + 1).toISOString(),
    visitWindowCapacity: capacity,
  });
  // 409: this server already has it (another file's run on it).
  expect([201, 409]).toContain(made.status);
}

beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
  // Tomorrow: two windows with places (5:05 and 6:05 PM) and a full one (7:05 PM); a window ten
  // days ahead (open to a pass without a tier seven days ahead); a blocked-out day four days ahead.
  await aWindow(1, 17, 150);
  await aWindow(1, 18, 150);
  await aWindow(1, 19, 0);
  await aWindow(10, 11, 150);
  await aWindow(4, 11, 150);
  const { y, m, d } = parkDay(4);
  const day = `${y}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const blockout = await staffApi(adminToken, 'POST', '/api/admin/visit-blockouts/', {
    visitBlockoutDay: day,
    visitBlockoutProduct: 'Gold Season Pass',
  });
  expect(blockout.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
});

let seq = 0;
/** A Gold season pass of its own (the demo's reservation product). */
async function aGoldPass(): Promise<{ orderId: string; barcode: string }> {
  const orderId = anOrderId('3');
  const barcode = `24${orderId}${String(++seq).padStart(6, '0')}`;
  await feed(`orders/${orderId}`, {
    orderDate: '2026-11-20T18:15:00Z',
    purchaser: { firstName: 'Leo', lastName: 'Park', email: 'leo.park@example.com' },
    tickets: [
      {
        barcode,
        product: 'Gold Season Pass',
        category: 'Season Pass',
        categoryId: '12',
        isPassholder: true,
        holder: { firstName: 'Leo', lastName: 'Park', email: 'leo.park@example.com', phone: '3105550177' },
        credits: 0,
        cash: 0,
        expires: '2030-12-31T23:59:59-08:00',
        refunded: false,
        isPassActivated: false,
      },
    ],
  });
  return { orderId, barcode };
}

const section = (page: Page) => page.getByRole('region', { name: /Visit Reservations|Reservas de visita/ });
/** Tomorrow's window starting at this hour (5, 6 or 7 PM), by its time. */
const windowAt = (page: Page, hour: 5 | 6 | 7) =>
  section(page)
    .getByTestId('visits-window')
    .filter({ has: page.getByTestId('visits-window-time').filter({ hasText: new RegExp(`^${hour}:05`) }) });
const stateOf = (page: Page, hour: 5 | 6 | 7) => windowAt(page, hour).getByTestId('visits-window-state').textContent();

async function openReservations(page: Page, pass: { orderId: string; barcode: string }) {
  await openPass(page, pass.orderId, pass.barcode);
  await section(page).waitFor();
  await windowAt(page, 5).waitFor();
  await page.evaluate(() => document.fonts.ready);
}

const inPage = (width: Width, body: (page: Page) => Promise<void>, locale = 'en-US') => tabs.inPage(body, { width, locale });

describe('visit reservations on the pass page', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`books a window, moves the booking, cancels it (${width} px)`, () =>
      inPage(width, async (page) => {
        await openReservations(page, await aGoldPass());
        await expect(stateOf(page, 5)).resolves.toMatch(/^\d+ places left$/);
        await expect(section(page).getByText('You hold 0 of at most 3 upcoming reservations.').count()).resolves.toBe(1);
        await expectNoAxeViolations(page);
        await screenshot(page, 'visits-open');

        await windowAt(page, 5)
          .getByRole('button', { name: /^Book:/ })
          .click();
        await windowAt(page, 5).getByText('Booked', { exact: true }).waitFor();
        await section(page)
          .locator('.alert-success')
          .filter({ hasText: /^Booked: / })
          .waitFor();
        await expect(windowAt(page, 6).getByRole('button').textContent()).resolves.toBe('Move Here');
        await expect(section(page).getByText('You hold 1 of at most 3 upcoming reservations.').count()).resolves.toBe(1);
        await expectNoAxeViolations(page);
        await screenshot(page, 'visits-booked');

        await windowAt(page, 6)
          .getByRole('button', { name: /^Move Here:/ })
          .click();
        await windowAt(page, 6).getByText('Booked', { exact: true }).waitFor();
        await expect(stateOf(page, 5)).resolves.toMatch(/^\d+ places left$/);
        await windowAt(page, 6)
          .getByRole('button', { name: /^Cancel Booking:/ })
          .click();
        await section(page).locator('.alert-success').filter({ hasText: 'Cancelled.' }).waitFor();
        await expect(windowAt(page, 6).getByRole('button').textContent()).resolves.toBe('Book');
      }));

    it(`joins a full window's waitlist and leaves it (${width} px)`, () =>
      inPage(width, async (page) => {
        await openReservations(page, await aGoldPass());
        await expect(stateOf(page, 7)).resolves.toBe('Full');
        await expectNoAxeViolations(page);
        await screenshot(page, 'visits-full');
        await windowAt(page, 7)
          .getByRole('button', { name: /^Join Waitlist:/ })
          .click();
        await windowAt(page, 7)
          .getByText(/^On the waitlist: number \d+$/)
          .waitFor();
        await section(page)
          .locator('.alert-success')
          .filter({ hasText: /^You are on the waitlist for / })
          .waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'visits-waitlisted');
        await windowAt(page, 7)
          .getByRole('button', { name: /^Leave Waitlist:/ })
          .click();
        await windowAt(page, 7)
          .getByRole('button', { name: /^Join Waitlist:/ })
          .waitFor();
      }));

    it(`shows a day not open yet, the blocked-out day and the no-show block (${width} px)`, () =>
      inPage(width, async (page) => {
        await openReservations(page, await aGoldPass());
        // Ten days ahead opens later to a pass without a tier (seven days ahead); four days ahead is blocked out.
        await section(page)
          .getByText(/^Opens for booking on /)
          .first()
          .waitFor();
        await expect(section(page).getByText('Blocked out: your pass cannot be used this day.').count()).resolves.toBe(1);
        await expectNoAxeViolations(page);
        await screenshot(page, 'visits-days');

        // The no-show block as the server answers it for a pass with two missed reservations.
        const until = new Date(Date.now() + 10 * 24 * 3_600_000).toISOString();
        await page.route('**/api/visits/', async (route) => {
          const answer = (await (await route.fetch()).json()) as VisitCalendar;
          await route.fulfill({ json: { ...answer, blockedUntil: until } });
        });
        await page.reload();
        await section(page).getByTestId('visits-blocked').waitFor();
        await expect(section(page).getByTestId('visits-blocked').textContent()).resolves.toMatch(
          /^New bookings are paused after missed reservations until /,
        );
        // Nothing can be booked meanwhile.
        await expect(
          section(page)
            .getByRole('button', { name: /^Book:/ })
            .count(),
        ).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'visits-blocked');
      }));
  }

  it('shows the day of a visit made at the gate as booked, with nothing more to book or move that day (360 px)', () =>
    inPage(WIDTHS.mobile, async (page) => {
      await openReservations(page, await aGoldPass());
      await windowAt(page, 5)
        .getByRole('button', { name: /^Book:/ })
        .click();
      await windowAt(page, 5)
        .getByRole('button', { name: /^Cancel Booking:/ })
        .waitFor();
      // The booking used at the gate, as the server answers it: booked, with no reservation to cancel.
      await page.route('**/api/visits/', async (route) => {
        const answer = (await (await route.fetch()).json()) as VisitCalendar;
        const used = answer.days.map((d) => ({
          ...d,
          windows: d.windows.map((w) => (w.state === 'booked' ? { ...w, reservationId: null } : w)),
        }));
        await route.fulfill({ json: { ...answer, days: used } });
      });
      await page.reload();
      await windowAt(page, 5).waitFor();
      await expect(stateOf(page, 5)).resolves.toBe('Booked');
      for (const hour of [5, 6, 7] as const) await expect(windowAt(page, hour).getByRole('button').count()).resolves.toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'visits-used');
    }));

  it('words a refusal by its reason (a window that just filled up), and a network failure', () =>
    inPage(WIDTHS.mobile, async (page) => {
      await openReservations(page, await aGoldPass());
      await answerWithError(page, '/api/visits/book/', 409, 'This entry window is full.', {}, { reason: VISIT_REFUSALS.full });
      await windowAt(page, 5)
        .getByRole('button', { name: /^Book:/ })
        .click();
      await expect(alertText(page)).resolves.toBe('This entry window just filled up. Join its waitlist to be booked when a place frees.');
      await expectNoAxeViolations(page);
      await screenshot(page, 'visits-refused');
      await page.unroute('**/api/visits/book/');
      await page.route('**/api/visits/book/', (route) => route.abort('connectionreset'));
      await windowAt(page, 5)
        .getByRole('button', { name: /^Book:/ })
        .click();
      await expect(alertText(page)).resolves.toBe('Error saving the reservation');
    }));

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`works in Spanish (${width} px)`, () =>
      inPage(
        width,
        async (page) => {
          const pass = await aGoldPass();
          await page.goto('/');
          await page.getByLabel('Número de pedido').fill(pass.orderId);
          await page.getByLabel('Código de barras').fill(pass.barcode);
          await appTookOver(page);
          await page.getByRole('button', { name: 'Buscar mi pase' }).click();
          await windowAt(page, 5).waitFor();
          await expect(stateOf(page, 5)).resolves.toMatch(/^Quedan \d+ lugares$/);
          await windowAt(page, 5)
            .getByRole('button', { name: /^Reservar:/ })
            .click();
          await windowAt(page, 5).getByText('Reservado', { exact: true }).waitFor();
          await expect(stateOf(page, 7)).resolves.toBe('Lleno');
          await expect(section(page).getByText('Día bloqueado: su pase no se puede usar este día.').count()).resolves.toBe(1);
          await expectNoAxeViolations(page);
          await screenshot(page, 'es-visits-booked');
        },
        'es-US',
      ));
  }
});
