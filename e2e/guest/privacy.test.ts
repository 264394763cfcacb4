// A guest's own request in Chromium, for real: a server process of its own (the built app, demo
// data) mails the privacy link through SMTP_URL to a real SMTP server (smtp-server). From the
// footer of the pass page: the request form, the sent state, the mailed link's page with what is
// held, Download My Data, Delete My Data with its confirmation, the deleted state, and the spent
// link back on the request form, at 360 and 1280 px, axe clean.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { guestPrivacyMessages, type PrivacyExport } from '@boardwalk/contract/privacy';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';
import { expectNoAxeViolations, inServerPage, launchBrowser, screenshot, WIDTHS } from '../support/browser.ts';
import { mailedLink } from '../support/mail.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { E2E_INTEGRATION_KEY } from '../support/staff-admin.ts';

let browser: Browser;
let smtp: TestSmtpServer;
let server: ServerProcess;
const run = Date.now().toString(36);
let addresses = 0;
const nextAddress = () => `198.51.103.${++addresses}`;

/** A guest who bought and holds one ticket: their email. */
async function aGuest(name: string, orderId: string) {
  const email = `privacy.${name}.${run}@example.com`;
  const guest = { firstName: 'Noor', lastName: 'Haddad', email, phone: '4155550142' };
  const response = await fetch(`${server.baseUrl}/api/integrations/orders/${orderId}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${E2E_INTEGRATION_KEY}` },
    body: JSON.stringify({
      orderDate: new Date().toISOString(),
      purchaser: guest,
      tickets: [
        { barcode: `${orderId}0001`, product: 'Day Ticket', holder: guest, isPassholder: false, credits: 0, cash: 0, refunded: false },
      ],
    }),
  });
  expect(response.status, await response.text()).toBe(201);
  return email;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServerProcess(
    {
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'help@boardwalk.test',
      INTEGRATION_API_KEYS: `e2e:${E2E_INTEGRATION_KEY}`,
      TRUST_PROXY: '127.0.0.1',
    },
    { dataFrom: inject('demoDataFolder') },
  );
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

describe("a guest's own data", () => {
  for (const [i, width] of [WIDTHS.mobile, WIDTHS.desktop].entries()) {
    it(`is asked for from the footer, shown, downloaded and deleted through the mailed link at ${width} px`, async () => {
      const orderId = `7${String(Date.now()).slice(-5)}${i}1`;
      const email = await aGuest(`w${width}`, orderId);
      await inServerPage(browser, { baseUrl: server.baseUrl, width, clientAddress: nextAddress() }, async (page) => {
        await page.goto('/');
        await page.getByRole('link', { name: 'Your data and privacy' }).click();
        await page.getByRole('heading', { level: 1, name: 'Your Data' }).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'privacy-request');
        await page.getByLabel('Email').fill(email);
        await page.getByRole('button', { name: 'Email Me a Link' }).click();
        await page.getByRole('heading', { level: 1, name: 'Check Your Email' }).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'privacy-sent');

        const link = await mailedLink(smtp, email, server.baseUrl, '/privacy/manage');
        await page.goto(link);
        await page.getByRole('heading', { level: 1, name: 'Your Data' }).waitFor();
        await page.getByRole('region', { name: 'Tickets' }).getByText(`order ${orderId}`).waitFor();
        // The token left the address bar.
        expect(new URL(page.url()).hash).toBe('');
        await expectNoAxeViolations(page);
        await screenshot(page, 'privacy-data');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download My Data' }).click(),
        ]);
        const saved = join(await mkdtemp(join(tmpdir(), 'my-data-')), download.suggestedFilename());
        await download.saveAs(saved);
        const doc = JSON.parse(await readFile(saved, 'utf8')) as PrivacyExport;
        expect(doc.tickets.map((t) => t.orderId)).toEqual([orderId]);

        await page.getByRole('button', { name: 'Delete My Data' }).click();
        await page.getByRole('heading', { name: 'Delete Your Data?' }).waitFor();
        await page.waitForFunction(() => document.querySelector('.modal')?.classList.contains('show'));
        await expectNoAxeViolations(page);
        await screenshot(page, 'privacy-delete-confirm');
        await page.getByRole('button', { name: 'Yes, Delete' }).click();
        await page.getByRole('heading', { level: 1, name: 'Your Data Was Deleted' }).waitFor();
        await page.getByText(`under order ${orderId}`).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'privacy-deleted');

        // The link deletes once: opened again (a new visit), it leads back to the request form, saying why.
        await page.goto('about:blank');
        await page.goto(link);
        await page.getByText(guestPrivacyMessages.spent).waitFor();
        await expectNoAxeViolations(page);
        await screenshot(page, 'privacy-link-spent');
      });
    });
  }
});
