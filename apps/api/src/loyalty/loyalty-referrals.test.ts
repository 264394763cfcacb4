// Referrals: a member's link, a new member joining through it pending until their first claim
// that earns points, then both earning the referral campaign's bonus once; refused with a reason
// and nothing created (an unknown link, one's own or a plus-alias of it, an existing member, past
// the referrer's monthly limit also when two join at once, no campaign running); the referrer's
// statement and the Loyalty tab showing the link and who joined.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOYALTY_STATEMENT_TOKEN } from '@boardwalk/contract/loyalty-statement';
import { loyaltyAccounts, loyaltyCampaigns, loyaltyLedger, loyaltyReferrals } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { proofOf } from '../../test-support/loyalty.fixtures.ts';
import { loginAs, type StaffLogin } from '../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { insertAccount } from './loyalty.repo.ts';
import { mailboxOf } from './loyalty-referrals.service.ts';

let t: TestApp;
let admin: StaffLogin;
beforeAll(async () => {
  t = await createTestApp({ env: { DELIVERY_WORKERS: 'false', PUBLIC_URL: 'https://park.example.com' } });
  admin = await loginAs(t.app, { accessLevel: 100 });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(loyaltyAccounts);
  await t.database.db.delete(loyaltyCampaigns);
});

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function referralCampaign(fields: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/loyalty-campaigns/',
    headers: admin.headers,
    payload: {
      loyaltyCampaignName: 'Bring a Friend',
      loyaltyCampaignKind: 'referral',
      loyaltyCampaignBonusPoints: 200,
      loyaltyCampaignFrom: dayFromNow(-2),
      loyaltyCampaignTo: dayFromNow(2),
      loyaltyCampaignActive: true,
      ...fields,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ loyaltyCampaignID: string }>();
}

let serial = 0;
/** A proven member (staff made): id, email and referral code. */
async function referrer(email = `referrer${++serial}@example.com`) {
  const id = (await insertAccount(t.database.db, {
    email,
    firstName: 'Rita',
    lastName: 'Refers',
    createdBy: 'staff',
    createdAt: new Date(),
  }))!;
  const [row] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, id));
  return { id, email, code: row!.referralCode };
}

/** A guest joining through a link: create's answer. */
const join = (email: string, referralCode?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/loyalty/create',
    payload: { email, firstName: 'Nia', lastName: 'New', proof: proofOf(t, email), ...(referralCode !== undefined && { referralCode }) },
    remoteAddress: `10.77.${(++serial >> 8) & 255}.${serial & 255}`,
  });

const balanceOf = async (accountId: string) =>
  (await t.database.db.select().from(loyaltyLedger).where(eq(loyaltyLedger.accountId, accountId))).reduce((sum, e) => sum + e.points, 0);

/** The new member claims a ticket order of their own (price in USD). */
async function claimOwnTicket(email: string, userID: string, price: number) {
  const orderId = String(63_000_000 + ++serial);
  await putOrder(
    t.app,
    orderId,
    anOrder([{ barcode: `${orderId}00000001`, price }], {
      orderDate: new Date().toISOString(),
      purchaser: { firstName: 'Nia', lastName: 'New', email },
    }),
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/loyalty/tickets/',
    payload: { orderId, email, userID },
    remoteAddress: `10.78.0.${serial % 250}`,
  });
}

