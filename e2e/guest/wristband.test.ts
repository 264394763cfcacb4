// The wristband activation flow: /activate/ login, the pass card with the code field, a real
// activation and a real 403 through the server (on tickets this file makes through the
// integration API, one per test: a shared ticket's state is never this file's to depend on),
// every error text, the redeemed and not-a-wristband notices, Start Over; axe on each state and
// screenshots at 360 and 1280 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertText,
  answerWithError,
  demo,
  expectNoAxeViolations,
  guestTabs,
  launchBrowser,
  lookUp,
  passCard,
  screenshot,
  type Width,
  WIDTHS,
} from '../support/browser.ts';
import { aWristbandTicket as aTicketOfItsOwn } from '../support/feed.ts';
import { WRISTBAND_REFUSALS } from '@boardwalk/contract/wristband';

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  unauthorized: 'You are unable to activate this wristband yourself, please visit guest services for additional assistance.',
  expired: 'Activation attempt expired, please refresh and try again.',
  failed: 'Unable to activate this wristband, please visit guest services for additional assistance.',
  network: 'Error activating wristband',
  redeemed: 'This Ticket has already been redeemed. Please try again or visit guest services for additional assistance.',
  notWristband: 'This ticket is not for a wristband. Please try again or visit guest services for additional assistance.',
} as const;

/** A new wristband ticket (pack 770, the demo's wristband pack) made through the ticketing feed. */
const aWristbandTicket = () => aTicketOfItsOwn('8');

let bandSeq = 0;
const aBand = () => `E2E${`${Date.now()}`.slice(-8)}${String(++bandSeq).padStart(5, '0')}`;

const inPage = (body: (page: Page) => Promise<void>, width: Width = WIDTHS.mobile) => tabs.inPage(body, { width });

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const activateButton = (page: Page) => page.getByRole('button', { name: 'Activate', exact: true });
const codeField = (page: Page) => page.getByLabel('Wristband Code');
const pathname = (page: Page) => new URL(page.url()).pathname;

/** /activate/, then the login form with this ticket: the pass card with the code field. */
async function openActivation(page: Page, ticket: { orderId: string; barcode: string }) {
  await page.goto('/activate/');
  await h1(page).filter({ hasText: 'Activate Your Wristband' }).waitFor();
  await lookUp(page, ticket.orderId, ticket.barcode);
  await page.waitForURL(`**/activate/${ticket.orderId}/${ticket.barcode}`);
  await passCard(page).waitFor();
}

/** The ready state, settled for axe and a screenshot (focus on the heading, fonts loaded). */
async function settled(page: Page) {
  await page.evaluate(() => document.fonts.ready);
}

