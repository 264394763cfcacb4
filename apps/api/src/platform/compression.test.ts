import { existsSync, readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { webDist } from './web.plugin.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;
const varyNamesAcceptEncoding = (vary: unknown) =>
  String(vary ?? '')
    .toLowerCase()
    .split(/,\s*/)
    .includes('accept-encoding');

// The built app (npm test builds it before the Vitest projects run).
const hasBuild = existsSync(`${webDist}/index.html`);

describe('compression on the wire', () => {
  it.skipIf(!hasBuild)(
    'sends the built stylesheet and script as the build compressed them (br, gzip), and plain when not asked',
    async () => {
      const html = readFileSync(`${webDist}/index.html`, 'utf8');
      // Files under 512 bytes have no compressed twin and are sent as they are.
      const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:css|js))"/g)]
        .map((m) => m[1] as string)
        .filter((url) => readFileSync(`${webDist}${url}`).length >= 512);
      expect(assets.some((a) => a.endsWith('.css')) && assets.some((a) => a.endsWith('.js'))).toBe(true);
      for (const url of assets) {
        const plain = readFileSync(`${webDist}${url}`);
        for (const encoding of ['br', 'gzip'] as const) {
          const res = await t.app.inject({ url, headers: { 'accept-encoding': encoding } });
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['content-encoding'], url).toBe(encoding);
          expect(varyNamesAcceptEncoding(res.headers.vary), url).toBe(true);
          expect(res.rawPayload.length, url).toBeLessThan(plain.length);
          expect(decode[encoding](res.rawPayload).equals(plain), url).toBe(true);
        }
        const res = await t.app.inject({ url });
        expect(res.headers['content-encoding'], url).toBeUndefined();
        expect(varyNamesAcceptEncoding(res.headers.vary), url).toBe(true);
        expect(res.rawPayload.equals(plain), url).toBe(true);
      }
    },
  );

  it.skipIf(!hasBuild)('sends the page itself compressed to a browser that accepts it', async () => {
    const res = await t.app.inject({
      url: '/10000002/3500000000000028',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(varyNamesAcceptEncoding(res.headers.vary)).toBe(true);
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root">');
  });

  it('compresses a JSON answer when asked (br, gzip), and not when not', async () => {
    const plain = await t.app.inject({ url: '/docs/json' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await t.app.inject({ url: '/docs/json', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(varyNamesAcceptEncoding(res.headers.vary)).toBe(true);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decode[encoding](res.rawPayload).toString())).toEqual(plain.json());
    }
  });

  it('leaves small API answers plain', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
