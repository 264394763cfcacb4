// POST /api/google-wallet/callbacks: Google's save and delete callbacks, signed here with the
// tests' own root and intermediate keys (GOOGLE_WALLET_ROOT_KEYS names their key document).
// A verified event is recorded once per nonce and sets the pass's state; anything not signed
// by a root key, expired or malformed answers 400 and records nothing; a deleted object gets
// no more updates; every callback is counted on /metrics.
import { eventsOfType, readEventFeed } from '../../../test-support/events.ts';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVerifier } from 'fast-jwt';
import { eq } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import type { StaffAccount, StaffLoyaltyOrder } from '@boardwalk/contract/staff-loyalty';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenericClass, GenericObject } from './google-wallet.ts';
import { DEVELOPMENT_ISSUER_ID } from './google-wallet-credentials.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { GoogleCallbackSigner, unknownRootKey } from '../../../test-support/google-callbacks-double.ts';
import { GoogleDouble, pem, writeServiceAccountKey } from '../../../test-support/google-double.ts';
import { loginAs } from '../../../test-support/staff.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

const ISSUER_ID = '3388000000022654321';
const CLIENT_EMAIL = 'wallet@boardwalk-test.iam.gserviceaccount.com';
const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';
const PUBLIC_URL = 'https://wallet.example.com';
const URL = '/api/google-wallet/callbacks';

let t: TestApp;
let google: GoogleDouble;
let signer: GoogleCallbackSigner;
let dir: string;
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const dayTicket = (barcode: string, cash: number) => ({
  barcode,
  product: 'Day Ticket',
  cash,
  holder: { firstName: 'Ana', lastName: 'Lopez' },
});

/** The save link's class and object (the JWT verified with the service account's key). */
async function issueLink(orderId: string, barcode: string): Promise<{ object: GenericObject; walletClass: GenericClass }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: { orderId, barcode }, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  const claims = createVerifier({ key: pem(google.publicKey), algorithms: ['RS256'] })(res.body.slice(SAVE_PREFIX.length)) as {
    payload: { genericObjects: GenericObject[]; genericClasses: GenericClass[] };
  };
  return { object: claims.payload.genericObjects[0]!, walletClass: claims.payload.genericClasses[0]! };
}

const post = (payload: unknown) => t.app.inject({ method: 'POST', url: URL, payload: payload as object });
const recorded = () => t.app.database.db.select().from(schema.googleWalletCallbacks);
const passOf = async (objectId: string) =>
  (
    await t.app.database.db
      .select()
      .from(schema.walletPasses)
      .where(eq(schema.walletPasses.serialNumber, objectId.split('.')[1]!))
  )[0]!;

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  google = new GoogleDouble(publicKey, CLIENT_EMAIL);
  await google.start();
  dir = await mkdtemp(join(tmpdir(), 'bw-google-callbacks-'));
  const keyFile = join(dir, 'service-account.json');
  await writeServiceAccountKey(keyFile, privateKey, CLIENT_EMAIL, `${google.baseUrl}/token`);
  signer = new GoogleCallbackSigner(ISSUER_ID);
  t = await createTestApp({
    env: {
      DATA_DIR: dir,
      PUBLIC_URL,
      GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
      GOOGLE_WALLET_KEY_FILE: keyFile,
      GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
      GOOGLE_WALLET_ROOT_KEYS: await signer.writeKeysFile(join(dir, 'root-keys.json')),
    },
  });
  await putOrder(t.app, '41000001', anOrder([dayTicket('4100000000000015', 12.5)]));
  await putOrder(t.app, '41000002', anOrder([dayTicket('4100000000000022', 5)]));
  await putOrder(t.app, '41000003', anOrder([dayTicket('4100000000000039', 5)]));
});
afterAll(async () => {
  await t?.close();
  await google?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  google.objectCalls = [];
});

