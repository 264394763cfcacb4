// The permission matrix, generated from the declarations: every admin route x (no token,
// expired token, a member lacking the permission, a member holding it) answers
// 401 / 401 / 403 / 2xx; and a permission raised above a member's level applies at once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_VIEW, DELIVERY_RETRY_API, DELIVERY_RETRY_PERMISSION, deliveries } from '@boardwalk/contract/staff-operations-tabs';
import { passCustomizations, walletExceptions } from '@boardwalk/contract/staff-pass-tabs';
import { permissionName, type FieldDeclaration, type ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import { permissions, sessions } from '@boardwalk/contract/staff-team-tabs';
import { resources } from '@boardwalk/contract/staff-navigation';
import { WRISTBAND_DEACTIVATE_API, WRISTBAND_DEACTIVATE_PERMISSION } from '@boardwalk/contract/staff-wristband-tabs';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { DASHBOARD_API } from '@boardwalk/contract/dashboard';
import { STAFF_LOYALTY_API } from '@boardwalk/contract/staff-loyalty';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { LOYALTY_TIER_OPTIONS_API, PASS_CUSTOMIZATION_OPTIONS_API, TEAM_MEMBER_OPTIONS_API } from './resources.routes.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let t: TestApp;
let holder: StaffLogin;
let lacking: StaffLogin;
let expired: StaffLogin;
const MATRIX_CUSTOMIZATION = 'Matrix';

let seq = 0;
/** A valid value of a field, unique enough for unique columns. */
function sampleValue(f: FieldDeclaration): unknown {
  const n = ++seq;
  switch (f.type) {
    case 'text':
    case 'textarea':
      return f.format === 'email' ? `matrix${n}@example.com` : `${n} ${f.label}`.slice(0, f.max ?? 100);
    case 'color':
      return '#1b4965';
    case 'number':
      // Tier thresholds are unique: each sample its own.
      return f.column === 'pointsToReach' ? n : Math.max(f.min ?? 0, 1);
    case 'datetime':
      // A park day closes after it opens, an entry window ends after it starts (each start its own).
      return new Date(Date.now() + n * 1000 + (f.column === 'closesAt' || f.column === 'endsAt' ? 7_200_000 : 3_600_000)).toISOString();
    case 'date':
      return '2030-01-01';
    case 'checkbox':
      return true;
    case 'select':
      // A pass customization and a loyalty tier of this name exist; a fixed list's first choice.
      return f.choices?.[0]!.value ?? MATRIX_CUSTOMIZATION;
    case 'password':
      return 'a matrix password';
  }
}

/** A valid body for creating (or updating) a row of the tab. */
function sampleBody(tab: ResourceDeclaration, mode: 'create' | 'update') {
  const body: Record<string, unknown> = {};
  for (const f of tab.fields) {
    if (f.readOnly || (mode === 'create' && f.notOnCreate)) continue;
    // Never weaken the guards under test: a sample permission guards nothing.
    if (tab === permissions && (f.name === 'permissionAPI' || f.name === 'permissionMethod')) continue;
    if (mode === 'update' && f.createOnly) continue;
    body[f.name] = sampleValue(f);
  }
  return body;
}

/** A fresh row for a PUT or DELETE to act on. */
async function aRow(tab: ResourceDeclaration): Promise<string> {
  if (tab === sessions) return (await loginAs(t.app, { accessLevel: 1 })).sessionGuid;
  const res = await t.app.inject({ method: 'POST', url: tab.api, headers: holder.headers, payload: sampleBody(tab, 'create') });
  if (res.statusCode !== 201) throw new Error(`${tab.title}: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, string>>()[tab.idField]!;
}

interface Route {
  name: string;
  method: Method;
  /** Answers the url and body of one call, making the row it acts on when the caller may. */
  request(may: boolean): Promise<{ url: string; payload?: unknown }>;
  success: number;
}

const routes: Route[] = [];
for (const tab of resources) {
  routes.push({ name: permissionName(tab, 'List'), method: 'GET', success: 200, request: async () => ({ url: tab.api }) });
  if (tab.operations.create) {
    routes.push({
      name: permissionName(tab, 'Create'),
      method: 'POST',
      success: 201,
      request: async () => ({ url: tab.api, payload: sampleBody(tab, 'create') }),
    });
  }
  if (tab.operations.update) {
    routes.push({
      name: permissionName(tab, 'Update'),
      method: 'PUT',
      success: 200,
      request: async (may) => ({ url: `${tab.api}${may ? await aRow(tab) : crypto.randomUUID()}`, payload: sampleBody(tab, 'update') }),
    });
  }
  if (tab.operations.delete) {
    routes.push({
      name: permissionName(tab, 'Delete'),
      method: 'DELETE',
      success: 200,
      request: async (may) => ({ url: `${tab.api}${may ? await aRow(tab) : crypto.randomUUID()}` }),
    });
  }
}
routes.push(
  { name: 'Pass Customization Options', method: 'GET', success: 200, request: async () => ({ url: PASS_CUSTOMIZATION_OPTIONS_API }) },
  { name: 'Team Member Options', method: 'GET', success: 200, request: async () => ({ url: TEAM_MEMBER_OPTIONS_API }) },
  { name: 'Loyalty Tier Options', method: 'GET', success: 200, request: async () => ({ url: LOYALTY_TIER_OPTIONS_API }) },
  { name: 'Deliveries List (counts)', method: 'GET', success: 200, request: async () => ({ url: `${deliveries.api}counts` }) },
  {
    name: 'Deliveries List (certificate)',
    method: 'GET',
    success: 200,
    request: async () => ({ url: `${deliveries.api}certificate` }),
  },
  {
    name: DELIVERY_RETRY_PERMISSION,
    method: 'POST',
    success: 202,
    request: async (may) => ({ url: `${DELIVERY_RETRY_API}${may ? await aDeadDelivery() : crypto.randomUUID()}` }),
  },
  {
    name: WRISTBAND_DEACTIVATE_PERMISSION,
    method: 'POST',
    success: 200,
    request: async (may) => ({ url: `${WRISTBAND_DEACTIVATE_API}${may ? await anActiveWristband() : crypto.randomUUID()}` }),
  },
  { name: DASHBOARD_VIEW.name, method: 'GET', success: 200, request: async () => ({ url: DASHBOARD_API }) },
);

// The Loyalty tab's calls (staff-loyalty.routes.ts): Loyalty Manage, Remove Account, Remove Order, Redeem.
const loyaltyApi = STAFF_LOYALTY_API;
routes.push(
  ...(
    [
      ['verify', 'POST', async () => ({ url: `${loyaltyApi}verify`, payload: { email: (await aMember()).email } })],
      [
        'create',
        'POST',
        async () => ({ url: `${loyaltyApi}create`, payload: { email: `matrix${++seq}@example.com`, firstName: 'M', lastName: 'X' } }),
      ],
      ['orders', 'POST', async () => ({ url: loyaltyApi, payload: { email: (await aMember()).email } })],
      ['search', 'POST', async () => ({ url: `${loyaltyApi}search/`, payload: { searchTerm: 'matrix' } })],
      ['account', 'GET', async () => ({ url: `${loyaltyApi}account/${(await aMember()).id}/` })],
      ['season pass', 'GET', async () => ({ url: `${loyaltyApi}pass/${(await aMember(true)).id}/` })],
      [
        'add season pass',
        'POST',
        async () => ({ url: `${loyaltyApi}pass/`, payload: { userID: (await aMember()).id, seasonPassID: aSeasonPassId() } }),
      ],
      ['remove season pass', 'DELETE', async () => ({ url: `${loyaltyApi}pass/${(await aMember(true)).id}` })],
      ['tickets', 'POST', async () => ({ url: `${loyaltyApi}tickets/`, payload: await aClaim('ticket') })],
      ['purchase', 'POST', async () => ({ url: `${loyaltyApi}purchase/`, payload: await aClaim('check') })],
      ['hotels', 'POST', async () => ({ url: `${loyaltyApi}hotels/`, payload: await aClaim('hotel') })],
      [
        'adjust',
        'POST',
        async () => ({ url: `${loyaltyApi}adjust/`, payload: { userID: (await aMember()).id, points: 5, reason: 'matrix' } }),
      ],
      [
        'contact',
        'POST',
        async () => ({ url: `${loyaltyApi}contact/`, payload: { userID: (await aMember()).id, phone: '3105550100', zip: '90401' } }),
      ],
      ['pass link', 'POST', async () => ({ url: `${loyaltyApi}pass-link/`, payload: { userID: (await aMember()).id } })],
      ['redemptions', 'GET', async () => ({ url: `${loyaltyApi}redemptions/${(await aMember()).id}/` })],
      ['lots', 'GET', async () => ({ url: `${loyaltyApi}lots/${(await aMember()).id}/` })],
    ] as const
  ).map(([what, method, request]): Route => ({ name: `${LOYALTY.manage.name} (${what})`, method, success: 200, request })),
  {
    name: LOYALTY.removeAccount.name,
    method: 'DELETE',
    success: 200,
    request: async (may) => ({ url: `${loyaltyApi}${may ? (await aMember()).id : crypto.randomUUID()}` }),
  },
  {
    name: LOYALTY.removeOrder.name,
    method: 'DELETE',
    success: 200,
    request: async (may) => {
      if (!may) return { url: `${loyaltyApi}order/${crypto.randomUUID()}/70000001/7000000000000011` };
      const claim = await aClaim('ticket');
      const res = await t.app.inject({ method: 'POST', url: `${loyaltyApi}tickets/`, headers: holder.headers, payload: claim });
      if (res.statusCode !== 200) throw new Error(`claim: ${res.statusCode} ${res.body}`);
      const [order] = res.json<{ loyaltyOrders: { reference: string; sourceId: string }[] }>().loyaltyOrders;
      return { url: `${loyaltyApi}order/${claim.userID}/${order!.reference}/${order!.sourceId}` };
    },
  },
  {
    name: `${LOYALTY.redeem.name} (redeem)`,
    method: 'POST',
    success: 200,
    request: async () => ({ url: `${loyaltyApi}redemptions/`, payload: await aRedemptionRequest() }),
  },
  {
    name: `${LOYALTY.redeem.name} (reverse)`,
    method: 'POST',
    success: 200,
    request: async (may) => {
      if (!may)
        return { url: `${loyaltyApi}redemptions/reverse/`, payload: { userID: crypto.randomUUID(), redemptionId: crypto.randomUUID() } };
      const request = await aRedemptionRequest();
      const res = await t.app.inject({ method: 'POST', url: `${loyaltyApi}redemptions/`, headers: holder.headers, payload: request });
      if (res.statusCode !== 200) throw new Error(`redeem: ${res.statusCode} ${res.body}`);
      return { url: `${loyaltyApi}redemptions/reverse/`, payload: { userID: request.userID, redemptionId: res.json().redemptionId } };
    },
  },
);

/** A redemption body: a member who earned 12 points through a staff claim, and a reward of 1 point. */
async function aRedemptionRequest() {
  const claim = await aClaim('ticket');
  const res = await t.app.inject({ method: 'POST', url: `${loyaltyApi}tickets/`, headers: holder.headers, payload: claim });
  if (res.statusCode !== 200) throw new Error(`claim: ${res.statusCode} ${res.body}`);
  const [reward] = await t.database.db
    .insert(schema.loyaltyRewards)
    .values({ name: `Matrix ${++seq}`, pointsCost: 1 })
    .returning();
  return { userID: claim.userID, rewardId: reward!.id, idempotencyKey: crypto.randomUUID() };
}

const aSeasonPassId = () => `24${String(++seq).padStart(16, '0')}`;

/** A loyalty account made by the holder (with a season pass when asked). */
async function aMember(withSeasonPass = false): Promise<{ id: string; email: string }> {
  const email = `member${++seq}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: `${loyaltyApi}create`,
    headers: holder.headers,
    payload: { email, firstName: 'M', lastName: 'X' },
  });
  if (res.statusCode !== 200) throw new Error(`create: ${res.statusCode} ${res.body}`);
  if (withSeasonPass) {
    const pass = await t.app.inject({
      method: 'POST',
      url: `${loyaltyApi}pass/`,
      headers: holder.headers,
      payload: { userID: res.body, seasonPassID: aSeasonPassId() },
    });
    if (pass.statusCode !== 200) throw new Error(`pass: ${pass.statusCode} ${pass.body}`);
  }
  return { id: res.body, email };
}

