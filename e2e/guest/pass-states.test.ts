// Every state and message of the main pass page against the demo data. Only one test changes
// data (it edits 10000006's registration), and no test relies on 10000003 being unregistered
// (journey.test.ts registers it).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appTookOver,
  alertText,
  answerWithError,
  cardDetail,
  computedColors,
  demo,
  guestTabs,
  launchBrowser,
  lookUp,
  openPass,
  passCard,
  WIDTHS,
} from '../support/browser.ts';

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
});
afterAll(async () => {
  await browser?.close();
});

/** Runs a test body in a phone-sized tab and checks the page logged no unexpected errors. */
const inPage = (body: (page: Page) => Promise<void>, width: 360 | 1280 = WIDTHS.mobile) => tabs.inPage(body, { width });

const pathname = (page: Page) => new URL(page.url()).pathname;
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describe('login form', () => {
  it('asks for both fields before looking anything up', () =>
    inPage(async (page) => {
      let lookups = 0;
      page.on('request', (r) => void (r.url().endsWith('/api/login/') && lookups++));
      await page.goto('/');
      await appTookOver(page);
      await button(page, 'Find My Pass').click();
      await expect(page.locator('#orderId-error').textContent()).resolves.toBe('Order ID is required');
      await expect(page.locator('#barcode-error').textContent()).resolves.toBe('Barcode is required');
      await expect(page.getByLabel('Order ID').evaluate((el) => el === document.activeElement)).resolves.toBe(true);

      await page.getByLabel('Order ID').fill('1234');
      await page.getByLabel('Barcode').fill('12ab34');
      await button(page, 'Find My Pass').click();
      await expect(page.locator('#orderId-error').textContent()).resolves.toBe('Order ID must be 8 digits');
      await expect(page.locator('#barcode-error').textContent()).resolves.toBe('Barcode must be 8 to 18 digits');
      // Only digits are kept as typed.
      await expect(page.getByLabel('Barcode').inputValue()).resolves.toBe('1234');
      expect(lookups).toBe(0);
    }));

  it('says "Unable to locate order" for an unknown order and keeps what was typed', () =>
    inPage(async (page) => {
      await openPass(page, '10000099', '1000000000000999');
      await expect(alertText(page)).resolves.toBe('Unable to locate order');
      expect(pathname(page)).toBe('/');
      await expect(page.getByLabel('Order ID').inputValue()).resolves.toBe('10000099');
      await expect(page.getByLabel('Barcode').inputValue()).resolves.toBe('1000000000000999');
    }));

  it('shows "Temporary server error, please retry" on 408', () =>
    inPage(async (page) => {
      await answerWithError(page, '/api/login/', 408, 'Request Timeout');
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await expect(alertText(page)).resolves.toBe('Temporary server error, please retry');
    }));

  it("shows the server's message on 429", () =>
    inPage(async (page) => {
      const message = 'Too many attempts. Please wait a few minutes and try again.';
      await answerWithError(page, '/api/login/', 429, message, { 'Retry-After': '600' });
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await expect(alertText(page)).resolves.toBe(message);
    }));

  it('says "Error logging in" when the network fails', () =>
    inPage(async (page) => {
      await page.route('**/api/login/', (route) => route.abort('internetdisconnected'));
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await expect(alertText(page)).resolves.toBe('Error logging in');
    }));
});

