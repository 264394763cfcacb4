import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@boardwalk/db/client';
import { createTestDatabase, testDbKind } from '@boardwalk/db/test-support/test-database';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operations', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers 503 on /readyz when the database is gone', async () => {
    const t2 = await createTestApp();
    await t2.database.close();
    const ready = await t2.app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    await t2.app.close();
  });

  it('serves an OpenAPI document generated from the route schemas, and its page', async () => {
    const doc = (await t.app.inject('/docs/json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/login/', '/api/register/']));
    expect(doc.paths['/api/login/'].post.requestBody).toBeDefined();
    const page = await t.app.inject('/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
  });

  it('sends security headers, and no-store on API answers', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '12345678', barcode: '12345678' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });
});

describe.skipIf(testDbKind() !== 'postgres')('lost PostgreSQL connections', () => {
  it('are replaced by the pool instead of ending the process', async () => {
    const testDatabase = await createTestDatabase('postgres');
    const url = new URL(testDatabase.url!);
    const lost: string[] = [];
    const database = await createDb({ databaseUrl: url.toString(), poolSize: 2, onConnectionError: (e) => void lost.push(e.message) });
    await Promise.all([database.ping(), database.ping()]);
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await admin.end();
    await expect.poll(() => lost.length).toBeGreaterThan(0);
    // A killed connection the pool has not yet heard about may fail one query; then it answers.
    await expect
      .poll(() =>
        database.ping().then(
          () => 'answers',
          (e: Error) => e.message,
        ),
      )
      .toBe('answers');
    await database.close();
    await testDatabase.close();
  });
});
