// The Loyalty tab shows where a member's passes are: per ticket of the loaded account, the
// devices registered for its Apple pass and what Google Wallet's callbacks last said of its
// object (Saved, Deleted, Unknown), and the same for the member card. The state is made the
// way the outside systems make it: an Apple device registers through the PassKit web service,
// Google posts callbacks signed with the run's root key (global-setup.ts); at 360 and 1280 px,
// axe clean (screenshots with `npm run screenshots`).
import type { Browser, Page } from 'playwright-core';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GoogleCallbackSigner, rootKeyPair } from '../../apps/api/test-support/google-callbacks-double.ts';
import { baseUrl, expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { anOrderId, feed } from '../support/feed.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { apiLogin, goToTab, openStaffPage, signIn, staffApi, unique } from '../support/staff.ts';

let browser: Browser;
const api = '/api/admin/loyalty/';
const email = `wallets.${unique()}@example.com`;
const orderId = anOrderId('9');
const barcodes = { saved: `${orderId}00000001`, deleted: `${orderId}00000002`, none: `${orderId}00000003` };
let guestAddress = 0;

/** A guest call (its own forwarded address, so the lookup throttle is its own). */
async function guestPost(path: string, body: object) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.77.0.${++guestAddress}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response;
}

/** The Google object id in the ticket's save link (the JWT's payload). */
async function googleObjectId(barcode: string): Promise<string> {
  const link = await (await guestPost('/api/google-wallet/', { orderId, barcode })).text();
  const jwt = link.slice(link.lastIndexOf('/') + 1);
  const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { payload: { genericObjects: { id: string }[] } };
  return claims.payload.genericObjects[0]!.id;
}

/** Google's callback for the object, signed with the run's root key. */
async function googleCallback(objectId: string, event: 'save' | 'del', expTimeMillis: number) {
  const signer = new GoogleCallbackSigner(objectId.split('.')[0]!, rootKeyPair(inject('googleRootKey')));
  const response = await fetch(`${baseUrl()}/api/google-wallet/callbacks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(signer.sign(signer.message(objectId, event, { expTimeMillis }))),
  });
  expect(response.status, await response.text()).toBe(200);
}

/** An iPhone adds the ticket's Apple pass: the PassKit registration Apple Wallet makes. */
async function registerAppleDevice(barcode: string, device: string) {
  const bytes = new Uint8Array(await (await guestPost('/api/apple-wallet/', { orderId, barcode })).arrayBuffer());
  const pass = JSON.parse(strFromU8(unzipSync(bytes)['pass.json']!)) as Record<string, string>;
  const registration = await fetch(
    `${pass.webServiceURL}/v1/devices/${device}/registrations/${pass.passTypeIdentifier}/${pass.serialNumber}`,
    {
      method: 'POST',
      headers: { Authorization: `ApplePass ${pass.authenticationToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pushToken: 'cd'.repeat(32) }),
    },
  );
  expect(registration.status).toBe(201);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const token = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
  const holder = { firstName: 'Wanda', lastName: 'Wallet' };
  await feed(`orders/${orderId}`, {
    orderDate: new Date(Date.now() - 86_400_000).toISOString(),
    tickets: Object.values(barcodes).map((barcode) => ({ barcode, product: 'Day Ticket', price: 40, holder })),
  });
  const created = await fetch(`${baseUrl()}${api}create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, ...holder }),
  });
  const userID = await created.text();
  expect(created.status, userID).toBe(200);
  expect((await staffApi(token, 'POST', `${api}tickets/`, { orderId, email, userID })).status).toBe(200);

  const hour = 60 * 60 * 1000;
  await registerAppleDevice(barcodes.saved, `e2e-wallets-${unique()}`);
  await googleCallback(await googleObjectId(barcodes.saved), 'save', Date.now() + hour);
  const deleted = await googleObjectId(barcodes.deleted);
  await googleCallback(deleted, 'save', Date.now() + hour);
  await googleCallback(deleted, 'del', Date.now() + 2 * hour);
});
afterAll(async () => {
  await browser?.close();
});

const orderRow = (page: Page, barcode: string) => page.locator('.staff-loyalty__orders tbody tr').filter({ hasText: barcode });
/** A row's Apple Wallet and Google Wallet cells. */
const walletCells = async (page: Page, barcode: string) => (await orderRow(page, barcode).locator('td').allTextContents()).slice(5, 7);

describe.each([WIDTHS.mobile, WIDTHS.desktop])('where the passes are, at %i px', (width) => {
  it("shows each ticket's Apple devices and Google state, and the member card's", async () => {
    const staff = await openStaffPage(browser, width);
    try {
      const { page } = staff;
      await signIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await goToTab(page, 'Loyalty');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('form', { name: 'Find or create an account', exact: true }).getByRole('button', { name: 'Submit' }).click();
      await orderRow(page, barcodes.none).waitFor();

      expect(await walletCells(page, barcodes.saved)).toEqual(['1 device', 'Saved']);
      expect(await walletCells(page, barcodes.deleted)).toEqual(['0 devices', 'Deleted']);
      expect(await walletCells(page, barcodes.none)).toEqual(['0 devices', 'Unknown']);
      const headers = await page.locator('.staff-loyalty__orders thead th').allTextContents();
      expect(headers.slice(5, 7)).toEqual(['Apple Wallet', 'Google Wallet']);
      expect(await page.getByTestId('member-card-wallets').textContent()).toBe(
        'Member card: Apple Wallet 0 devices · Google Wallet Unknown',
      );

      await expectNoAxeViolations(page);
      await screenshot(page, 'staff-loyalty-wallets');
      if (width === WIDTHS.mobile) {
        // On a phone the orders scroll sideways in their region: the wallet columns at its end.
        const region = page.getByRole('region', { name: 'Loyalty orders' });
        await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        await screenshot(page, 'staff-loyalty-wallets-orders', region);
      }
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staff.close();
    }
  });
});
