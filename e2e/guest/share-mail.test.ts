// The share mail, for real: a server process of its own (the built app, demo data) sends
// through SMTP_URL to a real SMTP server (smtp-server); the owner shares the Stored Value Card
// in Chromium, the message arrives, and its link, opened in Chromium, shows the shared pass.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';
import { demo, expectNoAxeViolations, launchBrowser, screenshot, unexpectedProblems, WIDTHS } from '../support/browser.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

let browser: Browser;
let smtp: TestSmtpServer;
let server: ServerProcess;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServerProcess({ SMTP_URL: smtp.url, SUPPORT_EMAIL: 'help@boardwalk.test' }, { dataFrom: inject('demoDataFolder') });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

async function newPage(problems: string[]): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: WIDTHS.mobile, height: 780 },
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return page;
}

it('mails the guest their link through SMTP, and the link shows the shared pass', async () => {
  const problems: string[] = [];
  const owner = await newPage(problems);
  const { orderId, barcode } = demo.storedValue;
  await owner.goto(`/${orderId}/${barcode}`);
  const section = owner.getByRole('region', { name: 'Manage Ticket Shares' });
  await section.getByRole('button', { name: 'Share With a Guest' }).click();
  const dialog = owner.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Set Up Ticket Share' }).waitFor();
  await dialog.getByLabel('First Name').fill('Nia');
  await dialog.getByLabel('Last Name').fill('Park');
  await dialog.getByLabel('Email').fill('nia.park@example.com');
  await dialog.getByRole('button', { name: 'Start Sharing' }).click();
  await owner.locator('.share-toast').filter({ hasText: 'Share successful' }).waitFor();
  await section.getByRole('listitem').filter({ hasText: 'nia.park@example.com' }).waitFor();

  const [mail] = await smtp.waitFor(1, 20_000);
  expect(mail!.to).toEqual(['nia.park@example.com']);
  expect(mail!.from).toBe('help@boardwalk.test');
  expect(mail!.subject).toMatch(/^Carl Diaz shared a .+ ticket with you$/);
  const body = mail!.text;
  expect(body).toContain('Hi Nia,');
  const link = new RegExp(`${server.baseUrl}/[A-Za-z0-9_-]{86,}`).exec(body)?.[0];
  expect(link, body).toBeDefined();

  const guest = await newPage(problems);
  await guest.goto(link!);
  const card = guest.locator('article.pass-card');
  await card.waitFor();
  const detail = (label: string) =>
    card
      .locator('.pass-card__detail')
      .filter({ has: guest.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('dd');
  await expect(detail('Shared With').textContent()).resolves.toBe('Nia Park');
  await expect(detail('Primary Ticketholder').textContent()).resolves.toBe('Carl Diaz');
  await expect(guest.getByRole('region', { name: 'Manage Ticket Shares' }).count()).resolves.toBe(0);
  expect(new URL(guest.url()).pathname).toBe(new URL(link!).pathname);
  await expectNoAxeViolations(guest);
  await screenshot(guest, 'shares-mail-link');
  expect(unexpectedProblems(problems)).toEqual([]);
});
