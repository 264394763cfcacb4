// The Dashboard tab, on a server of its own (its figures are the whole database's): empty at
// first (every figure says the range holds nothing), then with members, a claim, an
// adjustment and two guest lookups made through the API (the standing cards, the numbers'
// tables, the range in the address, a CSV download); a member without Dashboard View never
// sees it. At 360 and 1280 px, axe clean, screenshots staff-dashboard-<state>-<width>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, inServerPage, launchBrowser, screenshot, WIDTHS } from '../support/browser.ts';
import { operatingDayStart } from '../../apps/api/src/platform/park-time.ts';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';
import { joinLoyaltyThroughApi, loyaltyAccountId } from '../support/mail.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { E2E_INTEGRATION_KEY, STAFF_ADMIN } from '../support/staff-admin.ts';
import { aTeamMember, apiLogin, createTeamMember, signIn, staffApi, tabNames, unique } from '../support/staff.ts';

let browser: Browser;
let server: ServerProcess;
let smtp: TestSmtpServer;
let adminToken = '';
/** The server's park zone (its default). */
const PARK_ZONE = 'America/Los_Angeles';

beforeAll(async () => {
  // Joining proves the email by a mailed code: the server mails through a real SMTP server.
  smtp = await startSmtpServer();
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServerProcess(
      {
        SMTP_URL: smtp.url,
        ADMIN_EMAIL: STAFF_ADMIN.email,
        ADMIN_PASSWORD: STAFF_ADMIN.password,
        INTEGRATION_API_KEYS: `e2e:${E2E_INTEGRATION_KEY}`,
        TRUST_PROXY: '127.0.0.1',
      },
      { dataFrom: inject('demoDataFolder') },
    ),
  ]);
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password, server.baseUrl)).accessToken;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

let addresses = 0;
const inPage = (width: number, body: (page: Page) => Promise<void>) =>
  inServerPage(browser, { baseUrl: server.baseUrl, width: width as 360 | 1280, clientAddress: `198.51.103.${++addresses}` }, body);

async function openDashboard(page: Page, email = STAFF_ADMIN.email, password = STAFF_ADMIN.password) {
  await signIn(page, email, password, server.baseUrl);
  // The Dashboard is the first page.
  await page.waitForURL('**/admin/dashboard');
  await page.getByRole('heading', { level: 2, name: 'Dashboard', exact: true }).waitFor();
  await page.getByText('Points outstanding').waitFor();
}

