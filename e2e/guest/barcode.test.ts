// The pass barcode as gate staff scan it from a phone screen: a Code 128 graphic that a real
// decoder (zbarimg) reads back as the barcode, the digits under it at once, the graphic on
// demand without moving them, and void styling.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerAsPassholder,
  barcodeGraphic,
  demo,
  guestTabs,
  launchBrowser,
  openPass,
  passCard,
  type Width,
  WIDTHS,
} from '../support/browser.ts';
import { decodeBarcodes } from '../support/zbar.ts';

let browser: Browser;
let tabs: ReturnType<typeof guestTabs>;
beforeAll(async () => {
  browser = await launchBrowser();
  tabs = guestTabs(browser);
});
afterAll(async () => {
  await browser?.close();
});

const inPage = (body: (page: Page) => Promise<void>, width: Width = WIDTHS.mobile, deviceScaleFactor = 1) =>
  tabs.inPage(body, { width, deviceScaleFactor });

const digits = (page: Page) => page.getByTestId('pass-barcode');

describe('pass barcode', () => {
  const screens = [
    { label: 'a 360 px phone at 1 pixel per CSS pixel', width: WIDTHS.mobile, scale: 1, modulePx: 2 },
    { label: 'a 360 px phone at 3 pixels per CSS pixel', width: WIDTHS.mobile, scale: 3, modulePx: 2 },
    { label: 'a 1280 px desktop', width: WIDTHS.desktop, scale: 1, modulePx: 3 },
  ] as const;
  for (const { label, width, scale, modulePx } of screens) {
    it(`shows 10000001's barcode as Code 128 that a scanner reads back, on ${label}`, () =>
      inPage(
        async (page) => {
          const { orderId, barcode } = demo.passholder;
          await openPass(page, orderId, barcode);
          const graphic = page.getByRole('img', { name: `Barcode ${barcode}`, exact: true });
          await graphic.waitFor();
          await expect(barcodeGraphic(page).count()).resolves.toBe(1);

          // Only the graphic: its own quiet zones must be enough for the decoder.
          const png = await graphic.screenshot({ animations: 'disabled' });
          expect(decodeBarcodes(png)).toEqual([barcode]);

          // Whole pixels per module, so every bar has the same width on screen.
          const modules = Number(await graphic.getAttribute('data-modules'));
          const box = await graphic.boundingBox();
          expect(box?.width).toBe(modules * modulePx);
          // The digits under the graphic.
          await expect(digits(page).textContent()).resolves.toBe(barcode);
          const digitsBox = await digits(page).boundingBox();
          expect(digitsBox && box && digitsBox.y >= box.y + box.height).toBe(true);
        },
        width,
        scale,
      ));
  }

  it('is black on white whatever the card colours', () =>
    inPage(async (page) => {
      // A dark-on-dark customization: the card changes, the barcode panel does not.
      await page.route('**/api/login/', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as Record<string, unknown>;
        await route.fulfill({ response, json: { ...json, backgroundColor: '#101010', foregroundColor: '#ffffff' } });
      });
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      const colors = await barcodeGraphic(page).evaluate((svg) => ({
        panel: getComputedStyle(svg.closest('.pass-card__barcode') as Element).backgroundColor,
        background: svg.querySelector('rect')?.getAttribute('fill'),
        bars: getComputedStyle(svg.querySelector('path') as Element).fill,
        barsOpacity: getComputedStyle(svg.querySelector('path') as Element).opacity,
      }));
      expect(colors).toEqual({ panel: 'rgb(255, 255, 255)', background: '#fff', bars: 'rgb(0, 0, 0)', barsOpacity: '1' });
      expect(decodeBarcodes(await barcodeGraphic(page).screenshot())).toEqual([demo.passholder.barcode]);
    }));

  it('shows the digits at once and the graphic when its chunk arrives, without moving them', () =>
    inPage(async (page) => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let requested = false;
      await page.route('**/assets/barcode-graphic-*.js', async (route) => {
        requested = true;
        await held;
        await route.continue();
      });
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await passCard(page).waitFor();
      await expect(digits(page).textContent()).resolves.toBe(demo.passholder.barcode);
      await expect.poll(() => requested).toBe(true);
      await expect(barcodeGraphic(page).count()).resolves.toBe(0);
      const before = await digits(page).boundingBox();
      const cardBefore = await passCard(page).boundingBox();

      release();
      await barcodeGraphic(page).waitFor();
      await expect(digits(page).boundingBox()).resolves.toEqual(before);
      await expect(passCard(page).boundingBox()).resolves.toEqual(cardBefore);
    }));

  it('keeps the void styling on a void pass: dimmed, struck through, marked Void (10000009 as a passholder)', () =>
    inPage(async (page) => {
      await answerAsPassholder(page);
      await openPass(page, demo.redeemed.orderId, demo.redeemed.barcode);
      await passCard(page).waitFor();
      await expect(passCard(page).getAttribute('data-void')).resolves.toBe('Redeemed');
      const graphic = page.getByRole('img', { name: `Barcode ${demo.redeemed.barcode} (void)`, exact: true });
      await graphic.waitFor();
      const style = await graphic.evaluate((svg) => {
        const panel = svg.closest('.pass-card__barcode') as Element;
        const value = panel.querySelector('.pass-card__barcode-value') as Element;
        const strike = svg.querySelector('.pass-card__barcode-strike');
        return {
          barsOpacity: getComputedStyle(svg.querySelector('path') as Element).opacity,
          strike: strike ? getComputedStyle(strike).stroke : null,
          digits: getComputedStyle(value).textDecorationLine,
          tag: panel.querySelector('.pass-card__barcode-void')?.textContent,
        };
      });
      expect(style).toEqual({ barsOpacity: '0.3', strike: 'rgb(180, 35, 24)', digits: 'line-through', tag: 'Void' });
      await expect(page.getByTestId('pass-void').textContent()).resolves.toBe('Void Redeemed');
    }));

  it('puts no void marking on a valid pass', () =>
    inPage(async (page) => {
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      await expect(barcodeGraphic(page).locator('.pass-card__barcode-strike').count()).resolves.toBe(0);
      await expect(passCard(page).locator('.pass-card__barcode-void').count()).resolves.toBe(0);
    }));
});
