// The loyalty member's card (the loyalty variant of the wallet calls): an Apple store card and
// a Google loyalty object with the member's name, number and balance, only for the wallet token
// of a claim (never the email alone), with the tier, and kept up to date: every ledger entry
// (claims, refunds, redemptions and their reversals) and every change of the tiers moves the
// card's update tag and goes through the delivery queue; so does what time alone changes (a
// tier lost as earns leave the 365-day window, a lot entering the 30-day window), once. A claim
// publishes only a member with a card; a card recorded during a claim still shows its points.
import { proofOf } from '../../test-support/loyalty.fixtures.ts';
import { LOYALTY_CLAIM_TOKEN } from '../guest/loyalty/loyalty.service.ts';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { LOYALTY_WALLET_TOKEN } from '@boardwalk/contract/loyalty';
import { WALLET_REFUSALS } from '@boardwalk/contract/wallet';
import * as schema from '@boardwalk/db/schema';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { startApnsDouble, type Push } from '../../test-support/apns-double.ts';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { GoogleDouble, writeServiceAccountKey } from '../../test-support/google-double.ts';
import { manifestProblems, opensslVerify, readPassStrings, unpackPass } from '../../test-support/pkpass-check.ts';
import { loginAs } from '../../test-support/staff.ts';
import { createTestApp, integrationAuth, LATER_JOBS_POLL, settleDeliveries, type TestApp } from '../../test-support/test-app.ts';
import { operatingDayStart } from '../platform/park-time.ts';
import { claimTickets } from '../loyalty/loyalty-claims.service.ts';
import { loyaltyCoreOf } from '../loyalty/loyalty.service.ts';
import { loyaltyPassMessages } from '../loyalty/loyalty-member.service.ts';
import { LOYALTY_ACCOUNT_CHANGED } from '../loyalty/loyalty.topics.ts';
import { operatingDay, shiftDate } from '../platform/park-time.ts';

const PASS_TYPE = 'pass.com.example.loyalty';
const ISSUER_ID = '3388000000022777777';
const CLIENT_EMAIL = 'wallet@boardwalk-loyalty.iam.gserviceaccount.com';
const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';
const PUBLIC_URL = 'https://wallet.example.com';

let t: TestApp;
let env: Record<string, string>;
let dir: string;
let rootCa: string;
let google: GoogleDouble;
let apns: Awaited<ReturnType<typeof startApnsDouble>>;
let pushes: Push[];
const logLines: string[] = [];
let ip = 0;
const nextAddress = () => `10.6.${(++ip >> 8) & 255}.${ip & 255}`;
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress() });
const today = () => new Date().toISOString();

/** A new member who claimed one order (one ticket of `price`): the claim's answer. */
async function memberWithClaim(email: string, orderId: string, price: number) {
  const purchaser = { firstName: 'Rosa', lastName: 'Parks', email };
  await putOrder(t.app, orderId, anOrder([{ barcode: `${orderId}00000001`, price }], { orderDate: today(), purchaser }));
  const created = await post('/api/loyalty/create', { email, firstName: 'Rosa', lastName: 'Parks', proof: proofOf(t, email) });
  expect(created.statusCode).toBe(200);
  const claim = await post('/api/loyalty/tickets/', { orderId, email, userID: created.body });
  expect(claim.statusCode, claim.body).toBe(200);
  const body = claim.json() as { balance: number; walletToken: string };
  // The account's id (what a proven code answers), as staff calls name it.
  const check = t.app.keys.verifyToken(LOYALTY_CLAIM_TOKEN.purpose, created.body);
  const userID = check.ok ? check.subject : '';
  return { userID, email, walletToken: body.walletToken, balance: body.balance };
}

/** Staff add a purchase on the member's behalf: a ledger entry like any claim. */
function staffAdds(member: { email: string; userID: string }, orderId: string) {
  return claimTickets(
    loyaltyCoreOf(t.app),
    { orderId, email: member.email, accountId: member.userID },
    { kind: 'staff', username: 'gina' },
  );
}

