// Failed staff logins are throttled like guest lookups, 10 per client address and 5 per
// username per 15 minutes, then 429 with Retry-After; counters in Redis when configured, shared
// by every instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamMember } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { createTwoInstances, twoInstancesAvailable, type TwoInstances } from '../../../test-support/two-instances.ts';

const PASSWORD = 'throttle-password-1';
const login = (t: TestApp, teamMemberUsername: string, teamMemberPassword: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/app/login/', payload: { teamMemberUsername, teamMemberPassword }, remoteAddress });

function expectThrottled(res: Awaited<ReturnType<typeof login>>) {
  expect(res.statusCode).toBe(429);
  expect(res.json().error).toBe('TOO_MANY_ATTEMPTS');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(800);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

describe('staff login throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    for (const name of ['victim', 'bystander', 'resets', 'case'])
      await createTeamMember(t.app, { accessLevel: 10, username: `${name}@example.com`, password: PASSWORD });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After after the fifth failure for one username, from any address, right password or not', async () => {
    for (let i = 1; i <= 5; i++) expect((await login(t, 'victim@example.com', `wrong-${i}`, `10.7.0.${i}`)).statusCode).toBe(401);
    expectThrottled(await login(t, 'victim@example.com', PASSWORD, '10.7.1.1'));
    expectThrottled(await login(t, 'VICTIM@example.com', PASSWORD, '10.7.1.2'));
    // Another username from the same addresses is not affected.
    expect((await login(t, 'bystander@example.com', PASSWORD, '10.7.0.1')).statusCode).toBe(201);
  });

  it('counts an unknown username like a known one', async () => {
    for (let i = 1; i <= 5; i++) expect((await login(t, 'nobody@example.com', 'whatever', `10.7.2.${i}`)).statusCode).toBe(401);
    expectThrottled(await login(t, 'nobody@example.com', 'whatever', '10.7.2.99'));
  });

  it('counts a username whatever its case', async () => {
    for (let i = 1; i <= 5; i++) await login(t, i % 2 ? 'CASE@example.com' : 'case@EXAMPLE.com', 'wrong', `10.7.3.${i}`);
    expectThrottled(await login(t, 'case@example.com', PASSWORD, '10.7.3.99'));
  });

  it('resets the username count after a successful login', async () => {
    for (let i = 1; i <= 4; i++) expect((await login(t, 'resets@example.com', 'wrong', `10.7.4.${i}`)).statusCode).toBe(401);
    expect((await login(t, 'resets@example.com', PASSWORD, '10.7.4.50')).statusCode).toBe(201);
    for (let i = 1; i <= 4; i++) expect((await login(t, 'resets@example.com', 'wrong', `10.7.5.${i}`)).statusCode).toBe(401);
    expect((await login(t, 'resets@example.com', PASSWORD, '10.7.5.50')).statusCode).toBe(201);
  });

  it('answers 429 with Retry-After after the tenth failure from one address, for any username', async () => {
    for (let i = 1; i <= 10; i++) expect((await login(t, `guess-${i}@example.com`, 'wrong', '10.8.0.1')).statusCode).toBe(401);
    expectThrottled(await login(t, 'bystander@example.com', PASSWORD, '10.8.0.1'));
    expect((await login(t, 'bystander@example.com', PASSWORD, '10.8.0.2')).statusCode).toBe(201);
  });

  it('does not count successful logins', async () => {
    for (let i = 0; i < 12; i++) expect((await login(t, 'bystander@example.com', PASSWORD, '10.8.1.1')).statusCode).toBe(201);
  });

  it('does not count input refused as invalid (400)', async () => {
    for (let i = 0; i < 12; i++) expect((await login(t, '', '', '10.8.2.1')).statusCode).toBe(400);
    expect((await login(t, 'bystander@example.com', PASSWORD, '10.8.2.1')).statusCode).toBe(201);
  });
});

// Two instances share PostgreSQL and Redis: one counter for both.
describe.skipIf(!twoInstancesAvailable)('two instances on one PostgreSQL and Redis', () => {
  let instances: TwoInstances;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    instances = await createTwoInstances();
    ({ a, b } = instances);
    await createTeamMember(a.app, { accessLevel: 10, username: 'shared@example.com', password: PASSWORD });
  });
  afterAll(() => instances.close());

  it('share the per-username counter', async () => {
    for (let i = 1; i <= 5; i++) expect((await login(i % 2 ? a : b, 'shared@example.com', 'wrong', `10.6.0.${i}`)).statusCode).toBe(401);
    expectThrottled(await login(a, 'shared@example.com', PASSWORD, '10.6.1.1'));
    expectThrottled(await login(b, 'shared@example.com', PASSWORD, '10.6.1.2'));
  });

  it('share the per-address counter', async () => {
    for (let i = 1; i <= 10; i++)
      expect((await login(i % 2 ? b : a, `shared-guess-${i}@example.com`, 'wrong', '10.6.2.1')).statusCode).toBe(401);
    expectThrottled(await login(a, 'other@example.com', 'x', '10.6.2.1'));
    expectThrottled(await login(b, 'other@example.com', 'x', '10.6.2.1'));
  });
});