/** A claim body for a new member and a new purchase of that kind. */
async function aClaim(kind: 'ticket' | 'check' | 'hotel') {
  const { id, email } = await aMember();
  const n = ++seq;
  const recent = new Date(Date.now() - 86_400_000).toISOString();
  if (kind === 'ticket') {
    const orderId = String(62_000_000 + n);
    await putOrder(t.app, orderId, anOrder([{ barcode: `62${String(n).padStart(14, '0')}`, price: 12 }], { orderDate: recent }));
    return { orderId, email, userID: id };
  }
  const feed = kind === 'check' ? `checks/MX${n}` : `reservations/MR${n}`;
  const body =
    kind === 'check'
      ? { checkNumber: `M${n}`, orderDate: recent, terminalId: 'FB-01', total: 10 }
      : { arrival: recent.slice(0, 10), departure: recent.slice(0, 10), total: 100 };
  const put = await t.app.inject({ method: 'PUT', url: `/api/integrations/${feed}`, headers: integrationAuth, payload: body });
  if (put.statusCode !== 201) throw new Error(`${feed}: ${put.statusCode} ${put.body}`);
  return kind === 'check' ? { checkNumber: `M${n}`, email, userID: id } : { reservationNumber: `MR${n}`, email, userID: id };
}

/** A wristband bound to a new ticket, for a Deactivate to act on. */
async function anActiveWristband(): Promise<string> {
  const n = ++seq;
  const orderId = String(60_000_000 + n);
  const barcode = `6${String(n).padStart(15, '0')}`;
  await putOrder(t.app, orderId, anOrder([{ barcode }]));
  const [row] = await t.database.db
    .insert(schema.wristbandBindings)
    .values({ wristbandBarcode: `MATRIX${String(n).padStart(10, '0')}`, barcode, orderId })
    .returning();
  return row!.id;
}

