// Points by lots: each lot expires on its own date (once, also with two workers at once; only
// what is left of it), spending takes the oldest expiry first, a claim's reversal takes from its
// own lot first and a negative balance is repaid by the next earn, the member hears 30 days
// before (once per lot), the tills see what expires soon, and the expiry job runs at start.
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loyaltyLedger, loyaltyLots, loyaltyRewards, loyaltyTiers, outbox } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { eventsOfType } from '../../test-support/events.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { claimTickets } from './loyalty-claims.service.ts';
import { expireLots, listMemberLots, publishCardsChangedByTime, remindExpiringLots } from './loyalty-expiry.service.ts';
import { insertAccount, isUniqueViolation } from './loyalty.repo.ts';
import { reverseInvalidClaims } from './loyalty-reversals.service.ts';
import { adjustPoints, loyaltyCoreOf, type LoyaltyCore } from './loyalty.service.ts';

const DAY = 24 * 60 * 60 * 1000;
const API = '/api/integrations/loyalty/';

let t: TestApp;
/** A second instance on the same database: a second worker. */
let second: TestApp;
let core: LoyaltyCore;
beforeAll(async () => {
  // The runs are started by the tests (the job's own run is tested with workers below); mail is queued as a job.
  const env = { DELIVERY_WORKERS: 'false', SMTP_URL: 'smtp://127.0.0.1:2525' };
  t = await createTestApp({ env });
  second = await createTestApp({ database: t.database, env });
  core = loyaltyCoreOf(t.app);
});
afterAll(async () => {
  await second.close();
  await t.close();
});

let seq = 0;
const remindersOf = ({ app }: TestApp) => ({ db: app.database.db, mailer: app.mailer, config: app.config });

async function aMember(firstName = 'Lot') {
  const n = ++seq;
  const email = `lots${n}@example.com`;
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName,
    lastName: `Member ${n}`,
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  const [row] = (await t.database.executeSql(`select member_number, card_token from loyalty_accounts where id = $1`, [accountId])).rows as {
    member_number: string;
    card_token: string;
  }[];
  return { accountId, email, memberNumber: row!.member_number, card: row!.card_token };
}

/** The member earns `points` (a ticket of that many USD), with the given core (its expiry setting); the claim's order and barcode. */
async function earn(member: { accountId: string; email: string }, points: number, by: LoyaltyCore = core) {
  const orderId = String(74000000 + ++seq);
  const barcode = `${orderId}00000001`;
  await putOrder(t.app, orderId, anOrder([{ barcode, price: points }], { orderDate: new Date().toISOString() }));
  await claimTickets(by, { orderId, email: member.email, accountId: member.accountId }, { kind: 'staff', username: 'gina' });
  const [lot] = await t.database.db
    .select()
    .from(loyaltyLots)
    .where(eq(loyaltyLots.accountId, member.accountId))
    .orderBy(loyaltyLots.id)
    .then((lots) => lots.slice(-1));
  return { orderId, barcode, lotId: lot!.id };
}

/** Moves a lot's dates: earned `earnedDaysAgo` days ago, expiring in `expiresInDays` days (null: never). */
async function dateLot(lotId: number, earnedDaysAgo: number, expiresInDays: number | null) {
  await t.database.db
    .update(loyaltyLots)
    .set({
      earnedAt: new Date(Date.now() - earnedDaysAgo * DAY),
      expiresAt: expiresInDays === null ? null : new Date(Date.now() + expiresInDays * DAY),
    })
    .where(eq(loyaltyLots.id, lotId));
}

const lotsOf = (accountId: string) =>
  t.database.db.select().from(loyaltyLots).where(eq(loyaltyLots.accountId, accountId)).orderBy(loyaltyLots.id);
const remainingOf = async (accountId: string) => (await lotsOf(accountId)).map((lot) => lot.remaining);
const ledgerOf = (accountId: string) =>
  t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId)).orderBy(loyaltyLedger.id);
const balanceOf = async (accountId: string) => (await ledgerOf(accountId)).reduce((sum, e) => sum + e.points, 0);

