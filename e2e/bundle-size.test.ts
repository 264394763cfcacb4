// The guest pages' initial JavaScript (entry chunk plus its static imports, gzipped), as
// measured by the build (apps/web/vite.config.ts) into apps/web/dist/bundle-size.json.
// global-setup.ts rebuilds the app first when its sources changed.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/browser.ts';

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

  it.each(['/', '/10000002/3500000000000028'])(
    'sends %s with its initial stylesheets and scripts in under 150 KiB, compressed',
    async (path) => {
      const page = await getOnTheWire(`${baseUrl()}${path}`, 'text/html');
      expect(page.status).toBe(200);
      expect(page.encoding).toBe('br');
      const html = brotliDecompressSync(page.body).toString();
      // What the page loads before it can render: its scripts, their modulepreloads and its stylesheets.
      const assets = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
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
      expect(total, `served ${(total / 1024).toFixed(1)} KiB: ${sizes.join(', ')}`).toBeLessThanOrEqual(LIMIT_BYTES);
    },
  );
});
