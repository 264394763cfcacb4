// The Loyalty tab's calls: lookups, search, create, season pass, adds on the member's behalf,
// remove order, remove account, points adjustments, the ledger, the audit log and the pass link
// mail. The permission matrix (resources-permissions.test.ts) covers 401/401/403/2xx of every
// route.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MODE_ALLOWED_CHANGES, PASS_LINK_TTL_SECONDS, type StaffAccount } from '@boardwalk/contract/staff-loyalty';
import { auditLog, loyaltyAccounts, loyaltyLedger, outbox } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';

let t: TestApp;
let staff: StaffLogin;
const logLines: string[] = [];
const api = '/api/admin/loyalty/';

const now = Date.now();
const daysAgo = (days: number) => new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
let seq = 0;
const uniqueEmail = (name = 'member') => `${name}.${++seq}@example.com`;

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: staff.headers, ...(payload && { payload }) });

async function newAccount(email = uniqueEmail(), firstName = 'Ana', lastName = 'Lopez') {
  const res = await call('POST', `${api}create`, { email, firstName, lastName });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.body, email };
}
const accountOf = async (id: string) => {
  const res = await call('GET', `${api}account/${id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StaffAccount>();
};
const auditOf = (recordId: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, 'loyalty'), eq(auditLog.recordId, recordId)))
    .orderBy(auditLog.id);
const putCheck = (checkId: string, body: object) =>
  t.app.inject({ method: 'PUT', url: `/api/integrations/checks/${checkId}`, headers: integrationAuth, payload: body });
const putReservation = (number: string, body: object) =>
  t.app.inject({ method: 'PUT', url: `/api/integrations/reservations/${number}`, headers: integrationAuth, payload: body });

beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void logLines.push(line) } });
  staff = await loginAs(t.app, { accessLevel: 100 });
  await putOrder(
    t.app,
    '71000001',
    anOrder(
      [
        { barcode: '7100000000000011', price: 59.99 },
        { barcode: '7100000000000028', price: 20.5, product: 'Parking' },
      ],
      { orderDate: daysAgo(3) },
    ),
  );
  for (let n = 2; n <= 9; n++) {
    await putOrder(t.app, `7100000${n}`, anOrder([{ barcode: `71000000000000${n}9`, price: 10 * n }], { orderDate: daysAgo(2) }));
  }
  for (const [id, body] of Object.entries({
    'SFB01-1': { checkNumber: '6012', orderDate: daysAgo(1), terminalId: 'FB-01', total: 23.5 },
    'SFB02-1': { checkNumber: '6012', orderDate: daysAgo(2), terminalId: 'FB-02', total: 8.25 },
  })) {
    expect((await putCheck(id, body)).statusCode).toBe(201);
  }
  const stay = { arrival: daysAgo(5).slice(0, 10), departure: daysAgo(3).slice(0, 10), total: 412.4 };
  expect((await putReservation('SH1001', stay)).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('verify and create', () => {
  it('verifies by email (text user id; 404 none) and creates a staff account (409 when the email has one), audited', async () => {
    const email = uniqueEmail('mia');
    expect((await call('POST', `${api}verify`, { email })).statusCode).toBe(404);
    const { id } = await newAccount(email, 'Mia', 'Chen');
    const verified = await call('POST', `${api}verify`, { email: email.toUpperCase() });
    expect(verified.statusCode).toBe(200);
    expect(verified.headers['content-type']).toMatch(/^text\/plain/);
    expect(verified.body).toBe(id);
    const again = await call('POST', `${api}create`, { email, firstName: 'Mia', lastName: 'Chen' });
    expect(again.statusCode).toBe(409);
    const [row] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
    expect(row!.createdBy).toBe('staff');
    // The staff member proved the email (no code): the audit entry of the creation says so, and who.
    expect(row).toMatchObject({ emailProvenBy: 'staff', emailProvenAt: expect.any(Date) });
    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({ action: 'create', username: staff.username, teamMemberGuid: staff.teamMemberGuid });
    expect(entry!.after).toMatchObject({ userID: id, email, firstName: 'Mia', lastName: 'Chen', emailProvenBy: 'staff' });
  });

  it('refuses a bad email with 400 and creates nothing', async () => {
    const res = await call('POST', `${api}create`, { email: 'not-an-email', firstName: 'A', lastName: 'B' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
  });
});

describe('adding purchases on the member behalf (admin mode)', () => {
  it('adds any number of purchases to any account, each earning entries caused by the staff member', async () => {
    const { id, email } = await newAccount();
    const tickets = await call('POST', `${api}tickets/`, { orderId: '71000001', email, userID: id });
    expect(tickets.statusCode, tickets.body).toBe(200);
    const result = tickets.json();
    expect(result).toMatchObject({ pointsEarned: 79, balance: 79, allowedChanges: ADMIN_MODE_ALLOWED_CHANGES });
    expect(result).not.toHaveProperty('walletToken');
    const hotel = await call('POST', `${api}hotels/`, { reservationNumber: 'SH1001', email, userID: id });
    expect(hotel.statusCode, hotel.body).toBe(200);
    expect(hotel.json().pointsEarned).toBe(824);

    const entries = await t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, id));
    expect(entries).toHaveLength(3);
    for (const e of entries) expect(e).toMatchObject({ kind: 'earn', causedBy: 'staff', staffMember: staff.username });

    const orders = await call('POST', api, { email });
    expect(orders.statusCode).toBe(200);
    expect(orders.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: '71000001', barcode: '7100000000000011', type: 'ticket', points: 59 }),
        expect.objectContaining({ id: '71000001', barcode: '7100000000000028', product: 'Parking', points: 20 }),
        expect.objectContaining({ id: 'SH1001', barcode: 'SH1001', type: 'hotel' }),
      ]),
    );
    const audits = (await auditOf(id)).filter((a) => a.action === 'claim');
    expect(audits).toHaveLength(2);
    expect(JSON.stringify(audits)).not.toMatch(/walletToken|eyJ/);
  });

  it('answers the candidate checks (IN_LOYALTY_ORDERS for this account) and adds the one picked', async () => {
    const { id, email } = await newAccount();
    const first = await call('POST', `${api}purchase/`, { checkNumber: '6012', email, userID: id });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toHaveLength(2);
    expect(first.json().every((c: { IN_LOYALTY_ORDERS: boolean }) => !c.IN_LOYALTY_ORDERS)).toBe(true);
    const picked = await call('POST', `${api}purchase/`, { checkNumber: '6012', checkID: 'SFB02-1', email, userID: id });
    expect(picked.statusCode, picked.body).toBe(200);
    const again = await call('POST', `${api}purchase/`, { checkNumber: '6012', email, userID: id });
    const inAccount = again.json().find((c: { checkID: string }) => c.checkID === 'SFB02-1');
    expect(inAccount.IN_LOYALTY_ORDERS).toBe(true);
  });

  it('refuses with the reason: unknown purchase, already claimed, wrong email', async () => {
    const { id, email } = await newAccount();
    const unknown = await call('POST', `${api}tickets/`, { orderId: '79999999', email, userID: id });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('We could not find that order.');
    expect((await call('POST', `${api}tickets/`, { orderId: '71000002', email, userID: id })).statusCode).toBe(200);
    const claimed = await call('POST', `${api}tickets/`, { orderId: '71000002', email, userID: id });
    expect(claimed.statusCode).toBe(400);
    expect(claimed.json().message).toBe('This purchase has already been claimed.');
    const wrongEmail = await call('POST', `${api}tickets/`, { orderId: '71000003', email: 'other@example.com', userID: id });
    expect(wrongEmail.statusCode).toBe(400);
  });
});

describe('remove order', () => {
  it('writes a reversal entry with the reason and staff member, and the purchase can be claimed again', async () => {
    const a = await newAccount();
    expect((await call('POST', `${api}tickets/`, { orderId: '71000004', email: a.email, userID: a.id })).statusCode).toBe(200);
    const removed = await call('DELETE', `${api}order/${a.id}/71000004/7100000000000049`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('POST', api, { email: a.email })).json()).toEqual([]);
    const account = await accountOf(a.id);
    expect(account.balance).toBe(0);
    expect(account.ledger[0]).toMatchObject({
      kind: 'reversal',
      points: -40,
      reason: 'removed by staff',
      causedBy: 'staff',
      staffMember: staff.username,
      reference: '71000004',
    });
    // Claimable again, by another account too.
    const b = await newAccount();
    const reclaimed = await call('POST', `${api}tickets/`, { orderId: '71000004', email: b.email, userID: b.id });
    expect(reclaimed.statusCode, reclaimed.body).toBe(200);
    // A second removal of the same order finds nothing standing.
    expect((await call('DELETE', `${api}order/${a.id}/71000004/7100000000000049`)).statusCode).toBe(404);
    const [entry] = (await auditOf(a.id)).filter((e) => e.action === 'remove-order');
    expect(entry!.before).toMatchObject({ id: '71000004', barcode: '7100000000000049', points: 40 });
    expect(entry!.after).toMatchObject({ reversedPoints: -40, balance: 0 });
  });
});

describe('points', () => {
  it('adjusts with a required reason; the ledger after adds, removals and adjustments sums to the balance', async () => {
    const { id, email } = await newAccount();
    await call('POST', `${api}tickets/`, { orderId: '71000005', email, userID: id });
    await call('POST', `${api}tickets/`, { orderId: '71000006', email, userID: id });
    expect((await call('POST', `${api}adjust/`, { userID: id, points: 25, reason: 'Ride closure goodwill' })).json()).toEqual({
      balance: 135,
    });
    await call('DELETE', `${api}order/${id}/71000005/7100000000000059`);
    const noReason = await call('POST', `${api}adjust/`, { userID: id, points: 5, reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toMatch(/reason is required/);
    expect((await call('POST', `${api}adjust/`, { userID: id, points: 0, reason: 'x' })).statusCode).toBe(400);
    const tooMuch = await call('POST', `${api}adjust/`, { userID: id, points: -1000, reason: 'typo' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe('The balance is 85 points: a deduction cannot take it below zero.');
    expect((await call('POST', `${api}adjust/`, { userID: id, points: -10, reason: 'Duplicate goodwill' })).statusCode).toBe(200);

    const account = await accountOf(id);
    expect(account.balance).toBe(75);
    expect(account.ledger.reduce((sum, e) => sum + e.points, 0)).toBe(account.balance);
    expect(account.ledger.map((e) => [e.kind, e.points, e.reason])).toEqual([
      ['adjustment', -10, 'Duplicate goodwill'],
      ['reversal', -50, 'removed by staff'],
      ['adjustment', 25, 'Ride closure goodwill'],
      ['earn', 60, 'claimed'],
      ['earn', 50, 'claimed'],
    ]);
    const adjusts = (await auditOf(id)).filter((e) => e.action === 'adjust');
    expect(adjusts.map((e) => e.after)).toEqual([
      { balance: 135, points: 25, reason: 'Ride closure goodwill' },
      { balance: 75, points: -10, reason: 'Duplicate goodwill' },
    ]);
  });
});

describe('negative balances', () => {
  it('lets a removal leave the balance negative, shown as such; refuses a deduction below zero; always accepts a raise', async () => {
    const { id, email } = await newAccount();
    await call('POST', `${api}tickets/`, { orderId: '71000007', email, userID: id });
    expect((await call('POST', `${api}adjust/`, { userID: id, points: -60, reason: 'Redeemed at the till by hand' })).json()).toEqual({
      balance: 10,
    });
    expect((await call('DELETE', `${api}order/${id}/71000007/7100000000000079`)).statusCode).toBe(200);
    expect((await accountOf(id)).balance).toBe(-60);
    const deduction = await call('POST', `${api}adjust/`, { userID: id, points: -1, reason: 'typo' });
    expect(deduction.statusCode).toBe(400);
    expect(deduction.json().message).toBe('The balance is -60 points: a deduction cannot take it below zero.');
    const raise = await call('POST', `${api}adjust/`, { userID: id, points: 20, reason: 'Partial correction' });
    expect(raise.statusCode, raise.body).toBe(200);
    expect(raise.json()).toEqual({ balance: -40 });
    const account = await accountOf(id);
    expect(account.balance).toBe(-40);
    expect(account.ledger.reduce((sum, e) => sum + e.points, 0)).toBe(-40);
  });
});

describe('season pass', () => {
  it('is 404 until set, one per account and one account per id (409), and can be removed; all audited', async () => {
    const a = await newAccount();
    const b = await newAccount();
    expect((await call('GET', `${api}pass/${a.id}/`)).statusCode).toBe(404);
    expect((await call('POST', `${api}pass/`, { userID: a.id, seasonPassID: '25' + '0'.repeat(16) })).statusCode).toBe(400);
    expect((await call('POST', `${api}pass/`, { userID: a.id, seasonPassID: '24' + '0'.repeat(15) })).statusCode).toBe(400);
    const id = '24' + '1'.repeat(16);
    expect((await call('POST', `${api}pass/`, { userID: a.id, seasonPassID: id })).statusCode).toBe(200);
    const got = await call('GET', `${api}pass/${a.id}/`);
    expect(got.body).toBe(id);
    const taken = await call('POST', `${api}pass/`, { userID: b.id, seasonPassID: id });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('This season pass ID belongs to another loyalty account.');
    const second = await call('POST', `${api}pass/`, { userID: a.id, seasonPassID: '24' + '2'.repeat(16) });
    expect(second.statusCode).toBe(409);
    expect((await call('DELETE', `${api}pass/${a.id}`)).statusCode).toBe(200);
    expect((await call('GET', `${api}pass/${a.id}/`)).statusCode).toBe(404);
    expect((await call('DELETE', `${api}pass/${a.id}`)).statusCode).toBe(404);
    expect((await call('POST', `${api}pass/`, { userID: b.id, seasonPassID: id })).statusCode).toBe(200);
    const updates = (await auditOf(a.id)).filter((e) => e.action === 'update');
    expect(updates.map((e) => [e.before, e.after])).toEqual([
      [{ seasonPassID: null }, { seasonPassID: id }],
      [{ seasonPassID: id }, { seasonPassID: null }],
    ]);
  });
});

describe('search', () => {
  it('finds a member by email, name, phone, zip, member number, order id, barcode, check number and reservation number', async () => {
    const { id, email } = await newAccount(uniqueEmail('quintessa'), 'Quintessa', 'Okonkwo-Vale');
    expect((await call('POST', `${api}contact/`, { userID: id, phone: '(310) 555-0199', zip: '90401' })).statusCode).toBe(200);
    await call('POST', `${api}tickets/`, { orderId: '71000007', email, userID: id });
    await call('POST', `${api}purchase/`, { checkNumber: '6012', checkID: 'SFB01-1', email, userID: id });
    const { memberNumber } = await accountOf(id);
    const finds = async (term: string) => {
      const res = await call('POST', `${api}search/`, { searchTerm: term });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ userID: string }[]>().some((r) => r.userID === id);
    };
    for (const term of [
      'QUINTESSA',
      'ssa.',
      'okonkwo',
      'kwo-v',
      '3105550199',
      '0199',
      '90401',
      memberNumber,
      memberNumber.slice(-6),
      '71000007',
      '7100000000000079',
      '6012',
      'SFB01',
    ])
      expect(await finds(term), term).toBe(true);
    expect(await finds('zzzz-nobody')).toBe(false);
    const [row] = (await call('POST', `${api}search/`, { searchTerm: 'quintessa' })).json();
    expect(row).toEqual({
      STRACCOUNTID: memberNumber,
      STREMAIL: email,
      STRFIRSTNAME: 'Quintessa',
      STRLASTNAME: 'Okonkwo-Vale',
      STRPHONEDAY: '3105550199',
      STRZIP: '90401',
      userID: id,
    });
  });

  it('treats % and _ as themselves and needs 4 characters', async () => {
    expect((await call('POST', `${api}search/`, { searchTerm: 'abc' })).statusCode).toBe(400);
    const res = await call('POST', `${api}search/`, { searchTerm: '%%%%' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('uses the trigram indexes', async () => {
    await t.database.db.execute(sql`set enable_seqscan = off`);
    try {
      const plan = await t.database.db.execute(
        sql`explain select id from loyalty_accounts where lower(email || ' ' || first_name || ' ' || last_name || ' ' || coalesce(phone, '') || ' ' || coalesce(zip, '') || ' ' || member_number) like '%ntes%'`,
      );
      expect(JSON.stringify(plan)).toMatch(/loyalty_accounts_search_index/);
      const exact = await t.database.db.execute(sql`explain select account_id from loyalty_orders where lower(reference) = '71000001'`);
      expect(JSON.stringify(exact)).toMatch(/loyalty_orders_reference_lower_index/);
    } finally {
      await t.database.db.execute(sql`reset enable_seqscan`);
    }
  });

  it('refuses bad contact details with 400', async () => {
    const { id } = await newAccount();
    expect((await call('POST', `${api}contact/`, { userID: id, phone: '12', zip: '' })).statusCode).toBe(400);
    expect((await call('POST', `${api}contact/`, { userID: id, phone: '', zip: 'ABCDE' })).statusCode).toBe(400);
  });
});

describe('remove account', () => {
  it('leaves no personal data in the loyalty tables; the audit log keeps who removed what and when; the purchases are claimable again', async () => {
    const { id, email } = await newAccount(uniqueEmail('gone'), 'Gwendolyn', 'Removed');
    await call('POST', `${api}contact/`, { userID: id, phone: '3105550123', zip: '90210' });
    await call('POST', `${api}pass/`, { userID: id, seasonPassID: '24' + '9'.repeat(16) });
    await call('POST', `${api}tickets/`, { orderId: '71000008', email, userID: id });
    await call('POST', `${api}adjust/`, { userID: id, points: 5, reason: 'welcome' });
    expect((await call('POST', `${api}pass-link/`, { userID: id })).statusCode).toBe(200);
    const memberNumber = (await accountOf(id)).memberNumber;
    const res = await call('DELETE', `${api}${id}`);
    expect(res.statusCode, res.body).toBe(200);

    const leftovers = await t.database.db.execute(
      sql`select 'account' from loyalty_accounts where id = ${id} or email = ${email}
          union all select 'order' from loyalty_orders where account_id = ${id}
          union all select 'ledger' from loyalty_ledger where account_id = ${id}
          union all select 'pass' from wallet_passes where loyalty_account_id = ${id}`,
    );
    expect((leftovers as unknown as { rows: unknown[] }).rows ?? leftovers).toHaveLength(0);
    expect((await call('POST', `${api}verify`, { email })).statusCode).toBe(404);
    expect((await call('DELETE', `${api}${id}`)).statusCode).toBe(404);

    const [entry] = (await auditOf(id)).filter((e) => e.action === 'delete');
    expect(entry).toMatchObject({ username: staff.username, teamMemberGuid: staff.teamMemberGuid, after: null });
    expect(entry!.at).toBeInstanceOf(Date);
    expect(entry!.before).toEqual({ memberNumber, balance: 85, loyaltyOrders: [{ type: 'ticket', id: '71000008', points: 80 }] });
    // Every audit entry of the member (create, contact, mail, claim...) loses the personal data; the mails to them are gone.
    const history = await auditOf(id);
    expect(history.map((e) => e.action)).toEqual(['create', 'update', 'update', 'claim', 'adjust', 'mail', 'delete']);
    const kept = JSON.stringify(history.map((e) => [e.before, e.after]));
    for (const personal of [email, 'Gwendolyn', 'Removed', '3105550123', '90210']) expect(kept).not.toContain(personal);
    expect(kept).toContain(memberNumber);
    expect(await t.database.db.$count(outbox, sql`lower(${outbox.to}) = ${email.toLowerCase()}`)).toBe(0);

    const other = await newAccount();
    expect((await call('POST', `${api}tickets/`, { orderId: '71000008', email: other.email, userID: other.id })).statusCode).toBe(200);
  });

  it('changes nothing for an unknown id or a bad id', async () => {
    expect((await call('DELETE', `${api}${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${api}not-a-uuid`)).statusCode).toBe(400);
  });
});

describe('the pass link mail', () => {
  it('queues a mail whose link carries a token that verifies for the account; the token reaches neither the log nor the audit log', async () => {
    const { id, email } = await newAccount(uniqueEmail('linked'));
    const before = Date.now();
    const res = await call('POST', `${api}pass-link/`, { userID: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sentTo: email });

    const [mail] = await t.database.db.select().from(outbox).where(eq(outbox.to, email));
    // Sealed in the outbox: no link there to read.
    expect(mail!.text).not.toContain('/loyalty/pass');
    const link = /(http\S+\/loyalty\/pass\?lang=en#\S+)/.exec(t.app.mailer.readBody(mail!)!)![1]!;
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.app.config.publicUrl}/loyalty/pass`);
    const hash = new URLSearchParams(url.hash.slice(1));
    expect(hash.get('email')).toBe(email);
    const token = hash.get('token')!;
    expect(t.app.keys.verifyToken(LOYALTY_WALLET_TOKEN.purpose, token)).toEqual({ ok: true, subject: id });
    const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
    expect(exp * 1000).toBeLessThanOrEqual(before + PASS_LINK_TTL_SECONDS * 1000 + 2000);
    expect(PASS_LINK_TTL_SECONDS).toBeLessThanOrEqual(24 * 3600);

    expect(logLines.join('\n')).not.toContain(token);
    const audits = await auditOf(id);
    expect(JSON.stringify(audits)).not.toContain(token);
    expect(audits.at(-1)).toMatchObject({ action: 'mail', after: expect.objectContaining({ sentTo: email }) });
  });

  it('answers 404 for an unknown account and queues nothing', async () => {
    const count = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(outbox))[0]!.n;
    const n = await count();
    expect((await call('POST', `${api}pass-link/`, { userID: crypto.randomUUID() })).statusCode).toBe(404);
    expect(await count()).toBe(n);
  });
});
