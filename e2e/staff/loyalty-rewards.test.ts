// The loyalty club's catalogue and spending against the real server: the Loyalty Tiers and
// Loyalty Rewards tabs (create, the server's validation messages in the modal, edit, delete,
// a Spanish name marked missing until written),
// and in the Loyalty tab the member's tier, the points by expiry (the lots), Redeem (only what the member can redeem now) and
// Reverse after its confirmation, both only with Loyalty Redeem; at 360 and 1280 px, axe clean,
// screenshots. Every tier, reward and member here is made by this file.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS, type Width } from '../support/browser.ts';
import { anOrderId, feed } from '../support/feed.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import {
  apiLogin,
  aTeamMember,
  closeToasts,
  createTeamMember,
  goToTab,
  logIn,
  modal,
  openStaffPage,
  openTab,
  rowWith,
  searchTab,
  signIn,
  staffApi,
  unique,
} from '../support/staff.ts';

let browser: Browser;
let adminToken: string;
const api = '/api/admin/loyalty/';

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
});
afterAll(async () => {
  await browser?.close();
});

/** A field of the open modal by its label. */
const field = (page: Page, label: string) => modal(page).getByLabel(label, { exact: true });
const modalAlert = (page: Page) => modal(page).getByRole('alert').locator('.alert');
const toast = (page: Page, text: string) => page.locator('.toast').filter({ hasText: text });

async function saveAndClose(page: Page) {
  await modal(page).getByRole('button', { name: 'Save' }).click();
  await modal(page).waitFor({ state: 'detached' });
}

async function deleteRow(page: Page, text: string) {
  await rowWith(page, text).click();
  await modal(page).getByRole('button', { name: 'Delete' }).click();
  await modal(page).getByRole('button', { name: 'Yes, Delete' }).click();
  await modal(page).waitFor({ state: 'detached' });
  await rowWith(page, text).waitFor({ state: 'detached' });
}

/** Runs body in a logged-in administrator's page; no console problems allowed. */
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