/** A figure's section by its heading. */
const figure = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** Opens a figure's numbers and answers its table's rows as the cells' texts. */
async function numbers(page: Page, title: string) {
  const section = figure(page, title);
  const details = section.locator('details');
  if (!(await details.getAttribute('open'))) await section.getByText('The numbers').click();
  return section.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

const call = async (method: 'POST' | 'PUT', path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'x-forwarded-for': `198.51.104.${++addresses}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
};

describe('Dashboard tab', () => {
  it('says each figure holds nothing yet, at 360 and 1280 px', { timeout: 90_000 }, async () => {
    // An entry window today: the demo's are on the 14 days from its DEMO_TODAY, and today moves on.
    const dayStart = operatingDayStart(new Date(), PARK_ZONE).getTime();
    const made = await staffApi(
      adminToken,
      'POST',
      '/api/admin/visit-windows/',
      {
        visitWindowStarts: new Date(dayStart + 3_600_000).toISOString(),
        visitWindowEnds: new Date(dayStart + 2 * 3_600_000).toISOString(),
        visitWindowCapacity: 8,
      },
      server.baseUrl,
    );
    expect(made.status).toBe(201);
    for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
      await inPage(width, async (page) => {
        await openDashboard(page);
        await expect(page.getByText('Nothing in this range.').count()).resolves.toBe(6);
        const outstanding = page.locator('.staff-stats li').filter({ hasText: 'Points outstanding' });
        await expect(outstanding.locator('.staff-stats__value').textContent()).resolves.toBe('0');
        // No push was fetched: no latency figure at all.
        await expect(figure(page, 'Apple push to fetch per day').count()).resolves.toBe(0);
        // Today's capacity charted, nothing taken, waiting or missed.
        const [, capacity, ...counts] = (await numbers(page, 'Visit reservations per day')).at(-1)!;
        expect(Number(capacity!.replace(/,/g, ''))).toBeGreaterThan(0);
        expect(counts).toEqual(['0', '0', '0', '0']);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-dashboard-empty');
      });
    }
  });

  it(
    'shows the figures of members, a claim and an adjustment, with their numbers, the range and a CSV, at 360 and 1280 px',
    { timeout: 120_000 },
    async () => {
      const run = unique();
      const email = `dash.${run}@example.com`;
      const created = await joinLoyaltyThroughApi(call, smtp, { email, firstName: 'Lia', lastName: 'Park' });
      expect(created.status, created.text).toBe(200);
      expect(
        (await joinLoyaltyThroughApi(call, smtp, { email: `dash2.${run}@example.com`, firstName: 'Ray', lastName: 'Shore' })).status,
      ).toBe(200);
      const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
      const reservationNumber = `DASH${run.toUpperCase()}`.slice(0, 32);
      const stay = { firstName: 'Lia', lastName: 'Park', email, arrival: day(3), departure: day(1), total: 250 };
      expect(
        (await call('PUT', `/api/integrations/reservations/${reservationNumber}`, stay, { Authorization: `Bearer ${E2E_INTEGRATION_KEY}` }))
          .status,
      ).toBe(201);
      const claimed = await call('POST', '/api/loyalty/hotels/', { userID: created.text, email, reservationNumber });
      expect(claimed.status, claimed.text).toBe(200);
      // Staff name an account by its id (what its proven code answers), not the create call's claim token.
      const accountId = await loyaltyAccountId(call, smtp, email);
      const adjusted = await staffApi(
        adminToken,
        'POST',
        '/api/admin/loyalty/adjust/',
        { userID: accountId, points: 25, reason: 'Welcome' },
        server.baseUrl,
      );
      expect(adjusted.status).toBe(200);
      // A guest finds a pass, and another tries an order that does not exist.
      const orderId = String(73_000_000 + Math.floor(Math.random() * 999_999));
      const ticket = {
        barcode: `${orderId}0000001`,
        product: 'Day Ticket',
        category: 'Day Ticket',
        holder: { firstName: 'Lia', lastName: 'Park' },
        isPassholder: false,
        credits: 0,
        cash: 0,
        refunded: false,
        isPassActivated: false,
      };
      const order = { orderDate: new Date().toISOString(), purchaser: { firstName: 'Lia', lastName: 'Park' }, tickets: [ticket] };
      const put = await call('PUT', `/api/integrations/orders/${orderId}`, order, {
        Authorization: `Bearer ${E2E_INTEGRATION_KEY}`,
      });
      expect(put.status, put.text).toBe(201);
      expect((await call('POST', '/api/login/', { orderId, barcode: ticket.barcode })).status).toBe(200);
      expect((await call('POST', '/api/login/', { orderId: '72999999', barcode: ticket.barcode })).status).toBe(404);
      // The demo's Gold passholder books an entry window running now (the demo holds no reservation),
      // started within today's operating day, also just after 2:00 AM.
      const dayStart = operatingDayStart(new Date(), PARK_ZONE).getTime();
      const started = Math.max(Date.now() - 10 * 60_000, dayStart + 60_000);
      const made = await staffApi(
        adminToken,
        'POST',
        '/api/admin/visit-windows/',
        {
          visitWindowStarts: new Date(started).toISOString(),
          visitWindowEnds: new Date(started + 40 * 60_000).toISOString(),
          visitWindowCapacity: 8,
        },
        server.baseUrl,
      );
      expect(made.status).toBe(201);
      const windowId = (made.json as { visitWindowID: string }).visitWindowID;
      const booked = await call('POST', '/api/visits/book/', { orderId: '10000010', barcode: '2400000000000097', windowId });
      expect(booked.status, booked.text).toBe(200);

      for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
        await inPage(width, async (page) => {
          await openDashboard(page);
          const claims = await numbers(page, 'Claims and new members per day');
          expect(claims).toHaveLength(7);
          // Today: one hotel claim, two new members.
          expect(claims.at(-1)?.slice(1)).toEqual(['0', '0', '1', '2']);
          const points = await numbers(page, 'Points per day');
          expect(points.at(-1)?.[5]).toBe('25');
          expect(Number(points.at(-1)?.[1])).toBeGreaterThan(0);
          const outstanding = await page
            .locator('.staff-stats li')
            .filter({ hasText: 'Points outstanding' })
            .locator('.staff-stats__value')
            .textContent();
          expect(Number(outstanding?.replace(/,/g, ''))).toBe(Number(points.at(-1)?.[1]) + 25);
          // Today: one lookup found its pass, one found none, none refused.
          expect((await numbers(page, 'Guest pass lookups per day')).at(-1)?.slice(1)).toEqual(['1', '1', '0']);
          // Today: the one place taken of today's capacity (the demo's windows and this one), none waiting, no no-show.
          const [, capacity, taken, used, waitlisted, noShows] = (await numbers(page, 'Visit reservations per day')).at(-1)!;
          expect([taken, waitlisted, noShows]).toEqual(['1', '0', '0']);
          expect(used).toBe(String(Math.round((1 / Number(capacity!.replace(/,/g, ''))) * 1000) / 10));
          await expectNoAxeViolations(page);
          await screenshot(page, 'staff-dashboard');

          // The range is in the address: a reload keeps it.
          await page.getByText('Last 30 days').click();
          await page.waitForURL('**/admin/dashboard?range=30');
          await page.reload();
          await page.getByText('Points outstanding').waitFor();
          await expect(numbers(page, 'Claims and new members per day')).resolves.toHaveLength(30);

          if (width === WIDTHS.desktop) {
            const [download] = await Promise.all([
              page.waitForEvent('download'),
              figure(page, 'Claims and new members per day')
                .getByRole('button', { name: /Download CSV/ })
                .click(),
            ]);
            const stream = await download.createReadStream();
            let csv = '';
            for await (const chunk of stream) csv += String(chunk);
            const lines = csv.trim().split('\n');
            expect(lines[0]).toBe('Operating day,Tickets,Food and beverage,Hotel,New members');
            expect(lines).toHaveLength(31);
            expect(lines.at(-1)).toMatch(/^\d{4}-\d\d-\d\d,0,0,1,2$/);
          }
        });
      }
    },
  );

  it('shows a level 1 member the activity, not the points liability (Loyalty Export is level 100)', { timeout: 90_000 }, async () => {
    const viewer = aTeamMember(1, 'Viewer');
    await createTeamMember(adminToken, viewer, server.baseUrl);
    for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
      await inPage(width, async (page) => {
        await signIn(page, viewer.email, viewer.password, server.baseUrl);
        await page.waitForURL('**/admin/dashboard');
        await page.getByText('Apple devices registered').waitFor();
        const cards = await page.locator('.staff-stats__label').allTextContents();
        expect(cards).toEqual(['Members', 'Apple devices registered']);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-dashboard-level-1');
      });
    }
  });

  it('is not shown to a member without Dashboard View', { timeout: 90_000 }, async () => {
    // Dashboard View raised above a clerk's level (it is seeded at 1).
    const found = await staffApi(adminToken, 'GET', '/api/admin/permission/?search=Dashboard%20View', undefined, server.baseUrl);
    const { permissionGUID, ...permission } = (found.json as { permissionGUID: string; permissionName: string }[]).find(
      (p) => p.permissionName === 'Dashboard View',
    )!;
    const raised = await staffApi(
      adminToken,
      'PUT',
      `/api/admin/permission/${permissionGUID}`,
      { ...permission, permissionMinimumAccessLevel: 50 },
      server.baseUrl,
    );
    expect(raised.status).toBe(200);
    const clerk = aTeamMember(10, 'Clerk');
    await createTeamMember(adminToken, clerk, server.baseUrl);
    for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
      await inPage(width, async (page) => {
        await signIn(page, clerk.email, clerk.password, server.baseUrl);
        await page.waitForURL('**/admin/pass-customizations');
        expect(await tabNames(page)).not.toContain('Dashboard');
        // Asked for by address, the first tab they may see opens instead.
        await page.goto('/admin/dashboard');
        await page.waitForURL('**/admin/pass-customizations');
        await page.getByRole('heading', { level: 2, name: 'Pass Customizations', exact: true }).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-dashboard-not-permitted');
      });
    }
  });
});
