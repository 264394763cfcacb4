// The Wristbands tab against the real server: bands bound through the guest's activation are
// listed and found by band or ticket barcode; Deactivate (after a confirmation) deactivates a
// lost band (audited): the gate no longer knows it, the ticket binds a new band and the lost
// band never binds again. A member without `Wristbands Deactivate` sees no button. axe and
// screenshots at 360 and 1280 px. Every ticket here is made by this file (the demo's stay unbound).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { E2E_INTEGRATION_KEY, STAFF_ADMIN } from '../support/staff-admin.ts';
import {
  apiLogin,
  aTeamMember,
  createTeamMember,
  logIn,
  modal,
  openStaffPage,
  openTab,
  rowWith,
  searchTab,
  signIn,
  staffApi,
} from '../support/staff.ts';

let browser: Browser;
let adminToken: string;
const json = { 'Content-Type': 'application/json' };
const integration = { ...json, Authorization: `Bearer ${E2E_INTEGRATION_KEY}` };

let seq = 0;
/** A new wristband ticket (the demo's wristband pack 770) through the ticketing feed. */
async function aWristbandTicket() {
  const stamp = `${Date.now()}`.slice(-7);
  seq++;
  const orderId = `7${stamp.slice(-5)}${String(seq % 100).padStart(2, '0')}`;
  const barcode = `72${stamp}${String(seq).padStart(7, '0')}`;
  const response = await fetch(`${baseUrl()}/api/integrations/orders/${orderId}`, {
    method: 'PUT',
    headers: integration,
    body: JSON.stringify({
      orderDate: '2026-11-20T18:15:00Z',
      tickets: [
        { barcode, product: 'Wristband', packId: '770', isPassholder: false, credits: 0, cash: 0, refunded: false, isPassActivated: false },
      ],
    }),
  });
  expect(response.status).toBe(201);
  return { orderId, barcode };
}

/** Activates a band as the guest's page would: login for the token, then the activation. */
async function activate(ticket: { orderId: string; barcode: string }, band: string) {
  const login = await fetch(`${baseUrl()}/api/login/`, { method: 'POST', headers: json, body: JSON.stringify(ticket) });
  const { wristbandActivateToken } = (await login.json()) as { wristbandActivateToken: string };
  const response = await fetch(`${baseUrl()}/api/wristband/activate/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ barcode: ticket.barcode, wristbandBarcode: band, wristbandActivateToken }),
  });
  return { status: response.status, text: await response.text() };
}

let bandSeq = 0;
const aBand = () => `ST${`${Date.now()}`.slice(-8)}${String(++bandSeq).padStart(6, '0')}`;

const gate = (band: string) => fetch(`${baseUrl()}/api/integrations/wristbands/${band}`, { headers: integration });

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (await apiLogin(STAFF_ADMIN.email, STAFF_ADMIN.password)).accessToken;
});
afterAll(async () => {
  await browser?.close();
});

describe('Wristbands tab', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`lists and finds bound bands, and Deactivate after a confirmation frees the ticket for a new band (${width} px)`, async () => {
      const ticket = await aWristbandTicket();
      const band = aBand();
      expect(await activate(ticket, band)).toEqual({ status: 200, text: 'Valid with no end date' });

      const staff = await openStaffPage(browser, width);
      try {
        await signIn(staff.page, STAFF_ADMIN.email, STAFF_ADMIN.password);
        await openTab(staff.page, 'Wristbands');
        // Found by the ticket's barcode, then by the band (any case).
        await searchTab(staff.page, ticket.barcode);
        await rowWith(staff.page, band).waitFor();
        await searchTab(staff.page, band.toLowerCase());
        const row = rowWith(staff.page, band);
        await expect(row.textContent()).resolves.toContain(ticket.orderId);
        await expect(staff.page.locator('.staff-table tbody tr').count()).resolves.toBe(1);
        await expectNoAxeViolations(staff.page);
        await screenshot(staff.page, 'wristband-staff-list');

        await row.getByRole('button', { name: 'Deactivate', exact: true }).click();
        await modal(staff.page).getByRole('heading', { name: 'Deactivate Wristband' }).waitFor();
        await expect(modal(staff.page).textContent()).resolves.toContain(band);
        // Past the fade-in.
        await staff.page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await staff.page.waitForTimeout(200);
        await expectNoAxeViolations(staff.page);
        await screenshot(staff.page, 'wristband-staff-confirm');
        await modal(staff.page).getByRole('button', { name: 'Yes, Deactivate' }).click();
        await staff.page.getByText(`Wristbands: wristband ${band} deactivated.`).waitFor();
        await modal(staff.page).waitFor({ state: 'detached' });
        await expect.poll(() => row.getByRole('button', { name: 'Deactivate', exact: true }).count()).toBe(0);
        await expect(row.textContent()).resolves.toContain(STAFF_ADMIN.email);
        await expectNoAxeViolations(staff.page);
        await screenshot(staff.page, 'wristband-staff-deactivated');
        expect(unexpectedProblems(staff.problems)).toEqual([]);
      } finally {
        await staff.close();
      }

      // The gate no longer admits the band; it never binds again; the ticket takes a new band.
      expect((await gate(band)).status).toBe(404);
      expect((await activate(ticket, band)).status).toBe(403);
      const fresh = aBand();
      expect((await activate(ticket, fresh)).status).toBe(200);
      expect(await (await gate(fresh)).json()).toMatchObject({ wristbandBarcode: fresh, barcode: ticket.barcode, orderId: ticket.orderId });
      const audit = (await staffApi(adminToken, 'GET', `/api/admin/audit-log/?search=deactivate`)).json as Record<string, unknown>[];
      expect(audit).toContainEqual(
        expect.objectContaining({ auditLogAction: 'deactivate', auditLogResource: 'wristbands', auditLogUsername: STAFF_ADMIN.email }),
      );
    });
  }

  it('shows no Deactivate button to a member without the permission', async () => {
    const ticket = await aWristbandTicket();
    const band = aBand();
    expect((await activate(ticket, band)).status).toBe(200);
    const viewer = aTeamMember(1, 'Viewer');
    await createTeamMember(adminToken, viewer);
    const staff = await openStaffPage(browser, WIDTHS.desktop);
    try {
      await logIn(staff.page, viewer.email, viewer.password);
      await openTab(staff.page, 'Wristbands');
      await searchTab(staff.page, band);
      await rowWith(staff.page, band).waitFor();
      await expect(staff.page.getByRole('button', { name: 'Deactivate', exact: true }).count()).resolves.toBe(0);
    } finally {
      await staff.close();
    }
    // Deactivated here so the band does not outlive the file.
    const rows = (await staffApi(adminToken, 'GET', `/api/admin/wristbands/?search=${band}`)).json as { wristbandBindingGUID: string }[];
    expect((await staffApi(adminToken, 'POST', `/api/admin/wristbands/deactivate/${rows[0]!.wristbandBindingGUID}`)).status).toBe(200);
  });
});
