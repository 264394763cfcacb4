// The guest pages with no network (the service worker, apps/web/src/service-worker/, and the
// device copies, apps/web/src/lib/device-copy.ts): a pass shown once opens offline from the
// worker's cache and the device's copy, with its barcode readable and the note of when it was
// shown; Start Over offline leaves nothing stored; back online the page asks
// again and the new answer replaces the copy (a refunded pass); the same for the stored-value
// page and a shared view, whose copy a "no longer shared" answer erases; the staff pages are
// left to the network; and a new build is picked up at the next visit. axe and screenshots
// (offline-*) at 360 and 1280 px. The copy keeps only what the offline pass shows (no token, no
// one's email or phone) and expires. How fast the offline pass shows is bench/offline.ts's figure.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  answerAsPassholder,
  barcodeGraphic,
  baseUrl,
  demo,
  expectNoAxeViolations,
  launchBrowser,
  openGuestPage,
  openPass,
  passCard,
  screenshot,
  unexpectedProblems,
  WIDTHS,
  type Width,
} from '../support/browser.ts';
import { cachedUrls, nextBuild, reloadOffline, storedCopies, workerReady } from '../support/offline.ts';
import { freePort } from '../../apps/api/test-support/free-port.ts';
import { startServerProcess } from '../support/server-process.ts';
import { STAFF_ADMIN } from '../support/staff-admin.ts';
import { logIn } from '../support/staff.ts';
import { decodeBarcodes } from '../support/zbar.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh guest page; checks at the end that it logged nothing unexpected (offline loads are expected failures). */
async function inPage(width: Width, body: (page: Page, context: BrowserContext) => Promise<void>) {
  const guest = await openGuestPage(browser, width, { serviceWorkers: 'allow' });
  try {
    await body(guest.page, guest.context);
    expect(unexpectedProblems(guest.problems)).toEqual([]);
  } finally {
    await guest.close();
  }
}

const offlineNote = /^Offline: shown as it was at \d{1,2}:\d{2} (AM|PM)$/;

describe('a pass shown once, with no network', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`opens from the device with its barcode readable, and the newer answer replaces it online (${width} px)`, () =>
      inPage(width, async (page, context) => {
        const { orderId, barcode } = demo.passholder;
        await openPass(page, orderId, barcode);
        await barcodeGraphic(page).waitFor();
        expect(await workerReady(page)).toBe('activated');
        await expect.poll(async () => (await storedCopies(page)).map((c) => c.key)).toEqual([`/${orderId}/${barcode}`]);
        // Only what the page showed: the answer it showed, nothing else of the API.
        const [kept] = await storedCopies(page);
        expect(kept?.value.data).toMatchObject({ barcode, product: await passCard(page).locator('#pass-product').textContent() });

        await reloadOffline(page, context);
        await expect(page.getByTestId('offline-note').textContent()).resolves.toMatch(offlineNote);
        await expect(page.getByTestId('pass-barcode').textContent()).resolves.toBe(barcode);
        // Only the card and Start Over: the actions that need the server are not offered.
        await expect(page.getByRole('heading', { name: 'Pass Photo' }).count()).resolves.toBe(0);
        await expect(page.getByRole('button').allTextContents()).resolves.toEqual(['Start Over']);
        expect(decodeBarcodes(await barcodeGraphic(page).screenshot({ animations: 'disabled' }))).toEqual([barcode]);
        await expectNoAxeViolations(page);
        await screenshot(page, 'offline-pass');

        // Back online: asked again at once; the answer (refunded since) replaces the copy and the note goes.
        await page.route('**/api/login/', async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, json: { ...((await response.json()) as object), refunded: true } });
        });
        await context.setOffline(false);
        await page.getByTestId('offline-note').waitFor({ state: 'detached' });
        await passCard(page).locator('.pass-card__note', { hasText: 'Refunded' }).waitFor();
        await page.getByRole('heading', { name: 'Pass Photo' }).waitFor();
        await expect.poll(async () => (await storedCopies(page))[0]?.value.data.refunded).toBe(true);
      }));
  }

  it("keeps only what the offline pass shows (no token, no one's email or phone), and the copy expires", () =>
    inPage(WIDTHS.mobile, async (page, context) => {
      // The demo card with credits: the server answers a share token and its share to Rosa Diaz (with her email).
      const { orderId, barcode } = demo.storedValue;
      const answered = page.waitForResponse('**/api/login/');
      await openPass(page, orderId, barcode);
      const answer = (await (await answered).json()) as Record<string, unknown>;
      expect(answer.ticketShareToken).toEqual(expect.any(String));
      expect(JSON.stringify(answer.ticketShares)).toContain('@');
      await passCard(page).waitFor();
      await workerReady(page);
      await expect.poll(async () => (await storedCopies(page)).length).toBe(1);
      const [kept] = await storedCopies(page);
      const copy = kept!.value as { shownAt: string; expiresAt: string; data: Record<string, unknown> };
      expect(copy.data).toMatchObject({
        barcode,
        ticketShareToken: null,
        wristbandActivateToken: null,
        ticketShares: [],
        email: null,
        phone: null,
        iCloudBindingLink: null,
      });
      expect(JSON.stringify(copy)).not.toContain('@');
      // At most 30 days after it was shown, and never after the pass's own expiry.
      const days = (Date.parse(copy.expiresAt) - Date.parse(copy.shownAt)) / 86_400_000;
      expect(days).toBeGreaterThan(0);
      expect(days).toBeLessThanOrEqual(30);
      if (typeof answer.expires === 'string') expect(Date.parse(copy.expiresAt)).toBeLessThanOrEqual(Date.parse(answer.expires));

      // Offline, the card is what it was (this card shows no barcode: it is not a passholder's).
      await context.setOffline(true);
      await page.reload({ waitUntil: 'commit' });
      await page.getByTestId('offline-note').waitFor();
      await expect(passCard(page).locator('#pass-product').textContent()).resolves.toBe(answer.product);

      // Past its expiry, the copy is not shown and is erased.
      await page.evaluate(
        ([key]) =>
          new Promise<void>((resolve, reject) => {
            const open = indexedDB.open('boardwalk-guest');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              const store = db.transaction('shown', 'readwrite').objectStore('shown');
              const read = store.get(key!);
              read.onsuccess = () => {
                const put = store.put({ ...read.result, expiresAt: new Date(Date.now() - 1000).toISOString() }, key!);
                put.onsuccess = () => (db.close(), resolve());
                put.onerror = () => reject(put.error);
              };
            };
          }),
        [kept!.key],
      );
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
      await expect(page.getByTestId('offline-note').count()).resolves.toBe(0);
      await expect.poll(() => storedCopies(page)).toEqual([]);
    }));

  it('Start Over offline leaves nothing stored', () =>
    inPage(WIDTHS.mobile, async (page, context) => {
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      await workerReady(page);
      await expect.poll(async () => (await storedCopies(page)).length).toBe(1);
      await reloadOffline(page, context);
      await page.getByRole('button', { name: 'Start Over' }).click();
      await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
      await expect.poll(() => storedCopies(page)).toEqual([]);
      // Opened again offline: nothing to show, the lookup form says there is no connection.
      await page.goto(`/${demo.passholder.orderId}/${demo.passholder.barcode}`);
      await page.getByRole('heading', { level: 1, name: 'Find Your Pass' }).waitFor();
      await expect(page.getByTestId('offline-note').count()).resolves.toBe(0);
    }));
});