describe('pass states', () => {
  it('shows the exclusion notice with the order id, barcode and message (10000004)', () =>
    inPage(async (page) => {
      await openPass(page, demo.excluded.orderId, demo.excluded.barcode);
      await h1(page).filter({ hasText: 'Pass Not Available' }).waitFor();
      await expect(page.getByTestId('exclusion-message').textContent()).resolves.toBe(
        'Partner vouchers cannot be added to a digital wallet. Please bring your printed voucher to the gate.',
      );
      const facts = (await page.locator('dl.facts').textContent()) ?? '';
      expect(facts).toContain(demo.excluded.orderId);
      expect(facts).toContain(demo.excluded.barcode);
      await expect(passCard(page).count()).resolves.toBe(0);
      await expect(button(page, 'Edit Registration').count()).resolves.toBe(0);
      await button(page, 'Start Over').click();
      await h1(page).filter({ hasText: 'Find Your Pass' }).waitFor();
      expect(pathname(page)).toBe('/');
    }));

  it('styles a refunded ticket as void with a Refunded note (10000005)', () =>
    inPage(async (page) => {
      await openPass(page, demo.refunded.orderId, demo.refunded.barcode);
      await passCard(page).waitFor();
      await expect(passCard(page).getAttribute('data-void')).resolves.toBe('Refunded');
      await expect(page.getByTestId('pass-void').textContent()).resolves.toContain('Refunded');
      await expect(page.locator('.pass-card__note').textContent()).resolves.toBe('Refunded');
      await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Day TicketRefunded');
    }));

  it('styles a redeemed ticket as void and shows when it was redeemed (10000009)', () =>
    inPage(async (page) => {
      await openPass(page, demo.redeemed.orderId, demo.redeemed.barcode);
      await passCard(page).waitFor();
      await expect(passCard(page).getAttribute('data-void')).resolves.toBe('Redeemed');
      await expect(cardDetail(page, 'Redeemed')).resolves.toBe('Nov 15, 2026, 10:12 AM');
      await expect(page.locator('.pass-card__note').count()).resolves.toBe(0);
    }));

  it('shows credits for a Stored Value Card (10000002)', () =>
    inPage(async (page) => {
      await openPass(page, demo.storedValue.orderId, demo.storedValue.barcode);
      await passCard(page).waitFor();
      await expect(passCard(page).locator('.pass-card__balance .pass-card__label').textContent()).resolves.toBe('Credits');
      await expect(page.getByTestId('pass-balance').textContent()).resolves.toBe('42.5 Credits');
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Carl Diaz');
      // The purchaser is the ticketholder: not repeated.
      await expect(cardDetail(page, 'Purchaser')).resolves.toBeNull();
      // Its customization says white on #2a9d8f (3.3:1): too faint for small text, so black.
      await expect(computedColors(page, 'article.pass-card')).resolves.toEqual({ background: 'rgb(42, 157, 143)', color: 'rgb(0, 0, 0)' });
      expect(pathname(page)).toBe(`/${demo.storedValue.orderId}/${demo.storedValue.barcode}`);
    }));

  it('shows a USD balance for other tickets (10000006)', () =>
    inPage(async (page) => {
      await openPass(page, demo.nfc.orderId, demo.nfc.barcode);
      await passCard(page).waitFor();
      await expect(page.getByTestId('pass-balance').textContent()).resolves.toBe('$25.00');
    }));

  it('shows the barcode and the disclaimer to a passholder without a photo (10000001)', () =>
    inPage(async (page) => {
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await passCard(page).waitFor();
      await expect(page.getByTestId('pass-barcode').textContent()).resolves.toBe(demo.passholder.barcode);
      await expect(page.getByText('This is not your wild pass card!', { exact: true }).isVisible()).resolves.toBe(true);
      await expect(passCard(page).getAttribute('data-void')).resolves.toBeNull();
      await expect(cardDetail(page, 'Expires')).resolves.toBe('Dec 31, 2030');
      await expect(cardDetail(page, 'Order Date')).resolves.toBe('Oct 2, 2026');
    }));

  it('hides the barcode and the disclaimer from other tickets', () =>
    inPage(async (page) => {
      await openPass(page, demo.storedValue.orderId, demo.storedValue.barcode);
      await passCard(page).waitFor();
      await expect(page.getByTestId('pass-barcode').count()).resolves.toBe(0);
      await expect(page.getByText('This is not your wild pass card!').count()).resolves.toBe(0);
    }));

  it('skips registration for a wallet exception although the holder has no name (10000008)', () =>
    inPage(async (page) => {
      await openPass(page, demo.walletException.orderId, demo.walletException.barcode);
      await passCard(page).waitFor();
      await expect(page.locator('form').count()).resolves.toBe(0);
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBeNull();
      await expect(cardDetail(page, 'Purchaser')).resolves.toBe('Ivan Reyes');
      // No email on the ticket: nothing to edit.
      await expect(button(page, 'Edit Registration').count()).resolves.toBe(0);
    }));

  it('opens a test pass with order id 0 (0 / 99000001)', () =>
    inPage(async (page) => {
      await openPass(page, demo.testPass.orderId, demo.testPass.barcode);
      await passCard(page).waitFor();
      await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Test Season Pass');
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Test Guest');
      expect(pathname(page)).toBe(`/0/${demo.testPass.barcode}`);
      await expect(button(page, 'Edit Registration').count()).resolves.toBe(0);
    }));
});

