// The PassKit web service and updates, end to end: a device registers, the order feed
// changes the ticket, a local HTTP/2 TLS server standing for APNs receives the push, the
// device asks what changed and fetches the new pass.
import { X509Certificate } from 'node:crypto';
import type { Http2SecureServer } from 'node:http2';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import { guestMessages } from '@boardwalk/contract/errors';
import { WALLET_REFUSALS } from '@boardwalk/contract/wallet';
import { startApnsDouble, type Push } from '../../../test-support/apns-double.ts';
import { loadConfig } from '../../platform/config.ts';
import { hashSecret } from '../../platform/secrets.ts';
import { updateContentHash } from '../wallet-passes.repo.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { manifestProblems, opensslVerify, unpackPass } from '../../../test-support/pkpass-check.ts';
import { eventsOfType } from '../../../test-support/events.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../../../packages/db/migrations', import.meta.url));
const PASS_TYPE = 'pass.com.example.seabreeze';
const SUPPORT = 'help@seabreeze.example.com';
const ORDER = '40000001';
const BARCODE = '4000000000000011';
const DEVICE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const PUSH_TOKEN = 'ab'.repeat(32);
const GONE_DEVICE = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const GONE_PUSH_TOKEN = 'cd'.repeat(32);

let t: TestApp;
let dataDir: string;
let apns: Http2SecureServer;
let pushes: Push[] = [];
const logLines: string[] = [];
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const passkit = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { token?: string; payload?: unknown; headers?: Record<string, string> } = {},
) =>
  t.app.inject({
    method,
    url: `/api/passkit/v1${path}`,
    headers: { ...(options.token && { authorization: `ApplePass ${options.token}` }), ...options.headers },
    ...(options.payload !== undefined && { payload: options.payload as Record<string, unknown> }),
  });
const registrationPath = (serial: string, device = DEVICE, passType = PASS_TYPE) =>
  `/devices/${device}/registrations/${passType}/${serial}`;

async function generate(body: Record<string, unknown> = { orderId: ORDER, barcode: BARCODE }) {
  return t.app.inject({ method: 'POST', url: '/api/apple-wallet/', payload: body, remoteAddress: nextIp() });
}
async function newPass() {
  const res = await generate();
  expect(res.statusCode, res.body).toBe(200);
  const unpacked = await unpackPass(res.rawPayload);
  await unpacked.cleanup();
  return unpacked.pass as { serialNumber: string; authenticationToken: string };
}
async function login() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login/',
    payload: { orderId: ORDER, barcode: BARCODE },
    remoteAddress: nextIp(),
  });
  return res.json() as { iCloudBoundToWallet: boolean };
}
const balanceOf = (pass: Record<string, unknown>) =>
  (pass.generic as { headerFields: { value: string | number }[] }).headerFields[0]!.value;
const registrations = () => t.database.db.select().from(schema.appleDeviceRegistrations);