describe('the stored-value page and a shared view, with no network', () => {
  for (const width of [WIDTHS.mobile, WIDTHS.desktop]) {
    it(`shows the last balance with its time, and asks again online (${width} px)`, () =>
      inPage(width, async (page, context) => {
        const login = await fetch(`${baseUrl()}/api/login/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(demo.storedValue),
        });
        const { barcodeHash } = (await login.json()) as { barcodeHash: string };
        await page.goto(`/stored-value/${barcodeHash}`);
        const card = page.locator('.stored-value__card');
        await card.locator('svg').waitFor();
        const credits = await page.getByTestId('stored-value-credits').textContent();
        await workerReady(page);
        await expect.poll(async () => (await storedCopies(page)).map((c) => c.key)).toEqual([`/stored-value/${barcodeHash}`]);

        await reloadOffline(page, context, '.stored-value__card');
        await expect(page.getByTestId('offline-note').textContent()).resolves.toMatch(offlineNote);
        await expect(page.getByTestId('stored-value-credits').textContent()).resolves.toBe(credits);
        expect(decodeBarcodes(await card.locator('svg').screenshot({ animations: 'disabled' }))).toEqual([demo.storedValue.barcode]);
        await expectNoAxeViolations(page);
        await screenshot(page, 'offline-stored-value');

        await page.route('**/api/stored-value/', async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, json: { ...((await response.json()) as object), credits: 1234 } });
        });
        await context.setOffline(false);
        await page.getByTestId('offline-note').waitFor({ state: 'detached' });
        await expect(page.getByTestId('stored-value-credits').textContent()).resolves.toBe('1,234 Credits');
        await expect.poll(async () => (await storedCopies(page))[0]?.value.data.credits).toBe(1234);
      }));

    it(`shows a shared view as it was, and a "no longer shared" answer erases it (${width} px)`, () =>
      inPage(width, async (page, context) => {
        const link = `/${demo.shareLinks.active}`;
        // The shared card as a passholder's, so it shows a barcode (the demo's shows none).
        await answerAsPassholder(page);
        await page.goto(link);
        await page.getByRole('heading', { level: 1, name: 'Shared Pass' }).waitFor();
        await barcodeGraphic(page).waitFor();
        await workerReady(page);
        await expect.poll(async () => (await storedCopies(page)).map((c) => c.key)).toEqual([link]);

        await page.unroute('**/api/login/');
        await reloadOffline(page, context);
        await page.getByRole('heading', { level: 1, name: 'Shared Pass' }).waitFor();
        expect(decodeBarcodes(await barcodeGraphic(page).screenshot({ animations: 'disabled' }))).toEqual([demo.storedValue.barcode]);
        await expect(page.getByTestId('offline-note').textContent()).resolves.toMatch(offlineNote);
        await expectNoAxeViolations(page);
        await screenshot(page, 'offline-shared');

        // Back online, the owner has stopped sharing: the page says so and the copy is gone.
        await page.route('**/api/login/', (route) =>
          route.fulfill({
            status: 410,
            json: { statusCode: 410, error: 'PASS_NO_LONGER_SHARED', message: 'This pass is no longer shared with you' },
          }),
        );
        await context.setOffline(false);
        await page.getByRole('heading', { level: 1, name: 'Pass No Longer Shared' }).waitFor();
        await expect.poll(() => storedCopies(page)).toEqual([]);
      }));
  }
});

describe('what the service worker leaves alone', () => {
  it('answers none of the staff pages’ requests and keeps nothing of them or of the API', () =>
    inPage(WIDTHS.desktop, async (page) => {
      await openPass(page, demo.passholder.orderId, demo.passholder.barcode);
      await barcodeGraphic(page).waitFor();
      await workerReady(page);
      const fromWorker: string[] = [];
      page.on('response', (response) => {
        if (response.fromServiceWorker()) fromWorker.push(response.url());
      });
      const staffRequests: string[] = [];
      page.on('request', (request) => staffRequests.push(new URL(request.url()).pathname));
      const login = await page.goto('/login');
      expect(login?.fromServiceWorker()).toBe(false);
      await page.getByRole('heading', { level: 1, name: 'Team Member Login' }).waitFor();
      // Logged in, the back office opens on the Dashboard and asks the API for its figures: none of it through the worker.
      await logIn(page, STAFF_ADMIN.email, STAFF_ADMIN.password);
      await page.getByRole('heading', { level: 2, name: 'Dashboard', exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(staffRequests).toEqual(expect.arrayContaining(['/app/login/', '/api/admin/dashboard/']));
      expect(fromWorker).toEqual([]);
      const urls = await cachedUrls(page);
      expect(urls.length).toBeGreaterThan(10);
      expect(urls.filter((url) => /^\/(api|login|admin|app)(\/|$)/.test(url) || /staff/.test(url))).toEqual([]);
      // The guest page's own address (it carries the barcode) is not kept either: only the build's files.
      expect(urls.filter((url) => url.includes(demo.passholder.barcode))).toEqual([]);
    }));
});

describe('a new build', () => {
  it('is picked up at the next visit, online at once and offline once the old pages are closed, never mixed with the old files', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const address = { PORT: String(port), PUBLIC_URL: base };
    const next = nextBuild();
    let server = await startServerProcess(address, { port, dataFrom: inject('demoDataFolder') });
    const context = await browser.newContext({ baseURL: base, viewport: { width: WIDTHS.mobile, height: 780 }, locale: 'en-US' });
    const passPath = `/${demo.passholder.orderId}/${demo.passholder.barcode}`;
    const build = (page: Page) => page.evaluate(() => document.documentElement.dataset.build ?? 'first');
    try {
      const first = await context.newPage();
      await first.goto(passPath);
      await barcodeGraphic(first).waitFor();
      await workerReady(first);
      await expect.poll(async () => (await storedCopies(first)).length).toBe(1);
      await expect(build(first)).resolves.toBe('first');
      await first.close();

      // The next build is deployed at the same address.
      await server.close();
      server = await startServerProcess({ ...address, WEB_DIR: next.dir }, { port, dataFrom: inject('demoDataFolder') });
      const second = await context.newPage();
      const scripts: string[] = [];
      second.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
      await second.goto(passPath);
      await barcodeGraphic(second).waitFor();
      await expect(build(second)).resolves.toBe('next');
      expect(scripts).toContain(next.entry);
      expect(scripts).not.toContain(next.oldEntry);
      // Its worker installs beside the old one, which keeps this page's files, and waits.
      await second.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        if (!registration) throw new Error('no service worker');
        if (!registration.installing && !registration.waiting) await registration.update();
        for (let waited = 0; !registration.waiting; waited += 50) {
          if (waited > 20_000)
            throw new Error(`the next build's worker is not waiting: ${registration.installing?.state ?? 'not installing'}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await second.close();

      // With every page of the old build closed, the new worker takes over: offline, the next build.
      await context.setOffline(true);
      let seen = '';
      for (let attempt = 0; attempt < 20 && seen !== 'next'; attempt++) {
        const page = await context.newPage();
        await page.goto(passPath);
        await page.getByTestId('offline-note').waitFor();
        await barcodeGraphic(page).waitFor();
        seen = await build(page);
        await page.close();
        if (seen !== 'next') await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(seen).toBe('next');
    } finally {
      await context.close();
      await server.close();
      next.remove();
    }
  }, 180_000);
});
