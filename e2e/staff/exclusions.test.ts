// The Wallet Item Exclusions modal: an exclusion must name a merch item or a merch pack, so
// Save waits for one of them and says which (the server refuses the same with a 400).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { modal, openStaffPage, openTab, signIn } from '../support/staff.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('Wallet Item Exclusions modal', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`waits for a merch item or pack id before Save at ${width} px`, async () => {
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openTab(page, 'Wallet Item Exclusions');
        await page.getByRole('button', { name: 'Add New' }).click();
        await modal(page).getByRole('heading', { name: 'New Wallet Item Exclusions' }).waitFor();
        await modal(page).getByLabel('Custom Error', { exact: true }).fill('Not available in wallets');
        const save = modal(page).getByRole('button', { name: 'Save' });
        await expect(save.isDisabled()).resolves.toBe(true);
        await modal(page).getByText('Required: Merch Item ID or Merch Pack ID.').waitFor();
        await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await page.waitForTimeout(200);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-exclusion-needs-id');
        await modal(page)
          .getByLabel('Merch Pack ID', { exact: true })
          .fill(`E2E-${width}-${Date.now().toString(36)}`);
        await expect(save.isDisabled()).resolves.toBe(false);
        await save.click();
        await modal(page).waitFor({ state: 'detached' });
        await page.getByText('Wallet Item Exclusions: record created.').waitFor();
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }
});
