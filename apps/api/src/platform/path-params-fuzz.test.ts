// Every path parameter and query value is checked before it reaches a query: the five inputs
// a fuzz found answering 500, and a property over every route of the OpenAPI document.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await putOrder(t.app, '73000001', anOrder([{ barcode: '7300000000000011' }]));
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('the five inputs that answered 500', () => {
  it.each([
    '/api/download/%00/photo.bmp',
    '/api/download/%00/photo.png',
    `/api/replace-photo/%00/${'A'.repeat(43)}`,
    '/api/replace-photo/7300000000000011/%00',
    '/api/passkit/v1/devices/a1b2c3d4/registrations/pass.com.boardwalk.demo?passesUpdatedSince=99999999999999999999',
  ])('%s answers 400 with a clear message', async (url) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      statusCode: 400,
      error: 'VALIDATION_FAILED',
      message: expect.stringMatching(/control characters|not valid/),
    });
  });

  it('bounds the update tag to a PostgreSQL bigint', async () => {
    const at = (tag: string) => get(`/api/passkit/v1/devices/a1b2c3d4/registrations/pass.com.boardwalk.demo?passesUpdatedSince=${tag}`);
    expect((await at('9223372036854775807')).statusCode).toBe(204);
    expect((await at('9223372036854775808')).statusCode).toBe(400);
  });

  it('keeps a well-formed photo id that names nothing a 404', async () => {
    expect((await get('/api/download/nope/photo.bmp')).statusCode).toBe(404);
    expect((await get('/api/download/no%20pe/photo.bmp')).statusCode).toBe(400);
  });
});

describe('every route of /docs/json', () => {
  type Operation = { parameters?: { in: string; name: string }[] };
  const CONTROL = fc.constantFrom('\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f');
  /** A value with at least one control character, among any other characters. */
  const hostile = fc.tuple(fc.string({ maxLength: 8 }), CONTROL, fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`);

  it('answers no 5xx, and 400 where no guard answers first, to a control character in any path or query value', async () => {
    const doc = (await get('/docs/json')).json() as { paths: Record<string, Record<string, Operation>> };
    const targets = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, op]) => {
        const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
        return params.length ? [{ path, method: method.toUpperCase() as 'GET', params }] : [];
      }),
    );
    expect(targets.length).toBeGreaterThan(15);
    const answered: Record<number, number> = {};
    for (const target of targets) {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...target.params), hostile, async (param, value) => {
          let url = target.path.replace(/\{(\w+)\}/g, (_, name: string) =>
            name === param.name && param.in === 'path' ? encodeURIComponent(value) : 'a1b2c3d4',
          );
          if (param.in === 'query') url += `?${param.name}=${encodeURIComponent(value)}`;
          const res = await t.app.inject({ method: target.method, url, headers: integrationAuth });
          answered[res.statusCode] = (answered[res.statusCode] ?? 0) + 1;
          expect(res.statusCode, `${target.method} ${url}: ${res.body}`).toBeLessThan(500);
          // Staff routes check the session first (401); everything else refuses the value.
          if (res.statusCode !== 401) expect(res.statusCode, `${target.method} ${url}`).toBe(400);
        }),
        { numRuns: 25 },
      );
    }
    console.log(`${targets.length} routes with path or query parameters; answers ${JSON.stringify(answered)}`);
  });
});