describe('wristband activation', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`shows the login form, then the card with the code field, enabled at exactly 16 characters (${width} px)`, () =>
      inPage(async (page) => {
        await page.goto('/activate/');
        await h1(page).filter({ hasText: 'Activate Your Wristband' }).waitFor();
        await expect(page.getByRole('button', { name: 'Find My Pass' }).isVisible()).resolves.toBe(true);
        await settled(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-login');

        const ticket = await aWristbandTicket();
        await lookUp(page, ticket.orderId, ticket.barcode);
        await page.waitForURL(`**/activate/${ticket.orderId}/${ticket.barcode}`);
        await passCard(page).waitFor();
        await expect(activateButton(page).isDisabled()).resolves.toBe(true);
        await codeField(page).fill('ABCDEF012345678');
        await expect(activateButton(page).isDisabled()).resolves.toBe(true);
        await codeField(page).fill('ABCDEF01234567890');
        await expect(activateButton(page).isDisabled()).resolves.toBe(true);
        await codeField(page).fill('ABCDEF0123456789');
        await expect(activateButton(page).isEnabled()).resolves.toBe(true);
        await codeField(page).fill('');
        await settled(page);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-ready');
      }, width));

    it(`activates a band through the server and shows the validity; a second ticket with that band gets the 403 text (${width} px)`, () =>
      inPage(async (page) => {
        const ticket = await aWristbandTicket();
        const band = aBand();
        await openActivation(page, ticket);
        await codeField(page).fill(band.toLowerCase());
        await activateButton(page).click();
        const activated = page.getByTestId('wristband-activated');
        await activated.waitFor();
        // 05:00 UTC on January 1st 2027 is December 31st 2026 in the park (Los Angeles).
        await expect(activated.textContent()).resolves.toBe('Your wristband is active.Valid through 12/31/30');
        await expect(codeField(page).count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-activated');

        // Coming back later: the ticket shows that its wristband is active, with no field.
        await page.reload();
        await page.getByTestId('wristband-active').waitFor();
        await expect(codeField(page).count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-active');

        // Another ticket cannot take the band: the server's text with the band's period.
        const other = await aWristbandTicket();
        await page.getByRole('button', { name: 'Start Over' }).click();
        await page.waitForURL('**/activate/');
        await lookUp(page, other.orderId, other.barcode);
        await page.waitForURL(`**/activate/${other.orderId}/${other.barcode}`);
        await codeField(page).fill(band);
        await activateButton(page).click();
        await expect(alertText(page)).resolves.toBe(
          'This wristband was already activated and can be used through 12/31/30. Please discard it and take a new one.',
        );
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-error-403');
      }, width));

    it(`shows the redeemed notice and the not-a-wristband notice instead of the field (${width} px)`, () =>
      inPage(async (page) => {
        await openActivation(page, demo.redeemed);
        await expect(page.getByTestId('wristband-notice').textContent()).resolves.toBe(TEXTS.redeemed);
        await expect(codeField(page).count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-redeemed');

        await page.getByRole('button', { name: 'Start Over' }).click();
        await page.waitForURL('**/activate/');
        await lookUp(page, demo.unregistered.orderId, demo.unregistered.barcode);
        await page.waitForURL(`**/activate/${demo.unregistered.orderId}/${demo.unregistered.barcode}`);
        await expect(page.getByTestId('wristband-notice').textContent()).resolves.toBe(TEXTS.notWristband);
        await expect(codeField(page).count()).resolves.toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-not-wristband');
      }, width));
  }

  it.each<[string, number, string, string]>([
    ['401', 401, 'Not yours', TEXTS.unauthorized],
    ['408', 408, 'Expired', TEXTS.expired],
    ['500', 500, 'Boom', TEXTS.failed],
    ['400', 400, 'Bad', TEXTS.failed],
  ])('shows the %s text', async (name, status, message, text) => {
    for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
      await inPage(async (page) => {
        await openActivation(page, await aWristbandTicket());
        await answerWithError(page, '/api/wristband/activate/', status, message);
        await codeField(page).fill('ABCDEF0123456789');
        await activateButton(page).click();
        await expect(alertText(page)).resolves.toBe(text);
        // The field stays for another try.
        await expect(codeField(page).inputValue()).resolves.toBe('ABCDEF0123456789');
        await expectNoAxeViolations(page);
        await screenshot(page, `wristband-error-${name}`);
      }, width);
    }
  });

  it("words a 403 by its reason: the spec's text with the day it names; a 403 without one is a failure", () =>
    inPage(async (page) => {
      await openActivation(page, await aWristbandTicket());
      const period = 'This wristband was already activated and can be used through 1/2/27. Please discard it and take a new one.';
      await answerWithError(
        page,
        '/api/wristband/activate/',
        403,
        'refused',
        {},
        {
          reason: WRISTBAND_REFUSALS.alreadyActivated,
          params: { validThrough: '2027-01-02' },
        },
      );
      await codeField(page).fill('ABCDEF0123456789');
      await activateButton(page).click();
      await expect(alertText(page)).resolves.toBe(period);

      await page.unroute('**/api/wristband/activate/');
      await answerWithError(page, '/api/wristband/activate/', 403, period);
      await activateButton(page).click();
      await expect
        .poll(() => alertText(page))
        .toBe('Unable to activate this wristband, please visit guest services for additional assistance.');
    }));

  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`shows the busy state while waiting, then the network text when no answer arrives (${width} px)`, () =>
      inPage(async (page) => {
        await openActivation(page, await aWristbandTicket());
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/wristband/activate/', async (route) => {
          await held;
          await route.abort('connectionfailed');
        });
        await codeField(page).fill('ABCDEF0123456789');
        await activateButton(page).click();
        const busy = page.getByRole('button', { name: 'Activating…' });
        await busy.waitFor();
        await expect(busy.isDisabled()).resolves.toBe(true);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-busy');
        release();
        await expect(alertText(page)).resolves.toBe(TEXTS.network);
        await expectNoAxeViolations(page);
        await screenshot(page, 'wristband-error-network');
      }, width));
  }

  it('refuses a code of 16 characters that are not all letters and digits, without calling the server', () =>
    inPage(async (page) => {
      await openActivation(page, await aWristbandTicket());
      let calls = 0;
      page.on('request', (r) => void (r.url().endsWith('/api/wristband/activate/') && calls++));
      await codeField(page).fill('ABCD-EFGH-012345');
      await activateButton(page).click();
      await expect(page.locator('#wristbandBarcode-error').textContent()).resolves.toBe('Wristband code must be 16 letters or digits');
      expect(calls).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'wristband-code-error');
    }));

  it('Start Over goes back to /activate/ and its login form; an address with a bad barcode is not found', () =>
    inPage(async (page) => {
      const ticket = await aWristbandTicket();
      await openActivation(page, ticket);
      await page.getByRole('button', { name: 'Start Over' }).click();
      await page.waitForURL('**/activate/');
      expect(pathname(page)).toBe('/activate/');
      await h1(page).filter({ hasText: 'Activate Your Wristband' }).waitFor();
      await expect(page.getByLabel('Order ID').inputValue()).resolves.toBe('');

      // Opening the ticket's address directly loads it.
      await page.goto(`/activate/${ticket.orderId}/${ticket.barcode}`);
      await codeField(page).waitFor();
      await page.goto('/activate/10000007/12');
      await h1(page).filter({ hasText: 'Page not found' }).waitFor();
    }));

  it('an order that cannot be found shows the login form again with the lookup error', () =>
    inPage(async (page) => {
      // Answered here: a real failed lookup would count against the shared server's address throttle.
      await answerWithError(page, '/api/login/', 404, 'Unable to locate order');
      await page.goto('/activate/19999999/1999999999999999');
      await expect(alertText(page)).resolves.toBe('Unable to locate order');
      await expect(page.getByLabel('Order ID').inputValue()).resolves.toBe('19999999');
    }));
});
