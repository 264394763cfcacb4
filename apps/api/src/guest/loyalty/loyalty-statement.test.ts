// The member's statement: the link mailed to a member (and the same answer for a stranger),
// its throttle, the token's 24 hours and its refusals, what the statement shows and its pages.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { LOYALTY_STATEMENT_TOKEN, STATEMENT_PAGE_SIZE, type StatementEntry } from '@boardwalk/contract/loyalty-statement';
import { statementMessages } from '@boardwalk/contract/loyalty-statement-messages';
import { loyaltyAccounts, loyaltyLedger, loyaltyLots, loyaltyOrders, loyaltyRewards, loyaltyTiers, outbox } from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test-support/smtp.fixtures.ts';
import { loginAs } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { claimTickets } from '../../loyalty/loyalty-claims.service.ts';
import { reverseInvalidClaims } from '../../loyalty/loyalty-reversals.service.ts';
import { insertAccount } from '../../loyalty/loyalty.repo.ts';
import { loyaltyCoreOf } from '../../loyalty/loyalty.service.ts';

const PUBLIC_URL = 'https://park.example.com';
let t: TestApp;
let smtp: TestSmtpServer;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    env: { SMTP_URL: smtp.url, PUBLIC_URL, BRAND_NAME: 'Pier Park', SUPPORT_EMAIL: 'help@example.com', LOG_LEVEL: 'info' },
    logStream: { write: (line) => void logLines.push(line) },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

