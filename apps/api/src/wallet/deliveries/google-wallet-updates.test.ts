// With Google credentials configured, ticket changes update the saved Google Wallet object
// through the REST API: here against a local double of Google's token endpoint and
// walletobjects API, named by the key file's token_uri and GOOGLE_WALLET_API_URL.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVerifier } from 'fast-jwt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import type { GenericObject } from '../google/google-wallet.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { GoogleDouble, pem, writeServiceAccountKey } from '../../../test-support/google-double.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

const ISSUER_ID = '3388000000022123456';
const CLIENT_EMAIL = 'wallet@boardwalk-test.iam.gserviceaccount.com';
const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';

let t: TestApp;
let google: GoogleDouble;
let dir: string;
let logLines: string[] = [];
let ipSeq = 0;
const nextIp = () => `10.8.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
type LogLine = { level: number; msg: string; objectId?: string; err?: string };
const logs = () => logLines.map((l) => JSON.parse(l) as LogLine);

const dayTicket = (barcode: string, cash: number) => ({
  barcode,
  product: 'Day Ticket',
  cash,
  holder: { firstName: 'Ana', lastName: 'Lopez' },
});

async function issueLink(orderId: string, barcode: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: { orderId, barcode }, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  const jwt = res.body.slice(SAVE_PREFIX.length);
  const payload: unknown = createVerifier({
    key: pem(google.publicKey),
    algorithms: ['RS256'],
    allowedAud: 'google',
    allowedIss: CLIENT_EMAIL,
  })(jwt);
  return (payload as { payload: { genericObjects: GenericObject[] } }).payload.genericObjects[0]!.id;
}

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  google = new GoogleDouble(publicKey, CLIENT_EMAIL);
  await google.start();
  dir = await mkdtemp(join(tmpdir(), 'bw-google-rest-'));
  const keyFile = join(dir, 'service-account.json');
  await writeServiceAccountKey(keyFile, privateKey, CLIENT_EMAIL, `${google.baseUrl}/token`);
  t = await createTestApp({
    env: {
      DATA_DIR: dir,
      PUBLIC_URL: 'https://wallet.example.com',
      GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
      GOOGLE_WALLET_KEY_FILE: keyFile,
      GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
      LOG_LEVEL: 'debug',
    },
    logStream: { write: (line) => void logLines.push(line) },
  });
  await putOrder(t.app, '40000001', anOrder([dayTicket('4000000000000011', 12.5)]));
  await putOrder(t.app, '40000002', anOrder([dayTicket('4000000000000028', 5)]));
  await putOrder(t.app, '40000003', anOrder([dayTicket('4000000000000035', 5)]));
});
afterAll(async () => {
  await t?.close();
  await google?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  logLines = [];
  google.objectCalls = [];
  google.failWith = null;
  google.tooManyRequests = null;
  google.requestTimes = [];
});

describe('Google Wallet object updates with credentials configured', () => {
  it('signs links with the configured key and issuer id, and generates no development key', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    expect(objectId).toMatch(new RegExp(`^${ISSUER_ID}\\.[0-9a-f-]{36}$`));
    expect(logLines.join('\n')).not.toMatch(/development key/);
  });

  it('sends the object with the new balance to the REST API, with the bearer token the token endpoint issued', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    google.saved.add(objectId);
    await putOrder(t.app, '40000001', anOrder([dayTicket('4000000000000011', 40)]));
    await settleDeliveries(t.app);

    expect(google.objectCalls).toHaveLength(1);
    const call = google.objectCalls[0]!;
    expect(call.method).toBe('PUT');
    expect(call.path).toBe(`/walletobjects/v1/genericObject/${objectId}`);
    expect(google.issuedTokens).toHaveLength(1);
    expect(call.authorization).toBe(`Bearer ${google.issuedTokens[0]}`);
    expect(google.tokenAssertions[0]).toMatchObject({ iss: CLIENT_EMAIL, scope: 'https://www.googleapis.com/auth/wallet_object.issuer' });
    expect(call.body).toMatchObject({
      id: objectId,
      classId: `${ISSUER_ID}.park-ticket`,
      state: 'ACTIVE',
      barcode: { value: '4000000000000011' },
    });
    expect(call.body.textModulesData?.find((m) => m.id === 'balance')?.body).toBe('$40.00');
    expect(logs().some((l) => l.msg === 'Google Wallet object updated' && l.objectId === objectId)).toBe(true);
  });

  it('reuses the token for the next update and follows a refund', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    await putOrder(t.app, '40000001', anOrder([{ ...dayTicket('4000000000000011', 40), refunded: true }]));
    await settleDeliveries(t.app);
    expect(google.objectCalls).toHaveLength(1);
    expect(google.objectCalls[0]!.body).toMatchObject({ id: objectId, state: 'INACTIVE' });
    expect(google.issuedTokens).toHaveLength(1);
    expect(google.objectCalls[0]!.authorization).toBe(`Bearer ${google.issuedTokens[0]}`);
  });

  it('waits out a 429 for its Retry-After, then sends the update again and it lands', async () => {
    const objectId = await issueLink('40000001', '4000000000000011');
    google.saved.add(objectId);
    google.tooManyRequests = { left: 1, retryAfter: '2' };
    await putOrder(t.app, '40000001', anOrder([dayTicket('4000000000000011', 55)]));
    await settleDeliveries(t.app);
    // The 429, then the same update two seconds later: accepted, in the same try of the job.
    expect(google.requestTimes).toHaveLength(2);
    expect(google.requestTimes[1]! - google.requestTimes[0]!).toBeGreaterThanOrEqual(1900);
    expect(google.objectCalls.map((c) => c.body.textModulesData?.find((m) => m.id === 'balance')?.body)).toEqual(['$55.00']);
    const rows = await t.database.db.select().from(schema.deliveries).where(eq(schema.deliveries.target, 'google'));
    expect(rows.map((r) => [r.state, r.attempts])).toContainEqual(['sent', 1]);
  });

  it('ignores quietly an object no guest saved (404)', async () => {
    const objectId = await issueLink('40000002', '4000000000000028');
    await putOrder(t.app, '40000002', anOrder([dayTicket('4000000000000028', 6)]));
    await settleDeliveries(t.app);
    expect(google.objectCalls.map((c) => c.body.id)).toEqual([objectId]);
    expect(logs().filter((l) => l.level >= 40)).toEqual([]);
  });

  it('sends nothing for a ticket whose Google link was never handed out', async () => {
    await putOrder(t.app, '40000003', anOrder([dayTicket('4000000000000035', 9)]));
    await settleDeliveries(t.app);
    expect(google.objectCalls).toEqual([]);
  });

  it('logs a failed update without the barcode, and the order feed still succeeds', async () => {
    const objectId = await issueLink('40000002', '4000000000000028');
    google.failWith = 403;
    const res = await putOrder(t.app, '40000002', anOrder([dayTicket('4000000000000028', 7)]));
    expect(res.statusCode).toBe(200);
    await settleDeliveries(t.app);
    const failed = logs().filter((l) => l.msg === 'Google Wallet object update failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ objectId, err: 'Google Wallet API answered 403 to the object update' });
    expect(logLines.join('\n')).not.toContain('4000000000000028');
  });
});