async function aReward(pointsCost: number) {
  const [row] = await t.database.db
    .insert(loyaltyRewards)
    .values({ name: `Lot reward ${++seq}`, pointsCost })
    .returning();
  return row!;
}
/** A redemption at the till with the member's card. */
async function redeem(card: string, pointsCost: number) {
  const reward = await aReward(pointsCost);
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}redemptions`,
    headers: integrationAuth,
    payload: { card, rewardId: reward.id, idempotencyKey: `lots-${++seq}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { redemptionId: string };
}
const reverse = (redemptionId: string) =>
  t.app.inject({ method: 'POST', url: `${API}redemptions/${redemptionId}/reverse`, headers: integrationAuth });
async function refund(accountId: string, claim: { orderId: string; barcode: string }, price: number) {
  await putOrder(
    t.app,
    claim.orderId,
    anOrder([{ barcode: claim.barcode, price, refunded: true }], { orderDate: new Date().toISOString() }),
  );
  await reverseInvalidClaims(core, 'ticket', claim.barcode, null);
}

describe('a lot', () => {
  it('expires LOYALTY_POINTS_EXPIRE_MONTHS after it was earned; with 0, never', async () => {
    const member = await aMember();
    const { lotId } = await earn(member, 40);
    const [lot] = await lotsOf(member.accountId);
    expect(lot).toMatchObject({ id: lotId, points: 40, repaid: 0, remaining: 40 });
    const expected = new Date(lot!.earnedAt);
    expected.setUTCMonth(expected.getUTCMonth() + 12);
    expect(Math.abs(lot!.expiresAt!.getTime() - expected.getTime())).toBeLessThan(3 * DAY);

    const never = await createTestApp({ database: t.database, env: { DELIVERY_WORKERS: 'false', LOYALTY_POINTS_EXPIRE_MONTHS: '0' } });
    try {
      const forever = await aMember();
      await earn(forever, 25, loyaltyCoreOf(never.app));
      expect((await lotsOf(forever.accountId))[0]).toMatchObject({ remaining: 25, expiresAt: null });
      // Even a hundred years on, nothing of it expires.
      await expireLots(core, new Date(Date.now() + 100 * 365 * DAY));
      expect(await balanceOf(forever.accountId)).toBe(25);
      expect(await remainingOf(forever.accountId)).toEqual([25]);
    } finally {
      await never.close();
    }
  });
});

