// axe and screenshots of the staff pages at phone and desktop widths: /login, every tab of
// the administrator, the New modal and the menu opened on a phone. `npm run screenshots` writes
// screenshots/staff-<state>-<width>.png; each page must not overflow horizontally.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '@boardwalk/contract/staff-navigation';
import { expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { goToTab, modal, openStaffPage, signIn } from '../support/staff.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBe(0);
}

for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
  describe(`staff pages at ${width} px`, () => {
    it('login', async () => {
      const staff = await openStaffPage(browser, width);
      try {
        await staff.page.goto('/login');
        await staff.page.getByRole('button', { name: 'Login' }).waitFor();
        await expectNoAxeViolations(staff.page);
        await screenshot(staff.page, 'staff-login');
        await expectNoOverflow(staff.page);
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });

    // axe and a full-page screenshot of each of the 20-odd tabs: more than one test's usual minute.
    it('every tab, the New modal and the menu', { timeout: 180_000 }, async () => {
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        for (const resource of resources) {
          await goToTab(page, resource.title);
          await page.getByRole('heading', { level: 2, name: resource.title, exact: true }).waitFor();
          await page.locator('.staff-table tbody tr').first().waitFor();
          await page.waitForFunction(() => !document.querySelector('.staff-table[aria-busy="true"]'));
          await expectNoAxeViolations(page);
          await screenshot(page, `staff-${resource.key}`);
          await expectNoOverflow(page);
        }

        await goToTab(page, 'Pass Customizations');
        await page.getByRole('button', { name: 'Add New' }).click();
        await modal(page).getByRole('heading', { name: 'New Pass Customizations' }).waitFor();
        // Past the fade-in.
        await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await page.waitForTimeout(200);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-modal-new');
        await modal(page).getByRole('button', { name: 'Cancel' }).click();
        await modal(page).waitFor({ state: 'detached' });

        await goToTab(page, 'Team');
        await page.locator('.staff-table tbody tr').first().click();
        await modal(page).getByRole('heading', { name: 'Edit Team' }).waitFor();
        await page.waitForTimeout(200);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-modal-edit');
        await modal(page).getByRole('button', { name: 'Cancel' }).click();
        await modal(page).waitFor({ state: 'detached' });

        if (width === WIDTHS.mobile) {
          // On a phone the menu button opens the grouped navigation and Logout; no username in the bar.
          await expect(page.getByRole('button', { name: 'Logout' }).isVisible()).resolves.toBe(false);
          await expect(page.getByRole('navigation', { name: 'Back office' }).isVisible()).resolves.toBe(false);
          await page.getByRole('button', { name: 'Menu' }).click();
          await page.getByRole('button', { name: 'Logout' }).waitFor({ state: 'visible' });
          await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Team', exact: true }).waitFor();
          await page.waitForTimeout(400);
          await expect(page.locator('.staff-navbar__user').isVisible()).resolves.toBe(false);
          await expectNoAxeViolations(page);
          await screenshot(page, 'staff-menu');
        }
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  });
}
