// The guest pages' initial JavaScript (entry chunk plus its static imports, gzipped), as
// measured by the build (apps/web/vite.config.ts) into apps/web/dist/bundle-size.json, and
// what the server sends a phone for each guest page: the page, and every script and stylesheet
// Chromium asks for while the page shows its first screen (the API refused, so nothing more
// than that first screen loads), counted as the compressed bytes that come over the wire.
// global-setup.ts rebuilds the app first when its sources changed.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTookOver, baseUrl, demo, launchBrowser, openGuestPage } from './support/browser.ts';

const LIMIT_BYTES = 150 * 1024;
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd'; // what Chromium sends

/** One GET as a browser sends it, and the bytes that came over the wire (not decoded: fetch would). */
function getOnTheWire(url: string, accept: string) {
  return new Promise<{ status: number; encoding: string | undefined; wireBytes: number; body: Buffer }>((resolve, reject) => {
    request(url, { headers: { accept, 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], wireBytes: body.length, body });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

interface BundleSizeReport {
  initialJs: { gzipBytes: number; bytes: number; files: { fileName: string; gzipBytes: number }[] };
}

describe('guest bundle size', () => {
  it('keeps the initial JavaScript of the guest pages under 150 KiB gzipped', () => {
    const report = JSON.parse(readFileSync(new URL('../apps/web/dist/bundle-size.json', import.meta.url), 'utf8')) as BundleSizeReport;
    expect(report.initialJs.files.length).toBeGreaterThan(0);
    expect(report.initialJs.gzipBytes).toBeGreaterThan(10 * 1024);
    expect(report.initialJs.gzipBytes, `initial JS is ${(report.initialJs.gzipBytes / 1024).toFixed(1)} KiB gzipped`).toBeLessThanOrEqual(
      LIMIT_BYTES,
    );
  });

  let browser: Browser;
  /** The demo Stored Value Card's page (its hash comes with the card's login answer). */
  let storedValuePath: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    const res = await fetch(`${baseUrl()}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...demo.storedValue, isIOS: false }),
    });
    expect(res.status).toBe(200);
    storedValuePath = `/stored-value/${((await res.json()) as { barcodeHash: string }).barcodeHash}`;
  });
  afterAll(async () => {
    await browser?.close();
  });

  // Each page's budget is a ratchet: what it sends now plus a small margin (about 500 B), under
  // the 150 KiB limit. A change that makes a page send more raises its figure here and says why
  // (docs/performance.md); one that makes it send less lowers it. Measured 2026-11-28 with the
  // catalogue split by area (docs/i18n.md): login 148,824 B, a pass page 147,731, the stored-value
  // page 147,128, the loyalty home 152,180; with the birthday fields and the invitation's words on
  // the join step (issue 50) 153,467: its budget is the 150 KiB limit itself, 153,600.
  it.each([
    ['the login page', 149_300, () => '/'],
    ['a pass page', 148_200, () => `/${demo.storedValue.orderId}/${demo.storedValue.barcode}`],
    ['the stored-value page', 147_600, () => storedValuePath],
    ['the loyalty home', 153_600, () => '/loyalty/'],
  ])('sends %s with its first screen, stylesheets and scripts in its budget (%i B), compressed', async (_name, budget, pagePath) => {
    const path = pagePath();
    // The scripts and stylesheets the page asks for before any API answer (all refused).
    const guest = await openGuestPage(browser);
    const loaded = new Set<string>();
    try {
      guest.page.on('request', (req) => {
        if (['script', 'stylesheet'].includes(req.resourceType())) loaded.add(new URL(req.url()).pathname);
      });
      await guest.page.route('**/api/**', (route) => route.abort());
      await guest.page.goto(path);
      await guest.page.waitForLoadState('networkidle');
      // On a busy machine the entry script can run longer than networkidle's quiet 500 ms before
      // the route's lazy chunk is asked for (the loyalty home's was then left out of the sum): wait
      // for the app to have taken the page over, then until nothing more is asked for 1.5 s.
      await appTookOver(guest.page);
      for (let count = -1; count !== loaded.size;) {
        count = loaded.size;
        await guest.page.waitForTimeout(1500);
      }
    } finally {
      await guest.close();
    }
    const page = await getOnTheWire(`${baseUrl()}${path}`, 'text/html');
    expect(page.status).toBe(200);
    expect(page.encoding).toBe('br');
    // The first screen is in the page itself: prerendered, not left to the scripts.
    const html = brotliDecompressSync(page.body).toString();
    expect(html).toMatch(/<main id="main"[^>]*>\s*(?:<!--\$-->)?<(?:section|div) class="(?:panel|loading-state)/);
    const assets = [...loaded];
    expect(assets.filter((a) => a.endsWith('.js')).length).toBeGreaterThan(0);
    expect(assets.filter((a) => a.endsWith('.css')).length).toBeGreaterThan(0);
    let total = page.wireBytes;
    const sizes: string[] = [`${path} ${page.wireBytes}`];
    for (const asset of assets) {
      const res = await getOnTheWire(`${baseUrl()}${asset}`, '*/*');
      expect(res.status, asset).toBe(200);
      if (res.wireBytes >= 1024) expect(res.encoding, asset).toBe('br');
      total += res.wireBytes;
      sizes.push(`${asset} ${res.wireBytes}`);
    }
    console.log(`${path}: ${total} bytes (${(total / 1024).toFixed(1)} KiB) served: ${sizes.join(', ')}`);
    expect(budget).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(total, `served ${total} B, budget ${budget} B: ${sizes.join(', ')}`).toBeLessThanOrEqual(budget);
  });
});
