// The Privacy tab on the demo data: a guest found by email shows her tickets (the other guest on
// her order only as a ticket she bought), her hotel stay, and Download saves the same document;
// a person nobody holds says so; a bad email is said at the field; a holder known by name only
// is found by name and order id and erased alone; a member without Privacy Export does not see the tab.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivacyExport } from '@boardwalk/contract/privacy';
import { expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import type { Page } from 'playwright-core';
import { anOrderId, feed } from '../support/feed.ts';
import {
  apiLogin,
  aTeamMember,
  createTeamMember,
  goToTab,
  modal,
  openStaffPage,
  signIn,
  staffApi,
  tabNames,
  unique,
} from '../support/staff.ts';

let browser: Browser;

/** Opens the Privacy tab (a page of its own: no table to wait for). */
async function openPrivacy(page: Page) {
  await goToTab(page, 'Privacy');
  await page.getByRole('heading', { level: 2, name: 'Privacy', exact: true }).waitFor();
}
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('Privacy tab', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`finds a guest by email and downloads what is held at ${width} px`, async () => {
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openPrivacy(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-form');
        await page.getByLabel('Email', { exact: true }).fill('Ana.Lopez@example.com');
        await page.getByRole('button', { name: 'Find' }).click();
        await page.getByRole('heading', { name: 'Held about this person' }).waitFor();
        const tickets = page.getByRole('region', { name: /^Tickets/ }).getByRole('row');
        await expect(tickets.count()).resolves.toBe(3);
        await expect(tickets.nth(1).textContent()).resolves.toContain('purchaser, holder');
        // Mateo's ticket is hers as its purchaser only: his name is nowhere on the page.
        await expect(tickets.nth(2).textContent()).resolves.toContain('2400000000000028');
        await expect(page.getByText('Mateo').count()).resolves.toBe(0);
        await expect(
          page
            .getByRole('region', { name: /^Hotel reservations/ })
            .getByText('H7734001')
            .count(),
        ).resolves.toBe(1);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-found');
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
        expect(download.suggestedFilename()).toMatch(/^privacy-export-\d{4}-\d{2}-\d{2}\.json$/);
        const saved = join(await mkdtemp(join(tmpdir(), 'privacy-')), download.suggestedFilename());
        await download.saveAs(saved);
        const doc = JSON.parse(await readFile(saved, 'utf8')) as PrivacyExport;
        expect(doc.query).toEqual({ email: 'Ana.Lopez@example.com' });
        expect(doc.tickets.map((t) => t.barcode)).toEqual(['2400000000000011', '2400000000000028']);
        expect(doc.hotelReservations.map((r) => r.reservationNumber)).toEqual(['H7734001']);
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });

    it(`says when nothing is held, and a bad email at the field, at ${width} px`, async () => {
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openPrivacy(page);
        await page.getByLabel('Email', { exact: true }).fill('not an email');
        await page.getByRole('button', { name: 'Find' }).click();
        await page.getByText('Email is not valid').waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-invalid');
        await page.getByLabel('Find by').selectOption('phone');
        await page.getByLabel('Phone', { exact: true }).fill('(555) 010-9999');
        await page.getByRole('button', { name: 'Find' }).click();
        await page.getByRole('heading', { name: 'Nothing is held about this person' }).waitFor();
        await expect(page.getByText('None held.').count()).resolves.toBe(12);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-nothing');
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`finds and erases a holder known by name only (name and order id), leaving the order's other child, at ${width} px`, async () => {
      const orderId = anOrderId('6');
      const purchaser = { firstName: 'Maren', lastName: 'Lindqvist', email: `maren.${unique()}@example.com`, phone: '4155550123' };
      const child = (n: number, firstName: string) => ({
        barcode: `${orderId}000${n}`,
        product: 'Junior Day Ticket',
        holder: { firstName, lastName: 'Lindqvist' },
        isPassholder: false,
        credits: 0,
        cash: 0,
        refunded: false,
      });
      await feed(`orders/${orderId}`, { orderDate: new Date().toISOString(), purchaser, tickets: [child(1, 'Ava'), child(2, 'Ben')] });
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openPrivacy(page);
        await page.getByLabel('Find by').selectOption('name');
        await page.getByLabel('First Name', { exact: true }).fill('Ava');
        await page.getByLabel('Last Name', { exact: true }).fill('Lindqvist');
        await page.getByLabel('With').selectOption('orderId');
        await page.getByLabel('Order ID', { exact: true }).fill(orderId);
        await page.getByRole('button', { name: 'Find' }).click();
        await page.getByRole('heading', { name: 'Held about this person' }).waitFor();
        const tickets = page.getByRole('region', { name: /^Tickets/ }).getByRole('row');
        await expect(tickets.count()).resolves.toBe(2);
        await expect(tickets.nth(1).textContent()).resolves.toContain(`${orderId}0001`);
        await expect(page.getByText('Ben').count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-by-name');
        await page.getByRole('button', { name: 'Erase...' }).click();
        const dialog = modal(page);
        await dialog.getByRole('heading', { name: 'Erase Personal Data' }).waitFor();
        await expect(dialog.textContent()).resolves.toContain('Ava Lindqvist');
        await dialog.getByRole('button', { name: 'Yes, Erase' }).click();
        await page.getByRole('heading', { name: 'Personal data erased' }).waitFor();
        // Ben, on the same order, is as he was.
        const token = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
        const ben = await staffApi(token, 'POST', '/api/admin/privacy/export', { firstName: 'Ben', lastName: 'Lindqvist', orderId });
        expect((ben.json as PrivacyExport).tickets.map((t) => t.holder)).toEqual([
          { firstName: 'Ben', lastName: 'Lindqvist', email: null, phone: null },
        ]);
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`erases a guest after a confirmation naming what goes and what stays at ${width} px`, async () => {
      const email = `erase.${unique()}@example.com`;
      const orderId = anOrderId('6');
      const guest = { firstName: 'Erin', lastName: 'Rasmussen', email, phone: '4155550199' };
      await feed(`orders/${orderId}`, {
        orderDate: new Date().toISOString(),
        purchaser: guest,
        tickets: [
          { barcode: `${orderId}0001`, product: 'Day Ticket', holder: guest, isPassholder: false, credits: 0, cash: 0, refunded: false },
        ],
      });
      const staff = await openStaffPage(browser, width);
      const { page } = staff;
      try {
        await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openPrivacy(page);
        await page.getByLabel('Email', { exact: true }).fill(email);
        await page.getByRole('button', { name: 'Find' }).click();
        await page.getByRole('heading', { name: 'Held about this person' }).waitFor();
        await page.getByRole('button', { name: 'Erase...' }).click();
        const dialog = modal(page);
        await dialog.getByRole('heading', { name: 'Erase Personal Data' }).waitFor();
        await expect(dialog.textContent()).resolves.toContain('Their name, email and phone on 1 ticket');
        await expect(dialog.textContent()).resolves.toContain('a ticket that is still valid stays valid');
        await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-erase-confirm');
        await dialog.getByRole('button', { name: 'Yes, Erase' }).click();
        await page.getByRole('heading', { name: 'Personal data erased' }).waitFor();
        await page.getByText(orderId).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'staff-privacy-erased');
        // Found again: nothing is held, and nothing to erase.
        await page.getByRole('button', { name: 'Find' }).click();
        await page.getByRole('heading', { name: 'Nothing is held about this person' }).waitFor();
        await expect(page.getByRole('button', { name: 'Erase...' }).count()).resolves.toBe(0);
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }

  it('is not shown to a member without Privacy Export', async () => {
    const admin = await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password);
    const member = aTeamMember(10, 'Clerk');
    await createTeamMember(admin.accessToken, member);
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    try {
      await signIn(staff.page, member.email, member.password);
      const names = await tabNames(staff.page);
      expect(names.length).toBeGreaterThan(0);
      expect(names).not.toContain('Privacy');
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staff.close();
    }
  });
});
