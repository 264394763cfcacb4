// The Park Hours, Park Locations and Park Notices tabs against the real server with the demo
// data: the demo's operating days and locations are listed; a location is added through the
// modal (coordinates with decimals) and removed again, as is a notice in English and Spanish. axe and screenshots at 360 and 1280 px.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { modal, openStaffPage, openTab, rowWith, signIn } from '../support/staff.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const settled = (page: import('playwright-core').Page) =>
  page.waitForFunction(() => !document.querySelector('.staff-table[aria-busy="true"]'));

describe('Park Hours and Park Locations tabs', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`lists the demo's park hours and adds and removes a location at ${width} px`, async () => {
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openTab(page, 'Park Hours');
        await page.locator('.staff-table tbody tr').first().waitFor();
        await settled(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-park-hours');

        await openTab(page, 'Park Locations');
        await rowWith(page, 'Main Gate').waitFor();
        await expect(rowWith(page, 'Pier Entrance').textContent()).resolves.toContain('-118.4988');
        await settled(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-park-locations');

        const name = `Boardwalk Arch ${width}`;
        await page.getByRole('button', { name: 'Add New' }).click();
        await modal(page).getByRole('heading', { name: 'New Park Locations' }).waitFor();
        await modal(page).getByLabel('Name', { exact: true }).fill(name);
        await modal(page).getByLabel('Latitude', { exact: true }).fill('34.009912');
        await modal(page).getByLabel('Longitude', { exact: true }).fill('-118.496543');
        await modal(page).getByLabel('Lock Screen Text', { exact: true }).fill('The arch is right ahead.');
        await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await page.waitForTimeout(200);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-park-location-new');
        await modal(page).getByRole('button', { name: 'Save' }).click();
        await modal(page).waitFor({ state: 'detached' });
        await page.getByText('Park Locations: record created.').waitFor();
        await expect(rowWith(page, name).textContent()).resolves.toContain('34.009912');

        await rowWith(page, name).getByRole('button', { name: 'Edit' }).click();
        await modal(page).getByRole('button', { name: 'Delete' }).click();
        await modal(page).getByRole('button', { name: 'Yes, Delete' }).click();
        await page.getByText('Park Locations: record deleted.').waitFor();
        await rowWith(page, name).waitFor({ state: 'detached' });

        // A notice of the park's, in English and Spanish: added, listed, removed.
        await openTab(page, 'Park Notices');
        const notice = `The Ferris wheel closes at 8 pm tonight (${width}).`;
        await page.getByRole('button', { name: 'Add New' }).click();
        await modal(page).getByRole('heading', { name: 'New Park Notices' }).waitFor();
        await modal(page).getByLabel('Notice', { exact: true }).fill(notice);
        await modal(page).getByLabel('Notice (Spanish)', { exact: true }).fill('La noria cierra hoy a las 8 p. m.');
        await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await page.waitForTimeout(200);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-park-notice-new');
        await modal(page).getByRole('button', { name: 'Save' }).click();
        await modal(page).waitFor({ state: 'detached' });
        await page.getByText('Park Notices: record created.').waitFor();
        await rowWith(page, notice).waitFor();
        await settled(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-park-notices');
        await rowWith(page, notice).getByRole('button', { name: 'Edit' }).click();
        await modal(page).getByRole('button', { name: 'Delete' }).click();
        await modal(page).getByRole('button', { name: 'Yes, Delete' }).click();
        await page.getByText('Park Notices: record deleted.').waitFor();
        await rowWith(page, notice).waitFor({ state: 'detached' });
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }
});
