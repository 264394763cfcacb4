// A member whose points expired stays in everyone's reach: the clock moves 13 months on, the
// expiry runs, and every answer that shows the member, their ledger or their points opens (a
// ledger kind or a date the answer schemas did not expect answered 500 once: the Loyalty tab's
// account, issue 47).
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { DASHBOARD_API } from '@boardwalk/contract/dashboard';
import { LOYALTY_STATEMENT_TOKEN } from '@boardwalk/contract/loyalty-statement';
import { LOYALTY_LEDGER_EXPORT_API, type StaffAccount } from '@boardwalk/contract/staff-loyalty';
import { PRIVACY } from '@boardwalk/contract/staff-operations-tabs';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { loginAs } from '../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { operatingDay } from '../platform/park-time.ts';
import { claimTickets } from './loyalty-claims.service.ts';
import { expireLots } from './loyalty-expiry.service.ts';
import { insertAccount } from './loyalty.repo.ts';
import { loyaltyCoreOf } from './loyalty.service.ts';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false' } });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

it('opens every view of a member after their points expired, 13 months on', async () => {
  const email = 'expired.points@example.com';
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName: 'Eva',
    lastName: 'Old',
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  const orderId = '76000001';
  await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price: 60 }], { orderDate: new Date().toISOString() }));
  await claimTickets(loyaltyCoreOf(t.app), { orderId, email, accountId }, { kind: 'staff', username: 'gina' });

  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 396 * DAY });
  expect(await expireLots(loyaltyCoreOf(t.app))).toBe(1);
  const staff = await loginAs(t.app, { accessLevel: 100 });
  const get = (url: string, headers = staff.headers) => t.app.inject({ method: 'GET', url, headers });

  const account = await get(`/api/admin/loyalty/account/${accountId}/`);
  expect(account.statusCode, account.body).toBe(200);
  const { ledger, balance, memberNumber } = account.json<StaffAccount>();
  expect(balance).toBe(0);
  expect(ledger.map((e) => [e.kind, e.points])).toEqual([
    ['expired', -60],
    ['earn', 60],
  ]);

  for (const url of [`/api/admin/loyalty/lots/${accountId}/`, `/api/admin/loyalty/redemptions/${accountId}/`]) {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  }
  const today = operatingDay(new Date(), t.app.config.parkTimezone);
  const year = `${Number(today.slice(0, 4)) - 2}${today.slice(4)}`;
  const csv = await get(`${LOYALTY_LEDGER_EXPORT_API}?from=${year}&to=${today}`);
  expect(csv.statusCode, csv.body).toBe(200);
  expect(csv.body).toContain('expired');
  for (const range of ['today', '7', '90']) {
    const res = await get(`${DASHBOARD_API}?range=${range}`);
    expect(res.statusCode, `${range}: ${res.body}`).toBe(200);
  }
  const exported = await t.app.inject({ method: 'POST', url: PRIVACY.export.api, headers: staff.headers, payload: { email } });
  expect(exported.statusCode, exported.body).toBe(200);

  const member = await get(`/api/integrations/loyalty/members/${memberNumber}`, integrationAuth);
  expect(member.statusCode, member.body).toBe(200);
  expect(member.json()).toMatchObject({ balance: 0 });
  const feed = await get('/api/integrations/events?limit=100', integrationAuth);
  expect(feed.statusCode, feed.body).toBe(200);

  const token = t.app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, accountId, LOYALTY_STATEMENT_TOKEN.ttlSeconds);
  for (const url of ['/api/loyalty/statement', '/api/loyalty/statement/ledger?before=999999999']) {
    const res = await get(url, { authorization: `Bearer ${token}` });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  }
});
