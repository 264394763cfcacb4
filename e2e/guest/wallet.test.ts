// The pass actions of the main page on an iPhone, an Android phone and a desktop: the right
// buttons, the real files from the server (a .pkpass named for the brand, a PDF named with the
// barcode), the Google Wallet link, the busy text, test passes, shared views and every error
// text.
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, BrowserContext, Download, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_REFUSALS } from '@boardwalk/contract/wallet';
import {
  alertText,
  answerWithError,
  baseUrl,
  demo,
  launchBrowser,
  openGuestPage,
  openPass,
  passCard,
  unexpectedProblems,
  USER_AGENTS,
  WIDTHS,
} from '../support/browser.ts';

let browser: Browser;
let site: { brandName: string; supportEmail: string };
beforeAll(async () => {
  browser = await launchBrowser();
  site = (await (await fetch(`${baseUrl()}/api/site/`)).json()) as typeof site;
});
afterAll(async () => {
  await browser?.close();
});

type Device = 'iPhone' | 'android' | 'desktop';

/** Runs a test body in a fresh page as this device and checks the page logged no unexpected errors. */
async function asDevice(device: Device, body: (page: Page, context: BrowserContext) => Promise<void>) {
  const guest = await openGuestPage(browser, device === 'desktop' ? WIDTHS.desktop : WIDTHS.mobile, {
    userAgent: device === 'desktop' ? undefined : USER_AGENTS[device],
  });
  try {
    await body(guest.page, guest.context);
    expect(unexpectedProblems(guest.problems)).toEqual([]);
  } finally {
    await guest.close();
  }
}

async function showPass(page: Page, login: { orderId: string; barcode: string }) {
  await openPass(page, login.orderId, login.barcode);
  await passCard(page).waitFor();
}

/** Answers this page's lookups with the real order changed by `change`. */
async function changeOrder(page: Page, change: Record<string, unknown>) {
  await page.route('**/api/login/', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...json, ...change } });
  });
}

/** Holds the calls to this path until release() is called, then lets them reach the server. */
async function holdCalls(page: Page, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const bodies: unknown[] = [];
  await page.route(`**${path}`, async (route: Route) => {
    bodies.push(route.request().postDataJSON());
    await released;
    await route.continue();
  });
  return { release, bodies };
}

const appleButton = (page: Page) => page.getByRole('button', { name: 'Add to Apple Wallet', exact: true });
const googleButton = (page: Page) => page.getByRole('button', { name: 'Add to Google Wallet', exact: true });
const voucherButton = (page: Page) => page.getByRole('button', { name: 'Print Voucher', exact: true });
const hint = (page: Page) => page.getByText('Use a mobile device to add pass to your digital wallet', { exact: true });
const busyText = (page: Page) => page.getByRole('status').getByText('Generating Pass Please wait...', { exact: true });

async function visibleActions(page: Page) {
  return {
    apple: await appleButton(page).count(),
    google: await googleButton(page).count(),
    voucher: await voucherButton(page).count(),
    hint: await hint(page).count(),
  };
}

