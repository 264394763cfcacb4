// The Deliveries tab against the real server: a push to an APNs that cannot be reached (the
// e2e server's APNS_URL) is dead after its one try; the tab counts it, lists it with its
// error, and Retry queues it again (audited). axe and screenshots at 360 and 1280 px.
import { unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { E2E_INTEGRATION_KEY, STAFF_ADMIN } from '../support/staff-admin.ts';
import { apiLogin, logIn, openStaffPage, openTab, rowWith, staffApi, unique } from '../support/staff.ts';

let browser: Browser;
let adminToken: string;
let barcode: string;

const json = { 'Content-Type': 'application/json' };

async function deliveryOf(ticket: string) {
  const { json: rows } = await staffApi(adminToken, 'GET', `/api/admin/deliveries/?search=${ticket}`);
  return (rows as { deliveryState: string; deliveryAttempts: number }[])[0];
}

/** A new order, its Apple pass on one device, then a change of balance: one push, which fails. */
async function deadPush(): Promise<string> {
  const orderId = String(90_000_000 + Math.floor(Math.random() * 9_999_999));
  const ticket = `${orderId}${String(Date.now()).slice(-8)}`;
  const put = (cash: number) =>
    fetch(`${baseUrl()}/api/integrations/orders/${orderId}`, {
      method: 'PUT',
      headers: { ...json, Authorization: `Bearer ${E2E_INTEGRATION_KEY}` },
      body: JSON.stringify({
        orderDate: '2026-11-20T18:15:00Z',
        purchaser: { firstName: 'Ana', lastName: 'Lopez' },
        tickets: [
          { barcode: ticket, product: 'Day Ticket', isPassholder: false, credits: 0, cash, refunded: false, isPassActivated: false },
        ],
      }),
    });
  expect((await put(5)).status).toBe(201);
  const pkpass = await fetch(`${baseUrl()}/api/apple-wallet/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ orderId, barcode: ticket }),
  });
  expect(pkpass.status).toBe(200);
  const pass = JSON.parse(Buffer.from(unzipSync(new Uint8Array(await pkpass.arrayBuffer()))['pass.json']!).toString('utf8')) as {
    serialNumber: string;
    authenticationToken: string;
    passTypeIdentifier: string;
  };
  const registered = await fetch(
    `${baseUrl()}/api/passkit/v1/devices/e2e${unique()}/registrations/${pass.passTypeIdentifier}/${pass.serialNumber}`,
    {
      method: 'POST',
      headers: { ...json, Authorization: `ApplePass ${pass.authenticationToken}` },
      body: JSON.stringify({ pushToken: 'ab'.repeat(32) }),
    },
  );
  expect(registered.status).toBe(201);
  expect((await put(7)).status).toBe(200);
  return ticket;
}

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
  barcode = await deadPush();
  for (let i = 0; (await deliveryOf(barcode))?.deliveryState !== 'dead'; i++) {
    if (i > 150) throw new Error('the push did not fail in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
afterAll(async () => {
  await browser?.close();
});

describe('Deliveries tab', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`counts deliveries by state and lists the dead push with its error at ${width} px`, async () => {
      const staff = await openStaffPage(browser, width);
      try {
        await logIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openTab(staff.page, 'Deliveries');
        const counts = staff.page.getByRole('list', { name: 'Deliveries by state' });
        await expect.poll(() => counts.textContent()).toMatch(/Dead: [1-9]/);
        const row = rowWith(staff.page, barcode);
        await row.waitFor();
        await expect(row.textContent()).resolves.toMatch(/apple.*dead/s);
        await expect(row.textContent()).resolves.toContain('APNs');
        await staff.page.waitForFunction(() => !document.querySelector('.staff-table[aria-busy="true"]'));
        await expectNoAxeViolations(staff.page);
        await screenshot(staff.page, 'staff-deliveries-dead');
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }

  it("shows the Apple signer certificate's expiry: the development chain's date, no warning", async () => {
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    try {
      await logIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await openTab(staff.page, 'Deliveries');
      await staff.page.getByText(/Apple Wallet development signing certificate valid until .+ \(\d+ days\)\./).waitFor();
      await expect(staff.page.getByRole('alert').count()).resolves.toBe(0);
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staff.close();
    }
  });

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`warns when the certificate expires within 30 days at ${width} px`, async () => {
      const staff = await openStaffPage(browser, width);
      try {
        // The server's certificate is the development chain's (2 years): the answer of one
        // whose expiry is near, as the server gives it (apps/api certificate-expiry.test.ts).
        const notAfter = new Date(Date.now() + 12.5 * 86_400_000).toISOString();
        await staff.page.route('**/api/admin/deliveries/certificate', (route) =>
          route.fulfill({ json: { notAfter, daysLeft: 12, development: false, warning: true } }),
        );
        await logIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openTab(staff.page, 'Deliveries');
        const warning = staff.page.locator('.alert-warning');
        await warning.waitFor();
        await expect(warning.textContent()).resolves.toMatch(/The Apple Wallet signing certificate expires on .+, in 12 days\. Renew it/);
        await staff.page.waitForFunction(() => !document.querySelector('.staff-table[aria-busy="true"]'));
        await expectNoAxeViolations(staff.page);
        await screenshot(staff.page, 'staff-deliveries-certificate-warning');
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }
    });
  }

  it('Retry queues the delivery again and is audited', async () => {
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    try {
      await logIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await openTab(staff.page, 'Deliveries');
      await rowWith(staff.page, barcode).getByRole('button', { name: 'Retry' }).click();
      await staff.page.getByText('Deliveries: retry queued.').waitFor();
      const audit = (await staffApi(adminToken, 'GET', '/api/admin/audit-log/?search=retry')).json as {
        auditLogResource: string;
        auditLogUsername: string;
      }[];
      expect(audit).toContainEqual(expect.objectContaining({ auditLogResource: 'deliveries', auditLogUsername: STAFF_ADMIN.email }));
      // Tried again (the APNs address still does not answer): dead once more, after two tries.
      await expect.poll(async () => (await deliveryOf(barcode))?.deliveryAttempts, { timeout: 30_000 }).toBe(2);
      expect(unexpectedProblems(staff.problems)).toEqual([]);
    } finally {
      await staff.close();
    }
  });
});