describe('expiry', () => {
  it('expires lots earned 13 months ago once, even with two workers at the same moment, and only their remainder', async () => {
    const member = await aMember();
    const old = await earn(member, 100);
    await earn(member, 50);
    await dateLot(old.lotId, 395, -30);
    // 30 spent: from the old lot, whose expiry comes first.
    await redeem(member.card, 30);
    expect(await remainingOf(member.accountId)).toEqual([70, 50]);

    await Promise.all([expireLots(core), expireLots(loyaltyCoreOf(second.app))]);
    const expired = (await ledgerOf(member.accountId)).filter((e) => e.kind === 'expired');
    expect(expired).toMatchObject([{ points: -70, lotId: old.lotId, causedBy: 'system' }]);
    expect(expired[0]!.reason).toMatch(/^expired: points earned \d{4}-\d{2}-\d{2}$/);
    expect(await balanceOf(member.accountId)).toBe(50);
    expect(await remainingOf(member.accountId)).toEqual([0, 50]);

    // Again: nothing more; and the database refuses a second expiry of the lot outright.
    expect(await expireLots(core)).toBe(0);
    const twice = await t.database.db
      .insert(loyaltyLedger)
      .values({ accountId: member.accountId, points: -1, kind: 'expired', reason: 'expired', lotId: old.lotId, causedBy: 'system' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(twice)).toBe(true);
    expect(await balanceOf(member.accountId)).toBe(50);
  });

  it('expires on the moved clock what is due then, and shows it in the member lots', async () => {
    const member = await aMember();
    await earn(member, 60);
    expect(await expireLots(core)).toBe(0);
    await expireLots(core, new Date(Date.now() + 366 * DAY));
    expect(await balanceOf(member.accountId)).toBe(0);
    const [lot] = await listMemberLots(core, member.accountId, new Date(Date.now() + 366 * DAY));
    expect(lot).toMatchObject({ kind: 'earn', reason: 'claimed', points: 60, remaining: 0, expiredPoints: 60, expired: true });
  });
});

describe('spending', () => {
  it('takes the lots oldest expiry first (a lot that never expires last), for redemptions and staff deductions', async () => {
    const member = await aMember();
    const later = await earn(member, 100);
    const sooner = await earn(member, 100);
    const never = await earn(member, 100);
    await dateLot(later.lotId, 10, 200);
    await dateLot(sooner.lotId, 5, 20);
    await dateLot(never.lotId, 1, null);
    await redeem(member.card, 150);
    expect(await remainingOf(member.accountId)).toEqual([50, 0, 100]);
    await core.db.transaction((tx) =>
      adjustPoints(tx, core.changes, { accountId: member.accountId, points: -80, reason: 'goodwill undone', staffMember: 'gina' }),
    );
    expect(await remainingOf(member.accountId)).toEqual([0, 0, 70]);
    expect(await balanceOf(member.accountId)).toBe(70);
  });

  it('gives a reversed redemption back to the lots it came from, with their own expiry (no new lot); a staff raise is a lot', async () => {
    const member = await aMember();
    const later = await earn(member, 100);
    const sooner = await earn(member, 100);
    await dateLot(later.lotId, 10, 200);
    await dateLot(sooner.lotId, 5, 20);
    const dates = (await lotsOf(member.accountId)).map((lot) => lot.expiresAt!.getTime());
    const { redemptionId } = await redeem(member.card, 150);
    expect(await remainingOf(member.accountId)).toEqual([50, 0]);
    expect((await reverse(redemptionId)).statusCode).toBe(200);
    expect(await remainingOf(member.accountId)).toEqual([100, 100]);
    expect((await lotsOf(member.accountId)).map((lot) => lot.expiresAt!.getTime())).toEqual(dates);
    expect(await balanceOf(member.accountId)).toBe(200);
    await core.db.transaction((tx) =>
      adjustPoints(tx, core.changes, { accountId: member.accountId, points: 5, reason: 'sorry for the wait', staffMember: 'gina' }),
    );
    const lots = await listMemberLots(core, member.accountId);
    expect(lots.map((lot) => [lot.kind, lot.points, lot.remaining])).toEqual([
      ['adjustment', 5, 5],
      ['earn', 100, 100],
      ['earn', 100, 100],
    ]);
  });

  it('reversed just before a lot’s date, its points still expire on that date (not a year later)', async () => {
    const member = await aMember();
    const { lotId } = await earn(member, 100);
    await dateLot(lotId, 360, 2);
    const { redemptionId } = await redeem(member.card, 100);
    expect((await reverse(redemptionId)).statusCode).toBe(200);
    expect(await balanceOf(member.accountId)).toBe(100);
    // The clock moved three days on: the lot's date has come, and what came back expires with it.
    await expireLots(core, new Date(Date.now() + 3 * DAY));
    expect(await balanceOf(member.accountId)).toBe(0);
    expect(await remainingOf(member.accountId)).toEqual([0]);
  });

  it('reversed after a lot’s date, still succeeds: that lot’s points come back expired (an expiry entry, the balance unchanged)', async () => {
    const member = await aMember();
    const sooner = await earn(member, 100);
    const later = await earn(member, 100);
    await dateLot(sooner.lotId, 300, 20);
    await dateLot(later.lotId, 100, 200);
    const { redemptionId } = await redeem(member.card, 150);
    expect(await remainingOf(member.accountId)).toEqual([0, 50]);
    // The clock moves past the first lot's date (by moving the date back: what the expiry job and the reversal read).
    await dateLot(sooner.lotId, 400, -1);
    await expireLots(core);
    expect((await ledgerOf(member.accountId)).filter((e) => e.kind === 'expired')).toEqual([]);
    const res = await reverse(redemptionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ pointsReturned: 150, balance: 100 });
    expect(await remainingOf(member.accountId)).toEqual([0, 100]);
    const entries = (await ledgerOf(member.accountId)).slice(-2);
    expect(entries).toMatchObject([
      { kind: 'redemption-reversal', points: 150, redemptionId, system: 'ticketing' },
      { kind: 'expired', points: -100, redemptionId, lotId: null, system: 'ticketing' },
    ]);
    expect(entries[1]!.reason).toMatch(/^expired: points earned \d{4}-\d{2}-\d{2}, given back after their date$/);
    // Nothing of it expires again.
    await expireLots(core, new Date(Date.now() + 30 * DAY));
    expect(await balanceOf(member.accountId)).toBe(100);
    const changed = (await eventsOfType(t.app, 'loyalty.points_changed')).filter((e) => e.memberNumber === member.memberNumber).slice(-2);
    expect(changed.map((e) => [(e.entry as { kind: string }).kind, e.balance])).toEqual([
      ['redemption-reversal', 200],
      ['expired', 100],
    ]);
  });

  it('repays what a negative balance owes first, from the points that expire first: the lots hold the balance', async () => {
    const member = await aMember();
    const first = await earn(member, 100);
    const second = await earn(member, 80);
    const { redemptionId } = await redeem(member.card, 150);
    expect(await remainingOf(member.accountId)).toEqual([0, 30]);
    await refund(member.accountId, first, 100);
    expect(await balanceOf(member.accountId)).toBe(-70);
    expect((await reverse(redemptionId)).statusCode).toBe(200);
    expect(await balanceOf(member.accountId)).toBe(80);
    // 100 from the first lot and 50 from the second come back, the first 70 repaying the debt.
    expect(await remainingOf(member.accountId)).toEqual([30, 50]);
    void second;
  });

  it('under racing reversals and redemptions of one account, gives back once and keeps the lots equal to the balance', async () => {
    const member = await aMember();
    await earn(member, 300);
    const { redemptionId } = await redeem(member.card, 200);
    const reward = await aReward(100);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => reverse(redemptionId)),
      ...Array.from({ length: 10 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `${API}redemptions`,
          headers: integrationAuth,
          payload: { card: member.card, rewardId: reward.id, idempotencyKey: `race-lots-${member.memberNumber}-${i}` },
        }),
      ),
    ]);
    expect(answers.slice(0, 10).every((a) => a.statusCode === 200)).toBe(true);
    const redeemed = answers.slice(10).filter((a) => a.statusCode === 201).length;
    expect((await ledgerOf(member.accountId)).filter((e) => e.kind === 'redemption-reversal')).toHaveLength(1);
    const balance = await balanceOf(member.accountId);
    expect(balance).toBe(300 - 100 * redeemed);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect((await remainingOf(member.accountId)).reduce((a, b) => a + b, 0)).toBe(balance);
  });
});

