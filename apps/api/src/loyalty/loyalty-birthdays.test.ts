// Birthday gifts: a member's birthday given on the loyalty page or by staff (refused when it is
// no real day), the best birthday campaign's points once a year on that day in the park, however
// many runs and workers meet it; Feb 29 on Feb 28 in other years; the budget cut; the job
// scheduled every 15 minutes and run at start; the gift on the statement and in the Loyalty tab.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loyaltyAccounts, loyaltyBirthdayGifts, loyaltyCampaigns, loyaltyLedger } from '@boardwalk/db/schema';
import { LOYALTY_STATEMENT_TOKEN } from '@boardwalk/contract/loyalty-statement';
import { proofOf } from '../../test-support/loyalty.fixtures.ts';
import { loginAs, type StaffLogin } from '../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { insertAccount } from './loyalty.repo.ts';
import { birthdaysOn, giveBirthdayGifts } from './loyalty-birthdays.service.ts';
import { loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

const TZ = 'America/Los_Angeles';
let t: TestApp;
/** A second instance on the same database: a second worker. */
let second: TestApp;
let core: LoyaltyCore;
let admin: StaffLogin;

beforeAll(async () => {
  const env = { DELIVERY_WORKERS: 'false', PARK_TIMEZONE: TZ };
  t = await createTestApp({ env });
  second = await createTestApp({ database: t.database, env });
  core = loyaltyCoreOf(t.app);
  admin = await loginAs(t.app, { accessLevel: 100 });
});
afterAll(async () => {
  await second.close();
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(loyaltyAccounts);
  await t.database.db.delete(loyaltyCampaigns);
});

/** A birthday campaign through the tab, over 2026 to 2030 unless told. */
async function birthdayCampaign(fields: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/loyalty-campaigns/',
    headers: admin.headers,
    payload: {
      loyaltyCampaignName: `Birthday ${crypto.randomUUID().slice(0, 6)}`,
      loyaltyCampaignKind: 'birthday',
      loyaltyCampaignBonusPoints: 100,
      loyaltyCampaignFrom: '2026-01-01',
      loyaltyCampaignTo: '2030-12-31',
      loyaltyCampaignActive: true,
      ...fields,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ loyaltyCampaignID: string; loyaltyCampaignName: string }>();
}

let serial = 0;
async function member(birthday: { month: number; day: number } | null, proven = true) {
  const n = ++serial;
  const email = `birthday${n}@example.com`;
  const id = (await insertAccount(t.database.db, {
    email,
    firstName: 'Bea',
    lastName: `Day ${n}`,
    createdBy: 'staff',
    createdAt: new Date(),
    birthday,
  }))!;
  if (!proven) await t.database.db.update(loyaltyAccounts).set({ emailProvenAt: null }).where(eq(loyaltyAccounts.id, id));
  return id;
}

const gifts = (accountId: string) =>
  t.database.db
    .select({ points: loyaltyLedger.points, kind: loyaltyLedger.kind, campaignId: loyaltyLedger.campaignId })
    .from(loyaltyLedger)
    .where(eq(loyaltyLedger.accountId, accountId));

/** That hour of that date in the park (8 hours behind UTC in winter, 7 in summer: 10 AM is 5 or 6 PM UTC, 8 PM the next day's 3 or 4 AM). */
const inPark = (date: string, hour = 10) => new Date(Date.parse(`${date}T00:00:00Z`) + (hour + 8) * 3_600_000);

describe('which birthdays a day celebrates', () => {
  it('celebrates Feb 29 on Feb 28 in a year without one, and on Feb 29 in a leap year', () => {
    expect(birthdaysOn('2027-02-28')).toEqual({ month: 2, days: [28, 29] });
    expect(birthdaysOn('2028-02-28')).toEqual({ month: 2, days: [28] });
    expect(birthdaysOn('2028-02-29')).toEqual({ month: 2, days: [29] });
    expect(birthdaysOn('2100-02-28')).toEqual({ month: 2, days: [28, 29] });
    expect(birthdaysOn('2026-12-05')).toEqual({ month: 12, days: [5] });
  });
});

describe('the gifts', () => {
  it('gives the best birthday campaign once a year on the day in the park, to proven members born that day only', async () => {
    const small = await birthdayCampaign({ loyaltyCampaignName: 'Birthday Treat', loyaltyCampaignBonusPoints: 50 });
    const best = await birthdayCampaign({ loyaltyCampaignName: 'Birthday Feast', loyaltyCampaignBonusPoints: 250 });
    void small;
    const born = await member({ month: 12, day: 5 });
    const other = await member({ month: 12, day: 6 });
    const none = await member(null);
    const unproven = await member({ month: 12, day: 5 }, false);
    // 11:30 PM on Dec 4 in the park (7:30 AM Dec 5 in UTC): not yet.
    expect(await giveBirthdayGifts(core, new Date('2026-12-05T07:30:00Z'))).toBe(0);
    // Just after midnight in the park.
    expect(await giveBirthdayGifts(core, new Date('2026-12-05T08:05:00Z'))).toBe(1);
    expect(await gifts(born)).toEqual([{ points: 250, kind: 'bonus', campaignId: best.loyaltyCampaignID }]);
    for (const id of [other, none, unproven]) expect(await gifts(id)).toEqual([]);
    // Run again that day, and the next year.
    expect(await giveBirthdayGifts(core, inPark('2026-12-05', 20))).toBe(0);
    expect(await giveBirthdayGifts(core, inPark('2027-12-05'))).toBe(1);
    expect((await gifts(born)).map((g) => g.points)).toEqual([250, 250]);
  });

  it('gives one gift when two workers run at once, and when the job runs twice', async () => {
    await birthdayCampaign();
    const members = [];
    for (let i = 0; i < 20; i++) members.push(await member({ month: 7, day: 4 }));
    const now = inPark('2027-07-04');
    const given = await Promise.all([giveBirthdayGifts(core, now), giveBirthdayGifts(loyaltyCoreOf(second.app), now)]);
    expect(given[0] + given[1]).toBe(20);
    expect(await giveBirthdayGifts(core, now)).toBe(0);
    for (const id of members) expect(await gifts(id)).toHaveLength(1);
  });

  it('celebrates Feb 29 on Feb 28 in 2027 and on Feb 29 in 2028', async () => {
    await birthdayCampaign();
    const leap = await member({ month: 2, day: 29 });
    const eve = await member({ month: 2, day: 28 });
    expect(await giveBirthdayGifts(core, inPark('2027-02-28'))).toBe(2);
    expect(await giveBirthdayGifts(core, inPark('2028-02-28'))).toBe(1);
    expect(await gifts(leap)).toHaveLength(1);
    expect(await giveBirthdayGifts(core, inPark('2028-02-29'))).toBe(1);
    expect(await gifts(leap)).toHaveLength(2);
    expect(await gifts(eve)).toHaveLength(2);
  });

  it('cuts gifts to the budget and gives nothing past it, nor outside the campaign’s dates', async () => {
    const campaign = await birthdayCampaign({
      loyaltyCampaignBudget: 150,
      loyaltyCampaignFrom: '2027-03-01',
      loyaltyCampaignTo: '2027-03-31',
    });
    const members = [await member({ month: 3, day: 10 }), await member({ month: 3, day: 10 }), await member({ month: 3, day: 10 })];
    expect(await giveBirthdayGifts(core, inPark('2026-03-10'))).toBe(0);
    expect(await giveBirthdayGifts(core, inPark('2027-03-10'))).toBe(2);
    const points = await Promise.all(members.map(async (id) => (await gifts(id)).reduce((sum, g) => sum + g.points, 0)));
    expect(points.sort((a, b) => b - a)).toEqual([100, 50, 0]);
    const rows = await t.database.db
      .select()
      .from(loyaltyBirthdayGifts)
      .where(eq(loyaltyBirthdayGifts.campaignId, campaign.loyaltyCampaignID));
    expect(rows.map((r) => r.points).sort((a, b) => b - a)).toEqual([100, 50, 0]);
  });

  it('shows the gift on the statement, in the guest’s language, and in the Loyalty tab', async () => {
    await birthdayCampaign({ loyaltyCampaignName: 'Birthday Treat', loyaltyCampaignNameEs: 'Regalo de Cumpleaños' });
    const id = await member({ month: 9, day: 1 });
    await giveBirthdayGifts(core, inPark('2027-09-01'));
    const token = t.app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, id, LOYALTY_STATEMENT_TOKEN.ttlSeconds);
    const read = (language: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/loyalty/statement',
        headers: { authorization: `Bearer ${token}`, 'accept-language': language },
      });
    expect((await read('en')).json().ledger.entries[0]).toMatchObject({
      kind: 'bonus',
      points: 100,
      campaign: 'Birthday Treat',
      purchase: null,
    });
    expect((await read('es')).json().ledger.entries[0]).toMatchObject({ campaign: 'Regalo de Cumpleaños' });
    const staff = await t.app.inject({ method: 'GET', url: `/api/admin/loyalty/account/${id}/`, headers: admin.headers });
    expect(staff.json()).toMatchObject({ birthday: { month: 9, day: 1 }, balance: 100 });
    expect(staff.json().ledger[0]).toMatchObject({ kind: 'bonus', points: 100, reason: 'Birthday Treat' });
  });
});