/** A dead mail delivery (its outbox row exists) for a Retry to act on. */
async function aDeadDelivery(): Promise<string> {
  const [message] = await t.database.db.insert(schema.outbox).values({ to: 'team@example.com', subject: 'Matrix', text: 'x' }).returning();
  const [row] = await t.database.db
    .insert(schema.deliveries)
    .values({ target: 'mail', recipient: 't…@example.com', state: 'dead', attempts: 1, queue: 'mail', payload: { outboxId: message!.id } })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  holder = await loginAs(t.app, { accessLevel: 1000 });
  // Below every seeded permission (the lowest is 1).
  lacking = await loginAs(t.app, { accessLevel: 0 });
  expired = await loginAs(t.app, { accessLevel: 1000 });
  await t.database.db
    .update(schema.staffSessions)
    .set({ endTimestamp: new Date(Date.now() - 1000) })
    .where(eq(schema.staffSessions.guid, expired.sessionGuid));
  const res = await t.app.inject({
    method: 'POST',
    url: passCustomizations.api,
    headers: holder.headers,
    payload: {
      passCustomizationName: MATRIX_CUSTOMIZATION,
      passCustomizationBackgroundColor: '000000',
      passCustomizationColor: 'ffffff',
      passCustomizationInstructions: 'x',
    },
  });
  expect(res.statusCode).toBe(201);
  await t.database.db.insert(schema.loyaltyTiers).values({ name: MATRIX_CUSTOMIZATION, pointsToReach: 1_000_000 });
});
afterAll(() => t.close());

