import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  it.skipIf(!hasBuild)('answers index.html to a GET without Accept (curl, a load balancer), with text/html, and to HEAD', async () => {
    const index = readFileSync(`${webDist}/index.html`, 'utf8');
    for (const [url, headers] of [
      ['/', {}],
      ['/', { accept: '*/*' }],
      ['/10000001/2400000000000011', {}],
      ['/login', { accept: 'text/html' }],
      ['/activate/', { accept: 'application/json' }],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(index);
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
  });

  it('answers 404 JSON for API paths, missing files (even when HTML is asked for) and other methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/api'],
      ['GET', '/API/nothing-here'],
      ['GET', '/assets/missing-1234.js'],
      ['GET', '/models/face-api/0.0.0/'],
      ['GET', '/favicon.ico'],
      ['POST', '/'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'NOT_FOUND' });
    }
  });
});