describe('a reversal', () => {
  it('takes from its claim’s lot first, then the oldest expiry; what is missing is owed and repaid first by the next earn', async () => {
    const member = await aMember();
    const first = await earn(member, 100);
    const second = await earn(member, 80);
    await refund(member.accountId, second, 80);
    expect(await remainingOf(member.accountId)).toEqual([100, 0]);
    await earn(member, 80);
    await redeem(member.card, 150);
    expect(await remainingOf(member.accountId)).toEqual([0, 0, 30]);
    // The first claim is refunded: its lot is empty, so the 100 come from the third lot's 30 and 70 are owed.
    await refund(member.accountId, first, 100);
    expect(await remainingOf(member.accountId)).toEqual([0, 0, 0]);
    expect(await balanceOf(member.accountId)).toBe(-70);
    // The next earn repays the 70 first.
    await earn(member, 100);
    const lots = await lotsOf(member.accountId);
    expect(lots.at(-1)).toMatchObject({ points: 100, repaid: 70, remaining: 30 });
    expect(await balanceOf(member.accountId)).toBe(30);
  });
});

describe('reminders', () => {
  const mailsTo = (email: string) => t.database.db.select().from(outbox).where(eq(outbox.to, email));

  it('tell the member once per lot, 30 days before, naming each amount and date, through the mail job; also with two workers', async () => {
    const member = await aMember('Rosa');
    const soon = await earn(member, 120);
    const later = await earn(member, 30);
    const far = await earn(member, 500);
    await dateLot(soon.lotId, 340, 12);
    await dateLot(later.lotId, 330, 25);
    await dateLot(far.lotId, 300, 60);
    await Promise.all([remindExpiringLots(remindersOf(t)), remindExpiringLots(remindersOf(second))]);
    const mails = await mailsTo(member.email);
    expect(mails).toHaveLength(1);
    const text = t.app.mailer.readBody(mails[0]!)!;
    const date = (days: number) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: t.app.config.parkTimezone }).format(
        new Date(Date.now() + days * DAY),
      );
    expect(mails[0]!.subject).toBe(`Your Brownie points expire on ${date(12)}`);
    expect(text).toContain('Hi Rosa,');
    expect(text).toContain(`- 120 on ${date(12)}`);
    expect(text).toContain(`- 30 on ${date(25)}`);
    expect(text).not.toContain('500');
    const { rows: jobs } = await t.database.executeSql(`select id from pgboss.job where name = 'mail' and data->>'outboxId' = $1`, [
      String(mails[0]!.id),
    ]);
    expect(jobs).toHaveLength(1);

    // Again: nothing; 30 days before the far lot's date, that lot alone.
    await remindExpiringLots(remindersOf(t));
    expect(await mailsTo(member.email)).toHaveLength(1);
    await remindExpiringLots(remindersOf(t), new Date(Date.now() + 31 * DAY));
    const after = await mailsTo(member.email);
    expect(after).toHaveLength(2);
    expect(t.app.mailer.readBody(after[1]!)).toContain(`500 of your Brownie points expire on ${date(60)}.`);
    expect((await lotsOf(member.accountId)).every((lot) => lot.remindedAt !== null)).toBe(true);
  });

  it('are not sent for a lot with nothing left', async () => {
    const member = await aMember();
    const lot = await earn(member, 50);
    await redeem(member.card, 50);
    await dateLot(lot.lotId, 350, 10);
    await remindExpiringLots(remindersOf(t));
    expect(await mailsTo(member.email)).toHaveLength(0);
  });
});