let serial: string;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bw-passkit-'));
  const double = await startApnsDouble(dataDir, (pushToken) =>
    pushToken === GONE_PUSH_TOKEN ? { status: 410, reason: 'Unregistered' } : { status: 200 },
  );
  apns = double.server;
  pushes = double.pushes;
  t = await createTestApp({
    env: {
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://wallet.example.com',
      SUPPORT_EMAIL: SUPPORT,
      APPLE_PASS_TYPE_ID: PASS_TYPE,
      APNS_URL: double.url,
      APNS_CA_FILE: double.caFile,
      LOG_LEVEL: 'info',
    },
    logStream: { write: (line) => void logLines.push(line) },
  });
  await putOrder(
    t.app,
    ORDER,
    anOrder([
      { barcode: BARCODE, cash: 10 },
      { barcode: '4000000000000028', cash: 1 },
    ]),
  );
  ({ serialNumber: serial, authenticationToken: token } = await newPass());
});
afterAll(async () => {
  await t?.close();
  apns?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('PassKit web service', () => {
  it('refuses a wrong token (401), a wrong pass type (404) and a malformed serial (400), registering nothing', async () => {
    expect((await passkit('POST', registrationPath(serial), { payload: { pushToken: PUSH_TOKEN } })).statusCode).toBe(401);
    expect(
      (await passkit('POST', registrationPath(serial), { token: 'x'.repeat(32), payload: { pushToken: PUSH_TOKEN } })).statusCode,
    ).toBe(401);
    expect(
      (
        await passkit('POST', registrationPath(serial), {
          payload: { pushToken: PUSH_TOKEN },
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await passkit('POST', registrationPath(serial, DEVICE, 'pass.com.other'), { token, payload: { pushToken: PUSH_TOKEN } })).statusCode,
    ).toBe(404);
    expect((await passkit('POST', registrationPath('not-a-serial'), { token, payload: { pushToken: PUSH_TOKEN } })).statusCode).toBe(400);
    expect((await passkit('POST', registrationPath(serial), { token, payload: { pushToken: 'not hex' } })).statusCode).toBe(400);
    // A token of another pass does not open this one.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/apple-wallet/',
      payload: { orderId: ORDER, barcode: '4000000000000028' },
      remoteAddress: nextIp(),
    });
    const otherToken = (await unpackPass(other.rawPayload)).pass.authenticationToken as string;
    expect((await passkit('POST', registrationPath(serial), { token: otherToken, payload: { pushToken: PUSH_TOKEN } })).statusCode).toBe(
      401,
    );
    expect((await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token: 'y'.repeat(32) })).statusCode).toBe(401);
    expect((await passkit('GET', `/passes/${PASS_TYPE}/${serial}`)).statusCode).toBe(401);
    expect((await passkit('DELETE', registrationPath(serial), { token: 'z'.repeat(32) })).statusCode).toBe(401);
    expect((await passkit('GET', `/passes/pass.com.other/${serial}`, { token })).statusCode).toBe(404);
    expect(await registrations()).toEqual([]);
    expect((await login()).iCloudBoundToWallet).toBe(false);
  });

  it('registers a device (201, then 200), binding the ticket: generating again names the support email', async () => {
    const first = await passkit('POST', registrationPath(serial), { token, payload: { pushToken: PUSH_TOKEN } });
    expect(first.statusCode).toBe(201);
    const again = await passkit('POST', registrationPath(serial), { token, payload: { pushToken: PUSH_TOKEN } });
    expect(again.statusCode).toBe(200);
    expect(await registrations()).toHaveLength(1);
    // The operator's systems are told once: the device added the pass.
    expect(await eventsOfType(t.app, 'wallet.pass_added')).toEqual([
      { wallet: 'apple', serialNumber: serial, orderId: ORDER, barcode: BARCODE, shareId: null, memberNumber: null },
    ]);
    expect((await login()).iCloudBoundToWallet).toBe(true);

    const before = await t.database.db.select().from(schema.walletPassTokens);
    const refused = await generate();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(guestMessages.alreadyInWallet(SUPPORT));
    expect(refused.json()).toMatchObject({ reason: WALLET_REFUSALS.alreadyInWallet, params: { supportEmail: SUPPORT } });
    expect(await t.database.db.select().from(schema.walletPassTokens)).toEqual(before);
  });

  it('lists the device’s passes with a tag, and none updated since that tag (204)', async () => {
    const all = await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}`);
    expect(all.statusCode).toBe(200);
    const { serialNumbers, lastUpdated } = all.json() as { serialNumbers: string[]; lastUpdated: string };
    expect(serialNumbers).toEqual([serial]);
    expect(lastUpdated).toMatch(/^\d+$/);
    expect((await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=${lastUpdated}`)).statusCode).toBe(204);
    expect((await passkit('GET', `/devices/unknown0device/registrations/${PASS_TYPE}`)).statusCode).toBe(204);
    expect((await passkit('GET', `/devices/${DEVICE}/registrations/pass.com.other`)).statusCode).toBe(404);
    expect((await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=abc`)).statusCode).toBe(400);
  });

  it('follows the order feed: the tag moves, APNs gets the push, the latest pass carries the new balance', async () => {
    const tag = ((await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}`)).json() as { lastUpdated: string }).lastUpdated;
    const latestBefore = await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token });
    expect(latestBefore.statusCode).toBe(200);
    const lastModified = String(latestBefore.headers['last-modified']);
    expect(
      (await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token, headers: { 'if-modified-since': lastModified } })).statusCode,
    ).toBe(304);

    // A feed update that changes nothing the pass shows moves nothing.
    await putOrder(
      t.app,
      ORDER,
      anOrder([
        { barcode: BARCODE, cash: 10, price: 61 },
        { barcode: '4000000000000028', cash: 1 },
      ]),
    );
    await settleDeliveries(t.app);
    expect((await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=${tag}`)).statusCode).toBe(204);
    expect(pushes).toHaveLength(0);

    await new Promise((r) => setTimeout(r, 1100)); // Last-Modified has whole seconds
    await putOrder(
      t.app,
      ORDER,
      anOrder([
        { barcode: BARCODE, cash: 42.75 },
        { barcode: '4000000000000028', cash: 1 },
      ]),
    );
    await settleDeliveries(t.app);

    expect(pushes).toHaveLength(1);
    const push = pushes[0]!;
    expect(push.path).toBe(`/3/device/${PUSH_TOKEN}`);
    expect(push.headers[':method']).toBe('POST');
    expect(push.headers['apns-topic']).toBe(PASS_TYPE);
    expect(JSON.parse(push.body)).toEqual({});
    // TLS client authentication with the pass type certificate.
    expect(push.clientSubject).toContain(PASS_TYPE);

    const updated = await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=${tag}`);
    expect(updated.statusCode).toBe(200);
    expect(updated.json().serialNumbers).toEqual([serial]);
    expect(BigInt(updated.json().lastUpdated)).toBeGreaterThan(BigInt(tag));

    const latest = await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token, headers: { 'if-modified-since': lastModified } });
    expect(latest.statusCode).toBe(200);
    expect(latest.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(Date.parse(String(latest.headers['last-modified']))).toBeGreaterThan(Date.parse(lastModified));
    const unpacked = await unpackPass(latest.rawPayload);
    try {
      expect(await manifestProblems(unpacked.dir)).toEqual([]);
      expect(opensslVerify(unpacked.dir, join(dataDir, 'certs', 'apple-dev-root.pem')).ok).toBe(true);
      expect(balanceOf(unpacked.pass)).toBe(42.75); // an amount the phone writes: $42.75 in English
      expect(unpacked.pass.serialNumber).toBe(serial);
      // The device's own token, so it keeps talking to the web service.
      expect(unpacked.pass.authenticationToken).toBe(token);
    } finally {
      await unpacked.cleanup();
    }
  });

  it('removes a registration when APNs answers 410 Unregistered', async () => {
    expect(
      (await passkit('POST', registrationPath(serial, GONE_DEVICE), { token, payload: { pushToken: GONE_PUSH_TOKEN } })).statusCode,
    ).toBe(201);
    expect(await registrations()).toHaveLength(2);
    pushes.length = 0;
    await putOrder(
      t.app,
      ORDER,
      anOrder([
        { barcode: BARCODE, cash: 5 },
        { barcode: '4000000000000028', cash: 1 },
      ]),
    );
    await settleDeliveries(t.app);
    expect(pushes.map((p) => p.path).sort()).toEqual([`/3/device/${GONE_PUSH_TOKEN}`, `/3/device/${PUSH_TOKEN}`].sort());
    const left = await registrations();
    expect(left.map((r) => r.deviceLibraryIdentifier)).toEqual([DEVICE]);
  });

  it('never misses an update made within the same second as the last fetch (Last-Modified has whole seconds)', async () => {
    // The pass was just updated at a fraction of a second, and a device fetched it.
    await t.database.db.update(schema.walletPasses).set({ updatedAt: sql`date_trunc('second', now()) + interval '0.2 second'` });
    const fetched = await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token });
    const lastModified = String(fetched.headers['last-modified']);
    const tag = ((await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}`)).json() as { lastUpdated: string }).lastUpdated;
    // Changed again at once, most likely within the same second.
    expect(await updateContentHash(t.database.db, serial, 'another-content-hash')).toBeInstanceOf(Date);
    const again = await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token, headers: { 'if-modified-since': lastModified } });
    expect(again.statusCode).toBe(200);
    expect(Date.parse(String(again.headers['last-modified']))).toBeGreaterThan(Date.parse(lastModified));
    const since = await passkit('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}?passesUpdatedSince=${tag}`);
    expect(since.statusCode).toBe(200);
    expect(since.json().serialNumbers).toEqual([serial]);
  });

  it('takes device logs, keeping secrets out of the log', async () => {
    const res = await passkit('POST', '/log', {
      payload: { logs: [`Web service error for ${PASS_TYPE} (${BARCODE}): token ${token} refused`] },
    });
    expect(res.statusCode).toBe(200);
    const line = logLines.find((l) => l.includes('Apple Wallet device log'));
    expect(line).toBeDefined();
    expect(line).not.toContain(BARCODE);
    expect(line).not.toContain(token);
    expect(logLines.join('\n')).not.toContain(token);
    expect((await passkit('POST', '/log', { payload: { logs: 'nope' } })).statusCode).toBe(400);
  });

  it('unregisters (200), and the ticket is no longer bound', async () => {
    expect((await passkit('DELETE', registrationPath(serial), { token })).statusCode).toBe(200);
    expect(await registrations()).toEqual([]);
    expect(await eventsOfType(t.app, 'wallet.pass_removed')).toEqual([
      { wallet: 'apple', serialNumber: serial, orderId: ORDER, barcode: BARCODE, shareId: null, memberNumber: null },
    ]);
    expect((await login()).iCloudBoundToWallet).toBe(false);
    expect((await generate()).statusCode).toBe(200);
  });
});

