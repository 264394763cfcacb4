// The member's statement in Chromium, for real: a server process of its own (the built app, demo
// data) mails the statement links through SMTP_URL to a real SMTP server (smtp-server); the
// links from those mails open /loyalty/statement. Every state at 360 and 1280 px, axe clean:
// the request form and its sent state, loading, a statement with entries (tier progress,
// rewards, Show More), an empty ledger, a negative balance, an expired, an invalid and a
// removed member's link, and a failed load.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';
import { STATEMENT_REFUSALS, statementMessages } from '@boardwalk/contract/loyalty-statement-messages';
import { answerWithError, expectNoAxeViolations, inServerPage, launchBrowser, screenshot, WIDTHS, type Width } from '../support/browser.ts';
import { joinLoyaltyThroughApi, loyaltyAccountId, mailedLink } from '../support/mail.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { E2E_INTEGRATION_KEY, STAFF_ADMIN } from '../support/staff-admin.ts';

let browser: Browser;
let smtp: TestSmtpServer;
let server: ServerProcess;
let adminToken = '';
const run = Date.now().toString(36);
let addresses = 0;
const nextAddress = () => `198.51.102.${++addresses}`;

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'x-forwarded-for': nextAddress(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}
const asStaff = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  call(method, path, body, { Authorization: `Bearer ${adminToken}` });
const feed = (path: string, body: unknown) =>
  call('PUT', `/api/integrations/${path}`, body, { Authorization: `Bearer ${E2E_INTEGRATION_KEY}` });

/** A new member (through the guest's create call) with a hotel stay of `total` USD claimed when given: their account id. */
async function aMember(name: string, total?: number) {
  const email = `statement.${name}.${run}@example.com`;
  const created = await joinLoyaltyThroughApi(call, smtp, { email, firstName: 'Lia', lastName: 'Park' });
  expect(created.status, created.text).toBe(200);
  const reservationNumber = `ST${name.toUpperCase()}${run.toUpperCase()}`.slice(0, 32);
  if (total !== undefined) {
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const stay = { firstName: 'Lia', lastName: 'Park', email, arrival: day(3), departure: day(1), total };
    expect((await feed(`reservations/${reservationNumber}`, stay)).status).toBe(201);
    const claimed = await call('POST', '/api/loyalty/hotels/', { userID: created.text, email, reservationNumber });
    expect(claimed.status, claimed.text).toBe(200);
  }
  return { email, accountId: await loyaltyAccountId(call, smtp, email), reservationNumber };
}

/** The statement link mailed to this email (waits for it). */
const mailedStatementLink = (email: string) => mailedLink(smtp, email, server.baseUrl, '/loyalty/statement');

async function linkFor(email: string) {
  expect((await call('POST', '/api/loyalty/statement-link', { email })).status).toBe(202);
  return mailedStatementLink(email);
}