describe('joining through a link', () => {
  it('is pending until the first claim that earns points, then gives both the bonus once', async () => {
    const campaign = await referralCampaign();
    const rita = await referrer();
    const created = await join('nia@example.com', rita.code.toLowerCase());
    expect(created.statusCode, created.body).toBe(200);
    const [referral] = await t.database.db.select().from(loyaltyReferrals);
    expect(referral).toMatchObject({ referrerId: rita.id, campaignId: campaign.loyaltyCampaignID, earnedAt: null });
    const claimed = await claimOwnTicket('nia@example.com', created.body, 30);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ pointsEarned: 30, balance: 230 });
    expect(await balanceOf(rita.id)).toBe(200);
    const [earned] = await t.database.db.select().from(loyaltyReferrals);
    expect(earned!.earnedAt).not.toBeNull();
    // Staff add another purchase for her: no second bonus.
    const nia = referral!.referredId;
    const orderId = String(63_500_000 + ++serial);
    await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price: 10 }], { orderDate: new Date().toISOString() }));
    const staffClaim = await t.app.inject({
      method: 'POST',
      url: '/api/admin/loyalty/tickets/',
      headers: admin.headers,
      payload: { orderId, email: 'nia@example.com', userID: nia },
    });
    expect(staffClaim.statusCode, staffClaim.body).toBe(200);
    expect(await balanceOf(nia)).toBe(240);
    expect(await balanceOf(rita.id)).toBe(200);
  });

  it.each([['an unknown link', 'NOSUCHCODE', 'REFERRAL_UNKNOWN', 'This referral link is not valid.']])(
    'refuses %s with its reason and creates nothing',
    async (_, code, reason, message) => {
      await referralCampaign();
      const res = await join('someone@example.com', code);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason, message });
      expect(await t.database.db.select().from(loyaltyAccounts)).toHaveLength(0);
    },
  );

  it('refuses one’s own link, by its email or a plus-alias of it, and an email that already has an account', async () => {
    await referralCampaign();
    const rita = await referrer('rita.refers@example.com');
    const own = await join('Rita.Refers+again@example.com', rita.code);
    expect(own.statusCode).toBe(400);
    expect(own.json().reason).toBe('REFERRAL_SELF');
    expect(mailboxOf('Ana.B+park@Example.com')).toBe('ana.b@example.com');
    await referrer('already@example.com');
    const existing = await join('already@example.com', rita.code);
    expect(existing.statusCode).toBe(400);
    expect(existing.json()).toMatchObject({ reason: 'REFERRAL_EXISTING_MEMBER' });
    // A member joining again under a plus-alias of their email is not new either.
    const alias = await join('Already+second@example.com', rita.code);
    expect(alias.statusCode).toBe(400);
    expect(alias.json()).toMatchObject({ reason: 'REFERRAL_EXISTING_MEMBER' });
    expect(await t.database.db.select().from(loyaltyReferrals)).toHaveLength(0);
    expect(await t.database.db.select().from(loyaltyAccounts)).toHaveLength(2);
  });

  it('refuses past the referrer’s monthly limit, also when eight join through the link at once, and with no campaign running', async () => {
    await referralCampaign({ loyaltyCampaignReferralsPerMonth: 3 });
    const rita = await referrer();
    expect((await join('first@example.com', rita.code)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => join(`at.once${i}@example.com`, rita.code)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const refused of answers.filter((r) => r.statusCode !== 200)) expect(refused.json().reason).toBe('REFERRAL_CAPPED');
    expect(await t.database.db.select().from(loyaltyReferrals)).toHaveLength(3);
    await t.database.db.update(loyaltyCampaigns).set({ active: false });
    const none = await join('fourth@example.com', rita.code);
    expect(none.json()).toMatchObject({ reason: 'REFERRAL_NO_CAMPAIGN', message: 'Referrals are not running right now.' });
    // Without the link the same guest joins.
    expect((await join('fourth@example.com')).statusCode).toBe(200);
  });
});

describe('the referrer sees', () => {
  it('the link and who joined, pending or earned, on the statement and in the Loyalty tab', async () => {
    await referralCampaign();
    const rita = await referrer();
    const created = await join('nia@example.com', rita.code);
    await join('omar@example.com', rita.code);
    await claimOwnTicket('nia@example.com', created.body, 5);
    const token = t.app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, rita.id, LOYALTY_STATEMENT_TOKEN.ttlSeconds);
    const statement = await t.app.inject({ method: 'GET', url: '/api/loyalty/statement', headers: { authorization: `Bearer ${token}` } });
    expect(statement.statusCode, statement.body).toBe(200);
    const referral = statement.json().referral;
    expect(referral.link).toBe(`https://park.example.com/loyalty/?ref=${rita.code}`);
    expect(referral.referred.map((r: { firstName: string; earned: boolean }) => r.earned).sort()).toEqual([false, true]);
    const staff = await t.app.inject({ method: 'GET', url: `/api/admin/loyalty/account/${rita.id}/`, headers: admin.headers });
    expect(staff.json().referral).toEqual(referral);
  });
});