/** A download's bytes, streamed, without a file of Playwright's to clean up. */
async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('on an iPhone', () => {
  it('offers Apple Wallet only, shows the busy text and downloads the signed pass named for the brand', () =>
    asDevice('iPhone', async (page) => {
      await showPass(page, demo.wristband);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 1, google: 0, voucher: 0, hint: 0 });

      const held = await holdCalls(page, '/api/apple-wallet/');
      const download = page.waitForEvent('download');
      const response = page.waitForResponse((r) => r.url().endsWith('/api/apple-wallet/'));
      await appleButton(page).click();
      await busyText(page).waitFor();
      await expect(appleButton(page).isDisabled()).resolves.toBe(true);
      held.release();

      const file = await download;
      // The server's name, as its Content-Disposition gives it.
      expect(file.suggestedFilename()).toBe(`${site.brandName}.pkpass`);
      const headers = (await response).headers();
      expect(headers['content-type']).toMatch(/^application\/vnd\.apple\.pkpass/);
      expect(headers['content-disposition']).toContain(`${site.brandName}.pkpass`);
      const bytes = await downloadedBytes(file);
      expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
      expect(held.bodies).toEqual([{ orderId: demo.wristband.orderId, barcode: demo.wristband.barcode }]);
      await busyText(page).waitFor({ state: 'detached' });
      await expect(appleButton(page).isEnabled()).resolves.toBe(true);
    }));

  it('asks by the share link on a shared view and downloads the pass', () =>
    asDevice('iPhone', async (page) => {
      await page.goto(`/${demo.shareLinks.active}`);
      await passCard(page).waitFor();
      const request = page.waitForRequest((r) => r.url().endsWith('/api/apple-wallet/'));
      const download = page.waitForEvent('download');
      await appleButton(page).click();
      expect((await request).postDataJSON()).toEqual({ hashUrl: demo.shareLinks.active });
      const bytes = await downloadedBytes(await download);
      expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    }));

  it('shows the iCloud binding link in place of the button, and nothing once the pass is bound', async () => {
    await asDevice('iPhone', async (page) => {
      await changeOrder(page, { iCloudBindingLink: 'https://www.icloud.com/wallet/bind/abc123' });
      await showPass(page, demo.wristband);
      const link = page.getByRole('link', { name: 'Add to Apple Wallet', exact: true });
      await expect(link.getAttribute('href')).resolves.toBe('https://www.icloud.com/wallet/bind/abc123');
      await expect(appleButton(page).count()).resolves.toBe(0);
    });
    await asDevice('iPhone', async (page) => {
      await changeOrder(page, { iCloudBoundToWallet: true });
      await showPass(page, demo.wristband);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 0, voucher: 0, hint: 0 });
      await expect(page.getByRole('link', { name: 'Add to Apple Wallet' }).count()).resolves.toBe(0);
    });
  });

  it('once a device registers the pass, answers the already-in-wallet error and hides the button', () =>
    asDevice('iPhone', async (page) => {
      // 10000006: no other browser test adds it to Apple Wallet.
      await showPass(page, demo.nfc);
      const download = page.waitForEvent('download');
      await appleButton(page).click();
      const pass = JSON.parse(strFromU8(unzipSync(await downloadedBytes(await download))['pass.json'] ?? new Uint8Array())) as Record<
        string,
        string
      >;
      expect(JSON.stringify(pass.barcodes)).toContain(demo.nfc.barcode);

      // A device adds it to its wallet: the PassKit web service call Apple Wallet makes.
      const registration = await fetch(
        `${pass.webServiceURL}/v1/devices/e2e-iphone/registrations/${pass.passTypeIdentifier}/${pass.serialNumber}`,
        {
          method: 'POST',
          headers: { Authorization: `ApplePass ${pass.authenticationToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ pushToken: 'ab'.repeat(32) }),
        },
      );
      expect(registration.status).toBe(201);

      await appleButton(page).click();
      const message = await alertText(page);
      expect(message).toMatch(/^This pass has already been added to a wallet/);
      expect(message).toContain(site.supportEmail);

      await page.reload();
      await passCard(page).waitFor();
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 0, voucher: 0, hint: 0 });
    }));

  it('words the already-in-wallet refusal with the address the answer names', () =>
    asDevice('iPhone', async (page) => {
      await answerWithError(
        page,
        '/api/apple-wallet/',
        409,
        'Already in a wallet',
        {},
        {
          reason: WALLET_REFUSALS.alreadyInWallet,
          params: { supportEmail: 'help@example.com' },
        },
      );
      await showPass(page, demo.wristband);
      await appleButton(page).click();
      await expect(alertText(page)).resolves.toBe(
        'This pass has already been added to a wallet. Please contact help@example.com for assistance.',
      );
    }));
});

describe('on an Android phone', () => {
  it('offers Google Wallet only, opens the save link in a new tab and offers it as "View Your Pass"', () =>
    asDevice('android', async (page, context) => {
      // The tab goes to Google; answered here, nothing leaves the machine.
      await context.route('https://pay.google.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Google Wallet</title>' }),
      );
      await showPass(page, demo.wristband);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 1, voucher: 0, hint: 0 });

      const held = await holdCalls(page, '/api/google-wallet/');
      const tab = context.waitForEvent('page');
      await googleButton(page).click();
      await busyText(page).waitFor();
      held.release();

      const opened = await tab;
      await opened.waitForURL(/^https:\/\/pay\.google\.com\/gp\/v\/save\/.+/);
      const view = page.getByRole('link', { name: 'View Your Pass', exact: true });
      await expect(view.getAttribute('href')).resolves.toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
      await expect(view.getAttribute('href')).resolves.toBe(opened.url());
      await expect(view.getAttribute('target')).resolves.toBe('_blank');
      expect(held.bodies).toEqual([{ orderId: demo.wristband.orderId, barcode: demo.wristband.barcode, hasPhoto: false }]);
      await busyText(page).waitFor({ state: 'detached' });
    }));

  it('says "Unable to process your request" when the call gets no answer', () =>
    asDevice('android', async (page) => {
      await page.route('**/api/google-wallet/', (route) => route.abort('internetdisconnected'));
      await showPass(page, demo.wristband);
      await googleButton(page).click();
      await expect(alertText(page)).resolves.toBe('Unable to process your request');
    }));
});

describe('on a desktop', () => {
  it('offers the voucher and the hint, and downloads the PDF named with the barcode', () =>
    asDevice('desktop', async (page) => {
      await showPass(page, demo.wristband);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 0, voucher: 1, hint: 1 });

      const held = await holdCalls(page, '/api/voucher/');
      const download = page.waitForEvent('download');
      const response = page.waitForResponse((r) => r.url().endsWith('/api/voucher/'));
      await voucherButton(page).click();
      await busyText(page).waitFor();
      held.release();

      const file = await download;
      expect(file.suggestedFilename()).toContain(demo.wristband.barcode);
      expect(file.suggestedFilename()).toMatch(/\.pdf$/);
      const headers = (await response).headers();
      expect(headers['content-type']).toMatch(/^application\/pdf/);
      expect(headers['content-disposition']).toContain(file.suggestedFilename());
      const bytes = await downloadedBytes(file);
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
      expect(held.bodies).toEqual([{ orderId: demo.wristband.orderId, barcode: demo.wristband.barcode }]);
    }));

  it('gives a shared view the hint but no voucher', () =>
    asDevice('desktop', async (page) => {
      await page.goto(`/${demo.shareLinks.active}`);
      await passCard(page).waitFor();
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 0, voucher: 0, hint: 1 });
    }));

  it('says "Temporary server error, please retry" on a 408 and "Unable to locate order" on a failure', () =>
    asDevice('desktop', async (page) => {
      await answerWithError(page, '/api/voucher/', 408, 'Request timeout');
      await showPass(page, demo.wristband);
      await voucherButton(page).click();
      await expect(alertText(page)).resolves.toBe('Temporary server error, please retry');

      await page.unroute('**/api/voucher/');
      await answerWithError(page, '/api/voucher/', 404, 'Not found');
      await voucherButton(page).click();
      await expect(page.getByRole('alert').getByText('Unable to locate order', { exact: true }).waitFor()).resolves.toBeUndefined();
    }));
});

describe('which passes get the actions', () => {
  for (const device of ['iPhone', 'android', 'desktop'] as const) {
    it(`disables them for a test pass (order id 0) on ${device}`, () =>
      asDevice(device, async (page) => {
        let calls = 0;
        page.on('request', (r) => void (/\/api\/(apple-wallet|google-wallet|voucher)\/$/.test(r.url()) && calls++));
        await showPass(page, demo.testPass);
        const button = { iPhone: appleButton, android: googleButton, desktop: voucherButton }[device](page);
        await expect(button.isDisabled()).resolves.toBe(true);
        await button.click({ force: true });
        expect(calls).toBe(0);
      }));
  }

  it('hides them for a passholder without a photo, and shows them with a photo or skipImage', async () => {
    await asDevice('desktop', async (page) => {
      await showPass(page, demo.passholder);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 0, voucher: 0, hint: 0 });
    });
    await asDevice('iPhone', async (page) => {
      await showPass(page, demo.passholder);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 0, voucher: 0, hint: 0 });
    });
    await asDevice('iPhone', async (page) => {
      await changeOrder(page, { photoUid: '0b6f8a52-3c55-4d2e-9d67-1f0e5d7c9a11' });
      await showPass(page, demo.passholder);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 1, google: 0, voucher: 0, hint: 0 });
    });
    await asDevice('android', async (page) => {
      await changeOrder(page, { skipImage: true });
      await showPass(page, demo.passholder);
      await expect(visibleActions(page)).resolves.toEqual({ apple: 0, google: 1, voucher: 0, hint: 0 });
    });
  });
});