const members = { rich: '', empty: '', negative: '', removed: '' };
const richEmail = { value: '' };

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServerProcess(
    {
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'help@boardwalk.test',
      ADMIN_EMAIL: STAFF_ADMIN.email,
      ADMIN_PASSWORD: STAFF_ADMIN.password,
      INTEGRATION_API_KEYS: `e2e:${E2E_INTEGRATION_KEY}`,
      TRUST_PROXY: '127.0.0.1',
    },
    { dataFrom: inject('demoDataFolder') },
  );
  browser = await launchBrowser();
  const login = await call('POST', '/app/login/', { teamMemberUsername: STAFF_ADMIN.email, teamMemberPassword: STAFF_ADMIN.password });
  expect(login.status, login.text).toBe(201);
  adminToken = login.json().accessToken as string;

  for (const [name, points] of [
    ['Bronze', 100],
    ['Silver', 1000],
  ] as const) {
    const tier = await asStaff('POST', '/api/admin/loyalty-tiers/', {
      loyaltyTierName: name,
      loyaltyTierPointsToReach: points,
      loyaltyTierActive: true,
    });
    expect(tier.status, tier.text).toBe(201);
  }
  const rewards: Record<string, string> = {};
  for (const [name, cost, description] of [
    ['Free Soda', 50, 'Any fountain drink at a park restaurant'],
    ['Churro', 120, null],
    ['Family Dinner', 5000, 'Dinner for four at the Boardwalk Grill'],
  ] as const) {
    const reward = await asStaff('POST', '/api/admin/loyalty-rewards/', {
      loyaltyRewardName: name,
      loyaltyRewardPointsCost: cost,
      loyaltyRewardActive: true,
      ...(description && { loyaltyRewardDescription: description }),
    });
    expect(reward.status, reward.text).toBe(201);
    rewards[name] = reward.json().loyaltyRewardID as string;
  }

  // A member with a claimed stay (600 points, 2 a dollar: Bronze, on the way to Silver) and 60 goodwill adjustments: more than a page.
  const rich = await aMember('rich', 300);
  for (let i = 1; i <= 60; i++) {
    const adjusted = await asStaff('POST', '/api/admin/loyalty/adjust/', { userID: rich.accountId, points: 1, reason: `Goodwill ${i}` });
    expect(adjusted.status, adjusted.text).toBe(200);
  }
  richEmail.value = rich.email;
  members.rich = await linkFor(rich.email);
  members.empty = await linkFor((await aMember('empty')).email);
  members.removed = await linkFor((await aMember('removed')).email);

  // A member who spent their points on a Churro, then their stay was cancelled: below zero.
  const negative = await aMember('negative', 65);
  // Redeemed at Guest Services (a till needs the card's barcode, which only the card carries).
  const redeemed = await asStaff('POST', '/api/admin/loyalty/redemptions/', {
    userID: negative.accountId,
    rewardId: rewards.Churro,
    idempotencyKey: crypto.randomUUID(),
  });
  expect(redeemed.status, redeemed.text).toBe(200);
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const cancelled = await feed(`reservations/${negative.reservationNumber}`, {
    firstName: 'Lia',
    lastName: 'Park',
    email: negative.email,
    arrival: day(3),
    departure: day(1),
    total: 65,
    cancelled: true,
  });
  expect(cancelled.status, cancelled.text).toBeLessThan(300);
  members.negative = await linkFor(negative.email);
  const token = members.negative.split('#')[1]!;
  // The cancellation's reversal runs as a job: wait for it.
  const until = Date.now() + 20_000;
  while ((await call('GET', '/api/loyalty/statement', undefined, { Authorization: `Bearer ${token}` })).json().balance !== -120) {
    if (Date.now() > until) throw new Error('the cancelled stay was not reversed');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const removedId = await loyaltyAccountId(call, smtp, `statement.removed.${run}@example.com`);
  expect((await asStaff('DELETE', `/api/admin/loyalty/${removedId}`)).status).toBeLessThan(300);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

const inPage = (width: Width, body: (page: Page) => Promise<void>) =>
  inServerPage(browser, { baseUrl: server.baseUrl, width, clientAddress: nextAddress() }, body);

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const history = (page: Page) => page.getByRole('region', { name: 'History' }).getByRole('listitem');

describe.each([WIDTHS.mobile, WIDTHS.desktop])('at %i px', (width) => {
  it('asks for the email from /loyalty/, answers "Check Your Email", and the mailed link opens the statement (tier, rewards, Show More)', async () => {
    await inPage(width, async (page) => {
      await page.goto('/loyalty/');
      await page.getByRole('link', { name: 'See my points' }).click();
      await heading(page, 'My Points').waitFor();
      await page.getByLabel('Email').fill(richEmail.value);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-request');
      smtp.received.splice(0);
      await page.getByRole('button', { name: 'Email Me a Link' }).click();
      await heading(page, 'Check Your Email').waitFor();
      expect(await page.getByRole('status').textContent()).toContain(`If ${richEmail.value} belongs to a Brownie Points member`);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-sent');

      // The link opens as a new document, as from a mail app (not a change of fragment on this page).
      const link = await mailedStatementLink(richEmail.value);
      await page.goto('about:blank');
      await page.goto(link);
      await heading(page, 'My Points').waitFor();
      await page.getByText('660 points', { exact: true }).waitFor();
      // The token left the address bar.
      expect(new URL(page.url()).hash).toBe('');
      await page.getByRole('heading', { name: 'Tier: Bronze' }).waitFor();
      expect(await page.getByText('600 points earned in the last 365 days: 400 more points to reach').textContent()).toContain('Silver');
      const rewards = page.getByRole('region', { name: 'Rewards' }).getByRole('listitem');
      await expect
        .poll(() => rewards.filter({ hasText: 'Redeemable now' }).allTextContents())
        .toEqual([expect.stringContaining('Free Soda'), expect.stringContaining('Churro')]);
      expect(await rewards.filter({ hasText: 'Family Dinner' }).textContent()).toContain('5,000 points');
      await page.getByRole('region', { name: 'Your Card' }).waitFor();
      expect(await history(page).count()).toBe(50);
      expect(await history(page).first().textContent()).toContain('Adjusted by guest services: Goodwill 60');
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement');

      await page.getByRole('button', { name: 'Show More' }).click();
      await expect.poll(() => history(page).count()).toBe(61);
      expect(await history(page).last().textContent()).toMatch(/Earned: .+, (order|check|reservation) \S+/);
      expect(await page.getByRole('button', { name: 'Show More' }).count()).toBe(0);
      // A reload keeps the statement (the token stays in the tab).
      await page.reload();
      await page.getByText('660 points', { exact: true }).waitFor();
    });
  });

  it('shows the points expiring within 30 days with their date', async () => {
    await inPage(width, async (page) => {
      // The server's own answer, with points expiring in 12 days: this server's lots are all a year
      // away and its clock cannot move (the API tests read real lots near their date).
      const expiringAt = new Date(Date.now() + 12 * 86_400_000);
      await page.route('**/api/loyalty/statement', async (route) => {
        const answer = await route.fetch();
        await route.fulfill({
          response: answer,
          json: { ...(await answer.json()), expiringPoints: 25, expiringAt: expiringAt.toISOString() },
        });
      });
      await page.goto(members.rich);
      const note = page.getByTestId('statement-expiring');
      await note.waitFor();
      const date = expiringAt.toLocaleDateString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'America/Los_Angeles',
      });
      expect(await note.textContent()).toBe(`25 points expire on ${date}. Redeem them before then.`);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-expiring');
    });
  });

  it('shows a member with no entries yet', async () => {
    await inPage(width, async (page) => {
      await page.goto(members.empty);
      await page.getByText('0 points', { exact: true }).waitFor();
      await page.getByText('No points yet.').waitFor();
      expect(await page.getByRole('heading', { name: 'Tier: none yet' }).count()).toBe(1);
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-empty');
    });
  });

  it('shows a balance below zero with why, and nothing redeemable', async () => {
    await inPage(width, async (page) => {
      await page.goto(members.negative);
      await page.getByText('−120 points', { exact: true }).waitFor();
      await page.getByText('Your balance is below zero because a refund took back points you had already spent.').waitFor();
      expect(await page.getByText('Redeemable now').count()).toBe(0);
      expect(await history(page).first().textContent()).toContain('Taken back (cancelled)');
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-negative');
    });
  });

  it('shows the loading state while the statement is on its way', async () => {
    await inPage(width, async (page) => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/loyalty/statement', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(members.empty);
      await page.getByRole('status').filter({ hasText: 'Loading your points...' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-loading');
      release();
      await page.getByText('No points yet.').waitFor();
    });
  });

  it("refuses an invalid link and a removed member's link, offering a new one", async () => {
    await inPage(width, async (page) => {
      await page.goto('/loyalty/statement#not-a-real-token');
      await page.getByTestId('statement-link-refused').filter({ hasText: statementMessages.invalid }).waitFor();
      await page.getByRole('button', { name: 'Email Me a Link' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-invalid');

      await page.goto(members.removed);
      await page.getByTestId('statement-link-refused').filter({ hasText: statementMessages.invalid }).waitFor();
      // Asking again from the refusal works.
      await page.getByLabel('Email').fill(`someone.${run}@example.com`);
      await page.getByRole('button', { name: 'Email Me a Link' }).click();
      await heading(page, 'Check Your Email').waitFor();
    });
  });

  it('says an expired link expired, offering a new one', async () => {
    await inPage(width, async (page) => {
      // The server's own answer for a token past its 24 hours (the API tests move the clock).
      await answerWithError(page, '/api/loyalty/statement', 401, statementMessages.expired, {}, { reason: STATEMENT_REFUSALS.expired });
      await page.goto(members.empty);
      await page.getByTestId('statement-link-refused').filter({ hasText: statementMessages.expired }).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-expired');
    });
  });

  it('offers to try again when the statement cannot load', async () => {
    await inPage(width, async (page) => {
      await answerWithError(page, '/api/loyalty/statement', 500, 'Internal Server Error');
      await page.goto(members.empty);
      await page.getByText('We could not load your points just now.', { exact: false }).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'loyalty-statement-error');
      await page.unroute('**/api/loyalty/statement');
      await page.getByRole('button', { name: 'Try Again' }).click();
      await page.getByText('No points yet.').waitFor();
    });
  });
});