async function register(pass: { serialNumber: string; authenticationToken: string }, device: { id: string; pushToken: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/passkit/v1/devices/${device.id}/registrations/${PASS_TYPE}/${pass.serialNumber}`,
    headers: { authorization: `ApplePass ${pass.authenticationToken}` },
    payload: { pushToken: device.pushToken },
  });
  expect(res.statusCode).toBe(201);
}

const latestCard = (pass: { serialNumber: string; authenticationToken: string }) =>
  t.app.inject({
    method: 'GET',
    url: `/api/passkit/v1/passes/${PASS_TYPE}/${pass.serialNumber}`,
    headers: { authorization: `ApplePass ${pass.authenticationToken}` },
  });

const walletRows = async () =>
  JSON.stringify(
    await Promise.all([
      t.database.db.select().from(schema.walletPasses),
      t.database.db.select().from(schema.walletPassTokens),
      t.database.db.select().from(schema.deliveries),
    ]),
  );

/** The Apple card, checked the way a device would (manifest, openssl against Apple's root). */
async function appleCard(body: object) {
  const res = await post('/api/apple-wallet/', body);
  expect(res.statusCode, res.body).toBe(200);
  const unpacked = await unpackPass(res.rawPayload);
  expect(await manifestProblems(unpacked.dir)).toEqual([]);
  const verified = opensslVerify(unpacked.dir, rootCa);
  expect(verified.ok, verified.output).toBe(true);
  await unpacked.cleanup();
  return unpacked.pass as {
    serialNumber: string;
    authenticationToken: string;
    storeCard: Record<string, { key: string; value: unknown; changeMessage?: string }[]>;
    barcodes: { message: string; format: string }[];
  };
}

function googleObjects(link: string) {
  expect(link.startsWith(SAVE_PREFIX)).toBe(true);
  const jwt = link.slice(SAVE_PREFIX.length);
  return (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { payload: Record<string, unknown[]> }).payload;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-loyalty-pass-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  google = new GoogleDouble(publicKey, CLIENT_EMAIL);
  await google.start();
  const keyFile = join(dir, 'service-account.json');
  await writeServiceAccountKey(keyFile, privateKey, CLIENT_EMAIL, `${google.baseUrl}/token`);
  apns = await startApnsDouble(dir);
  pushes = apns.pushes;
  env = {
    DATA_DIR: dir,
    PUBLIC_URL,
    BRAND_NAME: 'Sea Breeze Pier',
    SUPPORT_EMAIL: 'help@seabreeze.example.com',
    APPLE_PASS_TYPE_ID: PASS_TYPE,
    APNS_URL: apns.url,
    APNS_CA_FILE: apns.caFile,
    GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
    GOOGLE_WALLET_KEY_FILE: keyFile,
    GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
    LOG_LEVEL: 'info',
  };
  // Deliveries run as soon as they are queued (createTestApp's window of 0): the test that
  // needs a change still queued has an app of its own with a window (appWithCoalescingWindow).
  t = await createTestApp({ env, logStream: { write: (line) => void logLines.push(line) } });
  rootCa = join(dir, 'certs', 'apple-dev-root.pem');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await google?.close();
  apns?.server.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * The calling test runs on an app (and database) of its own with a 1 s coalescing window: on
 * the file's app every settle would wait the window out.
 */
async function appWithCoalescingWindow() {
  const main = t;
  t = await createTestApp({
    env: { ...env, DELIVERY_COALESCE_SECONDS: '1', ...LATER_JOBS_POLL },
    logStream: { write: (line) => void logLines.push(line) },
  });
  onTestFinished(async () => {
    await t.close();
    t = main;
  });
}

describe('the loyalty variant of POST /api/apple-wallet/', () => {
  it('answers a signed store card with the member name, number and balance, the card token as the barcode, that openssl verifies offline', async () => {
    const member = await memberWithClaim('rosa.apple@example.com', '81000001', 42.5);
    const pass = await appleCard({ email: 'Rosa.Apple@example.com', walletToken: member.walletToken });
    const [account] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.id, member.userID));
    expect(pass).not.toHaveProperty('generic');
    expect(pass.storeCard.headerFields![0]).toMatchObject({ key: 'balance', value: 42, changeMessage: 'You now have %@ Brownie points' });
    expect(pass.storeCard.primaryFields![0]).toMatchObject({ key: 'member', value: 'Rosa Parks' });
    expect(pass.storeCard.secondaryFields![0]).toMatchObject({ key: 'memberNumber', value: account!.memberNumber });
    expect(pass.storeCard.secondaryFields![1]).toMatchObject({ key: 'tier', value: 'Member', changeMessage: 'You are now %@' });
    // The barcode carries the random card token (what a till spends against), the member number only its text.
    expect(account!.cardToken).toMatch(/^[0-9a-f]{32}$/);
    expect(pass.barcodes[0]).toEqual({
      format: 'PKBarcodeFormatCode128',
      message: account!.cardToken,
      messageEncoding: 'iso-8859-1',
      altText: account!.memberNumber,
    });
    const [row] = await t.database.db.select().from(schema.walletPasses).where(eq(schema.walletPasses.serialNumber, pass.serialNumber));
    expect(row).toMatchObject({ loyaltyAccountId: member.userID, barcode: null });
  });

  it('refuses the email alone, another email, a forged or an expired token with 401, and writes nothing', async () => {
    const member = await memberWithClaim('rosa.refused@example.com', '81000002', 10);
    const before = await walletRows();
    const alone = await post('/api/apple-wallet/', { email: member.email });
    expect(alone.statusCode).toBe(401);
    expect(alone.json()).toMatchObject({ message: loyaltyPassMessages.tokenRequired, reason: WALLET_REFUSALS.linkRequired });
    expect((await post('/api/google-wallet/', { email: member.email })).statusCode).toBe(401);
    const other = await post('/api/apple-wallet/', { email: 'rosa.apple@example.com', walletToken: member.walletToken });
    expect(other.statusCode).toBe(401);
    expect(other.json()).toMatchObject({ message: loyaltyPassMessages.invalid, reason: WALLET_REFUSALS.linkInvalid });
    const forged = t.app.keys.signToken('ticket-share', member.userID, 600);
    const forgedAnswer = await post('/api/apple-wallet/', { email: member.email, walletToken: forged });
    expect(forgedAnswer.statusCode).toBe(401);
    expect(forgedAnswer.json().reason).toBe(WALLET_REFUSALS.linkInvalid);
    expect((await post('/api/apple-wallet/', { email: member.email, walletToken: 'x'.repeat(3000) })).statusCode).toBe(400);

    // The claim's token lasts LOYALTY_WALLET_TOKEN.ttlSeconds; one past its expiry is refused as
    // expired. Signed already expired rather than by moving the clock: the app's jobs run
    // meanwhile, and on PGlite the database's clock is this process's Date, so a Google request
    // sent in that moment took its rate slot half an hour ahead and held every later one back
    // (RateBusy) for the rest of the file (7 tests failed, 2 of 6 full runs).
    const { exp } = JSON.parse(Buffer.from(member.walletToken.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
    expect(exp - Date.now() / 1000).toBeGreaterThan(LOYALTY_WALLET_TOKEN.ttlSeconds - 60);
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(LOYALTY_WALLET_TOKEN.ttlSeconds);
    const pastExpiry = t.app.keys.signToken(LOYALTY_WALLET_TOKEN.purpose, member.userID, -5);
    const expired = await post('/api/google-wallet/', { email: member.email, walletToken: pastExpiry });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ message: loyaltyPassMessages.tokenExpired, reason: WALLET_REFUSALS.linkExpired });
    expect(await walletRows()).toBe(before);
    expect(logLines.join('\n')).not.toContain(member.walletToken);
  });
});

describe('the loyalty variant of POST /api/google-wallet/', () => {
  it('answers a save link carrying a loyalty class and object with the balance and the member number', async () => {
    const member = await memberWithClaim('rosa.google@example.com', '81000003', 99.99);
    const res = await post('/api/google-wallet/', { email: member.email, walletToken: member.walletToken });
    expect(res.statusCode, res.body).toBe(200);
    const payload = googleObjects(res.body);
    expect(payload.genericObjects).toBeUndefined();
    const [account] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.id, member.userID));
    expect(payload.loyaltyClasses![0]).toMatchObject({
      id: `${ISSUER_ID}.brownie-points`,
      issuerName: 'Sea Breeze Pier',
      programName: 'Brownie Points',
      programLogo: { sourceUri: { uri: `${PUBLIC_URL}/api/google-wallet/program-logo.png` } },
    });
    expect(payload.loyaltyObjects![0]).toMatchObject({
      classId: `${ISSUER_ID}.brownie-points`,
      accountId: account!.memberNumber,
      accountName: 'Rosa Parks',
      loyaltyPoints: { label: 'Brownie Points', balance: { int: 99 } },
      barcode: { type: 'CODE_128', value: account!.cardToken, alternateText: account!.memberNumber },
      textModulesData: [expect.objectContaining({ id: 'tier', header: 'Tier', body: 'Member' })],
    });
  });

  it('serves the program logo Google fetches as a 660 x 660 PNG', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/google-wallet/program-logo.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    // The route's own caching, not the API answers' no-store.
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'png', width: 660, height: 660 });
  });
});

describe('a balance past 2^31 points', () => {
  it('shows right on the Apple card and goes to Google as a string (Google’s int is 32 bits)', async () => {
    const member = await memberWithClaim('rosa.rich@example.com', '81000010', 1);
    await t.database.db.insert(schema.loyaltyLedger).values(
      [2_000_000_000, 2_000_000_000].map((points) => ({
        accountId: member.userID,
        points,
        kind: 'adjustment' as const,
        reason: 'test',
        causedBy: 'system',
      })),
    );
    const pass = await appleCard({ email: member.email, walletToken: member.walletToken });
    expect(pass.storeCard.headerFields![0]).toMatchObject({ key: 'balance', value: 4_000_000_001 });
    const link = await post('/api/google-wallet/', { email: member.email, walletToken: member.walletToken });
    expect(link.statusCode, link.body).toBe(200);
    expect(googleObjects(link.body).loyaltyObjects![0]).toMatchObject({ loyaltyPoints: { balance: { string: '4000000001' } } });
  });
});

/**
 * The member's card in wallets: the Apple card registered on these devices and the Google
 * object saved, with the deliveries of that settled and the doubles' records cleared. The
 * account is published once the object is saved, so Google is known to show the card whatever
 * the link carried.
 */
async function cardInWallets(member: { userID: string; email: string; walletToken: string }, devices: { id: string; pushToken: string }[]) {
  const pass = await appleCard({ email: member.email, walletToken: member.walletToken });
  for (const device of devices) await register(pass, device);
  const link = await post('/api/google-wallet/', { email: member.email, walletToken: member.walletToken });
  const objectId = (googleObjects(link.body).loyaltyObjects![0] as { id: string }).id;
  google.saved.add(objectId);
  await t.database.db.transaction((tx) => t.app.jobs.publish(tx, LOYALTY_ACCOUNT_CHANGED, [member.userID]));
  await settleDeliveries(t.app);
  pushes.length = 0;
  google.objectCalls = [];
  return { pass, objectId };
}

/**
 * What reached this card since the last call: the pushes to the device and the Google updates
 * of the object; and how many pushes and updates reached any card.
 */
function deliveredTo(device: { pushToken: string }, objectId: string) {
  const sent = {
    pushes: pushes.filter((p) => p.path === `/3/device/${device.pushToken}`).length,
    google: google.objectCalls.filter((c) => c.path.endsWith(`/loyaltyObject/${objectId}`)).map((c) => c.body),
    all: pushes.length + google.objectCalls.length,
  };
  pushes.length = 0;
  google.objectCalls = [];
  return sent;
}

describe('keeping the card up to date', () => {
  it('a claim and a refund each move the update tag and push through the queue to APNs and Google', async () => {
    const member = await memberWithClaim('rosa.updates@example.com', '81000004', 30);
    const device = { id: 'loyalty-device-1', pushToken: 'ab'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);

    const serials = (since?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/passkit/v1/devices/${device.id}/registrations/${PASS_TYPE}${since ? `?passesUpdatedSince=${since}` : ''}`,
      });
    const first = (await serials()).json() as { serialNumbers: string[]; lastUpdated: string };
    expect(first.serialNumbers).toEqual([pass.serialNumber]);
    expect((await serials(first.lastUpdated)).statusCode).toBe(204);

    // Published without a change to what the card shows: nothing moves, nothing is sent.
    await t.database.db.transaction((tx) => t.app.jobs.publish(tx, LOYALTY_ACCOUNT_CHANGED, [member.userID]));
    await settleDeliveries(t.app);
    expect((await serials(first.lastUpdated)).statusCode).toBe(204);
    expect(pushes).toEqual([]);
    expect(google.objectCalls).toEqual([]);

    await putOrder(t.app, '81000005', anOrder([{ barcode: '8100000500000001', price: 12.75 }], { orderDate: today() }));
    const staffClaim = await staffAdds(member, '81000005');
    expect(staffClaim.balance).toBe(42);
    await settleDeliveries(t.app);

    expect(pushes.map((p) => p.path)).toEqual([`/3/device/${device.pushToken}`]);
    expect(google.objectCalls).toHaveLength(1);
    expect(google.objectCalls[0]!.path).toBe(`/walletobjects/v1/loyaltyObject/${objectId}`);
    expect(google.objectCalls[0]!.body).toMatchObject({ id: objectId, loyaltyPoints: { balance: { int: 42 } } });
    const second = (await serials(first.lastUpdated)).json() as { serialNumbers: string[]; lastUpdated: string };
    expect(second.serialNumbers).toEqual([pass.serialNumber]);
    expect(BigInt(second.lastUpdated)).toBeGreaterThan(BigInt(first.lastUpdated));
    const latest = await latestCard(pass);
    expect(latest.statusCode).toBe(200);
    const updated = await unpackPass(latest.rawPayload);
    await updated.cleanup();
    expect((updated.pass as typeof pass).storeCard.headerFields![0]!.value).toBe(42);

    // The ticketing feed refunds the first claimed ticket: the reversal entry updates the card again.
    pushes.length = 0;
    google.objectCalls = [];
    const refund = await t.app.inject({
      method: 'PUT',
      url: '/api/integrations/orders/81000004',
      headers: integrationAuth,
      payload: anOrder([{ barcode: '8100000400000001', price: 30, refunded: true }], { orderDate: today() }),
    });
    expect(refund.statusCode).toBe(200);
    await settleDeliveries(t.app);
    await settleDeliveries(t.app);
    expect(pushes).toHaveLength(1);
    expect(google.objectCalls.map((c) => c.body)).toMatchObject([{ loyaltyPoints: { balance: { int: 12 } } }]);
    const third = (await serials(second.lastUpdated)).json() as { serialNumbers: string[] };
    expect(third.serialNumbers).toEqual([pass.serialNumber]);
  }, 60_000);

  it('a card added again on another device leaves the stored content: a change still queued reaches the first device', async () => {
    await appWithCoalescingWindow();
    const member = await memberWithClaim('rosa.again@example.com', '81000006', 20);
    const pass = await appleCard({ email: member.email, walletToken: member.walletToken });
    await register(pass, { id: 'again-phone', pushToken: 'cd'.repeat(32) });
    await settleDeliveries(t.app);
    pushes.length = 0;
    await putOrder(t.app, '81000007', anOrder([{ barcode: '8100000700000001', price: 5 }], { orderDate: today() }));
    await staffAdds(member, '81000007');
    // Before the account's change job runs (coalescing), the member adds the card on a tablet.
    const again = await appleCard({ email: member.email, walletToken: member.walletToken });
    expect(again.serialNumber).toBe(pass.serialNumber);
    expect(again.storeCard.headerFields![0]!.value).toBe(25);
    await settleDeliveries(t.app);
    expect(pushes.map((p) => p.path)).toEqual([`/3/device/${'cd'.repeat(32)}`]);
  }, 60_000);
});

