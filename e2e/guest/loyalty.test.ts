// Every state of the loyalty area in Chromium against the demo data, at 360 and 1280 px, axe
// clean, on a server process of its own that mails through a real SMTP server: joining proves
// the email by the code mailed to it (the code step: sent, a wrong code, a new code, expired).
// Each test joins with an email of its own; a ticket claim is of an order the test puts
// through the feed under that email (a guest claims only what is under their email), a check
// claim of demo checks no other test claims.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  alertText,
  answerWithError,
  expectNoAxeViolations,
  launchBrowser,
  openGuestPage,
  screenshot,
  unexpectedProblems,
  WIDTHS,
  type Width,
  inGuestPage,
} from '../support/browser.ts';
import { CODE_REFUSALS, loyaltyEmailMessages } from '@boardwalk/contract/loyalty';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';
import { launchCameraBrowser } from '../support/fake-camera.ts';
import { anOrderId, feed as feedTo } from '../support/feed.ts';
import { mailedCode } from '../support/mail.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { E2E_INTEGRATION_KEY } from '../support/staff-admin.ts';

let browser: Browser;
let smtp: TestSmtpServer;
let server: ServerProcess;
beforeAll(async () => {
  smtp = await startSmtpServer();
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServerProcess(
      {
        SMTP_URL: smtp.url,
        INTEGRATION_API_KEYS: `e2e:${E2E_INTEGRATION_KEY}`,
        TRUST_PROXY: '127.0.0.1',
      },
      { dataFrom: inject('demoDataFolder') },
    ),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

/** PUT /api/integrations/{path} on this file's server; the feed must take it as new (201). */
const feed = (path: string, body: object) => feedTo(path, body, server.baseUrl);

let emails = 0;
const newEmail = () => `loyalty.e2e.${Date.now().toString(36)}.${++emails}@example.com`;
const pathname = (page: Page) => new URL(page.url()).pathname;

let addresses = 0;
/** Each page is a guest of its own address: codes mailed and refused count against it. */
const inPage = (body: (page: Page) => Promise<void>, width: Width = WIDTHS.mobile) =>
  inGuestPage(browser, width, body, { clientAddress: `198.51.100.${++addresses}`, serverUrl: server.baseUrl });

/** A one-ticket order of yesterday bought by this email: its order id. */
async function anOrderBoughtBy(email: string): Promise<string> {
  const orderId = anOrderId('5');
  await feed(`orders/${orderId}`, {
    orderDate: new Date(Date.now() - 86_400_000).toISOString(),
    purchaser: { firstName: 'Lia', lastName: 'Park', email },
    tickets: [{ barcode: `${orderId}${orderId}`, product: 'Day Ticket', price: 64.5, isPassholder: false, credits: 0, cash: 0 }],
  });
  return orderId;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

/** From /loyalty/: the email, then the code step (the code mailed to it): answers once the code is asked for. */
async function askForCode(page: Page, email: string) {
  await page.goto('/loyalty/');
  await heading(page, 'Brownie Points').waitFor();
  await page.getByLabel('Email').fill(email);
  const after = smtp.received.length;
  await page.getByRole('button', { name: 'Continue' }).click();
  await heading(page, 'Check Your Email').waitFor();
  return mailedCode(smtp, email, after);
}

/** The email proven: the code entered and confirmed. */
async function proveEmail(page: Page, email: string) {
  await page.getByLabel('Code').fill(await askForCode(page, email));
  await page.getByRole('button', { name: 'Confirm' }).click();
}

/** Joins with a new email from /loyalty/: the email, the code, then the names form. */
async function join(page: Page, email = newEmail()) {
  await proveEmail(page, email);
  await heading(page, 'Join Brownie Points').waitFor();
  await page.getByLabel('First Name').fill('Lia');
  await page.getByLabel('Last Name').fill('Park');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('link', { name: 'In-Park Ticket Purchase' }).waitFor();
  return email;
}

describe.each([WIDTHS.mobile, WIDTHS.desktop])('at %i px', (width) => {
  it('asks for the email first: Continue waits for a valid one', async () => {
    await inPage(async (page) => {
      await page.goto('/loyalty/');
      await heading(page, 'Brownie Points').waitFor();
      const go = page.getByRole('button', { name: 'Continue' });
      expect(await go.isDisabled()).toBe(true);
      await page.getByLabel('Email').fill('ana@example');
      expect(await go.isDisabled()).toBe(true);
      await page.getByLabel('Email').fill('ana@example.com');
      // The form is prerendered: until the page's own chunk has loaded and taken it over, typing enables nothing yet.
      await expect.poll(() => go.isEnabled()).toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-email');
    }, width);
  });

  it('asks for the code mailed to the email: a wrong code is refused in red, a new code can be sent, Start Over goes back', async () => {
    await inPage(async (page) => {
      const email = newEmail();
      const code = await askForCode(page, email);
      expect(await page.getByText(`We sent a 6-digit code to ${email}.`).isVisible()).toBe(true);
      const confirm = page.getByRole('button', { name: 'Confirm' });
      expect(await confirm.isDisabled()).toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-code');
      await page.getByLabel('Code').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
      await confirm.click();
      expect(await alertText(page)).toBe(loyaltyEmailMessages.wrongCode);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-code-wrong');
      const after = smtp.received.length;
      await page.getByRole('button', { name: 'Send a New Code' }).click();
      await page.getByText('We sent you a new code. Only the newest code works.').waitFor();
      const newCode = await mailedCode(smtp, email, after);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-code-resent');
      // The code expired or was tried too often: the server's words, and a new code is one click away.
      await answerWithError(page, '/api/loyalty/confirm', 400, loyaltyEmailMessages.expired, {}, { reason: CODE_REFUSALS.expired });
      await page.getByLabel('Code').fill(newCode);
      await confirm.click();
      expect(await alertText(page)).toBe(loyaltyEmailMessages.expired);
      expect(await page.getByRole('button', { name: 'Send a New Code' }).isEnabled()).toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-code-expired');
      await page.getByRole('button', { name: 'Start Over' }).click();
      await heading(page, 'Brownie Points').waitFor();
    }, width);
  });

  it('asks an unknown email for the name once its code is proven (Start Over goes back), then shows the three choices', async () => {
    await inPage(async (page) => {
      await proveEmail(page, newEmail());
      await heading(page, 'Join Brownie Points').waitFor();
      expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-join');
      await page.getByRole('button', { name: 'Start Over' }).click();
      await heading(page, 'Brownie Points').waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe('');

      await join(page);
      for (const name of ['In-Park Ticket Purchase', 'Food & Beverage Purchase', 'Hotel Reservation']) {
        expect(await page.getByRole('link', { name }).isVisible()).toBe(true);
      }
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-home');
    }, width);
  });
});

describe('a birthday', () => {
  it('joins with a birthday (Feb 29), which the server keeps', async () => {
    await inPage(async (page) => {
      await proveEmail(page, newEmail());
      await heading(page, 'Join Brownie Points').waitFor();
      await page.getByLabel('First Name').fill('Lia');
      await page.getByLabel('Last Name').fill('Park');
      await page.getByLabel('Month').selectOption({ label: 'February' });
      await page.getByLabel('Day').selectOption('29');
      const [created] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/loyalty/create')),
        page.getByRole('button', { name: 'Submit' }).click(),
      ]);
      expect(created.status()).toBe(200);
      expect(created.request().postDataJSON()).toMatchObject({ birthday: { month: 2, day: 29 } });
      await page.getByRole('link', { name: 'In-Park Ticket Purchase' }).waitFor();
    });
  });
});

describe('claims', () => {
  it('claims a ticket order: another guest\'s is refused with the reason, then "Submitting your info...", the points and the balance', async () => {
    await inPage(async (page) => {
      const email = await join(page);
      const own = await anOrderBoughtBy(email);
      await page.getByRole('link', { name: 'In-Park Ticket Purchase' }).click();
      await heading(page, 'In-Park Ticket Purchase').waitFor();
      const submit = page.getByRole('button', { name: 'Submit' });
      expect(await submit.isDisabled()).toBe(true);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-tickets');
      // A demo order bought by someone else.
      await page.getByLabel('Order ID or Invoice Number').fill('10000006');
      await submit.click();
      expect(await alertText(page)).toBe('This purchase is not under your email address. Guest Services can add it for you.');
      await screenshot(page, 'loyalty-not-yours');
      await page.getByLabel('Order ID or Invoice Number').fill(own);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/loyalty/tickets/', async (route) => {
        await held;
        await route.continue();
      });
      await submit.click();
      await page.getByRole('button', { name: 'Submitting your info...' }).waitFor();
      release();
      await heading(page, "You've Earned some Brownie Points!").waitFor();
      expect(await page.getByTestId('points-earned').textContent()).toMatch(/^\+\d[\d,]* Brownie points$/);
      expect(await page.getByText(/Your balance is now/).textContent()).toMatch(/Your balance is now \d/);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-earned');
    });
    await inPage(async (page) => {
      await join(page);
      await page.goto('/loyalty/tickets');
      await page.getByRole('link', { name: 'Back' }).waitFor();
      await screenshot(page, 'loyalty-tickets');
    }, WIDTHS.desktop);
  });

  it("shows the server's reason in red on a 400 and the support text on any other failure", async () => {
    await inPage(async (page) => {
      await join(page);
      await page.goto('/loyalty/hotels');
      await page.getByLabel('Reservation Number').fill('H0000000');
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await alertText(page)).toBe('We could not find that reservation.');
      expect(await page.getByRole('alert').locator('.alert-danger').count()).toBe(1);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-claim-refused');
      await answerWithError(page, '/api/loyalty/hotels/', 500, 'boom');
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText(/^Unable to submit, please try again later\./).waitFor();
      expect(await alertText(page)).toMatch(
        /^Unable to submit, please try again later\. If this issue persists, please email us at \S+@\S+ for assistance\.$/,
      );
    });
  });

  it('lists the checks that share a number, and claims the one the guest adds', async () => {
    // Two checks of its own that share a number, within the 90 days a claim may reach back.
    const checkNumber = anOrderId('6');
    for (const [terminal, daysAgo] of [
      ['A', 1],
      ['B', 3],
    ] as const)
      await feed(`checks/${checkNumber}-${terminal}`, {
        checkNumber,
        orderDate: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
        terminalId: `FB-0${daysAgo}`,
        total: 12.5,
      });
    await inPage(async (page) => {
      await join(page);
      await page.goto(`/loyalty/purchase/${checkNumber}`);
      await heading(page, 'Food & Beverage Purchase').waitFor();
      // The path segment fills the form and the URL becomes the bare route.
      await page.waitForURL('**/loyalty/purchase');
      expect(await page.getByLabel('Check Number').inputValue()).toBe(checkNumber);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Several checks have this number. Which one is yours?').waitFor();
      const adds = page.getByRole('button', { name: 'Add', exact: true });
      expect(await adds.count()).toBe(2);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-candidates');
      await adds.first().click();
      await heading(page, "You've Earned some Brownie Points!").waitFor();
    }, WIDTHS.desktop);
  });

  it('tells a member whose account existed before to email staff, and hides the claim form', async () => {
    const email = newEmail();
    await inPage(async (page) => {
      await join(page, email);
      await page.getByRole('button', { name: 'Log Out' }).click();
      await heading(page, 'Brownie Points').waitFor();
      expect(pathname(page)).toBe('/loyalty/');
      // The same email again: its code leads to the account, not to the names form.
      await proveEmail(page, email);
      await page.getByRole('link', { name: 'Hotel Reservation' }).click();
      await page.getByText(/^You already have a loyalty account\./).waitFor();
      expect(await page.getByLabel('Reservation Number').count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-existing-account');
    });
  });

  it('keeps a proven member signed in; a member remembered from before the proof proves the email at the next visit', async () => {
    const email = newEmail();
    await inPage(async (page) => {
      await join(page, email);
      await page.goto('/loyalty/');
      await page.getByRole('link', { name: 'Food & Beverage Purchase' }).waitFor();
      // A member kept on the device before emails were proven (no "proven"): no code was mailed on load.
      await page.evaluate(() => {
        const member = JSON.parse(localStorage.getItem('boardwalk.loyalty.member')!) as Record<string, unknown>;
        delete member.proven;
        localStorage.setItem('boardwalk.loyalty.member', JSON.stringify(member));
      });
      const before = smtp.received.length;
      await page.goto('/loyalty/');
      await heading(page, 'Brownie Points').waitFor();
      await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(email);
      expect(smtp.received.length).toBe(before);
      await proveEmail(page, email);
      await page.getByRole('link', { name: 'Food & Beverage Purchase' }).waitFor();
    });
  });

  it('shows the create conflict without error styling', async () => {
    await inPage(async (page) => {
      await proveEmail(page, newEmail());
      await page.getByLabel('First Name').fill('Lia');
      await page.getByLabel('Last Name').fill('Park');
      await answerWithError(page, '/api/loyalty/create', 409, 'A loyalty account already uses this email');
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Unable to create your profile, please try again later...').waitFor();
      expect(await page.locator('.alert-danger').count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-create-conflict');
    });
  });
});