describe('Edit Registration', () => {
  it('is offered when the order has an email, prefills the form, and saving closes it (10000006)', () =>
    inPage(async (page) => {
      await openPass(page, demo.nfc.orderId, demo.nfc.barcode);
      await passCard(page).waitFor();
      // By keyboard, the way a focus ring would show if the heading drew one.
      await button(page, 'Edit Registration').focus();
      await page.keyboard.press('Enter');
      await h1(page).filter({ hasText: 'Edit Registration' }).waitFor();
      await expect(page.getByLabel('First Name').inputValue()).resolves.toBe('Gus');
      await expect(page.getByLabel('Email', { exact: true }).inputValue()).resolves.toBe('gus.olsen@example.com');
      await expect(page.getByLabel('Phone', { exact: true }).inputValue()).resolves.toBe('(310) 555-0133');
      await expect(h1(page).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      // The heading the page focused draws no ring; the next control, reached by Tab, does.
      await expect(
        h1(page).evaluate((el) => getComputedStyle(el).outlineStyle === 'none' || getComputedStyle(el).outlineWidth === '0px'),
      ).resolves.toBe(true);
      await page.keyboard.press('Tab');
      await expect(
        page.evaluate(() => {
          const style = getComputedStyle(document.activeElement ?? document.body);
          return document.activeElement?.tagName === 'INPUT' && (style.boxShadow !== 'none' || style.outlineStyle !== 'none');
        }),
      ).resolves.toBe(true);

      // Cancel keeps the card as it was.
      await button(page, 'Cancel').click();
      await passCard(page).waitFor();
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Gus Olsen');

      await button(page, 'Edit Registration').click();
      await page.getByLabel('First Name').fill('Gustav');
      await button(page, 'Register').click();
      await passCard(page).waitFor();
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Gustav Olsen');
      await expect(page.locator('form').count()).resolves.toBe(0);
    }));

  it('says "Unable to register" when the server refuses and "Error registering" when the network fails', () =>
    inPage(async (page) => {
      await openPass(page, demo.wristband.orderId, demo.wristband.barcode);
      await passCard(page).waitFor();
      await button(page, 'Edit Registration').click();
      await answerWithError(page, '/api/register/', 404, 'Unable to locate order');
      await button(page, 'Register').click();
      await expect(alertText(page)).resolves.toBe('Unable to register');

      await page.unroute('**/api/register/');
      await answerWithError(page, '/api/register/', 408, 'Request Timeout');
      await button(page, 'Register').click();
      await expect(alertText(page)).resolves.toBe('Temporary server error, please retry');

      await page.unroute('**/api/register/');
      await page.route('**/api/register/', (route) => route.abort('connectionreset'));
      await button(page, 'Register').click();
      await expect(alertText(page)).resolves.toBe('Error registering');
      // Still the form, with what the guest typed.
      await expect(page.getByLabel('First Name').inputValue()).resolves.toBe('Hana');
    }));

  it('is not offered on a shared view', () =>
    inPage(async (page) => {
      await page.goto(`/${demo.shareLinks.active}`);
      await passCard(page).waitFor();
      await expect(button(page, 'Edit Registration').count()).resolves.toBe(0);
      await expect(button(page, 'Start Over').count()).resolves.toBe(1);
    }));
});

describe('pass URLs', () => {
  it('looks up /{orderId}/{barcode} on load', () =>
    inPage(async (page) => {
      await page.goto(`/${demo.redeemed.orderId}/${demo.redeemed.barcode}`);
      await passCard(page).waitFor();
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Jo Baker');
    }, WIDTHS.desktop));

  it('drops a share id that matches no share from the URL', () =>
    inPage(async (page) => {
      await page.goto(`/${demo.storedValue.orderId}/${demo.storedValue.barcode}/3f0a3b1e-9c1d-4d6e-8f7a-2b5c6d7e8f90`);
      await passCard(page).waitFor();
      await page.waitForURL((url) => url.pathname === `/${demo.storedValue.orderId}/${demo.storedValue.barcode}`);
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBe('Carl Diaz');
    }));

  it('shows the lookup form with the URL values and the message when the URL names no order', () =>
    inPage(async (page) => {
      await page.goto('/10000098/1000000000000998');
      await expect(alertText(page)).resolves.toBe('Unable to locate order');
      await expect(page.getByLabel('Order ID').inputValue()).resolves.toBe('10000098');
      await expect(page.getByLabel('Barcode').inputValue()).resolves.toBe('1000000000000998');
      // Looking up a real order from here moves to its URL.
      await page.getByLabel('Order ID').fill(demo.passholder.orderId);
      await page.getByLabel('Barcode').fill(demo.passholder.barcode);
      await button(page, 'Find My Pass').click();
      await passCard(page).waitFor();
      expect(pathname(page)).toBe(`/${demo.passholder.orderId}/${demo.passholder.barcode}`);
    }));

  it('opens a direct share link: Primary Ticketholder and Shared With, URL kept', () =>
    inPage(async (page) => {
      await page.goto(`/${demo.shareLinks.active}`);
      await passCard(page).waitFor();
      await expect(h1(page).textContent()).resolves.toBe('Shared Pass');
      await expect(cardDetail(page, 'Primary Ticketholder')).resolves.toBe('Carl Diaz');
      await expect(cardDetail(page, 'Shared With')).resolves.toBe('Rosa Diaz');
      await expect(cardDetail(page, 'Ticketholder')).resolves.toBeNull();
      await expect(page.getByTestId('pass-balance').textContent()).resolves.toBe('42.5 Credits');
      expect(pathname(page)).toBe(`/${demo.shareLinks.active}`);
      await page.reload();
      await passCard(page).waitFor();
      await expect(cardDetail(page, 'Shared With')).resolves.toBe('Rosa Diaz');
    }));

  it('says "Pass No Longer Shared" for a stopped share link', () =>
    inPage(async (page) => {
      await page.goto(`/${demo.shareLinks.stopped}`);
      await h1(page).filter({ hasText: 'Pass No Longer Shared' }).waitFor();
      await expect(passCard(page).count()).resolves.toBe(0);
      await button(page, 'Start Over').click();
      await h1(page).filter({ hasText: 'Find Your Pass' }).waitFor();
      expect(pathname(page)).toBe('/');
    }));

  it('says "Unable to locate order" for an unknown share link', () =>
    inPage(async (page) => {
      await page.goto(`/${'x'.repeat(88)}`);
      await expect(alertText(page)).resolves.toBe('Unable to locate order');
      await expect(page.getByLabel('Order ID').inputValue()).resolves.toBe('');
    }));

  it('shows "Page not found" with a link home for other addresses', () =>
    inPage(async (page) => {
      for (const path of ['/no-such-page', '/a/b/c/d', '/12345678/not-a-barcode']) {
        await page.goto(path);
        await h1(page).filter({ hasText: 'Page not found' }).waitFor();
      }
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await h1(page).filter({ hasText: 'Find Your Pass' }).waitFor();
    }));

  it('Start Over clears the loaded pass: going back to a pass URL looks it up again', () =>
    inPage(async (page) => {
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await passCard(page).waitFor();
      await button(page, 'Start Over').click();
      await h1(page).filter({ hasText: 'Find Your Pass' }).waitFor();
      const lookup = page.waitForRequest((r) => r.url().endsWith('/api/login/'));
      await lookUp(page, demo.passholder.orderId, demo.passholder.barcode);
      await lookup;
      await passCard(page).waitFor();
    }));
});
