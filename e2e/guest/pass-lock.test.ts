// An activated season pass whose holder's data was erased (issue 47, item 2): the pass page shows
// "Visit Guest Services to put a new photo on this pass" where the photo upload and the
// registration would be, at 360 and 1280 px, axe clean; once staff lift the lock, the
// registration (then the upload) is offered again.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoMessages } from '@boardwalk/contract/photo';
import {
  baseUrl,
  expectNoAxeViolations,
  launchBrowser,
  openGuestPage,
  openPass,
  passCard,
  screenshot,
  unexpectedProblems,
  WIDTHS,
} from '../support/browser.ts';
import { apiLogin, staffApi } from '../support/staff.ts';
import { E2E_INTEGRATION_KEY, STAFF_ADMIN } from '../support/staff-admin.ts';

let browser: Browser;
let adminToken: string;
let pass: { orderId: string; barcode: string };

/** A new activated season pass through the ticketing feed, its holder then erased by staff. */
async function anErasedSeasonPass() {
  const stamp = `${Date.now()}`.slice(-7);
  const orderId = `6${stamp}`;
  const barcode = `64${stamp}0000047`;
  const holder = { firstName: 'Lotte', lastName: 'Erased', email: `lotte.${stamp}@example.com`, phone: '3105550147' };
  const response = await fetch(`${baseUrl()}/api/integrations/orders/${orderId}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${E2E_INTEGRATION_KEY}` },
    body: JSON.stringify({
      orderDate: '2026-11-20T18:15:00Z',
      purchaser: holder,
      tickets: [
        {
          barcode,
          product: '2027 Season Pass',
          category: 'Season Pass',
          isPassholder: true,
          isPassActivated: true,
          credits: 0,
          cash: 0,
          refunded: false,
          holder,
        },
      ],
    }),
  });
  expect(response.status).toBe(201);
  const erased = await staffApi(adminToken, 'POST', '/api/admin/privacy/erase', { email: holder.email });
  expect(erased.status).toBe(200);
  return { orderId, barcode };
}

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
  pass = await anErasedSeasonPass();
});
afterAll(async () => {
  await browser?.close();
});

describe('a season pass locked by its erasure', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`says to visit Guest Services instead of the upload and the registration (${width} px)`, async () => {
      const guest = await openGuestPage(browser, width);
      const { page } = guest;
      try {
        await openPass(page, pass.orderId, pass.barcode);
        await passCard(page).waitFor();
        const notice = page.getByRole('status').filter({ hasText: photoMessages.passLocked });
        await notice.waitFor();
        await expect(notice.textContent()).resolves.toBe('Visit Guest Services to put a new photo on this pass');
        await expect(page.getByLabel('Choose a photo').count()).resolves.toBe(0);
        await expect(page.getByRole('heading', { name: 'Register Your Pass' }).count()).resolves.toBe(0);
        await expect(page.getByRole('button', { name: 'Edit Registration' }).count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'pass-locked');
        expect(unexpectedProblems(guest.problems)).toEqual([]);
      } finally {
        await guest.close();
      }
    });
  }

  it('asks for a name again (then the photo) once staff lift the lock', async () => {
    const lifted = await staffApi(adminToken, 'POST', '/api/admin/privacy/pass-lock/lift', { barcode: pass.barcode });
    expect(lifted.status).toBe(200);
    const guest = await openGuestPage(browser);
    try {
      await openPass(guest.page, pass.orderId, pass.barcode);
      await guest.page.getByRole('heading', { level: 1, name: 'Register Your Pass' }).waitFor();
      await expect(guest.page.getByText(photoMessages.passLocked).count()).resolves.toBe(0);
    } finally {
      await guest.close();
    }
  });
});
