// The screen stays on while a barcode is on it (Screen Wake Lock): asked for when the pass
// shows its barcode, released when the page is hidden, asked for again when it is visible,
// released when the barcode goes (Start Over); never for a void barcode or a card without one;
// the stored-value page's barcode too; and a browser without the API shows the pass as before.
// Headless Chromium cannot hide a page, so the browser's lock and the page's visibility are a
// recording stand-in installed before the app loads.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barcodeGraphic, baseUrl, demo, inGuestPage, launchBrowser, openPass, passCard, WIDTHS } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Records every request and release of a screen wake lock in window.wakeLockLog; window.setVisibility hides or shows the page. */
function installRecordingWakeLock() {
  const w = window as unknown as {
    wakeLockLog: string[];
    visibility: DocumentVisibilityState;
    setVisibility(v: DocumentVisibilityState): void;
  };
  w.wakeLockLog = [];
  w.visibility = 'visible';
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => w.visibility });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => w.visibility !== 'visible' });
  w.setVisibility = (v) => {
    w.visibility = v;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  const wakeLock = {
    request: (type: string) => {
      w.wakeLockLog.push(`request ${type}`);
      let released = false;
      return Promise.resolve({
        type,
        get released() {
          return released;
        },
        release: () => {
          if (!released) w.wakeLockLog.push('release');
          released = true;
          return Promise.resolve();
        },
      });
    },
  };
  Object.defineProperty(Navigator.prototype, 'wakeLock', { configurable: true, get: () => wakeLock });
}

const log = (page: Page) => page.evaluate(() => (window as unknown as { wakeLockLog: string[] }).wakeLockLog);
const expectLog = (page: Page, expected: string[]) => expect.poll(() => log(page)).toEqual(expected);
const setVisibility = (page: Page, v: DocumentVisibilityState) =>
  page.evaluate((value) => (window as unknown as { setVisibility(v: string): void }).setVisibility(value), v);

describe('screen wake lock', () => {
  it('keeps the screen on while the pass barcode shows: released when hidden, asked again when visible, released at Start Over', () =>
    inGuestPage(browser, WIDTHS.mobile, async (page) => {
      await page.addInitScript(installRecordingWakeLock);
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      await expectLog(page, ['request screen']);
      await setVisibility(page, 'hidden');
      await expectLog(page, ['request screen', 'release']);
      await setVisibility(page, 'visible');
      await expectLog(page, ['request screen', 'release', 'request screen']);
      await page.getByRole('button', { name: 'Start Over' }).click();
      await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
      await expectLog(page, ['request screen', 'release', 'request screen', 'release']);
    }));

  it('asks for nothing for a void barcode or a card without a barcode', () =>
    inGuestPage(browser, WIDTHS.mobile, async (page) => {
      await page.addInitScript(installRecordingWakeLock);
      // The passholder's answer, refunded: its barcode shows void.
      await page.route('**/api/login/', async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: { ...((await response.json()) as object), refunded: true } });
      });
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      await expect(passCard(page).getAttribute('data-void')).resolves.toContain('Refunded');
      await page.unrouteAll();
      await page.getByRole('button', { name: 'Start Over' }).click();
      // A day ticket shows no barcode.
      await openPass(page, demo.refunded.orderId, demo.refunded.barcode);
      await passCard(page).waitFor();
      expect(await log(page)).toEqual([]);
    }));

  it('keeps the screen on for the stored-value page barcode', async () => {
    const login = await fetch(`${baseUrl()}/api/login/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(demo.storedValue),
    });
    const { barcodeHash } = (await login.json()) as { barcodeHash: string };
    await inGuestPage(browser, WIDTHS.mobile, async (page) => {
      await page.addInitScript(installRecordingWakeLock);
      await page.goto(`/stored-value/${barcodeHash}`);
      await page.locator('.stored-value__barcode svg').waitFor();
      await expectLog(page, ['request screen']);
    });
  });

  it('shows the pass as before in a browser without the API', () =>
    inGuestPage(browser, WIDTHS.mobile, async (page) => {
      await page.addInitScript(() => delete (Navigator.prototype as unknown as { wakeLock?: unknown }).wakeLock);
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      expect(await page.evaluate(() => 'wakeLock' in navigator)).toBe(false);
    }));
});
