// The Loyalty Campaigns tab against the real server, at 360 and 1280 px: a campaign created in
// the modal (the kind's choices, the operating days, the server's validation message while the
// Multiplier is missing), listed with its status and figures after a member's claim earned its
// bonus, and named on that member's account in the Loyalty tab; axe clean, screenshots. The
// campaign applies from an inactive tier no other member of the e2e server reaches, so the other
// files' claims earn no bonus.
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS, type Width } from '../support/browser.ts';
import { anOrderId, feed } from '../support/feed.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { apiLogin, goToTab, modal, openStaffPage, openTab, rowWith, searchTab, signIn, staffApi, unique } from '../support/staff.ts';

let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
});
afterAll(async () => {
  await browser?.close();
});

const field = (page: Page, label: string) => modal(page).getByLabel(label, { exact: true });
const modalAlert = (page: Page) => modal(page).getByRole('alert').locator('.alert');
/** A calendar date (YYYY-MM-DD) `days` from now in UTC: yesterday to tomorrow hold the park's operating day, whatever its zone. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** An inactive tier (guests never see it) that only this file's members reach: the campaign's minimum. */
async function aTier() {
  const name = `E2E Campaign Tier ${unique()}`;
  const pointsToReach = 900_000 + Math.floor(Math.random() * 90_000);
  const created = await staffApi(adminToken, 'POST', '/api/admin/loyalty-tiers/', {
    loyaltyTierName: name,
    loyaltyTierPointsToReach: pointsToReach,
    loyaltyTierActive: false,
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return { name, pointsToReach };
}

/** A member staff create, who claims a ticket of `price` USD bought today: their email. */
async function aMemberClaiming(price: number) {
  const email = `staff.campaigns.${unique()}@example.com`;
  const created = await fetch(`${baseUrl()}/api/admin/loyalty/create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, firstName: 'Cora', lastName: `Campaign${unique()}` }),
  });
  expect(created.status).toBe(200);
  const userID = await created.text();
  const orderId = anOrderId('6');
  await feed(`orders/${orderId}`, {
    orderDate: new Date().toISOString(),
    tickets: [{ barcode: `${orderId}${orderId}`, product: 'Day Ticket', price, isPassholder: false, credits: 0, cash: 0, refunded: false }],
  });
  const claim = await staffApi(adminToken, 'POST', '/api/admin/loyalty/tickets/', { orderId, email, userID });
  expect(claim.status, JSON.stringify(claim.json)).toBe(200);
  return { email, pointsEarned: (claim.json as { pointsEarned: number }).pointsEarned };
}

/** The member's account in the Loyalty tab. */
async function openAccount(page: Page, email: string) {
  await goToTab(page, 'Loyalty');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('form', { name: 'Find or create an account', exact: true }).getByRole('button', { name: 'Submit' }).click();
}

/** The campaign stopped in its tab: the list says so. */
async function deactivate(page: Page, name: string) {
  await openTab(page, 'Loyalty Campaigns');
  await searchTab(page, name);
  await rowWith(page, name).click();
  await field(page, 'Active').uncheck();
  await modal(page).getByRole('button', { name: 'Save' }).click();
  await modal(page).waitFor({ state: 'detached' });
  await rowWith(page, name).filter({ hasText: 'Inactive' }).waitFor();
}

async function asAdmin(width: Width, body: (page: Page) => Promise<void>) {
  const staff = await openStaffPage(browser, width);
  try {
    await signIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
    await body(staff.page);
    expect(unexpectedProblems(staff.problems)).toEqual([]);
  } finally {
    await staff.close();
  }
}

describe.each([WIDTHS.mobile, WIDTHS.desktop])('Loyalty Campaigns tab at %i px', (width) => {
  it('creates a campaign (its validation message first), lists it running with what it gave, and names it on the member', async () => {
    const tier = await aTier();
    const name = `E2E Double ${unique()}`;
    await asAdmin(width, async (page) => {
      await goToTab(page, 'Loyalty Campaigns');
      await page.getByRole('heading', { level: 2, name: 'Loyalty Campaigns', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add New' }).click();
      await field(page, 'Name').fill(name);
      await field(page, 'Name (Spanish)').fill(`${name} (doble)`);
      await field(page, 'Kind').selectOption({ label: 'Multiplier' });
      await field(page, 'From (Operating Day)').fill(dayFromNow(-1));
      await field(page, 'To (Operating Day)').fill(dayFromNow(1));
      await field(page, 'Tickets').check();
      await field(page, 'Minimum Tier').selectOption({ label: tier.name });
      await field(page, 'Active').check();
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await modalAlert(page).filter({ hasText: 'A multiplier campaign needs its Multiplier' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-campaigns-validation');
      await field(page, 'Multiplier').fill('2');
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await modal(page).waitFor({ state: 'detached' });
      await page.locator('.toast').filter({ hasText: 'Loyalty Campaigns: record created.' }).waitFor();

      const member = await aMemberClaiming(tier.pointsToReach);
      expect(member.pointsEarned).toBe(2 * tier.pointsToReach);
      await searchTab(page, name);
      const row = rowWith(page, name);
      await row.filter({ hasText: 'Running' }).waitFor();
      const text = (await row.textContent())!.replace(/,/g, '');
      expect(text).toContain(String(tier.pointsToReach));
      expect(text).toContain('Multiplier');
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-campaigns');

      // The member's account in the Loyalty tab names the campaign running for them today.
      await openAccount(page, member.email);
      await page
        .getByTestId('loyalty-campaigns')
        .filter({ hasText: `${name} (2× points on tickets` })
        .waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-account-campaigns');

      // Stopped: the list says so, and it gives no more.
      await deactivate(page, name);
      expect((await aMemberClaiming(tier.pointsToReach)).pointsEarned).toBe(tier.pointsToReach);
    });
  });

  it('creates a challenge (its goal asked for first); a member who reaches it gets its bonus from the queue, in the figures', async () => {
    const tier = await aTier();
    const name = `E2E Challenge ${unique()}`;
    await asAdmin(width, async (page) => {
      await goToTab(page, 'Loyalty Campaigns');
      await page.getByRole('button', { name: 'Add New' }).click();
      await field(page, 'Name').fill(name);
      await field(page, 'Kind').selectOption({ label: 'Challenge' });
      await field(page, 'Bonus Points').fill('75');
      await field(page, 'From (Operating Day)').fill(dayFromNow(-1));
      await field(page, 'To (Operating Day)').fill(dayFromNow(1));
      await field(page, 'Tickets').check();
      await field(page, 'Minimum Tier').selectOption({ label: tier.name });
      await field(page, 'Active').check();
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await modalAlert(page).filter({ hasText: 'A challenge needs its Challenge Goal' }).waitFor();
      await field(page, 'Challenge Goal').selectOption({ label: 'Days Visited' });
      await field(page, 'Goal Count').fill('1');
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-campaigns-challenge');
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await modal(page).waitFor({ state: 'detached' });

      // One day with a claim reaches it: the queue gives the bonus a moment later.
      const member = await aMemberClaiming(tier.pointsToReach);
      await expect
        .poll(
          async () => {
            // A fresh read of the list (the figures are counted when it is read).
            await page.reload();
            await page.getByRole('heading', { level: 2, name: 'Loyalty Campaigns', exact: true }).waitFor();
            await searchTab(page, name);
            return (await rowWith(page, name).textContent()) ?? '';
          },
          { timeout: 20_000, interval: 1000 },
        )
        .toMatch(/Running.*75/);
      // The member's account says so.
      await openAccount(page, member.email);
      await page
        .getByTestId('loyalty-challenges')
        .filter({ hasText: `${name} (complete, +75 points)` })
        .waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-account-challenges');
      // Stopped, so that the other files' members never meet it.
      await deactivate(page, name);
    });
  });
});