describe('the tills', () => {
  it('see the points expiring within 30 days and the first date; none: 0 and null', async () => {
    const member = await aMember();
    const a = await earn(member, 60);
    const b = await earn(member, 40);
    const c = await earn(member, 300);
    await dateLot(a.lotId, 350, 20);
    await dateLot(b.lotId, 355, 10);
    await dateLot(c.lotId, 100, 90);
    const get = () => t.app.inject({ method: 'GET', url: `${API}members/${member.memberNumber}`, headers: integrationAuth });
    const dateOf = async (lotId: number) =>
      (await t.database.db.select().from(loyaltyLots).where(eq(loyaltyLots.id, lotId)))[0]!.expiresAt!.toISOString();
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ balance: 400, expiringPoints: 100, expiringAt: await dateOf(b.lotId) });
    // 70 spent: the 40 expiring first, then 30 of the 60.
    await redeem(member.card, 70);
    expect((await get()).json()).toMatchObject({ balance: 330, expiringPoints: 30, expiringAt: await dateOf(a.lotId) });

    const fresh = await aMember();
    await earn(fresh, 10);
    const none = await t.app.inject({ method: 'GET', url: `${API}members/${fresh.memberNumber}`, headers: integrationAuth });
    expect(none.json()).toMatchObject({ balance: 10, expiringPoints: 0, expiringAt: null });
  });
});

