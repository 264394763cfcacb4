// A new operator's first start: the demo with its 90 days of club history (DEMO_HISTORY on, as
// `npm start` loads it). The Dashboard over 90 days shows figures in its charts, the Loyalty tab
// opens a README member in their tier with their orders, and the Webhooks tab lists the demo's
// CRM endpoint; the member cards in the wallets fill the Dashboard's wallet charts and the
// Deliveries tab. At 360 and 1280 px, axe clean, screenshots staff-demo-<tab>-<width>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, inServerPage, launchBrowser, screenshot, WIDTHS } from '../support/browser.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { goToTab, signIn } from '../support/staff.ts';

let browser: Browser;
let server: ServerProcess;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    // Dated around today, as `npm start` dates it (the other browser tests fix the demo's today).
    startServerProcess({ DEMO_HISTORY: 'true', DEMO_TODAY: '', ADMIN_EMAIL: STAFF_ADMIN.email, ADMIN_PASSWORD: STAFF_ADMIN.password }),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let addresses = 0;
const inPage = (width: number, body: (page: Page) => Promise<void>) =>
  inServerPage(browser, { baseUrl: server.baseUrl, width: width as 360 | 1280, clientAddress: `198.51.105.${++addresses}` }, body);

const figure = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

describe('the demo park with history', () => {
  it('opens the Dashboard, the Loyalty tab and the Webhooks tab on real figures, at 360 and 1280 px', { timeout: 120_000 }, async () => {
    for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
      await inPage(width, async (page) => {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password, server.baseUrl);
        await page.waitForURL('**/admin/dashboard');
        await page.goto('/admin/dashboard?range=90');
        await page.getByText('Points outstanding').waitFor();
        // The club's charts hold the 90 days: none of them says the range is empty.
        for (const title of ['Claims and new members per day', 'Points per day', 'Members per tier', 'Guest pass lookups per day']) {
          await figure(page, title).waitFor();
          await expect(figure(page, title).getByText('Nothing in this range.').count(), title).resolves.toBe(0);
        }
        const outstanding = page.locator('.staff-stats li').filter({ hasText: 'Points outstanding' });
        expect(Number((await outstanding.locator('.staff-stats__value').textContent())?.replace(/,/g, ''))).toBeGreaterThan(1000);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-demo-dashboard');

        await goToTab(page, 'Loyalty');
        await page.getByLabel('Search Term').fill('maya.chen@example.com');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.getByRole('button', { name: 'Load Account' }).first().click();
        await page.getByTestId('loyalty-email').filter({ hasText: 'maya.chen@example.com' }).waitFor();
        await expect(page.getByTestId('loyalty-tier').textContent()).resolves.toBe('Gold tier');
        await expect(page.getByText('No Orders').count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-demo-loyalty');

        await goToTab(page, 'Webhooks');
        await page.getByText('crm.example.com').first().waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-demo-webhooks');
      });
    }
  });

  it(
    "shows the member cards in the wallets: the Dashboard's wallet charts and the Deliveries tab, at 360 and 1280 px",
    { timeout: 120_000 },
    async () => {
      for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
        await inPage(width, async (page) => {
          await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password, server.baseUrl);
          await page.waitForURL('**/admin/dashboard');
          await page.goto('/admin/dashboard?range=90');
          for (const title of ['Deliveries per day', 'Wallet passes added and share links opened per day', 'Apple push to fetch per day']) {
            await figure(page, title).waitFor();
            await expect(figure(page, title).getByText('Nothing in this range.').count(), title).resolves.toBe(0);
          }

          await goToTab(page, 'Deliveries');
          const counts = page.getByRole('list', { name: 'Deliveries by state' });
          await expect.poll(() => counts.textContent()).toMatch(/Fetched: [1-9]/);
          await expect(counts.textContent()).resolves.toMatch(/Dead: [1-9]/);
          // The default list is the failed ones: the demo's iPad whose token APNs refuses.
          await page.locator('.staff-table tbody tr').filter({ hasText: 'BadDeviceToken' }).first().waitFor();
          await page.waitForFunction(() => !document.querySelector('.staff-table[aria-busy="true"]'));
          await expectNoAxeViolations(page);
          await screenshot(page, 'staff-demo-deliveries');
        });
      }
    },
  );
});
