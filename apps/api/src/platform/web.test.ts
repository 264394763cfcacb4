import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { GUEST_SHELLS, guestShellFor, type GuestShell } from '@boardwalk/contract/guest-shells';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { webDist } from './web.plugin.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// The built app (npm test builds it before the Vitest projects run).
const hasBuild = existsSync(`${webDist}/index.html`);

describe('the app on every page path', () => {
  it.skipIf(!hasBuild)(
    'answers the page of each path to a GET without Accept (curl, a load balancer), with text/html, and to HEAD',
    async () => {
      const shell = (name: GuestShell) => readFileSync(`${webDist}/${GUEST_SHELLS[name].file}`, 'utf8');
      for (const [url, headers, name] of [
        ['/', {}, 'login'],
        ['/', { accept: '*/*' }, 'login'],
        ['/10000001/2400000000000011', {}, 'pass'],
        ['/login', { accept: 'text/html' }, 'app'],
        ['/activate/', { accept: 'application/json' }, 'app'],
      ] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body, url).toBe(shell(name));
      }
      expect((await t.app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
    },
  );

  it.skipIf(!hasBuild)(
    'sends the prerendered first screen of the guest pages, with its inlined CSS allowed by hash, and under its own name for the service worker',
    async () => {
      for (const [url, text] of [
        ['/', 'Find Your Pass'],
        ['/10000002/3500000000000028', 'Finding your pass…'],
        ['/0/99000001/', 'Finding your pass…'],
        [`/${'a'.repeat(81)}`, 'Finding your pass…'],
        ['/stored-value/OuX-g8lgsNMZmTfHMqaUx55orZnDuH2QsCnLEwmNlYU', 'Loading your card…'],
        ['/loyalty/', 'Brownie Points'],
      ] as const) {
        const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(200);
        const root = /<div id="root">([\s\S]*)<\/div>\s*<link rel="stylesheet"/.exec(res.body)?.[1] ?? '';
        expect(root, url).toContain(text);
        // The first screen's CSS is in the page and the CSP allows exactly it; the whole stylesheet follows the content.
        const style = /<style>([\s\S]+?)<\/style>/.exec(res.body)?.[1] ?? '';
        expect(style.length, url).toBeGreaterThan(1000);
        const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
        const styleSrc = /(?:^|;)\s*style-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
        expect(styleSrc.split(' '), url).toContain(hash);
        expect(styleSrc, url).not.toContain('unsafe-inline');
        expect(res.body, url).not.toMatch(/<head>[\s\S]*<link rel="stylesheet"[\s\S]*<\/head>/);
      }
      for (const url of ['/10000002', '/99/3500000000000028', '/loyalty/passes', '/login', '/stored-value/']) {
        const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
        expect(res.body, url).toContain('<div id="root"></div>');
      }
      // The guest pages' service worker keeps each of them by its file name, asked again each time (no-cache).
      for (const name of ['login', 'pass', 'storedValue', 'loyalty', 'app'] as const) {
        const res = await t.app.inject({ url: `/${GUEST_SHELLS[name].file}` });
        expect(res.statusCode, name).toBe(200);
        expect(res.body, name).toBe(readFileSync(`${webDist}/${GUEST_SHELLS[name].file}`, 'utf8'));
        expect(res.headers['cache-control'], name).toBe('no-cache');
      }
    },
  );

  it.skipIf(!hasBuild)(
    "sends each page in the guest's language: the link's (?lang=), else the choice kept in the lang cookie, else the browser's",
    async () => {
      const langOf = (body: string) => /<html lang="([a-z]+)"/.exec(body)?.[1];
      for (const [url, headers, language] of [
        ['/', {}, 'en'],
        ['/', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' }, 'es'],
        ['/', { 'accept-language': 'fr-FR,fr;q=0.9' }, 'en'],
        ['/?lang=es', {}, 'es'],
        ['/?lang=en', { 'accept-language': 'es-MX' }, 'en'],
        ['/?lang=xx', { 'accept-language': 'es-MX' }, 'es'],
        ['/10000002/3500000000000028', { cookie: 'lang=es' }, 'es'],
        ['/loyalty/', { cookie: 'lang=en', 'accept-language': 'es' }, 'en'],
        ['/loyalty/?lang=es', { cookie: 'lang=en' }, 'es'],
        ['/activate/', { cookie: 'lang=zz', 'accept-language': 'es' }, 'es'],
      ] as const) {
        const res = await t.app.inject({ url, headers: { accept: 'text/html', ...headers } });
        expect(res.statusCode, url).toBe(200);
        expect(langOf(res.body), `${url} ${JSON.stringify(headers)}`).toBe(language);
        expect(res.body).toContain(language === 'es' ? '<title>Su pase</title>' : '<title>Your Pass</title>');
        // A cache between the guest and the server keeps one page per language.
        expect(String(res.headers.vary)).toMatch(/accept-language/i);
        expect(String(res.headers.vary)).toMatch(/cookie/i);
      }
    },
  );

  it('names the shell of each path as the app routes it', () => {
    expect(guestShellFor('/')).toBe('login');
    expect(guestShellFor('/10000002/3500000000000028')).toBe('pass');
    expect(guestShellFor('/10000002/3500000000000028/')).toBe('pass');
    expect(guestShellFor('/10000002/3500000000000028/5b0c3d3e-8c53-4f4b-9a55-0f0f0f0f0f0f')).toBe('pass');
    expect(guestShellFor('/0/99000001')).toBe('pass');
    expect(guestShellFor(`/${'a'.repeat(81)}`)).toBe('pass');
    expect(guestShellFor(`/${'a'.repeat(80)}`)).toBe('app');
    expect(guestShellFor('/1000000/3500000000000028')).toBe('app');
    expect(guestShellFor('/10000002/1234567')).toBe('app');
    expect(guestShellFor('/10000002/3500000000000028/a/b')).toBe('app');
    expect(guestShellFor('/stored-value/abc')).toBe('storedValue');
    expect(guestShellFor('/stored-value/')).toBe('app');
    expect(guestShellFor('/loyalty')).toBe('loyalty');
    expect(guestShellFor('/loyalty/')).toBe('loyalty');
    expect(guestShellFor('/loyalty/tickets')).toBe('app');
    expect(guestShellFor('/activate/')).toBe('app');
    expect(guestShellFor('/admin/team')).toBe('app');
  });

  it('answers 404 JSON for API paths, missing files (even when HTML is asked for) and other methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/api'],
      ['GET', '/API/nothing-here'],
      ['GET', '/assets/missing-1234.js'],
      ['GET', '/models/face-api/0.0.0/'],
      ['GET', '/favicon-missing.ico'],
      ['POST', '/'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'NOT_FOUND' });
    }
  });
});