let seq = 0;
let ip = 0;
const nextAddress = () => `10.23.${(++ip >> 8) & 255}.${ip & 255}`;
const askForLink = (email: string, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/loyalty/statement-link', payload: { email }, remoteAddress });
const getStatement = (token?: string) =>
  t.app.inject({ method: 'GET', url: '/api/loyalty/statement', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
const getLedger = (token: string, before: number | string) =>
  t.app.inject({ method: 'GET', url: `/api/loyalty/statement/ledger?before=${before}`, headers: { authorization: `Bearer ${token}` } });
const tokenFor = (accountId: string) =>
  t.app.keys.signToken(LOYALTY_STATEMENT_TOKEN.purpose, accountId, LOYALTY_STATEMENT_TOKEN.ttlSeconds);
const outboxTo = (email: string) => t.database.db.select().from(outbox).where(eq(outbox.to, email));

/** An entry's details that are null unless its kind has them. */
const noDetail = { purchase: null, reward: null, earnedAt: null, cause: null, note: null, campaign: null };

/** A member who earned `points` for a claimed ticket (one point per USD); their account, email and the ticket. */
async function aMember(points = 0) {
  const n = ++seq;
  const email = `statement${n}.${Date.now().toString(36)}@example.com`;
  const accountId = (await insertAccount(t.database.db, {
    email,
    firstName: 'Rosa',
    lastName: `Diaz ${n}`,
    createdBy: 'guest',
    createdAt: new Date(),
  }))!;
  const orderId = String(74000000 + n);
  const barcode = `${orderId}00000001`;
  if (points > 0) {
    await putOrder(t.app, orderId, anOrder([{ barcode, price: points, product: 'Day Ticket' }], { orderDate: new Date().toISOString() }));
    await claimTickets(loyaltyCoreOf(t.app), { orderId, email, accountId }, { kind: 'staff', username: 'gina' });
  }
  const [row] = await t.database.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.id, accountId));
  return { accountId, email, orderId, barcode, memberNumber: row!.memberNumber, card: row!.cardToken };
}

describe('asking for the link', () => {
  it('mails a member one link to their statement, which opens it; a stranger gets the same answer and no mail', async () => {
    const member = await aMember(40);
    const asked = await askForLink(member.email.toUpperCase());
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ email: member.email.toUpperCase(), validHours: 24 });

    const stranger = await askForLink('nobody.here@example.com');
    expect(stranger.statusCode).toBe(202);
    expect(stranger.json()).toEqual({ email: 'nobody.here@example.com', validHours: 24 });
    expect(Object.keys(stranger.headers).sort()).toEqual(Object.keys(asked.headers).sort());

    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual([member.email]);
    expect(mail!.subject).toMatch(/^Your Pier Park Brownie points/);
    const body = mail!.text;
    expect(body).toContain('Hi Rosa,');
    expect(body).toContain('works for 24 hours');
    const link = new RegExp(`${PUBLIC_URL}/loyalty/statement\\?lang=en#([A-Za-z0-9_.-]+)`).exec(body);
    expect(link, body).not.toBeNull();
    await settleDeliveries(t.app);
    // Once: one message for the member, none for the stranger.
    expect(smtp.received.filter((m) => m.to.includes(member.email))).toHaveLength(1);
    expect(await outboxTo(member.email)).toHaveLength(1);
    expect(await outboxTo('nobody.here@example.com')).toHaveLength(0);

    const opened = await getStatement(link![1]);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ email: member.email, balance: 40, memberNumber: member.memberNumber });
    // Neither the link nor its token reaches the log.
    expect(logLines.join('\n')).not.toContain(link![1]);
  });

  it('refuses a malformed email with 400 and sends nothing', async () => {
    const before = await t.database.db.$count(outbox);
    const res = await askForLink('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
    expect(await t.database.db.$count(outbox)).toBe(before);
  });

  it('throttles per client address: the 11th request in 15 minutes answers 429 with Retry-After and mails nothing', async () => {
    const member = await aMember();
    const address = '10.24.0.1';
    for (let i = 0; i < 10; i++) expect((await askForLink(`someone${i}@example.com`, address)).statusCode).toBe(202);
    const limited = await askForLink(member.email, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await outboxTo(member.email)).toHaveLength(0);
  });

  it('throttles per email, a member or not: the 6th request in 15 minutes answers 429 from any address', async () => {
    const member = await aMember();
    for (const email of [member.email, 'not.a.member@example.com']) {
      for (let i = 0; i < 5; i++) expect((await askForLink(email)).statusCode).toBe(202);
      const limited = await askForLink(email.toUpperCase());
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
    }
    await settleDeliveries(t.app);
    expect(await outboxTo(member.email)).toHaveLength(5);
  });

  it('mails a member whose email is not proven how to prove it: no name, no link; their statement stays closed', async () => {
    const member = await aMember(10);
    await t.database.db
      .update(loyaltyAccounts)
      .set({ emailProvenAt: null, emailProvenBy: null })
      .where(eq(loyaltyAccounts.id, member.accountId));
    const before = smtp.received.length;
    expect((await askForLink(member.email)).statusCode).toBe(202);
    await settleDeliveries(t.app);
    const mails = smtp.received.slice(before).filter((m) => m.to.includes(member.email));
    expect(mails).toHaveLength(1);
    const body = mails[0]!.text;
    expect(body).toContain('First confirm your email');
    expect(body).toContain(`${PUBLIC_URL}/loyalty/`);
    expect(body).not.toContain('Rosa');
    expect(body).not.toContain('/loyalty/statement#');
    // A link issued before (or forged for it) opens nothing until the email is proven.
    const closed = await getStatement(tokenFor(member.accountId));
    expect(closed.statusCode).toBe(401);
    expect(closed.json()).toMatchObject({ message: statementMessages.unproven, reason: 'STATEMENT_EMAIL_UNPROVEN' });
    expect((await getLedger(tokenFor(member.accountId), 1_000_000)).statusCode).toBe(401);
  });
});

describe('the link', () => {
  it('works for 24 hours, then answers 401 saying it expired', async () => {
    const member = await aMember(10);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const token = tokenFor(member.accountId);
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000 - 60_000);
    expect((await getStatement(token)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    const expired = await getStatement(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ message: statementMessages.expired, reason: 'STATEMENT_LINK_EXPIRED' });
    expect((await getLedger(token, 1)).statusCode).toBe(401);
  });

  it('refuses a missing, altered or foreign token, and the link of a member removed since, with 401 and what to do', async () => {
    const member = await aMember(10);
    const token = tokenFor(member.accountId);
    const missing = await getStatement();
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ message: statementMessages.tokenRequired, reason: 'STATEMENT_LINK_MISSING' });

    const [head, payload, signature] = token.split('.');
    const tampered = [head, payload, `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`].join('.');
    const otherAccount = Buffer.from(JSON.stringify({ sub: crypto.randomUUID(), aud: LOYALTY_STATEMENT_TOKEN.purpose, exp: 9e9 })).toString(
      'base64url',
    );
    const walletToken = t.app.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, member.accountId, 600);
    for (const bad of [tampered, [head, otherAccount, signature].join('.'), walletToken, 'garbage']) {
      const res = await getStatement(bad);
      expect(res.statusCode, bad).toBe(401);
      expect(res.json().message).toBe(statementMessages.invalid);
    }

    await t.database.db.delete(loyaltyAccounts).where(eq(loyaltyAccounts.id, member.accountId));
    const removed = await getStatement(token);
    expect(removed.statusCode).toBe(401);
    expect(removed.json()).toMatchObject({ message: statementMessages.invalid, reason: 'STATEMENT_LINK_INVALID' });
    expect((await getLedger(token, 1)).statusCode).toBe(401);
  });
});

