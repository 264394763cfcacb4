// The header's English / Español switch on the pass page: a click rewords the page in place (no
// reload: what the page holds stays), the choice stays on the device (a reload, the lang cookie)
// and the guest's calls then name it (Accept-Language); English again the same way.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTookOver, cardDetail, demo, expectNoAxeViolations, inGuestPage, launchBrowser, passCard, WIDTHS } from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the language switch on the pass page', () => {
  it('changes the words in place, keeps Spanish on reload, and goes back to English', () =>
    inGuestPage(browser, WIDTHS.mobile, async (page) => {
      const { orderId, barcode } = demo.passholder;
      await page.goto(`/${orderId}/${barcode}`);
      await page.getByRole('heading', { level: 1, name: 'Your Pass' }).waitFor();
      const languages = page.getByRole('navigation', { name: 'Language' });
      await expect(languages.locator('[aria-current="true"]').textContent()).resolves.toBe('English');
      // A mark the page keeps only as long as it is not reloaded.
      await page.evaluate(() => Object.assign(window, { stillThisPage: true }));

      await languages.getByRole('link', { name: 'Español' }).click();
      await page.getByRole('heading', { level: 1, name: 'Su pase' }).waitFor();
      await expect(page.evaluate(() => 'stillThisPage' in window)).resolves.toBe(true);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('es');
      expect(new URL(page.url()).pathname).toBe(`/${orderId}/${barcode}`);
      await expect(cardDetail(page, 'Titular')).resolves.not.toBeNull();
      await page.getByRole('button', { name: 'Empezar de nuevo' }).waitFor();
      const switchInSpanish = page.getByRole('navigation', { name: 'Idioma' });
      await expect(switchInSpanish.locator('[aria-current="true"]').textContent()).resolves.toBe('Español');
      await expectNoAxeViolations(page);

      // The choice stays: the reloaded page is Spanish, and its lookup names Spanish.
      const lookup = page.waitForRequest((r) => r.url().endsWith('/api/login/'));
      await page.reload();
      expect((await lookup).headers()['accept-language']).toBe('es');
      await page.getByRole('heading', { level: 1, name: 'Su pase' }).waitFor();
      await passCard(page).waitFor();
      await expect(page.evaluate(() => 'stillThisPage' in window)).resolves.toBe(false);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('es');

      // Back to English, in place, and English after a reload.
      await page.evaluate(() => Object.assign(window, { stillThisPage: true }));
      await switchInSpanish.getByRole('link', { name: 'English' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your Pass' }).waitFor();
      await expect(page.evaluate(() => 'stillThisPage' in window)).resolves.toBe(true);
      await expect(cardDetail(page, 'Ticketholder')).resolves.not.toBeNull();
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Your Pass' }).waitFor();
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    }));

  it("asks again for what the server worded: the park's exclusion message in the new language", () =>
    inGuestPage(browser, WIDTHS.mobile, async (page) => {
      const { orderId, barcode } = demo.excluded;
      await page.goto(`/${orderId}/${barcode}`);
      const message = page.getByTestId('exclusion-message');
      await expect(message.textContent()).resolves.toContain('Partner vouchers cannot be added to a digital wallet.');
      const lookup = page.waitForRequest((r) => r.url().endsWith('/api/login/'));
      await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Español' }).click();
      expect((await lookup).headers()['accept-language']).toBe('es');
      await page.getByText('Los comprobantes de socios comerciales no se pueden agregar a una billetera digital.').waitFor();
    }));

  it('rewords what the guest was told in place too: a field left empty', () =>
    inGuestPage(browser, WIDTHS.desktop, async (page) => {
      await page.goto('/');
      await appTookOver(page);
      await page.getByRole('button', { name: 'Find My Pass' }).click();
      await expect(page.locator('#orderId-error').textContent()).resolves.toBe('Order ID is required');
      await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Español' }).click();
      await page.getByRole('heading', { level: 1, name: 'Encuentre su pase' }).waitFor();
      await expect(page.locator('#orderId-error').textContent()).resolves.toBe('El número de pedido es obligatorio');
      await expect(page.getByLabel('Número de pedido').getAttribute('aria-invalid')).resolves.toBe('true');
    }));
});