describe('the installable guest app', () => {
  it('answers the web manifest with the park’s name, colours and icons, covering the guest pages', async () => {
    const res = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const manifest = res.json<{
      name: string;
      start_url: string;
      scope: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose?: string }[];
    }>();
    expect(manifest).toMatchObject({
      name: t.app.config.brandName,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#1b4965',
    });
    expect(manifest.icons.map((icon) => `${icon.sizes}${icon.purpose ? ` ${icon.purpose}` : ''}`)).toEqual([
      '64x64',
      '192x192',
      '512x512',
      '512x512 maskable',
    ]);
    if (hasBuild) {
      for (const { src } of manifest.icons) {
        const icon = await t.app.inject({ url: src });
        expect(icon.statusCode, src).toBe(200);
        expect(icon.headers['content-type'], src).toBe('image/png');
      }
      expect((await t.app.inject({ url: '/apple-touch-icon-180x180.png' })).statusCode).toBe(200);
    }
  });

  it.skipIf(!hasBuild)(
    'sends the service worker so a new build is seen at the next visit: no-cache, the site’s own scripts only',
    async () => {
      const res = await t.app.inject({ url: '/service-worker.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      // Workbox is bundled in: the worker loads no other script, from here or elsewhere.
      expect(res.body.match(/importScripts|\bimport\s*[("'{*]/g) ?? [], 'imports').toEqual([]);
      expect(res.body).toContain('shells/pass.html');
    },
  );
});