/** A member who earned `points` through a staff ticket claim (one point per USD): email and user id. */
async function aMember(points: number) {
  const email = `staff.rewards.${unique()}@example.com`;
  const created = await fetch(`${baseUrl()}${api}create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, firstName: 'Remy', lastName: `Rewards${unique()}` }),
  });
  expect(created.status).toBe(200);
  const userID = await created.text();
  const orderId = anOrderId('8');
  await feed(`orders/${orderId}`, {
    orderDate: new Date(Date.now() - 86_400_000).toISOString(),
    tickets: [
      { barcode: `${orderId}${orderId}`, product: 'Day Ticket', price: points, isPassholder: false, credits: 0, cash: 0, refunded: false },
    ],
  });
  const claim = await staffApi(adminToken, 'POST', `${api}tickets/`, { orderId, email, userID });
  expect(claim.status, JSON.stringify(claim.json)).toBe(200);
  return { email, userID };
}

/** A threshold no other member of the e2e server reaches (demo members earn far less). */
const aThreshold = () => 40_000_000 + Math.floor(Math.random() * 50_000_000);

describe.each([WIDTHS.mobile, WIDTHS.desktop])('Loyalty Tiers and Loyalty Rewards tabs at %i px', (width) => {
  it('Loyalty Tiers: creates a tier, shows the server’s validation messages in the modal, edits and deletes it', async () => {
    const tierName = `E2E Tier ${unique()}`;
    const threshold = aThreshold();
    await asAdmin(width, async (page) => {
      await openTab(page, 'Loyalty Tiers');
      await page.getByRole('button', { name: 'Add New' }).click();
      const save = modal(page).getByRole('button', { name: 'Save' });
      expect(await save.isDisabled()).toBe(true);
      await field(page, 'Name').fill(tierName);
      await field(page, 'Points Earned in 365 Days to Reach').fill('0');
      await field(page, 'Active').check();
      await save.click();
      await modalAlert(page).filter({ hasText: 'Points Earned in 365 Days to Reach must be a whole number from 1 to' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-tiers-validation');
      await field(page, 'Points Earned in 365 Days to Reach').fill(String(threshold));
      await saveAndClose(page);
      await toast(page, 'Loyalty Tiers: record created.').waitFor();

      // Another tier with the same name: the server's message, the modal still open.
      await page.getByRole('button', { name: 'Add New' }).click();
      await field(page, 'Name').fill(tierName);
      await field(page, 'Points Earned in 365 Days to Reach').fill(String(threshold + 1));
      await modal(page).getByRole('button', { name: 'Save' }).click();
      await modalAlert(page)
        .filter({ hasText: `Name "${tierName}" is already in use in Loyalty Tiers.` })
        .waitFor();
      await modal(page).getByRole('button', { name: 'Cancel' }).click();
      await modal(page).waitFor({ state: 'detached' });

      // Edit: a new threshold, and the Spanish name the list marked missing.
      await searchTab(page, tierName);
      const missing = rowWith(page, tierName).locator('.badge', { hasText: 'Missing' });
      await missing.waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-tiers-missing-spanish');
      await rowWith(page, tierName).click();
      await field(page, 'Points Earned in 365 Days to Reach').fill(String(threshold + 2));
      await field(page, 'Name (Spanish)').fill(`${tierName} en español`);
      await saveAndClose(page);
      await toast(page, 'Loyalty Tiers: record saved.').waitFor();
      await rowWith(page, `${tierName} en español`).waitFor();
      expect(await missing.count()).toBe(0);
      await page.waitForFunction(
        ([name, points]) =>
          [...document.querySelectorAll('.staff-table tbody tr')].some(
            (tr) => tr.textContent?.includes(name!) && tr.textContent.replace(/,/g, '').includes(points!),
          ),
        [tierName, String(threshold + 2)],
      );
      await closeToasts(page);
      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-tiers');

      await deleteRow(page, tierName);
    });
  });

  it('Loyalty Rewards: creates a reward needing a tier, shows the server’s validation messages, edits it; the tier it needs cannot be deleted', async () => {
    const tierName = `E2E Tier ${unique()}`;
    const rewardName = `E2E Reward ${unique()}`;
    const tier = await staffApi(adminToken, 'POST', '/api/admin/loyalty-tiers/', {
      loyaltyTierName: tierName,
      loyaltyTierPointsToReach: aThreshold(),
      loyaltyTierActive: true,
    });
    expect(tier.status, JSON.stringify(tier.json)).toBe(201);
    try {
      await asAdmin(width, async (page) => {
        await openTab(page, 'Loyalty Rewards');
        await page.getByRole('button', { name: 'Add New' }).click();
        await field(page, 'Name').fill(rewardName);
        await field(page, 'Description').fill('A souvenir cup, refills all day.');
        await field(page, 'Points Cost').fill('250');
        await field(page, 'Active').check();
        await field(page, 'Valid From').fill('2026-06-01T10:00:00');
        await field(page, 'Valid To').fill('2026-05-01T10:00:00');
        await field(page, 'Minimum Tier').selectOption({ label: tierName });
        await field(page, 'Limit per Member').fill('2');
        await modal(page).getByRole('button', { name: 'Save' }).click();
        await modalAlert(page).filter({ hasText: 'Valid To must not be before Valid From' }).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-loyalty-rewards-validation');
        await field(page, 'Valid To').fill('2036-05-01T10:00:00');
        await saveAndClose(page);
        await toast(page, 'Loyalty Rewards: record created.').waitFor();

        // Edit: a cost of 0 is refused with the server's words; 300 is saved.
        await searchTab(page, rewardName);
        await rowWith(page, rewardName).click();
        await field(page, 'Points Cost').fill('0');
        await modal(page).getByRole('button', { name: 'Save' }).click();
        await modalAlert(page).filter({ hasText: 'Points Cost must be a whole number from 1 to' }).waitFor();
        await field(page, 'Points Cost').fill('300');
        await saveAndClose(page);
        await toast(page, 'Loyalty Rewards: record saved.').waitFor();
        const row = rowWith(page, rewardName);
        await page.waitForFunction(
          (name) =>
            [...document.querySelectorAll('.staff-table tbody tr')].some(
              (tr) => tr.textContent?.includes(name) && tr.textContent.includes('300'),
            ),
          rewardName,
        );
        expect(await row.textContent()).toContain(tierName);
        await closeToasts(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-loyalty-rewards');

        // A tier a reward needs cannot be deleted: the server's message.
        await openTab(page, 'Loyalty Tiers');
        await searchTab(page, tierName);
        await rowWith(page, tierName).click();
        await modal(page).getByRole('button', { name: 'Delete' }).click();
        await modal(page).getByRole('button', { name: 'Yes, Delete' }).click();
        await modalAlert(page)
          .filter({ hasText: 'This Loyalty Tiers row is still used by Loyalty Rewards: change or delete those first.' })
          .waitFor();
        await modal(page).getByRole('button', { name: 'Cancel' }).click();
        await modal(page).waitFor({ state: 'detached' });

        await openTab(page, 'Loyalty Rewards');
        await searchTab(page, rewardName);
        await deleteRow(page, rewardName);
      });
    } finally {
      await staffApi(adminToken, 'DELETE', `/api/admin/loyalty-tiers/${(tier.json as { loyaltyTierID: string }).loyaltyTierID}`);
    }
  });
});

describe.each([WIDTHS.mobile, WIDTHS.desktop])('Redeeming in the Loyalty tab at %i px', (width) => {
  it('shows the tier, redeems a reward the member can redeem now, and reverses it after the confirmation', async () => {
    const tierName = `E2E Club ${unique()}`;
    const tier = await staffApi(adminToken, 'POST', '/api/admin/loyalty-tiers/', {
      loyaltyTierName: tierName,
      loyaltyTierPointsToReach: 150,
      loyaltyTierActive: true,
    });
    expect(tier.status, JSON.stringify(tier.json)).toBe(201);
    const member = await aMember(200);
    const rewardName = `E2E Sundae ${unique()}`;
    const reward = await staffApi(adminToken, 'POST', '/api/admin/loyalty-rewards/', {
      loyaltyRewardName: rewardName,
      loyaltyRewardPointsCost: 120,
      loyaltyRewardActive: true,
    });
    expect(reward.status, JSON.stringify(reward.json)).toBe(201);
    const tooDear = `E2E Yacht ${unique()}`;
    const dear = await staffApi(adminToken, 'POST', '/api/admin/loyalty-rewards/', {
      loyaltyRewardName: tooDear,
      loyaltyRewardPointsCost: 100_000,
      loyaltyRewardActive: true,
    });
    expect(dear.status).toBe(201);
    try {
      await asAdmin(width, async (page) => {
        await goToTab(page, 'Loyalty');
        await page.getByLabel('Email', { exact: true }).fill(member.email);
        await page.getByRole('form', { name: 'Find or create an account', exact: true }).getByRole('button', { name: 'Submit' }).click();
        await page.getByTestId('loyalty-email').filter({ hasText: member.email }).waitFor();
        await page
          .getByTestId('loyalty-tier')
          .filter({ hasText: `${tierName} tier` })
          .waitFor();
        await page.getByText('No Redemptions').waitFor();

        const form = page.getByRole('form', { name: 'Redeem a reward', exact: true });
        const redeem = form.getByRole('button', { name: 'Redeem' });
        expect(await redeem.isDisabled()).toBe(true);
        const select = form.getByLabel('Reward');
        const offered = await select.locator('option').allTextContents();
        expect(offered).toContain(`${rewardName} (120 points)`);
        expect(offered.join('\n')).not.toContain(tooDear);
        await select.selectOption({ label: `${rewardName} (120 points)` });
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-loyalty-redeem');
        await redeem.click();
        await toast(page, `${rewardName} redeemed. The balance is now 80.`).waitFor();
        const row = page.locator('.staff-loyalty__redemptions tbody tr').filter({ hasText: rewardName });
        await row.waitFor();
        expect(await row.textContent()).toContain('-120');
        await page.getByTestId('loyalty-balance').filter({ hasText: /^80$/ }).waitFor();
        await page
          .locator('.staff-loyalty__ledger tbody tr')
          .filter({ hasText: `redeemed: ${rewardName}` })
          .waitFor();
        // The claim's lot: 200 earned, 80 left after the redemption, expiring in 12 months.
        const lot = page.locator('.staff-loyalty__lots tbody tr').filter({ hasText: 'claimed' });
        await lot.filter({ hasText: /200\s*80/ }).waitFor();
        // The year as the page writes it, in the park's zone (on Jan 1 before 8:00 UTC, still the old year there).
        const parkYear = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric' }).format(new Date()));
        expect(await lot.textContent()).toContain(String(parkYear + 1));
        // Spending never lowers the tier; with 80 points the sundae is no longer offered.
        await page
          .getByTestId('loyalty-tier')
          .filter({ hasText: `${tierName} tier` })
          .waitFor();
        await page.waitForFunction(
          (name) => ![...document.querySelectorAll('#loyalty-redeem-reward option')].some((o) => o.textContent?.includes(name)),
          rewardName,
        );

        // Reverse: asked first; Cancel changes nothing.
        await row.getByRole('button', { name: 'Reverse' }).click();
        await modal(page).getByText(`This gives the member back the 120 points spent on ${rewardName}.`).waitFor();
        await closeToasts(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-loyalty-reverse-confirm');
        await modal(page).getByRole('button', { name: 'Cancel' }).click();
        await modal(page).waitFor({ state: 'detached' });
        await row.getByRole('button', { name: 'Reverse' }).click();
        await modal(page).getByRole('button', { name: 'Reverse Redemption' }).click();
        await modal(page).waitFor({ state: 'detached' });
        await toast(page, 'Redemption reversed: 120 points given back.').waitFor();
        await row.filter({ hasText: 'Reversed' }).waitFor();
        expect(await row.getByRole('button', { name: 'Reverse' }).count()).toBe(0);
        await page.getByTestId('loyalty-balance').filter({ hasText: /^200$/ }).waitFor();
        await page
          .locator('.staff-loyalty__ledger tbody tr')
          .filter({ hasText: `redemption reversed: ${rewardName}` })
          .waitFor();
        await closeToasts(page);
        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, 'staff-loyalty-redemptions');
      });
    } finally {
      // The rewards leave the catalogue (one has a redemption, so it stays, inactive); the tier goes.
      for (const made of [reward, dear])
        await staffApi(adminToken, 'PUT', `/api/admin/loyalty-rewards/${(made.json as { loyaltyRewardID: string }).loyaltyRewardID}`, {
          loyaltyRewardActive: false,
        });
      await staffApi(adminToken, 'DELETE', `/api/admin/loyalty-tiers/${(tier.json as { loyaltyTierID: string }).loyaltyTierID}`);
    }
  });
});

describe('without Loyalty Redeem', () => {
  it('a member holding Loyalty Manage sees the redemptions, but no Redeem form and no Reverse', async () => {
    const clerk = aTeamMember(100, 'Redeemless');
    await createTeamMember(adminToken, clerk);
    const found = await staffApi(adminToken, 'GET', '/api/admin/permission/?search=Loyalty%20Redeem');
    const redeemPermission = (found.json as Record<string, unknown>[]).find((p) => p.permissionName === 'Loyalty Redeem');
    if (!redeemPermission) throw new Error('no Loyalty Redeem permission');
    const id = String(redeemPermission.permissionGUID);
    const member = await aMember(90);
    const reward = await staffApi(adminToken, 'POST', '/api/admin/loyalty-rewards/', {
      loyaltyRewardName: `E2E Pretzel ${unique()}`,
      loyaltyRewardPointsCost: 40,
      loyaltyRewardActive: true,
    });
    const rewardId = (reward.json as { loyaltyRewardID: string }).loyaltyRewardID;
    const redeemed = await staffApi(adminToken, 'POST', `${api}redemptions/`, {
      userID: member.userID,
      rewardId,
      idempotencyKey: crypto.randomUUID(),
    });
    expect(redeemed.status).toBe(200);
    expect((await staffApi(adminToken, 'PUT', `/api/admin/permission/${id}`, { permissionMinimumAccessLevel: 500 })).status).toBe(200);
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    try {
      const { page } = staff;
      await logIn(page, clerk.email, clerk.password);
      await goToTab(page, 'Loyalty');
      await page.getByLabel('Email', { exact: true }).fill(member.email);
      await page.getByRole('form', { name: 'Find or create an account', exact: true }).getByRole('button', { name: 'Submit' }).click();
      const row = page.locator('.staff-loyalty__redemptions tbody tr').filter({ hasText: 'E2E Pretzel' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Redeemed');
      expect(await page.getByRole('form', { name: 'Redeem a reward', exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Reverse' }).count()).toBe(0);
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staffApi(adminToken, 'PUT', `/api/admin/permission/${id}`, { permissionMinimumAccessLevel: 100 });
      await staffApi(adminToken, 'PUT', `/api/admin/loyalty-rewards/${rewardId}`, { loyaltyRewardActive: false });
      await staff.close();
    }
  });
});