describe('the devices of one pass', () => {
  const OTHER = '4000000000000028';
  const device = (n: number) => `cap0device0${String(n).padStart(4, '0')}`;
  const pushToken = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
  const devicesOf = async (serialNumber: string) =>
    (await registrations()).filter((r) => r.serialNumber === serialNumber).map((r) => r.deviceLibraryIdentifier);

  it('keeps at most PASSKIT_DEVICES_PER_PASS (10): a new device replaces the one least recently renewed', async () => {
    const res = await generate({ orderId: ORDER, barcode: OTHER });
    expect(res.statusCode, res.body).toBe(200);
    const pass = (await unpackPass(res.rawPayload)).pass as { serialNumber: string; authenticationToken: string };
    for (let n = 1; n <= 10; n++) {
      const reg = await passkit('POST', registrationPath(pass.serialNumber, device(n)), {
        token: pass.authenticationToken,
        payload: { pushToken: pushToken(n) },
      });
      expect(reg.statusCode).toBe(201);
    }
    expect(await devicesOf(pass.serialNumber)).toHaveLength(10);
    // Device 1 renews its registration (a new push token): device 2 is now the least recently renewed.
    const renewed = await passkit('POST', registrationPath(pass.serialNumber, device(1)), {
      token: pass.authenticationToken,
      payload: { pushToken: pushToken(99) },
    });
    expect(renewed.statusCode).toBe(200);
    const eleventh = await passkit('POST', registrationPath(pass.serialNumber, device(11)), {
      token: pass.authenticationToken,
      payload: { pushToken: pushToken(11) },
    });
    expect(eleventh.statusCode).toBe(201);
    const left = await devicesOf(pass.serialNumber);
    expect(left).toHaveLength(10);
    expect(left).toContain(device(11));
    expect(left).toContain(device(1));
    expect(left).not.toContain(device(2));
    // Another pass's devices are not counted.
    expect(await devicesOf(serial)).toEqual([]);
    await t.database.db.delete(schema.appleDeviceRegistrations);
  });
});