describe('giving a birthday', () => {
  it('takes it when a guest joins, and refuses a day the month does not have with a message, creating nothing', async () => {
    const join = (email: string, birthday: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/loyalty/create',
        payload: { email, firstName: 'Gus', lastName: 'Join', proof: proofOf(t, email), birthday },
        remoteAddress: `10.88.0.${++serial % 250}`,
      });
    const refused = await join('feb30@example.com', { month: 2, day: 30 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('That month has fewer days');
    expect(await t.database.db.select().from(loyaltyAccounts)).toHaveLength(0);
    expect((await join('leap@example.com', { month: 2, day: 29 })).statusCode).toBe(200);
    expect((await join('none@example.com', undefined)).statusCode).toBe(200);
    const rows = await t.database.db.select().from(loyaltyAccounts).orderBy(loyaltyAccounts.email);
    expect(rows.map((r) => [r.email, r.birthMonth, r.birthDay])).toEqual([
      ['leap@example.com', 2, 29],
      ['none@example.com', null, null],
    ]);
  });

  it('lets staff set, keep and clear it with the contact details, audited', async () => {
    const id = await member(null);
    const contact = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/loyalty/contact/',
        headers: admin.headers,
        payload: { userID: id, phone: '', zip: '', ...body },
      });
    expect((await contact({ birthday: { month: 4, day: 31 } })).statusCode).toBe(400);
    expect((await contact({ birthday: { month: 4, day: 30 } })).statusCode).toBe(200);
    expect((await contact({})).statusCode).toBe(200);
    const [kept] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
    expect([kept!.birthMonth, kept!.birthDay]).toEqual([4, 30]);
    expect((await contact({ birthday: null })).statusCode).toBe(200);
    const [cleared] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
    expect([cleared!.birthMonth, cleared!.birthDay]).toEqual([null, null]);
  });
});

describe('the birthday job', () => {
  it('is scheduled every 15 minutes and runs at start', async () => {
    // Today in the park: a member born today gets the gift from the job a worker runs at start.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
    await birthdayCampaign({ loyaltyCampaignFrom: today, loyaltyCampaignTo: today });
    const id = await member({ month: Number(today.slice(5, 7)), day: Number(today.slice(8, 10)) });
    const worker = await createTestApp({ database: t.database, env: { DELIVERY_WORKERS: 'true', PARK_TIMEZONE: TZ } });
    try {
      await expect.poll(async () => (await gifts(id)).length, { timeout: 20_000 }).toBe(1);
      const { rows } = await t.database.executeSql(`select cron from pgboss.schedule where name = 'loyalty-birthdays'`, []);
      expect(rows).toEqual([{ cron: '*/15 * * * *' }]);
    } finally {
      await worker.close();
    }
  });
});