describe('the statement', () => {
  it('shows balance, tier and progress, the ledger with reasons newest first, the rewards with what can be redeemed now, and a wallet token', async () => {
    const member = await aMember(250);
    const tag = ++seq;
    await t.database.db.insert(loyaltyTiers).values([
      { name: `Silver ${tag}`, pointsToReach: 200 },
      { name: `Gold ${tag}`, pointsToReach: 100_000 + tag },
    ]);
    const [soda, dinner] = await t.database.db
      .insert(loyaltyRewards)
      .values([
        { name: `Soda ${tag}`, pointsCost: 50, description: 'Any fountain drink' },
        { name: `Dinner ${tag}`, pointsCost: 900 },
      ])
      .returning();
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/loyalty/redemptions',
      headers: integrationAuth,
      payload: { card: member.card, rewardId: soda!.id, idempotencyKey: `statement-${tag}` },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(201);

    const res = await getStatement(tokenFor(member.accountId));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      firstName: 'Rosa',
      email: member.email,
      memberNumber: member.memberNumber,
      balance: 200,
      pointsEarned: 250,
      tier: { name: `Silver ${tag}`, pointsToReach: 200 },
      nextTier: { name: `Gold ${tag}`, pointsToReach: 100_000 + tag },
    });
    expect(body.ledger).toEqual({
      entries: [
        { ...noDetail, id: expect.any(Number), createdAt: expect.any(String), points: -50, kind: 'redemption', reward: `Soda ${tag}` },
        {
          ...noDetail,
          id: expect.any(Number),
          createdAt: expect.any(String),
          points: 250,
          kind: 'earn',
          purchase: { type: 'ticket', product: 'Day Ticket', reference: member.orderId },
        },
      ],
      nextBefore: null,
    });
    expect(body.rewards).toContainEqual({
      rewardId: soda!.id,
      name: `Soda ${tag}`,
      description: 'Any fountain drink',
      pointsCost: 50,
      redeemableNow: true,
    });
    expect(body.rewards).toContainEqual({
      rewardId: dinner!.id,
      name: `Dinner ${tag}`,
      description: null,
      pointsCost: 900,
      redeemableNow: false,
    });
    // Cheapest first.
    const costs = body.rewards.map((r: { pointsCost: number }) => r.pointsCost);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(t.app.keys.verifyToken(LOYALTY_WALLET_TOKEN.purpose, body.walletToken)).toEqual({ ok: true, subject: member.accountId });
    await t.database.db
      .update(loyaltyTiers)
      .set({ active: false })
      .where(eq(loyaltyTiers.name, `Silver ${tag}`));
    await t.database.db
      .update(loyaltyTiers)
      .set({ active: false })
      .where(eq(loyaltyTiers.name, `Gold ${tag}`));
  });

  it("names tiers and rewards in the page's language where staff wrote it, in English where they did not", async () => {
    const member = await aMember(250);
    const tag = ++seq;
    const db = t.database.db;
    await db.insert(loyaltyTiers).values([
      { name: `Silver ${tag}`, nameEs: `Plata ${tag}`, pointsToReach: 150 + tag },
      { name: `Gold ${tag}`, pointsToReach: 100_000 + tag },
    ]);
    await db.insert(loyaltyRewards).values([
      {
        name: `Soda ${tag}`,
        nameEs: `Refresco ${tag}`,
        pointsCost: 50,
        description: 'Any fountain drink',
        descriptionEs: 'Cualquier bebida',
      },
      { name: `Churro ${tag}`, pointsCost: 60, description: 'Warm' },
    ]);
    const token = tokenFor(member.accountId);
    const read = async (language?: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/loyalty/statement',
          headers: { authorization: `Bearer ${token}`, ...(language ? { 'accept-language': language } : {}) },
        })
      ).json();
    try {
      const spanish = await read('es-US,es;q=0.9');
      expect(spanish).toMatchObject({ tier: { name: `Plata ${tag}`, pointsToReach: 150 + tag }, nextTier: { name: `Gold ${tag}` } });
      expect(spanish.rewards).toContainEqual(expect.objectContaining({ name: `Refresco ${tag}`, description: 'Cualquier bebida' }));
      expect(spanish.rewards).toContainEqual(expect.objectContaining({ name: `Churro ${tag}`, description: 'Warm' }));
      const english = await read();
      expect(english).toMatchObject({ tier: { name: `Silver ${tag}` } });
      expect(english.rewards).toContainEqual(expect.objectContaining({ name: `Soda ${tag}`, description: 'Any fountain drink' }));
    } finally {
      await db
        .update(loyaltyTiers)
        .set({ active: false })
        .where(inArray(loyaltyTiers.name, [`Silver ${tag}`, `Gold ${tag}`]));
      await db
        .update(loyaltyRewards)
        .set({ active: false })
        .where(inArray(loyaltyRewards.name, [`Soda ${tag}`, `Churro ${tag}`]));
    }
  });

  it('shows an empty ledger, and a negative balance after a refund took back points already spent (nothing redeemable)', async () => {
    const empty = await aMember();
    const none = (await getStatement(tokenFor(empty.accountId))).json();
    expect(none).toMatchObject({ balance: 0, pointsEarned: 0, tier: null, ledger: { entries: [], nextBefore: null } });

    const member = await aMember(60);
    const [treat] = await t.database.db
      .insert(loyaltyRewards)
      .values({ name: `Treat ${++seq}`, pointsCost: 60 })
      .returning();
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/loyalty/redemptions',
      headers: integrationAuth,
      payload: { card: member.card, rewardId: treat!.id, idempotencyKey: `treat-${seq}` },
    });
    expect(redeemed.statusCode).toBe(201);
    await putOrder(
      t.app,
      member.orderId,
      anOrder([{ barcode: member.barcode, price: 60, refunded: true, product: 'Day Ticket' }], { orderDate: new Date().toISOString() }),
    );
    await reverseInvalidClaims(loyaltyCoreOf(t.app), 'ticket', member.barcode, null);
    const body = (await getStatement(tokenFor(member.accountId))).json();
    expect(body.balance).toBe(-60);
    expect(body.pointsEarned).toBe(0);
    const purchase = { type: 'ticket', product: 'Day Ticket', reference: member.orderId };
    expect(
      body.ledger.entries.map(({ points, kind, purchase, reward, cause }: StatementEntry) => ({ points, kind, purchase, reward, cause })),
    ).toEqual([
      { points: -60, kind: 'reversal', purchase, reward: null, cause: 'refunded' },
      { points: -60, kind: 'redemption', purchase: null, reward: treat!.name, cause: null },
      { points: 60, kind: 'earn', purchase, reward: null, cause: null },
    ]);
    expect(body.rewards.filter((r: { redeemableNow: boolean }) => r.redeemableNow)).toEqual([]);
  });

  it('counts towards the tier the claims earned in the last 365 days, minus their reversals; an older claim and its reversal count for nothing', async () => {
    const member = await aMember(30);
    const longAgo = new Date(Date.now() - 400 * 24 * 60 * 60 * 1000);
    const [old] = await t.database.db
      .insert(loyaltyOrders)
      .values({
        accountId: member.accountId,
        sourceType: 'hotel',
        sourceId: `OLD${seq}`,
        reference: `OLD${seq}`,
        product: 'Hotel stay',
        amount: 50,
        purchasedAt: longAgo,
        reversedAt: new Date(),
      })
      .returning();
    const entry = { accountId: member.accountId, loyaltyOrderId: old!.id, causedBy: 'system' };
    await t.database.db.insert(loyaltyLedger).values([
      { ...entry, points: 100, kind: 'earn' as const, reason: 'claimed', createdAt: longAgo },
      { ...entry, points: -100, kind: 'reversal' as const, reason: 'cancelled' },
    ]);
    const body = (await getStatement(tokenFor(member.accountId))).json();
    expect(body).toMatchObject({ balance: 30, pointsEarned: 30 });
  });

  it("gives each entry its kind and what it is about (a removal by staff by its cause), and guest services' own words only: no English of the park's code", async () => {
    const member = await aMember(30);
    const [lot] = await t.database.db.select().from(loyaltyLots).where(eq(loyaltyLots.accountId, member.accountId));
    const [order] = await t.database.db
      .insert(loyaltyOrders)
      .values({
        accountId: member.accountId,
        sourceType: 'food-and-beverage',
        sourceId: `CHK${seq}`,
        reference: `CHK${seq}`,
        product: 'Lunch',
        amount: 5,
        purchasedAt: new Date(),
      })
      .returning();
    const system = { accountId: member.accountId, causedBy: 'system' };
    await t.database.db.insert(loyaltyLedger).values([
      { ...system, points: -10, kind: 'expired' as const, reason: 'expired: points earned 2026-01-02', lotId: lot!.id },
      { ...system, points: 5, kind: 'earn' as const, reason: 'claimed', loyaltyOrderId: order!.id },
      { ...system, points: -5, kind: 'reversal' as const, reason: 'removed by its feed', loyaltyOrderId: order!.id },
      { ...system, points: 7, kind: 'adjustment' as const, reason: 'Rain check', causedBy: 'staff', staffMember: 'gina' },
    ]);
    // Guest services remove the claimed ticket in the Loyalty tab (no words of their own: the ledger records English for staff).
    const staff = await loginAs(t.app, { accessLevel: 100 });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/loyalty/order/${member.accountId}/${member.orderId}/${member.barcode}`,
      headers: staff.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const body = (await getStatement(tokenFor(member.accountId))).json();
    const check = { type: 'food-and-beverage', product: 'Lunch', reference: `CHK${seq}` };
    expect(body.ledger.entries.slice(0, 5)).toEqual([
      expect.objectContaining({
        kind: 'reversal',
        cause: 'removedByStaff',
        note: null,
        purchase: { type: 'ticket', product: 'Day Ticket', reference: member.orderId },
      }),
      expect.objectContaining({ kind: 'adjustment', cause: null, note: 'Rain check', purchase: null }),
      expect.objectContaining({ kind: 'reversal', cause: 'removed', note: null, purchase: check }),
      expect.objectContaining({ kind: 'earn', cause: null, note: null, purchase: check }),
      expect.objectContaining({ kind: 'expired', earnedAt: lot!.earnedAt.toISOString(), purchase: null, note: null }),
    ]);
    // The staff member who made an entry is not named, and no English reason the ledger records for staff goes out.
    expect(JSON.stringify(body.ledger)).not.toMatch(/gina|claimed|removed by|expired: points/);
  });

  it('shows the points expiring within 30 days with the first date, and none otherwise', async () => {
    const member = await aMember(40);
    const fresh = (await getStatement(tokenFor(member.accountId))).json();
    expect(fresh).toMatchObject({ balance: 40, expiringPoints: 0, expiringAt: null });
    const soon = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
    await t.database.db.update(loyaltyLots).set({ expiresAt: soon }).where(eq(loyaltyLots.accountId, member.accountId));
    const expiring = (await getStatement(tokenFor(member.accountId))).json();
    expect(expiring).toMatchObject({ balance: 40, expiringPoints: 40 });
    expect(new Date(expiring.expiringAt).getTime()).toBe(soon.getTime());
  });

  it('pages the ledger newest first: each page at most the page size, no entry twice or missed; a bad cursor is a 400', async () => {
    const member = await aMember();
    const count = STATEMENT_PAGE_SIZE * 2 + 7;
    await t.database.db.insert(loyaltyLedger).values(
      Array.from({ length: count }, (_, i) => ({
        accountId: member.accountId,
        points: i + 1,
        kind: 'adjustment' as const,
        reason: `goodwill ${i + 1}`,
        causedBy: 'staff',
        staffMember: 'gina',
      })),
    );
    const token = tokenFor(member.accountId);
    const first = (await getStatement(token)).json();
    expect(first.balance).toBe((count * (count + 1)) / 2);
    const seen: StatementEntry[] = [...first.ledger.entries];
    let before: number | null = first.ledger.nextBefore;
    const sizes = [first.ledger.entries.length];
    while (before !== null) {
      const page = await getLedger(token, before);
      expect(page.statusCode, page.body).toBe(200);
      seen.push(...page.json().entries);
      sizes.push(page.json().entries.length);
      before = page.json().nextBefore;
    }
    expect(sizes).toEqual([STATEMENT_PAGE_SIZE, STATEMENT_PAGE_SIZE, 7]);
    expect(seen.map((e) => e.points)).toEqual(Array.from({ length: count }, (_, i) => count - i));
    expect(seen[0]).toMatchObject({ kind: 'adjustment', note: `goodwill ${count}` });
    expect(new Set(seen.map((e) => e.id)).size).toBe(count);

    for (const bad of ['abc', '-1', '0', '1.5']) {
      const res = await getLedger(token, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });
});