describe('PASSKIT_DEVICES_PER_PASS', () => {
  it('is 10 by default, takes 1 to 100, and stops the start naming the variable otherwise', () => {
    expect(loadConfig({}).apple.devicesPerPass).toBe(10);
    expect(loadConfig({ PASSKIT_DEVICES_PER_PASS: '3' }).apple.devicesPerPass).toBe(3);
    for (const value of ['0', '101', '2.5', 'ten']) {
      expect(() => loadConfig({ PASSKIT_DEVICES_PER_PASS: value })).toThrow(/PASSKIT_DEVICES_PER_PASS/);
    }
  });
});

describe('one authentication token per pass', () => {
  it('every download of a pass carries the same token, derived from its serial number, and stores nothing per download', async () => {
    const first = await newPass();
    const second = await newPass();
    expect(second.serialNumber).toBe(first.serialNumber);
    expect(second.authenticationToken).toBe(first.authenticationToken);
    expect(first.authenticationToken).toBe(t.app.keys.keyedHash('passkit-token', first.serialNumber));
    expect(first.authenticationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.database.db.select().from(schema.walletPassTokens)).toEqual([]);
    expect((await passkit('GET', `/passes/${PASS_TYPE}/${first.serialNumber}`, { token: first.authenticationToken })).statusCode).toBe(200);
  });

  it('a token issued before (a legacy row) still fetches its pass, signed with that same token; a made-up one does not', async () => {
    const legacy = 'legacy-token-0123456789abcdefghij';
    await t.database.db.insert(schema.walletPassTokens).values({ tokenHash: hashSecret(legacy), serialNumber: serial });
    try {
      const res = await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token: legacy });
      expect(res.statusCode).toBe(200);
      const unpacked = await unpackPass(res.rawPayload);
      await unpacked.cleanup();
      expect(unpacked.pass.authenticationToken).toBe(legacy);
      expect((await passkit('GET', `/passes/${PASS_TYPE}/${serial}`, { token: `${legacy}x` })).statusCode).toBe(401);
    } finally {
      await t.database.db.delete(schema.walletPassTokens);
    }
  });

  it('the migration keeps, per registered device, the token issued last before it registered, and removes the others', async () => {
    const migration = (await readdir(MIGRATIONS)).find((f) => f.endsWith('_one_token_per_pass.sql'));
    expect(migration).toBeDefined();
    const statement = await readFile(join(MIGRATIONS, migration!), 'utf8');
    const [other] = (await t.database.db.select().from(schema.walletPasses)).filter((p) => p.serialNumber !== serial);
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds));
    await t.database.db.delete(schema.appleDeviceRegistrations);
    await t.database.db.insert(schema.appleDeviceRegistrations).values([
      { deviceLibraryIdentifier: 'old-phone', serialNumber: serial, pushToken: PUSH_TOKEN, createdAt: at(10) },
      { deviceLibraryIdentifier: 'old-tablet', serialNumber: serial, pushToken: PUSH_TOKEN, createdAt: at(30) },
    ]);
    await t.database.db.insert(schema.walletPassTokens).values([
      { tokenHash: 'h-before-phone', serialNumber: serial, createdAt: at(1) },
      { tokenHash: 'h-phone', serialNumber: serial, createdAt: at(9) },
      { tokenHash: 'h-extra', serialNumber: serial, createdAt: at(20) },
      { tokenHash: 'h-tablet', serialNumber: serial, createdAt: at(29) },
      { tokenHash: 'h-after', serialNumber: serial, createdAt: at(40) },
      { tokenHash: 'h-never-added', serialNumber: other!.serialNumber, createdAt: at(5) },
    ]);
    try {
      await t.database.db.execute(sql.raw(statement));
      const left = await t.database.db.select({ tokenHash: schema.walletPassTokens.tokenHash }).from(schema.walletPassTokens);
      expect(left.map((r) => r.tokenHash).sort()).toEqual(['h-phone', 'h-tablet']);
    } finally {
      await t.database.db.delete(schema.walletPassTokens);
      await t.database.db.delete(schema.appleDeviceRegistrations);
    }
  });
});

