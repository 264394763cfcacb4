// Google Smart Tap, configured (GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID and _ISSUERS): every class
// carries enableSmartTap and the redemption issuers, every object the same credential as its
// barcode as smartTapRedemptionValue, unless an exclusion keeps the ticket off contactless
// readers; the payload type-checked against Google's own types (@googleapis/walletobjects).
// Unconfigured, nothing changes (google-wallet.test.ts).
import { createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { walletobjects_v1 } from '@googleapis/walletobjects';
import { createVerifier } from 'fast-jwt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SaveToWalletPayload } from './google-wallet.ts';
import { DEVELOPMENT_KEY_FILE } from './google-wallet-credentials.ts';
import { loadConfig } from '../../platform/config.ts';
import { pem } from '../../../test-support/google-double.ts';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

const ISSUERS = ['3388000000012345678', '3388000000087654321'];
let t: TestApp;
let dataDir: string;
let publicKey: ReturnType<typeof createPublicKey>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bw-smart-tap-'));
  t = await createTestApp({
    env: {
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://wallet.example.com',
      GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID: '20180608',
      GOOGLE_WALLET_SMART_TAP_ISSUERS: ISSUERS.join(','),
    },
  });
  const keyFile = JSON.parse(await readFile(join(dataDir, 'certs', DEVELOPMENT_KEY_FILE), 'utf8')) as { private_key: string };
  publicKey = createPublicKey(keyFile.private_key);
  await putOrder(t.app, '52000001', anOrder([{ barcode: '5200000000000011', product: 'Day Ticket' }]));
  await putOrder(
    t.app,
    '52000002',
    anOrder([{ barcode: '5200000000000028', product: 'Fun Card', category: 'Stored Value Card', credits: 5 }]),
  );
  await putOrder(t.app, '52000003', anOrder([{ barcode: '5200000000000035', merchItemId: '9191' }]));
  await staff.exclusion(t.database.db, { merchItemId: '9191', excludeNfc: true, customError: 'No contactless' });
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function payloadOf(orderId: string, barcode: string): Promise<SaveToWalletPayload> {
  const res = await t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: { orderId, barcode } });
  expect(res.statusCode, res.body).toBe(200);
  const jwt = res.body.slice('https://pay.google.com/gp/v/save/'.length);
  return (createVerifier({ key: pem(publicKey), algorithms: ['RS256'], allowedAud: 'google' })(jwt) as { payload: SaveToWalletPayload })
    .payload;
}

it('puts Smart Tap on the classes and the objects, with the barcode as the redemption value', async () => {
  const ticket = await payloadOf('52000001', '5200000000000011');
  // Google's own types: what Boardwalk sends is what Google's API takes.
  const genericClass: walletobjects_v1.Schema$GenericClass = { ...ticket.genericClasses![0]!, classTemplateInfo: undefined };
  const genericObject: walletobjects_v1.Schema$GenericObject = ticket.genericObjects![0]!;
  expect(genericClass).toMatchObject({ enableSmartTap: true, redemptionIssuers: ISSUERS });
  expect(genericObject.smartTapRedemptionValue).toBe('5200000000000011');
  expect(genericObject.barcode?.value).toBe('5200000000000011');

  const card = await payloadOf('52000002', '5200000000000028');
  const loyaltyClass: walletobjects_v1.Schema$LoyaltyClass = card.loyaltyClasses![0]!;
  const loyaltyObject: walletobjects_v1.Schema$LoyaltyObject = card.loyaltyObjects![0]!;
  expect(loyaltyClass).toMatchObject({ enableSmartTap: true, redemptionIssuers: ISSUERS });
  expect(loyaltyObject.smartTapRedemptionValue).toBe('5200000000000028');
});

it('leaves the value off a ticket an exclusion keeps off contactless readers (its class still taps)', async () => {
  const excluded = await payloadOf('52000003', '5200000000000035');
  expect(excluded.genericObjects![0]!.smartTapRedemptionValue).toBeUndefined();
  expect(excluded.genericClasses![0]!.enableSmartTap).toBe(true);
});

it('leaves the value off a void pass (a refunded ticket)', async () => {
  await putOrder(t.app, '52000004', anOrder([{ barcode: '5200000000000042', product: 'Day Ticket', refunded: true }]));
  expect((await payloadOf('52000004', '5200000000000042')).genericObjects![0]!).toMatchObject({ state: 'INACTIVE' });
  expect((await payloadOf('52000004', '5200000000000042')).genericObjects![0]!.smartTapRedemptionValue).toBeUndefined();
});

it('takes the collector id and the issuers together or not at all, each numeric', () => {
  expect(() => loadConfig({ GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID: '20180608' })).toThrow(/set both or neither/);
  expect(() => loadConfig({ GOOGLE_WALLET_SMART_TAP_ISSUERS: ISSUERS[0] })).toThrow(/set both or neither/);
  expect(() => loadConfig({ GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID: 'abc', GOOGLE_WALLET_SMART_TAP_ISSUERS: ISSUERS[0] })).toThrow(
    /numeric collector id/,
  );
  expect(() => loadConfig({ GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID: '1', GOOGLE_WALLET_SMART_TAP_ISSUERS: '12,x' })).toThrow(
    /numeric issuer ids/,
  );
  expect(loadConfig({}).google.smartTap).toBeNull();
});