describe('pass lookup', () => {
  it('finds a pass ("Finding your info...") and opens it on the pass page', async () => {
    await inPage(async (page) => {
      await page.goto('/loyalty/passes');
      await heading(page, 'Add to Your Digital Wallet').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-find-pass');
      await page.getByLabel('Order ID').fill('10000008');
      await page.getByLabel('Barcode').fill('1000000000000073');
      await page.getByRole('button', { name: 'Find My Pass' }).click();
      await page.waitForURL('**/10000008/1000000000000073');
      await page.locator('article.pass-card').waitFor();
    });
  });
});

describe('camera scanner', () => {
  let cameraBrowser: Browser;
  const code = '7000123456789012';
  beforeAll(async () => {
    cameraBrowser = await launchCameraBrowser(code);
  });
  afterAll(async () => {
    await cameraBrowser?.close();
  });

  it('scans a Code 128 receipt code with the camera into the check number, then stops', async () => {
    const guest = await openGuestPage(cameraBrowser, WIDTHS.mobile, { clientAddress: '198.51.100.250', serverUrl: server.baseUrl });
    try {
      const { page } = guest;
      await join(page);
      await page.goto('/loyalty/purchase');
      await page.getByRole('button', { name: 'Scan Barcode' }).click();
      const dialog = page.getByRole('dialog', { name: 'Scan your check number' });
      await dialog.waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-scanner');
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      expect(await page.getByLabel('Check Number').inputValue()).toBe(code);
      expect(unexpectedProblems(guest.problems)).toEqual([]);
    } finally {
      await guest.close();
    }
  });

  it('closes with Close and keeps typed entry', async () => {
    const guest = await openGuestPage(browser, WIDTHS.desktop, { clientAddress: '198.51.100.251', serverUrl: server.baseUrl });
    try {
      const { page } = guest;
      await join(page);
      await page.goto('/loyalty/tickets');
      await page.getByRole('button', { name: 'Scan Barcode' }).click();
      await page.getByRole('dialog', { name: 'Scan your ticket barcode' }).waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByLabel('Order ID or Invoice Number').fill('10000001');
      expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false);
    } finally {
      await guest.close();
    }
  });
});