describe('a claim publishes the account only when it holds a card', () => {
  const accountJobs = async (accountId: string) => {
    const { rows } = await t.database.executeSql(`select count(*)::int as n from pgboss.job where name = $1 and data->>'accountId' = $2`, [
      'loyalty-account-changed',
      accountId,
    ]);
    return Number(rows[0]!.n);
  };

  it('a member with no card: no job; with an Apple card or only a Google link handed out: one job per claim', async () => {
    const member = await memberWithClaim('rosa.nocard@example.com', '81000030', 10);
    await putOrder(t.app, '81000031', anOrder([{ barcode: '8100003100000001', price: 5 }], { orderDate: today() }));
    await staffAdds(member, '81000031');
    expect(await accountJobs(member.userID)).toBe(0);

    // The Apple card: its issuing publishes the account once, and each claim after it once.
    await appleCard({ email: member.email, walletToken: member.walletToken });
    expect(await accountJobs(member.userID)).toBe(1);
    await settleDeliveries(t.app);
    await putOrder(t.app, '81000032', anOrder([{ barcode: '8100003200000001', price: 5 }], { orderDate: today() }));
    await staffAdds(member, '81000032');
    expect(await accountJobs(member.userID)).toBe(2);

    // Only a Google link handed out (no Apple card) counts as a card too.
    const other = await memberWithClaim('rosa.googleonly@example.com', '81000033', 10);
    const link = await post('/api/google-wallet/', { email: other.email, walletToken: other.walletToken });
    expect(link.statusCode).toBe(200);
    await putOrder(t.app, '81000034', anOrder([{ barcode: '8100003400000001', price: 5 }], { orderDate: today() }));
    await staffAdds(other, '81000034');
    expect(await accountJobs(other.userID)).toBe(1);
    await settleDeliveries(t.app);
  }, 60_000);

  /** Staff add the purchase; the claim's transaction stays open, holding the account's lock, until `end`. */
  async function heldClaim(member: { email: string; userID: string }, orderId: string) {
    let end!: () => void;
    const held = new Promise<void>((resolve) => (end = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const core = loyaltyCoreOf(t.app);
    const db = Object.assign(Object.create(core.db) as typeof core.db, {
      transaction: ((work: Parameters<typeof core.db.transaction>[0]) =>
        core.db.transaction(async (tx) => {
          const outcome = await work(tx);
          wrote();
          await held;
          return outcome;
        })) as typeof core.db.transaction,
    });
    const claim = claimTickets(
      { ...core, db },
      { orderId, email: member.email, accountId: member.userID },
      { kind: 'staff', username: 'gina' },
    );
    await Promise.race([written, claim]);
    return { claim, end };
  }

  /** Waits until another connection's insert of a card row waits on a lock. */
  async function cardRecordingWaits() {
    for (const until = Date.now() + 10_000; Date.now() < until;) {
      const { rows } = await t.database.executeSql(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into "wallet_passes"%'`,
        [],
      );
      if (Number(rows[0]!.n) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no card recording waited for the claim');
  }

  // Two connections at once: PGlite has one.
  it.skipIf(testDbKind() !== 'postgres')(
    "a card recorded while a claim is in flight waits for it and shows its points: Apple through the issuing's job, Google in the link",
    async () => {
      const member = await memberWithClaim('rosa.inflight@example.com', '81000035', 10);
      await putOrder(t.app, '81000036', anOrder([{ barcode: '8100003600000001', price: 7 }], { orderDate: today() }));
      const apple = await heldClaim(member, '81000036');
      try {
        // The member adds the card: read before the claim ends, recorded after.
        const card = appleCard({ email: member.email, walletToken: member.walletToken });
        await cardRecordingWaits();
        apple.end();
        expect((await apple.claim).balance).toBe(17);
        const pass = await card;
        expect(pass.storeCard.headerFields![0]!.value).toBe(10);
        await settleDeliveries(t.app);
        const latest = await latestCard(pass);
        expect(latest.statusCode).toBe(200);
        const updated = await unpackPass(latest.rawPayload);
        await updated.cleanup();
        expect((updated.pass as typeof pass).storeCard.headerFields![0]!.value).toBe(17);
      } finally {
        apple.end();
      }

      const other = await memberWithClaim('rosa.inflight.google@example.com', '81000037', 10);
      await putOrder(t.app, '81000038', anOrder([{ barcode: '8100003800000001', price: 7 }], { orderDate: today() }));
      const google = await heldClaim(other, '81000038');
      try {
        const link = post('/api/google-wallet/', { email: other.email, walletToken: other.walletToken });
        await cardRecordingWaits();
        google.end();
        expect((await google.claim).balance).toBe(17);
        const res = await link;
        expect(res.statusCode).toBe(200);
        expect(googleObjects(res.body).loyaltyObjects![0]).toMatchObject({ loyaltyPoints: { balance: { int: 17 } } });
        // The claim saw no card: it published nothing (a link publishes nothing either).
        expect(await accountJobs(other.userID)).toBe(0);
      } finally {
        google.end();
      }
    },
    60_000,
  );
});

describe('removing a member voids their cards', () => {
  const serialsOf = (deviceId: string) =>
    t.app.inject({ method: 'GET', url: `/api/passkit/v1/devices/${deviceId}/registrations/${PASS_TYPE}` });
  const registrations = (serialNumber: string) =>
    t.database.db.$count(schema.appleDeviceRegistrations, eq(schema.appleDeviceRegistrations.serialNumber, serialNumber));
  type FetchedCard = { voided?: boolean; barcodes?: unknown; storeCard: Record<string, { key: string; value: unknown }[]> };

  /** The card a device fetches with its token: checked voided and free of every personal value. */
  async function fetchVoided(pass: { serialNumber: string; authenticationToken: string }, personal: string[]) {
    const latest = await latestCard(pass);
    expect(latest.statusCode).toBe(200);
    const card = await unpackPass(latest.rawPayload);
    await card.cleanup();
    const fetched = card.pass as FetchedCard;
    expect(fetched.voided).toBe(true);
    expect(fetched.barcodes).toBeUndefined();
    expect(fetched.storeCard.headerFields).toBeUndefined();
    expect(fetched.storeCard.primaryFields).toEqual([expect.objectContaining({ value: 'Membership ended' })]);
    const shown = JSON.stringify(card.pass);
    for (const value of personal) expect(shown).not.toContain(value);
  }

  it('pushes the voided card to both devices, makes the Google object INACTIVE and keeps nothing personal or registered', async () => {
    const member = await memberWithClaim('rosa.removed@example.com', '81000008', 8);
    const [account] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.id, member.userID));
    const devices = [
      { id: 'removed-phone', pushToken: 'ef'.repeat(32) },
      { id: 'removed-watch', pushToken: '0e'.repeat(32) },
    ];
    const { pass, objectId } = await cardInWallets(member, devices);
    const personal = [account!.memberNumber, 'Rosa', 'Parks', member.email, member.userID];

    const staff = await loginAs(t.app, { accessLevel: 100 });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/admin/loyalty/${member.userID}`, headers: staff.headers });
    expect(removed.statusCode, removed.body).toBe(200);
    await settleDeliveries(t.app);

    expect(pushes.map((p) => p.path).sort()).toEqual(devices.map((d) => `/3/device/${d.pushToken}`).sort());
    expect(google.objectCalls).toHaveLength(1);
    expect(google.objectCalls[0]).toMatchObject({
      method: 'PUT',
      path: `/walletobjects/v1/loyaltyObject/${objectId}`,
      body: { id: objectId, state: 'INACTIVE' },
    });
    const googleBody = JSON.stringify(google.objectCalls[0]!.body);
    for (const value of personal) expect(googleBody).not.toContain(value);
    expect(google.objectCalls[0]!.body).not.toHaveProperty('loyaltyPoints');
    expect(google.objectCalls[0]!.body).not.toHaveProperty('barcode');

    for (const device of devices) {
      const listed = await serialsOf(device.id);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().serialNumbers).toEqual([pass.serialNumber]);
      await fetchVoided(pass, personal);
    }
    // Told once: the devices are no longer registered, nothing more is pushed to them.
    expect(await registrations(pass.serialNumber)).toBe(0);
    for (const device of devices) expect((await serialsOf(device.id)).statusCode).toBe(204);
    // Deliveries keep the (random) user id their jobs were queued for; nothing else of the member.
    const rows = await walletRows();
    for (const value of personal.filter((v) => v !== member.userID)) expect(rows).not.toContain(value);
    const passRows = JSON.stringify(await t.database.db.select().from(schema.walletPasses));
    expect(passRows).not.toContain(member.userID);
    const [row] = await t.database.db.select().from(schema.walletPasses).where(eq(schema.walletPasses.serialNumber, pass.serialNumber));
    expect(row).toMatchObject({ loyaltyAccountId: null, barcode: null, voidedAt: expect.any(Date) });

    // The old token still answers, with the voided card only; no device can register for it again.
    await fetchVoided(pass, personal);
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/passkit/v1/devices/late-phone/registrations/${PASS_TYPE}/${pass.serialNumber}`,
      headers: { authorization: `ApplePass ${pass.authenticationToken}` },
      payload: { pushToken: 'aa'.repeat(32) },
    });
    expect(late.statusCode).toBe(200);
    expect(await registrations(pass.serialNumber)).toBe(0);
    expect((await post('/api/apple-wallet/', { email: member.email, walletToken: member.walletToken })).statusCode).toBe(401);
  }, 60_000);

  it('an account whose card was not voided cannot be deleted: the card would keep showing the member', async () => {
    const member = await memberWithClaim('rosa.unvoided@example.com', '81000009', 8);
    await appleCard({ email: member.email, walletToken: member.walletToken });
    await expect(t.database.db.delete(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.id, member.userID))).rejects.toThrow();
    expect(await t.database.db.$count(schema.loyaltyAccounts, eq(schema.loyaltyAccounts.id, member.userID))).toBe(1);
  });
});