it('covers every tab operation, option list, the Deliveries counts, certificate and Retry, Wristbands Deactivate, the Dashboard and the 20 loyalty calls (101 routes)', () => {
  expect(routes).toHaveLength(101);
});

describe.each(routes)('$method $name', (route) => {
  const send = async (headers: Record<string, string>, may = false) => {
    const { url, payload } = await route.request(may);
    return t.app.inject({ method: route.method, url, headers, ...(payload !== undefined && { payload: payload as object }) });
  };

  it('answers 401 without a token', async () => {
    const res = await send({});
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Session Expired, Logging Out.');
  });

  it('answers 401 with an expired token', async () => {
    expect((await send(expired.headers)).statusCode).toBe(401);
  });

  it('answers 403 to a member lacking the permission', async () => {
    const res = await send(lacking.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You do not have permission to do that.');
  });

  it(`answers ${route.success} to a member holding it`, async () => {
    const res = await send(holder.headers, true);
    expect(res.statusCode, res.body).toBe(route.success);
  });
});

describe('a permission raised above a member', () => {
  it('applies on their next request, and lowering it back restores access', async () => {
    const member = await loginAs(t.app, { accessLevel: 10, permissions: ['Wallet Exceptions List'] });
    expect((await t.app.inject({ method: 'GET', url: walletExceptions.api, headers: member.headers })).statusCode).toBe(200);

    const found = await t.app.inject({
      method: 'GET',
      url: `${permissions.api}?search=Wallet%20Exceptions%20List`,
      headers: holder.headers,
    });
    const permission = found.json<Record<string, unknown>[]>().find((p) => p.permissionName === 'Wallet Exceptions List')!;
    const raise = await t.app.inject({
      method: 'PUT',
      url: `${permissions.api}${permission.permissionGUID as string}`,
      headers: holder.headers,
      payload: { permissionMinimumAccessLevel: 11 },
    });
    expect(raise.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: walletExceptions.api, headers: member.headers })).statusCode).toBe(403);

    await t.app.inject({
      method: 'PUT',
      url: `${permissions.api}${permission.permissionGUID as string}`,
      headers: holder.headers,
      payload: { permissionMinimumAccessLevel: 10 },
    });
    expect((await t.app.inject({ method: 'GET', url: walletExceptions.api, headers: member.headers })).statusCode).toBe(200);
    await t.app.inject({
      method: 'PUT',
      url: `${permissions.api}${permission.permissionGUID as string}`,
      headers: holder.headers,
      payload: { permissionActive: false },
    });
    expect((await t.app.inject({ method: 'GET', url: walletExceptions.api, headers: member.headers })).statusCode).toBe(403);
  });
});

it('answers 401/403 before validating the body: a caller without access learns nothing about the fields', async () => {
  const bad = { url: passCustomizations.api, method: 'POST' as const, payload: { nonsense: true } };
  expect((await t.app.inject({ ...bad, headers: {} })).statusCode).toBe(401);
  expect((await t.app.inject({ ...bad, headers: lacking.headers })).statusCode).toBe(403);
  expect((await t.app.inject({ ...bad, headers: holder.headers })).statusCode).toBe(400);
});