describe('the device log', () => {
  const logFrom = (remoteAddress: string, logs: string[]) =>
    t.app.inject({ method: 'POST', url: '/api/passkit/v1/log', payload: { logs }, remoteAddress });

  it('logs the first 5 lines, each at most 200 characters, control characters removed; the rest is dropped (200)', async () => {
    logLines.length = 0;
    // A NUL is refused like anywhere else (400); every other control character is removed.
    expect((await logFrom('10.77.0.9', ['line\u0000'])).statusCode).toBe(400);
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}\u0007\r\n\u001b[31mforged \u202eentry\u2028${'x '.repeat(300)}`);
    const res = await logFrom('10.77.0.1', lines);
    expect(res.statusCode).toBe(200);
    const logged = logLines
      .filter((l) => l.includes('"Apple Wallet device log"'))
      .map((l) => (JSON.parse(l) as { message: string }).message);
    expect(logged).toHaveLength(5);
    for (const [i, message] of logged.entries()) {
      expect(message.startsWith(`line ${i} `)).toBe(true);
      expect(message.length).toBeLessThanOrEqual(200);
      expect(message).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029]/u);
    }
    expect(logLines.some((l) => l.includes('"dropped":95'))).toBe(true);
  });

  it('answers 429 with Retry-After once an address sent 10 logs in 15 minutes; other addresses are not held back', async () => {
    for (let i = 0; i < 10; i++) expect((await logFrom('10.77.0.2', ['hello'])).statusCode).toBe(200);
    logLines.length = 0;
    const refused = await logFrom('10.77.0.2', ['one too many']);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain('one too many');
    expect((await logFrom('10.77.0.3', ['hello'])).statusCode).toBe(200);
  });
});

describe('the API documentation', () => {
  it('lists the wallet routes', async () => {
    const doc = (await t.app.inject('/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/apple-wallet/',
        '/api/passkit/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}',
        '/api/passkit/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}',
        '/api/passkit/v1/passes/{passTypeIdentifier}/{serialNumber}',
        '/api/passkit/v1/log',
      ]),
    );
  });
});

describe('without APNs', () => {
  it('records the update and says so in the log', async () => {
    const lines: string[] = [];
    // The same DATA_DIR: its development certificates are reused.
    const app = await createTestApp({
      env: { DATA_DIR: dataDir, APPLE_PASS_TYPE_ID: PASS_TYPE, LOG_LEVEL: 'info' },
      logStream: { write: (l) => void lines.push(l) },
    });
    try {
      await putOrder(app.app, ORDER, anOrder([{ barcode: BARCODE, cash: 10 }]));
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/apple-wallet/',
        payload: { orderId: ORDER, barcode: BARCODE },
        remoteAddress: nextIp(),
      });
      const pass = (await unpackPass(res.rawPayload)).pass as { serialNumber: string; authenticationToken: string };
      const reg = await app.app.inject({
        method: 'POST',
        url: `/api/passkit/v1${registrationPath(pass.serialNumber)}`,
        headers: { authorization: `ApplePass ${pass.authenticationToken}` },
        payload: { pushToken: PUSH_TOKEN },
      });
      expect(reg.statusCode).toBe(201);
      const [before] = await app.database.db.select().from(schema.walletPasses);
      await putOrder(app.app, ORDER, anOrder([{ barcode: BARCODE, cash: 11 }]));
      await settleDeliveries(app.app);
      const [after] = await app.database.db.select().from(schema.walletPasses);
      expect(after!.updatedAt.getTime()).toBeGreaterThan(before!.updatedAt.getTime());
      expect(after!.contentHash).not.toBe(before!.contentHash);
      expect(lines.some((l) => l.includes('not pushed because APNs is not configured'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});

// The pass type certificate is what authenticates the pushes.
describe('the APNs client certificate', () => {
  it('is the development signer', async () => {
    const chain = await readFile(join(dataDir, 'certs', 'apple-dev-chain.pem'), 'utf8');
    const signer = new X509Certificate(chain.slice(chain.indexOf('-----BEGIN CERTIFICATE-----')));
    expect(signer.subject).toContain(`UID=${PASS_TYPE}`);
  });
});