describe('Google Wallet callbacks', () => {
  it('record a save signed with the test keys once when Google sends it twice, and mark the object saved', async () => {
    const { object } = await issueLink('41000001', '4100000000000015');
    const body = signer.sign(signer.message(object.id, 'save'));
    const first = await post(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ outcome: 'accepted' });
    const second = await post(body);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ outcome: 'duplicate' });

    const rows = (await recorded()).filter((r) => r.objectId === object.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ eventType: 'save', classId: `${ISSUER_ID}.park-ticket`, serialNumber: object.id.split('.')[1] });
    expect((await passOf(object.id)).googleWalletState).toBe('saved');
    const serialNumber = object.id.split('.')[1];
    expect((await eventsOfType(t.app, 'wallet.pass_added')).filter((e) => e.serialNumber === serialNumber)).toEqual([
      { wallet: 'google', serialNumber, orderId: '41000001', barcode: '4100000000000015', shareId: null, memberNumber: null },
    ]);
  });

  it('record one of two identical callbacks arriving at once', async () => {
    const { object } = await issueLink('41000002', '4100000000000022');
    const body = signer.sign(signer.message(object.id, 'save'));
    const answers = await Promise.all([post(body), post(body)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => (a.json() as { outcome: string }).outcome).sort()).toEqual(['accepted', 'duplicate']);
    expect((await recorded()).filter((r) => r.objectId === object.id)).toHaveLength(1);
  });

  it.each([
    [
      'a bad signature (the message changed after signing)',
      { tamper: (m: string) => m.replace('"save"', '"del"') },
      /not signed by the intermediate/,
    ],
    ['an expired intermediate key', { keyExpiration: Date.now() - 1000 }, /intermediate signing key has expired/],
    ['an unknown root key', { rootKey: unknownRootKey() }, /not signed by any of Google's root keys/],
    ['another recipient (issuer) id', { recipientId: '3388000000099999999' }, /not signed by the intermediate/],
  ])('refuse %s with 400 and record nothing', async (_name, options, message) => {
    const { object } = await issueLink('41000003', '4100000000000039');
    const before = await recorded();
    const stateBefore = (await passOf(object.id)).googleWalletState;
    const res = await post(signer.sign(signer.message(object.id, 'save'), options));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_FAILED', message: expect.stringMatching(message) });
    expect(await recorded()).toEqual(before);
    expect((await passOf(object.id)).googleWalletState).toBe(stateBefore);
  });

  it('refuse an expired message, another issuer’s object, another protocol and a body that is no callback', async () => {
    const { object } = await issueLink('41000003', '4100000000000039');
    const before = await recorded();
    const expired = await post(signer.sign(signer.message(object.id, 'save', { expTimeMillis: Date.now() - 1000 })));
    expect(expired.json()).toMatchObject({ statusCode: 400, message: 'The message has expired' });
    const foreign = await post(signer.sign(signer.message(`3388000000099999999.${object.id.split('.')[1]}`, 'save')));
    expect(foreign.json()).toMatchObject({ statusCode: 400, message: "The message names another issuer's class or object" });
    const ecv1 = await post({ ...signer.sign(signer.message(object.id, 'save')), protocolVersion: 'ECv1' });
    expect(ecv1.json()).toMatchObject({ statusCode: 400, message: expect.stringMatching(/Unsupported protocolVersion/) });
    for (const body of [{}, { signedMessage: 'x' }, 'not json', [1, 2]]) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        payload: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await recorded()).toEqual(before);
  });

  it('send no update of an object deleted from the wallet, and bring it up to date once saved again', async () => {
    const { object } = await issueLink('41000001', '4100000000000015');
    google.saved.add(object.id);
    // Later than the saves above (sent with an hour to live).
    const deletedAt = Date.now() + 2 * 60 * 60_000;
    expect((await post(signer.sign(signer.message(object.id, 'del', { expTimeMillis: deletedAt })))).json()).toEqual({
      outcome: 'accepted',
    });
    expect((await passOf(object.id)).googleWalletState).toBe('deleted');

    await putOrder(t.app, '41000001', anOrder([dayTicket('4100000000000015', 40)]));
    await settleDeliveries(t.app);
    expect(google.objectCalls).toEqual([]);

    // A save sent before the delete but arriving after it (an earlier expTimeMillis) is recorded, not applied.
    const late = await post(signer.sign(signer.message(object.id, 'save', { expTimeMillis: deletedAt - 60_000 })));
    expect(late.json()).toEqual({ outcome: 'accepted' });
    expect((await passOf(object.id)).googleWalletState).toBe('deleted');

    // Saved again (a later event): the object catches up with what changed meanwhile, and later changes are sent.
    await post(signer.sign(signer.message(object.id, 'save', { expTimeMillis: deletedAt + 60_000 })));
    expect((await passOf(object.id)).googleWalletState).toBe('saved');
    await settleDeliveries(t.app);
    expect(google.objectCalls.map((c) => c.body.textModulesData?.find((m) => m.id === 'balance')?.body)).toEqual(['$40.00']);
    await putOrder(t.app, '41000001', anOrder([dayTicket('4100000000000015', 41)]));
    await settleDeliveries(t.app);
    expect(google.objectCalls.map((c) => c.body.id)).toEqual([object.id, object.id]);
    // Removed, then added again (the late save, not applied, tells nothing).
    const serialNumber = object.id.split('.')[1];
    const walletEvents = (await readEventFeed(t.app)).events.filter(
      (e) => e.type.startsWith('wallet.') && e.data.serialNumber === serialNumber,
    );
    expect(walletEvents.map((e) => e.type)).toEqual(['wallet.pass_added', 'wallet.pass_removed', 'wallet.pass_added']);
  });

  it('count callbacks on /metrics by event and outcome', async () => {
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const count = (event: string, outcome: string) =>
      Number(
        new RegExp(`^boardwalk_google_wallet_callbacks_total\\{event="${event}",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ??
          0,
      );
    // The tests above: saves accepted 1 + 1 + 1 (late) + 1 (again), duplicates 2, a delete; refusals.
    expect(count('save', 'accepted')).toBe(4);
    expect(count('save', 'duplicate')).toBe(2);
    expect(count('del', 'accepted')).toBe(1);
    expect(count('save', 'refused')).toBe(2);
    // Refused before the message was read: the four signature cases, ECv1 and three bodies that are no callback
    // (a body that is not JSON at all is refused by the JSON parser, before the route).
    expect(count('unknown', 'refused')).toBe(4 + 1 + 3);
  });

  it("carry the callback URL on the save link's class and on the classes sent to Google", async () => {
    const { walletClass } = await issueLink('41000001', '4100000000000015');
    expect(walletClass.callbackOptions).toEqual({ url: `${PUBLIC_URL}${URL}` });
    // The classes were sent at start (google-classes), the member cards' among them.
    const sent = google.classCalls
      .filter((c) => c.method === 'POST')
      .map((c) => c.body as { id: string; callbackOptions?: { url: string } });
    expect(sent.map((c) => c.id).sort()).toEqual(
      ['brownie-points', 'park-admission', 'park-ticket', 'stored-value'].map((suffix) => `${ISSUER_ID}.${suffix}`),
    );
    for (const c of sent) expect(c.callbackOptions).toEqual({ url: `${PUBLIC_URL}${URL}` });
  });
});

describe('what staff see of the wallets', () => {
  it('show per ticket and per member card the Apple devices registered and what Google last said', async () => {
    const staff = await loginAs(t.app, { accessLevel: 100 });
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: staff.headers, ...(payload && { payload }) });
    await putOrder(
      t.app,
      '41000004',
      // Dated now: a claim reaches back 90 days.
      anOrder(
        [
          { barcode: '4100000000000046', price: 25 },
          { barcode: '4100000000000053', price: 5 },
        ],
        { orderDate: new Date().toISOString() },
      ),
    );
    const created = await call('POST', '/api/admin/loyalty/create', {
      email: 'wallets@example.com',
      firstName: 'Wanda',
      lastName: 'Wallet',
    });
    const userID = created.body;
    expect(
      (await call('POST', '/api/admin/loyalty/tickets/', { orderId: '41000004', email: 'wallets@example.com', userID })).statusCode,
    ).toBe(200);

    // The first ticket: saved to Google Wallet and registered on two Apple devices.
    const { object } = await issueLink('41000004', '4100000000000046');
    await post(signer.sign(signer.message(object.id, 'save')));
    const serialNumber = object.id.split('.')[1]!;
    await t.app.database.db
      .insert(schema.appleDeviceRegistrations)
      .values(
        ['device-a', 'device-b'].map((deviceLibraryIdentifier) => ({ deviceLibraryIdentifier, serialNumber, pushToken: 'ab'.repeat(32) })),
      );
    // The member card: handed out to Google, then deleted from the wallet.
    const [card] = await t.app.database.db
      .insert(schema.walletPasses)
      .values({ loyaltyAccountId: userID, googleIssued: true })
      .returning({ serialNumber: schema.walletPasses.serialNumber });
    await post(signer.sign(signer.message(`${ISSUER_ID}.${card!.serialNumber}`, 'del')));

    const orders = (await call('POST', '/api/admin/loyalty/', { email: 'wallets@example.com' })).json<StaffLoyaltyOrder[]>();
    expect(Object.fromEntries(orders.map((o) => [o.barcode, o.wallets]))).toEqual({
      '4100000000000046': { appleDevices: 2, google: 'saved' },
      '4100000000000053': { appleDevices: 0, google: 'unknown' },
    });
    const account = (await call('GET', `/api/admin/loyalty/account/${userID}/`)).json<StaffAccount>();
    expect(account.card).toEqual({ appleDevices: 0, google: 'deleted' });
  });
});

describe('Google root keys (GOOGLE_WALLET_ROOT_KEYS)', () => {
  it('stop the server naming the setting when the file is not a key document', async () => {
    const bad = join(dir, 'bad-keys.json');
    await writeFile(bad, '{"keys": "none"}');
    await expect(createTestApp({ env: { GOOGLE_WALLET_ROOT_KEYS: bad } })).rejects.toThrow(/GOOGLE_WALLET_ROOT_KEYS: .*bad-keys\.json/);
    await writeFile(bad, JSON.stringify({ keys: [{ keyValue: 'AAAA', protocolVersion: 'ECv1' }] }));
    await expect(createTestApp({ env: { GOOGLE_WALLET_ROOT_KEYS: bad } })).rejects.toThrow(/has no ECv2SigningOnly key/);
  });

  it('refuse every callback when no root keys are configured (no Google credentials)', async () => {
    const other = await createTestApp();
    try {
      const res = await other.app.inject({ method: 'POST', url: URL, payload: signer.sign(signer.message('x.y', 'save')) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'No Google root keys are configured (GOOGLE_WALLET_ROOT_KEYS)' });
    } finally {
      await other.close();
    }
  });

  it('fetch them from a URL once for callbacks arriving together, keep them for max-age, and answer 503 for a minute after a failed fetch', async () => {
    const devSigner = new GoogleCallbackSigner(DEVELOPMENT_ISSUER_ID);
    let fetched = 0;
    let answer: 'fail' | 'keys' = 'fail';
    const server: Server = createServer((_req, res) => {
      fetched++;
      if (answer === 'fail') return void res.writeHead(500).end();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' }).end(devSigner.keysDocument());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Without Google credentials: the development issuer id.
    const other = await createTestApp({
      env: { GOOGLE_WALLET_ROOT_KEYS: `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys` },
    });
    try {
      const send = () =>
        other.app.inject({
          method: 'POST',
          url: URL,
          payload: devSigner.sign(devSigner.message(`${DEVELOPMENT_ISSUER_ID}.unknown-object`, 'save')),
        });
      expect(fetched).toBe(0);
      const unavailable = await send();
      expect(unavailable.statusCode).toBe(503);
      expect(unavailable.headers['retry-after']).toBe('60');
      answer = 'keys';
      // The failure is remembered for a minute: no fetch meanwhile; then the next callback fetches.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      vi.setSystemTime(Date.now() + 59_000);
      expect((await send()).statusCode).toBe(503);
      expect(fetched).toBe(1);
      vi.setSystemTime(Date.now() + 2_000);
      // Two callbacks at once share one fetch; the next one uses the keys kept.
      expect((await Promise.all([send(), send()])).map((r) => r.json())).toEqual([{ outcome: 'accepted' }, { outcome: 'accepted' }]);
      expect((await send()).json()).toEqual({ outcome: 'accepted' });
      expect(fetched).toBe(2);
    } finally {
      vi.useRealTimers();
      await other.close();
      server.close();
    }
  });
});
