// The loyalty member's card in wallets (the loyalty variant of the wallet calls): the success
// screen's wallet buttons on an iPhone, an Android phone and a desktop, and /loyalty/pass, the
// page a staff member's emailed link opens. One claim (a reservation this file puts through the
// hotel feed under the member's email) gives the wallet token.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  alertText,
  expectNoAxeViolations,
  inGuestPage,
  launchBrowser,
  screenshot,
  USER_AGENTS,
  WIDTHS,
  type Width,
} from '../support/browser.ts';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';
import { mailedCode } from '../support/mail.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { E2E_INTEGRATION_KEY } from '../support/staff-admin.ts';
import { feed as feedTo } from '../support/feed.ts';

// A server of this file's own, mailing through a real SMTP server: joining proves the email by its code.
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

const email = `loyalty.card.${Date.now().toString(36)}@example.com`;
const reservationNumber = `HC${Date.now().toString(36).toUpperCase()}`;
beforeAll(async () => {
  // A guest claims only what is under their own email.
  await feed(`reservations/${reservationNumber}`, {
    firstName: 'Noa',
    lastName: 'Berg',
    email,
    arrival: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
    departure: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    total: 189.5,
  });
});
let walletToken = '';
let addresses = 0;
const inPage = (width: Width, userAgent: string | undefined, body: (page: Page) => Promise<void>) =>
  inGuestPage(browser, width, body, { userAgent, clientAddress: `198.51.101.${++addresses}`, serverUrl: server.baseUrl });

const busyText = (page: Page) => page.getByText('Generating Pass Please wait...');
const appleButton = (page: Page) => page.getByRole('button', { name: /Apple Wallet/ });
const googleButton = (page: Page) => page.getByRole('button', { name: /Google Wallet/ });
const passLink = (token = walletToken) => `/loyalty/pass#email=${encodeURIComponent(email)}&token=${token}`;

/** Holds the calls to this path until released, recording their bodies. */
async function holdCalls(page: Page, path: string) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const bodies: unknown[] = [];
  await page.route(`**${path}`, async (route) => {
    bodies.push(route.request().postDataJSON());
    await held;
    await route.continue();
  });
  return { release: () => release(), bodies };
}

describe('the success screen of a claim', () => {
  it('on an iPhone: Apple Wallet only, "Generating Pass Please wait...", and the signed card downloads', async () => {
    await inPage(WIDTHS.mobile, USER_AGENTS.iPhone, async (page) => {
      await page.goto('/loyalty/');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code').fill(await mailedCode(smtp, email));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByLabel('First Name').fill('Noa');
      await page.getByLabel('Last Name').fill('Berg');
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('link', { name: 'Hotel Reservation' }).click();
      await page.getByLabel('Reservation Number').fill(reservationNumber);
      const claim = page.waitForResponse((r) => r.url().endsWith('/api/loyalty/hotels/'));
      await page.getByRole('button', { name: 'Submit' }).click();
      walletToken = ((await (await claim).json()) as { walletToken: string }).walletToken;
      await page.getByRole('heading', { level: 1, name: "You've Earned some Brownie Points!" }).waitFor();
      expect(await appleButton(page).count()).toBe(1);
      expect(await googleButton(page).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-earned-iphone');

      const held = await holdCalls(page, '/api/apple-wallet/');
      const download = page.waitForEvent('download');
      await appleButton(page).click();
      await busyText(page).waitFor();
      expect(await appleButton(page).isDisabled()).toBe(true);
      held.release();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.pkpass$/);
      expect(held.bodies).toEqual([{ email, walletToken }]);
      await busyText(page).waitFor({ state: 'detached' });
    });
  });

  it('on a desktop: no wallet button, the hint to use a phone', async () => {
    // The same screen, reached through the emailed link's page, which shows the same actions.
    await inPage(WIDTHS.desktop, undefined, async (page) => {
      await page.goto(passLink());
      await page.getByRole('heading', { level: 1, name: 'Your Brownie Points Card' }).waitFor();
      await page.getByText('Use a mobile device to add pass to your digital wallet').waitFor();
      expect(await appleButton(page).count()).toBe(0);
      expect(await googleButton(page).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-pass-desktop');
    });
  });
});

describe('/loyalty/pass (the emailed link)', () => {
  it.each([WIDTHS.mobile, WIDTHS.desktop])(
    'at %i px on an Android phone: Google Wallet opens the save link and offers "View Your Pass"',
    async (width) => {
      await inPage(width, USER_AGENTS.android, async (page) => {
        await page
          .context()
          .route('https://pay.google.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Google Wallet</title>' }));
        await page.goto(passLink());
        await page.getByText(email).waitFor();
        expect(await appleButton(page).count()).toBe(0);
        await expectNoAxeViolations(page);
        const held = await holdCalls(page, '/api/google-wallet/');
        const tab = page.context().waitForEvent('page');
        await googleButton(page).click();
        await busyText(page).waitFor();
        held.release();
        const opened = await tab;
        await opened.waitForURL(/^https:\/\/pay\.google\.com\/gp\/v\/save\/.+/);
        const view = page.getByRole('link', { name: 'View Your Pass', exact: true });
        expect(await view.getAttribute('href')).toBe(opened.url());
        expect(held.bodies).toEqual([{ email, walletToken }]);
        await expectNoAxeViolations(page);
        await screenshot(page, 'loyalty-pass-android');
      });
    },
  );

  it('says what to do when the link is incomplete, and when its token is refused', async () => {
    await inPage(WIDTHS.mobile, USER_AGENTS.iPhone, async (page) => {
      await page.goto(`/loyalty/pass#email=${encodeURIComponent(email)}`);
      await page.getByTestId('pass-link-incomplete').waitFor();
      expect(await page.getByTestId('pass-link-incomplete').textContent()).toMatch(
        /^This link is not complete\. Please open the whole link from our email, or email \S+@\S+ for a new one\.$/,
      );
      expect(await appleButton(page).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-pass-incomplete');

      await page.goto('/loyalty/');
      await page.goto(passLink(`${walletToken.slice(0, -4)}AAAA`));
      // Once read, the token leaves the address bar and the history.
      await page.waitForURL((url) => url.hash === '');
      await appleButton(page).click();
      expect(await alertText(page)).toBe('This pass link is not valid for that email.');
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-pass-refused');
    });
  });
});