describe('the card follows redemptions and tiers', () => {
  /** The Apple card's tier field as a device fetches it now. */
  async function tierOnCard(pass: { serialNumber: string; authenticationToken: string }) {
    const latest = await latestCard(pass);
    expect(latest.statusCode).toBe(200);
    const card = await unpackPass(latest.rawPayload);
    await card.cleanup();
    const fetched = card.pass as typeof pass & { storeCard: Record<string, { key: string; value: unknown; changeMessage?: string }[]> };
    return {
      tier: fetched.storeCard.secondaryFields!.find((f) => f.key === 'tier'),
      balance: fetched.storeCard.headerFields![0]!.value,
      spanish: readPassStrings(card.files.get('es.lproj/pass.strings')!),
    };
  }
  /** A challenge's field on the Apple card as a device fetches it now (on the front or the back). */
  async function challengeOnCard(pass: { serialNumber: string; authenticationToken: string }, key: string) {
    const latest = await latestCard(pass);
    expect(latest.statusCode).toBe(200);
    const card = await unpackPass(latest.rawPayload);
    await card.cleanup();
    const fields = (card.pass as { storeCard: Record<string, { key: string; value: unknown; changeMessage?: string }[]> }).storeCard;
    return {
      field: [...(fields.auxiliaryFields ?? []), ...(fields.backFields ?? [])].find((f) => f.key === key),
      balance: fields.headerFields![0]!.value,
      spanish: readPassStrings(card.files.get('es.lproj/pass.strings')!),
    };
  }
  const updateTag = async (serialNumber: string) => {
    const [row] = await t.database.db.select().from(schema.walletPasses).where(eq(schema.walletPasses.serialNumber, serialNumber));
    return row!.updatedAt.getTime();
  };

  it('a challenge shows its progress on both cards; completing it shows the bonus, with a lock-screen message on Apple and a notifying message on Google', async () => {
    const member = await memberWithClaim('rosa.challenge@example.com', '81000024', 20);
    const day = operatingDay(new Date(), t.app.config.parkTimezone);
    const [campaign] = await t.database.db
      .insert(schema.loyaltyCampaigns)
      .values({
        name: 'Visit Twice',
        nameEs: 'Visite dos veces',
        kind: 'challenge',
        goal: 'days',
        goalCount: 2,
        bonusPoints: 250,
        validFrom: shiftDate(day, -7),
        validTo: shiftDate(day, 7),
      })
      .returning();
    // The other tests' cards show no challenge.
    onTestFinished(async () => {
      await t.database.db.update(schema.loyaltyCampaigns).set({ active: false }).where(eq(schema.loyaltyCampaigns.id, campaign!.id));
    });
    const key = `challenge-${campaign!.id}`;
    const device = { id: 'challenge-phone', pushToken: 'e7'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);
    const before = await challengeOnCard(pass, key);
    expect(before.field).toEqual({ key, label: 'Visit Twice', value: '1 of 2 days' });
    expect(before.spanish.get('Visit Twice')).toBe('Visite dos veces');
    expect(before.spanish.get('1 of 2 days')).toBe('1 de 2 días');
    const link = await post('/api/google-wallet/', { email: member.email, walletToken: member.walletToken });
    const object = googleObjects(link.body).loyaltyObjects![0] as { textModulesData: unknown[]; messages?: unknown[] };
    expect(object.textModulesData).toContainEqual(expect.objectContaining({ id: key, header: 'Visit Twice', body: '1 of 2 days' }));
    expect(object.messages).toBeUndefined();

    // A second day: the queue settles the challenge, and the cards follow.
    // The afternoon of the operating day before today's (24 hours back may be today's on a 25-hour day).
    const yesterday = new Date(operatingDayStart(new Date(), 'America/Los_Angeles').getTime() - 12 * 3_600_000).toISOString();
    await putOrder(t.app, '81000025', anOrder([{ barcode: '8100002500000001', price: 10 }], { orderDate: yesterday }));
    await staffAdds(member, '81000025');
    await settleDeliveries(t.app);
    const after = await challengeOnCard(pass, key);
    expect(after.field).toEqual({ key, label: 'Visit Twice', value: '250 points earned', changeMessage: 'Challenge complete: %@' });
    expect(after.balance).toBe(20 + 10 + 250);
    expect(after.spanish.get('Challenge complete: %@')).toBe('Reto completado: %@');
    expect(after.spanish.get('250 points earned')).toBe('250 puntos ganados');
    const sent = deliveredTo(device, objectId);
    expect(sent.pushes).toBeGreaterThan(0);
    expect(sent.google.at(-1)).toMatchObject({
      textModulesData: expect.arrayContaining([expect.objectContaining({ id: key, body: '250 points earned' })]),
      messages: [
        expect.objectContaining({
          id: key,
          header: 'Visit Twice',
          body: 'Challenge complete! You earned 250 Brownie points.',
          messageType: 'TEXT_AND_NOTIFY',
        }),
      ],
    });
  }, 60_000);

  it('a staff redemption and its reversal at the till each move the update tag and send one push and one Google update', async () => {
    const member = await memberWithClaim('rosa.redeems@example.com', '81000011', 60);
    const device = { id: 'redeem-phone', pushToken: 'a1'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);
    const staff = await loginAs(t.app, { accessLevel: 100 });
    const [reward] = await t.database.db.insert(schema.loyaltyRewards).values({ name: 'Soft serve', pointsCost: 25 }).returning();

    const tag = await updateTag(pass.serialNumber);
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/loyalty/redemptions/',
      headers: staff.headers,
      payload: { userID: member.userID, rewardId: reward!.id, idempotencyKey: crypto.randomUUID() },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    await settleDeliveries(t.app);
    const afterRedemption = deliveredTo(device, objectId);
    expect(afterRedemption.pushes).toBe(1);
    expect(afterRedemption.google).toEqual([
      expect.objectContaining({ loyaltyPoints: expect.objectContaining({ label: 'Brownie Points', balance: { int: 35 } }) }),
    ]);
    const redeemedTag = await updateTag(pass.serialNumber);
    expect(redeemedTag).toBeGreaterThan(tag);
    expect((await tierOnCard(pass)).balance).toBe(35);

    const reversed = await t.app.inject({
      method: 'POST',
      url: `/api/integrations/loyalty/redemptions/${redeemed.json().redemptionId}/reverse`,
      headers: integrationAuth,
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    await settleDeliveries(t.app);
    const afterReversal = deliveredTo(device, objectId);
    expect(afterReversal.pushes).toBe(1);
    expect(afterReversal.google).toEqual([
      expect.objectContaining({ loyaltyPoints: expect.objectContaining({ label: 'Brownie Points', balance: { int: 60 } }) }),
    ]);
    expect(await updateTag(pass.serialNumber)).toBeGreaterThan(redeemedTag);
    expect((await tierOnCard(pass)).balance).toBe(60);
  }, 60_000);

  it('a new tier the member reaches, and its deactivation, each update the card once: "You are now %@" on Apple, the tier on Google', async () => {
    const member = await memberWithClaim('rosa.tiers@example.com', '81000012', 1000);
    const device = { id: 'tier-phone', pushToken: 'b2'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);
    expect((await tierOnCard(pass)).tier).toEqual({
      key: 'tier',
      label: 'Tier',
      value: 'Member',
      changeMessage: 'You are now %@',
      textAlignment: 'PKTextAlignmentRight',
    });
    const admin = await loginAs(t.app, { accessLevel: 1000 });

    const tag = await updateTag(pass.serialNumber);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/loyalty-tiers/',
      headers: admin.headers,
      payload: {
        loyaltyTierName: 'Boardwalk Gold',
        loyaltyTierNameEs: 'Oro Boardwalk',
        loyaltyTierPointsToReach: 900,
        loyaltyTierActive: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await settleDeliveries(t.app);
    const reached = deliveredTo(device, objectId);
    expect(reached.pushes).toBe(1);
    expect(reached.google).toEqual([
      expect.objectContaining({ textModulesData: [expect.objectContaining({ id: 'tier', header: 'Tier', body: 'Boardwalk Gold' })] }),
    ]);
    // The Spanish name staff wrote: Google's translation, and the English name's entry in Apple's es.lproj.
    const localizedBody = {
      defaultValue: { language: 'en-US', value: 'Boardwalk Gold' },
      translatedValues: [{ language: 'es', value: 'Oro Boardwalk' }],
    };
    expect(reached.google).toEqual([
      expect.objectContaining({ textModulesData: [expect.objectContaining({ id: 'tier', localizedBody })] }),
    ]);
    const reachedTag = await updateTag(pass.serialNumber);
    expect(reachedTag).toBeGreaterThan(tag);
    const onCard = await tierOnCard(pass);
    expect(onCard.tier).toMatchObject({ value: 'Boardwalk Gold', changeMessage: 'You are now %@' });
    expect(onCard.spanish.get('Boardwalk Gold')).toBe('Oro Boardwalk');

    const tierId = created.json().loyaltyTierID as string;
    const deactivated = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/loyalty-tiers/${tierId}`,
      headers: admin.headers,
      payload: { loyaltyTierActive: false },
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    await settleDeliveries(t.app);
    const dropped = deliveredTo(device, objectId);
    expect(dropped.pushes).toBe(1);
    expect(dropped.google).toEqual([
      expect.objectContaining({ textModulesData: [expect.objectContaining({ id: 'tier', header: 'Tier', body: 'Member' })] }),
    ]);
    expect(await updateTag(pass.serialNumber)).toBeGreaterThan(reachedTag);
    expect((await tierOnCard(pass)).tier).toMatchObject({ value: 'Member' });
  }, 60_000);
});

describe('points expiring soon', () => {
  it('shows the points expiring within 30 days with their date on the Apple card and the Google object', async () => {
    const member = await memberWithClaim('rosa.expiring@example.com', '81000013', 75);
    const before = await appleCard({ email: member.email, walletToken: member.walletToken });
    expect(before.storeCard.auxiliaryFields).toBeUndefined();
    // The claim's lot expires in 12 months; moved to 10 days from now, it is expiring soon.
    const inTenDays = new Date(Date.now() + 10 * 86_400_000);
    await t.database.db.update(schema.loyaltyLots).set({ expiresAt: inTenDays }).where(eq(schema.loyaltyLots.accountId, member.userID));
    const day = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }).format(inTenDays);
    const pass = await appleCard({ email: member.email, walletToken: member.walletToken });
    expect(pass.storeCard.auxiliaryFields).toEqual([{ key: 'expiring', label: 'Expiring Soon', value: `75 points on ${day}` }]);
    const link = await post('/api/google-wallet/', { email: member.email, walletToken: member.walletToken });
    expect(googleObjects(link.body).loyaltyObjects![0]).toMatchObject({
      textModulesData: [
        expect.objectContaining({ id: 'tier', header: 'Tier', body: 'Member' }),
        expect.objectContaining({ id: 'expiring', header: 'Expiring Soon', body: `75 points on ${day}` }),
      ],
    });
  });
});

describe('time alone changes the card: the hourly expiry job publishes it once', () => {
  // Last in the file: the clock only moves forward from here, as the job's own does.
  const DAY = 86_400_000;
  /** One run of the hourly expiry job with the clock at `at` (the app's and the job's), its deliveries settled. */
  async function hourlyRun(at: Date) {
    // The clock runs on from there (PGlite's now() reads it too, and the deliveries wait for it).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(at);
    await t.database.db.transaction((tx) => t.app.jobs.send(tx, { name: 'loyalty-expiry', data: {}, singletonKey: 'loyalty-expiry' }));
    await settleDeliveries(t.app);
  }
  const lotsOf = (accountId: string) => t.database.db.select().from(schema.loyaltyLots).where(eq(schema.loyaltyLots.accountId, accountId));

  it('a card already in wallets when the migration gave its account a card token is republished once with the token as its barcode', async () => {
    const member = await memberWithClaim('rosa.token@example.com', '81000016', 20);
    const device = { id: 'token-phone', pushToken: 'f6'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);
    // As before the migration: the card shows a barcode the account no longer has (the member number then).
    await t.database.executeSql(
      `update loyalty_accounts set card_token = replace(gen_random_uuid()::text, '-', '') where id = '${member.userID}'`,
    );
    const [account] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.id, member.userID));
    // The migration's own hand-written statements, then the expiry job's run at start.
    const migrations = new URL('../../../../packages/db/migrations/', import.meta.url);
    const handWritten = readdirSync(migrations)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => readFileSync(new URL(name, migrations), 'utf8'))
      .find((sql) => sql.includes('-- hand-written') && sql.includes('"card_token"'))!
      .split('-- hand-written (keep when renumbering)')[1]!;
    await t.database.executeSql(handWritten);
    await hourlyRun(new Date());
    const sent = deliveredTo(device, objectId);
    expect(sent.pushes).toBe(1);
    expect(sent.google).toEqual([
      expect.objectContaining({ barcode: { type: 'CODE_128', value: account!.cardToken, alternateText: account!.memberNumber } }),
    ]);
    const card = await unpackPass((await latestCard(pass)).rawPayload);
    await card.cleanup();
    expect((card.pass as typeof pass).barcodes[0]).toMatchObject({ message: account!.cardToken, altText: account!.memberNumber });
    // Once: the next hour republishes nothing.
    await hourlyRun(new Date(Date.now() + 3_600_000));
    expect(deliveredTo(device, objectId)).toEqual({ pushes: 0, google: [], all: 0 });
  }, 60_000);

  it('a lot entering the 30-day window shows its points and date on the card: one push, one Google update; the next hour none', async () => {
    const member = await memberWithClaim('rosa.window@example.com', '81000014', 80);
    const device = { id: 'window-phone', pushToken: 'c3'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);
    const [lot] = await lotsOf(member.userID);
    const expiresAt = lot!.expiresAt!;

    // An hour before the lot is 30 days from its date: nothing to show yet.
    await hourlyRun(new Date(expiresAt.getTime() - 30 * DAY - 3_600_000));
    expect(deliveredTo(device, objectId)).toMatchObject({ pushes: 0, google: [] });

    await hourlyRun(new Date(expiresAt.getTime() - 30 * DAY + 60_000));
    const day = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }).format(expiresAt);
    const entered = deliveredTo(device, objectId);
    expect(entered.pushes).toBe(1);
    expect(entered.google).toEqual([
      expect.objectContaining({
        textModulesData: [
          expect.objectContaining({ id: 'tier', header: 'Tier', body: 'Member' }),
          expect.objectContaining({ id: 'expiring', header: 'Expiring Soon', body: `80 points on ${day}` }),
        ],
      }),
    ]);
    const card = await unpackPass((await latestCard(pass)).rawPayload);
    await card.cleanup();
    expect((card.pass as typeof pass).storeCard.auxiliaryFields).toEqual([
      { key: 'expiring', label: 'Expiring Soon', value: `80 points on ${day}` },
    ]);

    // The next hour crosses no edge: nothing is published, so nothing reaches any wallet.
    await hourlyRun(new Date(expiresAt.getTime() - 30 * DAY + 3_660_000));
    expect(deliveredTo(device, objectId)).toEqual({ pushes: 0, google: [], all: 0 });
  }, 60_000);

  it('a tier lost because earned points left the 365-day window: one push ("You are now Member"), one Google update; the next hour none', async () => {
    await t.database.db.insert(schema.loyaltyTiers).values({ name: 'Pier Silver', pointsToReach: 1500 });
    const member = await memberWithClaim('rosa.window.tier@example.com', '81000015', 1600);
    // Its lot never expires: only the window moves.
    await t.database.db.update(schema.loyaltyLots).set({ expiresAt: null }).where(eq(schema.loyaltyLots.accountId, member.userID));
    const device = { id: 'window-tier-phone', pushToken: 'd4'.repeat(32) };
    const { pass, objectId } = await cardInWallets(member, [device]);
    const [earned] = await t.database.db.select().from(schema.loyaltyLedger).where(eq(schema.loyaltyLedger.accountId, member.userID));
    const leaves = earned!.createdAt.getTime() + 365 * DAY;

    await hourlyRun(new Date(leaves - 60_000));
    expect(deliveredTo(device, objectId)).toMatchObject({ pushes: 0, google: [] });

    await hourlyRun(new Date(leaves + 60_000));
    const lost = deliveredTo(device, objectId);
    expect(lost.pushes).toBe(1);
    expect(lost.google).toEqual([
      expect.objectContaining({ textModulesData: [expect.objectContaining({ id: 'tier', header: 'Tier', body: 'Member' })] }),
    ]);
    const card = await unpackPass((await latestCard(pass)).rawPayload);
    await card.cleanup();
    const fields = (card.pass as typeof pass).storeCard;
    expect(fields.secondaryFields!.find((f) => f.key === 'tier')).toMatchObject({ value: 'Member', changeMessage: 'You are now %@' });
    expect(fields.headerFields![0]!.value).toBe(1600);

    await hourlyRun(new Date(leaves + 3_660_000));
    expect(deliveredTo(device, objectId)).toEqual({ pushes: 0, google: [], all: 0 });
  }, 60_000);
});