describe('the member cards time changes', () => {
  it('are published once when a window’s edge is crossed: a lot entering the 30 days, earns leaving the tier window when they take the tier', async () => {
    await t.database.executeSql('delete from loyalty_card_clock', []);
    const republishes = async () =>
      (await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = 'member-cards-republish'`, [])).rows[0];
    const before = await republishes();
    // The first pass knows nothing of what the cards show: every card once (the tiers' republish), nothing else.
    expect(await publishCardsChangedByTime(core, new Date())).toEqual([]);
    expect(await republishes()).toEqual({ n: (before as { n: number }).n + 1 });

    await t.database.db.insert(loyaltyTiers).values({ name: 'Lots Gold', pointsToReach: 1000 });
    const untiered = await aMember();
    const untieredLot = (await earn(untiered, 30)).lotId;
    const tiered = await aMember();
    const tieredLot = (await earn(tiered, 1200)).lotId;
    for (const lotId of [untieredLot, tieredLot]) await dateLot(lotId, 0, null);
    const expiring = await aMember();
    await earn(expiring, 50);
    const [expiringLot] = await lotsOf(expiring.accountId);
    const entersAt = expiringLot!.expiresAt!.getTime() - 30 * DAY;
    const [tieredEarn] = await ledgerOf(tiered.accountId);
    const leavesAt = tieredEarn!.createdAt.getTime() + 365 * DAY;
    const at = (ms: number) => new Date(ms);
    const hour = 3_600_000;

    expect(await publishCardsChangedByTime(core, at(entersAt - hour))).not.toContain(expiring.accountId);
    const entered = await publishCardsChangedByTime(core, at(entersAt + 60_000));
    expect(entered).toContain(expiring.accountId);
    expect(entered).not.toContain(tiered.accountId);
    expect(await publishCardsChangedByTime(core, at(entersAt + hour))).toEqual([]);
    // A run on a clock behind the last one's publishes nothing and moves nothing back.
    expect(await publishCardsChangedByTime(core, at(entersAt))).toEqual([]);

    const left = await publishCardsChangedByTime(core, at(leavesAt + 60_000));
    // Both members' earns left the window; only the one whose tier it took is published, and told (once).
    expect(left).toContain(tiered.accountId);
    expect(left).not.toContain(untiered.accountId);
    expect(await publishCardsChangedByTime(core, at(leavesAt + hour))).toEqual([]);
    const told = (await eventsOfType(t.app, 'loyalty.tier_changed')).filter((e) =>
      [tiered.memberNumber, untiered.memberNumber].includes(String(e.memberNumber)),
    );
    expect(told).toEqual([
      { memberNumber: tiered.memberNumber, from: null, to: 'Lots Gold' },
      { memberNumber: tiered.memberNumber, from: 'Lots Gold', to: null },
    ]);
  });
});

describe('the expiry job', () => {
  it('is scheduled hourly and runs at start', async () => {
    const member = await aMember();
    const old = await earn(member, 45);
    await dateLot(old.lotId, 400, -35);
    const worker = await createTestApp({ database: t.database, env: { DELIVERY_WORKERS: 'true' } });
    try {
      const until = Date.now() + 20_000;
      while ((await balanceOf(member.accountId)) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(await balanceOf(member.accountId)).toBe(0);
      const { rows } = await t.database.executeSql(`select cron from pgboss.schedule where name = 'loyalty-expiry'`, []);
      expect(rows).toEqual([{ cron: '0 * * * *' }]);
    } finally {
      await worker.close();
    }
  });
});

describe('the migration', () => {
  it('makes lots of the ledger it finds: the lots hold max(balance, 0), the newest kept, a reversed claim’s lot empty', async () => {
    const member = await aMember();
    const first = await earn(member, 100);
    await earn(member, 60);
    await earn(member, 40);
    await refund(member.accountId, first, 100);
    await redeem(member.card, 50);
    // As the upgrade finds the ledger: no lots yet; then the migration's own statement.
    await t.database.db.delete(loyaltyLots).where(eq(loyaltyLots.accountId, member.accountId));
    const migration = readFileSync(new URL('../../../../packages/db/migrations/0012_loyalty-lots.sql', import.meta.url), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').at(-1)!;
    await t.database.executeSql(
      backfill.replace('WHERE e."points" > 0', `WHERE e."points" > 0 AND e."account_id" = '${member.accountId}'`),
      [],
    );
    const lots = await lotsOf(member.accountId);
    expect(lots.map((lot) => [lot.points, lot.remaining])).toEqual([
      [100, 0],
      [60, 10],
      [40, 40],
    ]);
    expect(lots.reduce((sum, lot) => sum + lot.remaining, 0)).toBe(await balanceOf(member.accountId));
    expect(lots[0]!.loyaltyOrderId).not.toBeNull();
    for (const lot of lots) expect(lot.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
  });
});
