import { createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { createDecoder, createVerifier } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import type { GenericClass, GenericObject, LoyaltyObject } from './google-wallet.ts';
import { DEVELOPMENT_ISSUER_ID, DEVELOPMENT_KEY_FILE, DEVELOPMENT_PUBLIC_KEY_FILE } from './google-wallet-credentials.ts';
import { hashSecret, newSecret } from '../../platform/secrets.ts';
import { pem } from '../../../test-support/google-double.ts';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

const PUBLIC_URL = 'https://wallet.example.com';
const BRAND = 'Sea Breeze Pier';
const SAVE_PREFIX = 'https://pay.google.com/gp/v/save/';

let t: TestApp;
let dataDir: string;
let logLines: string[] = [];
let publicKey: ReturnType<typeof createPublicKey>;
let ipSeq = 0;
const nextIp = () => `10.7.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const env = () => ({
  DATA_DIR: dataDir,
  PUBLIC_URL,
  BRAND_NAME: BRAND,
  PASS_BACKGROUND_COLOR: '112233',
  LOG_LEVEL: 'info',
  PARK_TIMEZONE: 'America/Los_Angeles',
});

function save(body: Record<string, unknown>, remoteAddress = nextIp()) {
  return t.app.inject({ method: 'POST', url: '/api/google-wallet/', payload: body, remoteAddress });
}

interface SaveClaims {
  iss: string;
  aud: string;
  iat: number;
  typ: string;
  origins: string[];
  payload: { genericClasses?: GenericClass[]; genericObjects?: GenericObject[]; loyaltyObjects?: LoyaltyObject[] };
}

/** The JWT of a save link, verified with the development key's public key (not the generator's word). */
async function claimsOf(link: string): Promise<SaveClaims> {
  expect(link.startsWith(SAVE_PREFIX)).toBe(true);
  const jwt = link.slice(SAVE_PREFIX.length);
  expect((createDecoder({ complete: true })(jwt) as { header: { alg: string } }).header.alg).toBe('RS256');
  return createVerifier({ key: pem(publicKey), algorithms: ['RS256'], allowedAud: 'google' })(jwt) as SaveClaims;
}
async function objectOf(body: Record<string, unknown>) {
  const res = await save(body);
  expect(res.statusCode, res.body).toBe(200);
  const claims = await claimsOf(res.body);
  return claims.payload.genericObjects![0]!;
}
/** The object of a Stored Value Card's save link: a loyalty card with its credits. */
async function storedValueObjectOf(body: Record<string, unknown>) {
  const res = await save(body);
  expect(res.statusCode, res.body).toBe(200);
  return (await claimsOf(res.body)).payload.loyaltyObjects![0]!;
}
const moduleBody = (object: GenericObject, id: string) => object.textModulesData?.find((m) => m.id === id)?.body;
const walletRows = () => t.database.db.select().from(schema.walletPasses);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bw-google-wallet-'));
  t = await createTestApp({ env: env(), logStream: { write: (line) => void logLines.push(line) } });
  const keyFile = JSON.parse(await readFile(join(dataDir, 'certs', DEVELOPMENT_KEY_FILE), 'utf8')) as { private_key: string };
  publicKey = createPublicKey(keyFile.private_key);

  const db = t.database.db;
  await putOrder(
    t.app,
    '30000001',
    anOrder(
      [
        {
          barcode: '3000000000000011',
          product: 'Day Ticket',
          categoryId: '20',
          cash: 12.5,
          holder: { firstName: 'Ana', lastName: 'Lopez' },
        },
      ],
      {
        purchaser: { firstName: 'Carl', lastName: 'Diaz' },
        orderDate: '2026-11-20T18:15:00Z',
      },
    ),
  );
  await putOrder(
    t.app,
    '30000002',
    anOrder([
      {
        barcode: '3500000000000035',
        category: 'Stored Value Card',
        categoryId: '30',
        credits: 25,
        cash: 3,
        holder: { firstName: 'Rosa', lastName: 'Diaz' },
      },
    ]),
  );
  await putOrder(
    t.app,
    '30000003',
    anOrder([
      {
        barcode: '2400000000000042',
        product: '2027 Season Pass',
        isPassholder: true,
        categoryId: '12',
        holder: { firstName: 'Sam', lastName: 'Park' },
      },
    ]),
  );
  await putOrder(t.app, '30000004', anOrder([{ barcode: '3000000000000059', merchItemId: '7777' }]));
  await putOrder(t.app, '30000005', anOrder([{ barcode: '3000000000000066', refunded: true }]));
  await putOrder(t.app, '30000006', anOrder([{ barcode: '3000000000000073', expires: '2020-01-01T00:00:00Z' }]));
  await putOrder(t.app, '30000007', anOrder([{ barcode: '3000000000000080', packId: '444', holder: {} }], { purchaser: {} }));
  await putOrder(t.app, '30000008', anOrder([{ barcode: '3000000000000097', merchItemId: '8888' }]));

  await staff.customization(db, 'Day Ticket', '7b2cbf', 'ffd60a', {
    googleInstructions: 'Show this pass at the gate.',
    googleUri: 'https://park.example.com/hours',
  });
  await staff.customization(db, 'Hidden', 'aa0000', 'ffffff', { hideBarcode: true, instructions: 'General instructions' });
  await staff.mapping(db, { categoryId: '20', customizationName: 'Day Ticket' });
  await staff.mapping(db, { packId: '444', customizationName: 'Hidden' });
  await staff.exclusion(db, { merchItemId: '7777', customError: 'Show your printed ticket at the gate.' });
  await staff.exclusion(db, { merchItemId: '8888', excludeNfc: true, customError: 'No NFC' });
  await db
    .insert(schema.photos)
    .values({ uid: 'photo-uid-1', barcode: '2400000000000042', bmp: Buffer.from('BM'), png: Buffer.from('PNG'), width: 1, height: 1 });
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('POST /api/google-wallet/', () => {
  it('answers the save link as text: an RS256 JWT for Google with the origin, the class and the object', async () => {
    const res = await save({ orderId: '30000001', barcode: '3000000000000011' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const claims = await claimsOf(res.body);
    expect(claims).toMatchObject({
      typ: 'savetowallet',
      aud: 'google',
      origins: [PUBLIC_URL],
      iss: 'boardwalk-development@boardwalk-development.iam.gserviceaccount.com',
    });
    expect(typeof claims.iat).toBe('number');

    const [pass] = await t.database.db.select().from(schema.walletPasses).where(eq(schema.walletPasses.barcode, '3000000000000011'));
    expect(pass?.googleIssued).toBe(true);
    const { genericClasses, genericObjects } = claims.payload;
    expect(genericClasses).toEqual([
      expect.objectContaining({ id: `${DEVELOPMENT_ISSUER_ID}.park-ticket`, multipleDevicesAndHoldersAllowedStatus: 'MULTIPLE_HOLDERS' }),
    ]);
    expect(genericObjects).toHaveLength(1);
    const object = genericObjects![0]!;
    expect(object).toMatchObject({
      id: `${DEVELOPMENT_ISSUER_ID}.${pass!.serialNumber}`,
      classId: `${DEVELOPMENT_ISSUER_ID}.park-ticket`,
      state: 'ACTIVE',
      cardTitle: { defaultValue: { language: 'en-US', value: BRAND } },
      subheader: { defaultValue: { value: 'Ticketholder' } },
      header: { defaultValue: { value: 'Ana Lopez' } },
      hexBackgroundColor: '#7b2cbf',
      barcode: { type: 'CODE_128', value: '3000000000000011' },
      validTimeInterval: { end: { date: '2031-01-01T07:59:59.000Z' } },
      linksModuleData: { uris: [{ uri: 'https://park.example.com/hours', description: BRAND }] },
    });
    expect(moduleBody(object, 'product')).toBe('Day Ticket');
    expect(moduleBody(object, 'balance')).toBe('$12.50');
    expect(moduleBody(object, 'order_date')).toBe('Nov 20, 2026');
    expect(moduleBody(object, 'expires')).toBe('Dec 31, 2030');
    expect(moduleBody(object, 'purchaser')).toBe('Carl Diaz');
    expect(moduleBody(object, 'instructions')).toBe('Show this pass at the gate.');
    expect(object.imageModulesData).toBeUndefined();
    // Smart Tap is not configured here: neither the class nor the object carries it (google-smart-tap.test.ts).
    expect(genericClasses![0]!.enableSmartTap).toBeUndefined();
    expect(genericClasses![0]!.redemptionIssuers).toBeUndefined();
    expect(object.smartTapRedemptionValue).toBeUndefined();
  });

  it("writes the pass's own texts in the holder's language with translations, data as it is", async () => {
    const en = (value: string) => ({ language: 'en-US', value });
    const es = (value: string) => ({ language: 'es', value });
    const english = await objectOf({ orderId: '30000001', barcode: '3000000000000011' });
    expect(english.subheader).toEqual({ defaultValue: en('Ticketholder'), translatedValues: [es('Titular')] });
    // A Spanish registration (its call's Accept-Language) makes Spanish the default.
    await putOrder(
      t.app,
      '30000019',
      anOrder([{ barcode: '3000000000000196', product: 'Day Ticket', cash: 12.5 }], {
        orderDate: '2026-11-20T18:15:00Z',
        purchaser: { firstName: 'Carl', lastName: 'Diaz' },
      }),
    );
    const person = { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia@example.com', phone: '3105550100' };
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/register/',
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
      payload: { orderId: '30000019', barcode: '3000000000000196', ...person },
      remoteAddress: nextIp(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const spanish = await objectOf({ orderId: '30000019', barcode: '3000000000000196', hasPhoto: true });
    expect(spanish.subheader).toEqual({ defaultValue: es('Titular'), translatedValues: [en('Ticketholder')] });
    expect(spanish.header).toEqual({ defaultValue: en('Lucía Gómez') });
    const module = (id: string) => spanish.textModulesData!.find((m) => m.id === id)!;
    expect(module('product')).toEqual({
      id: 'product',
      header: 'Producto',
      body: 'Day Ticket',
      localizedHeader: { defaultValue: es('Producto'), translatedValues: [en('Product')] },
    });
    expect(module('balance')).toMatchObject({
      header: 'Saldo',
      body: '$12.50',
      localizedBody: { defaultValue: es('$12.50'), translatedValues: [en('$12.50')] },
    });
    expect(module('order_date').localizedBody).toEqual({ defaultValue: es('20 nov 2026'), translatedValues: [en('Nov 20, 2026')] });
    expect(module('purchaser')).toMatchObject({ header: 'Comprador', body: 'Carl Diaz' });
    expect(module('purchaser').localizedBody).toBeUndefined();
  });

  it('keeps one serial number per ticket across links', async () => {
    const first = await objectOf({ orderId: '30000001', barcode: '3000000000000011' });
    const second = await objectOf({ orderId: '30000001', barcode: '3000000000000011', shareId: '' });
    expect(second.id).toBe(first.id);
    expect((await walletRows()).filter((r) => r.barcode === '3000000000000011')).toHaveLength(1);
  });

  it('shows credits for a Stored Value Card and the default colour when no customization matches', async () => {
    const object = await storedValueObjectOf({ orderId: '30000002', barcode: '3500000000000035' });
    expect(object.loyaltyPoints).toMatchObject({ label: 'Credits', balance: { double: 25 } });
    expect(object.accountName).toBe('Rosa Diaz');
    const res = await save({ orderId: '30000002', barcode: '3500000000000035' });
    const { loyaltyClasses } = (await claimsOf(res.body)).payload as { loyaltyClasses: { hexBackgroundColor: string }[] };
    expect(loyaltyClasses[0]!.hexBackgroundColor).toBe('#112233');
  });

  it('puts the holder photo on the pass only when asked with hasPhoto and the ticket has one', async () => {
    const withPhoto = await objectOf({ orderId: '30000003', barcode: '2400000000000042', hasPhoto: true });
    expect(withPhoto.imageModulesData).toEqual([
      expect.objectContaining({
        mainImage: expect.objectContaining({ sourceUri: { uri: `${PUBLIC_URL}/api/download/photo-uid-1/photo.png` } }),
      }),
    ]);
    expect((await objectOf({ orderId: '30000003', barcode: '2400000000000042', hasPhoto: false })).imageModulesData).toBeUndefined();
    expect((await objectOf({ orderId: '30000003', barcode: '2400000000000042' })).imageModulesData).toBeUndefined();
    expect(await storedValueObjectOf({ orderId: '30000002', barcode: '3500000000000035', hasPhoto: true })).not.toHaveProperty(
      'imageModulesData',
    );
  });

  it('hides the barcode when the customization says so and falls back to its general instructions', async () => {
    const object = await objectOf({ orderId: '30000007', barcode: '3000000000000080' });
    expect(object.barcode).toBeUndefined();
    expect(object.hexBackgroundColor).toBe('#aa0000');
    expect(moduleBody(object, 'instructions')).toBe('General instructions');
    // No holder name: the product heads the pass.
    expect(object.header.defaultValue.value).toBe('Day Ticket');
    expect(object.subheader).toBeUndefined();
    expect(object.linksModuleData).toBeUndefined();
  });

  it("writes the instructions in every language: staff's Google ones in it, else their general ones in it, else the English", async () => {
    const c = schema.passCustomizations;
    const db = t.database.db;
    const en = (value: string) => ({ language: 'en-US', value });
    const es = (value: string) => ({ language: 'es', value });
    const instructions = async (body: Record<string, unknown>) =>
      (await objectOf(body)).textModulesData!.find((m) => m.id === 'instructions')!.localizedBody;
    const day = { orderId: '30000001', barcode: '3000000000000011' };
    const hidden = { orderId: '30000007', barcode: '3000000000000080' };
    // Written in English only: a Spanish phone reads the English.
    expect(await instructions(day)).toEqual({
      defaultValue: en('Show this pass at the gate.'),
      translatedValues: [es('Show this pass at the gate.')],
    });
    await db.update(c).set({ instructionsEs: 'Instrucciones generales' }).where(eq(c.name, 'Hidden'));
    await db
      .update(c)
      .set({ instructionsEs: 'Muestre su boleto.', googleInstructionsEs: 'Muestre este pase en la entrada.' })
      .where(eq(c.name, 'Day Ticket'));
    try {
      expect(await instructions(hidden)).toEqual({
        defaultValue: en('General instructions'),
        translatedValues: [es('Instrucciones generales')],
      });
      expect(await instructions(day)).toEqual({
        defaultValue: en('Show this pass at the gate.'),
        translatedValues: [es('Muestre este pase en la entrada.')],
      });
    } finally {
      await db.update(c).set({ instructionsEs: null, googleInstructionsEs: null });
    }
  });

  it('marks refunded passes inactive and expired ones expired', async () => {
    const refunded = await objectOf({ orderId: '30000005', barcode: '3000000000000066' });
    expect(refunded.state).toBe('INACTIVE');
    expect(moduleBody(refunded, 'product')).toBe('Day Ticket (Refunded)');
    expect((await objectOf({ orderId: '30000006', barcode: '3000000000000073' })).state).toBe('EXPIRED');
  });

  it('refuses an excluded ticket with its message and writes nothing; excludeNFC does not exclude', async () => {
    const res = await save({ orderId: '30000004', barcode: '3000000000000059' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: 'Show your printed ticket at the gate.' });
    expect((await walletRows()).some((r) => r.barcode === '3000000000000059')).toBe(false);
    expect((await save({ orderId: '30000008', barcode: '3000000000000097' })).statusCode).toBe(200);
  });

  it('answers "Unable to locate order" for a wrong barcode or order, and writes nothing', async () => {
    const before = await walletRows();
    for (const body of [
      { orderId: '30000001', barcode: '3000000000000028' },
      { orderId: '39999999', barcode: '3000000000000011' },
    ]) {
      const res = await save(body);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Unable to locate order');
    }
    expect(await walletRows()).toEqual(before);
  });

  it('answers 400 with a clear message to bad input and writes nothing', async () => {
    const before = await walletRows();
    for (const body of [
      {},
      { orderId: '30000001' },
      { orderId: '30000001', barcode: '3000000000000011', hasPhoto: 'yes' },
      { orderId: '30000001', barcode: '3000000000000011', extra: 1 },
      { orderId: 'abc', barcode: '3000000000000011' },
      { orderId: '30000001', barcode: '3000000000000011', hashUrl: newSecret() },
    ]) {
      const res = await save(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/google-wallet/',
      payload: 'orderId=1',
      headers: { 'content-type': 'text/plain' },
      remoteAddress: nextIp(),
    });
    expect(notJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(notJson.statusCode).toBeLessThan(500);
    expect(await walletRows()).toEqual(before);
  });

  it('throttles failed lookups like login', async () => {
    const ip = nextIp();
    let last = 0;
    for (let i = 0; i < 12; i++)
      last = (await save({ orderId: '38888888', barcode: `35000000000${String(i).padStart(5, '0')}` }, ip)).statusCode;
    expect(last).toBe(429);
  });

  it('serves a shared guest through a share link; a stopped share or unknown share id answers 410', async () => {
    const active = newSecret();
    const stopped = newSecret();
    const db = t.database.db;
    const share = await staff.share(db, {
      barcode: '3500000000000035',
      hashUrlHash: hashSecret(active),
      firstName: 'Dee',
      lastName: 'Friend',
      email: 'dee@example.com',
    });
    await staff.share(db, {
      barcode: '3500000000000035',
      hashUrlHash: hashSecret(stopped),
      firstName: 'Old',
      lastName: 'Friend',
      email: 'old@example.com',
      removedAt: new Date(),
    });
    const primary = await storedValueObjectOf({ orderId: '30000002', barcode: '3500000000000035' });
    // The shared guest's own object (made inactive when sharing stops), the same ticket.
    const viaLink = await storedValueObjectOf({ hashUrl: active, hasPhoto: false });
    expect(viaLink.id).not.toBe(primary.id);
    expect(viaLink.barcode?.value).toBe('3500000000000035');
    expect((await storedValueObjectOf({ orderId: '30000002', barcode: '3500000000000035', shareId: share.shareId })).id).toBe(viaLink.id);
    expect((await save({ hashUrl: stopped })).statusCode).toBe(410);
    expect(
      (await save({ orderId: '30000002', barcode: '3500000000000035', shareId: '00000000-0000-4000-8000-000000000000' })).statusCode,
    ).toBe(410);
  });

  it('keeps the serial number and update tag of a row Apple Wallet created first', async () => {
    const db = t.database.db;
    await putOrder(t.app, '30000009', anOrder([{ barcode: '3000000000000103' }]));
    const [apple] = await db.insert(schema.walletPasses).values({ barcode: '3000000000000103', contentHash: 'apple-hash' }).returning();
    const object = await objectOf({ orderId: '30000009', barcode: '3000000000000103' });
    expect(object.id).toBe(`${DEVELOPMENT_ISSUER_ID}.${apple!.serialNumber}`);
    const [after] = await db.select().from(schema.walletPasses).where(eq(schema.walletPasses.barcode, '3000000000000103'));
    expect(after).toEqual({ ...apple, googleIssued: true, googleObjectKind: 'genericObject' });
  });
});

describe('development key and ticket changes without Google credentials', () => {
  it('logged that a development key is in use, and never logs a barcode or a JWT', () => {
    const log = logLines.join('\n');
    expect(log).toMatch(/development key is in use/);
    expect(log).not.toContain('3000000000000011');
    expect(log).not.toContain(SAVE_PREFIX);
  });

  it('reuses the generated key on the next start', async () => {
    const keyBefore = await readFile(join(dataDir, 'certs', DEVELOPMENT_KEY_FILE), 'utf8');
    const again = await createTestApp({ env: env(), database: t.database });
    try {
      const res = await again.app.inject({
        method: 'POST',
        url: '/api/google-wallet/',
        payload: { orderId: '30000001', barcode: '3000000000000011' },
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(200);
      await claimsOf(res.body); // verifies with the key generated by the first start
    } finally {
      await again.close();
    }
    expect(await readFile(join(dataDir, 'certs', DEVELOPMENT_KEY_FILE), 'utf8')).toBe(keyBefore);
    const publicPem = await readFile(join(dataDir, 'certs', DEVELOPMENT_PUBLIC_KEY_FILE), 'utf8');
    expect(createPublicKey(publicPem).export({ format: 'pem', type: 'spki' })).toBe(publicKey.export({ format: 'pem', type: 'spki' }));
  });

  it('records and logs the update of an issued pass when the order feed changes it', async () => {
    logLines = [];
    await putOrder(
      t.app,
      '30000001',
      anOrder(
        [
          {
            barcode: '3000000000000011',
            product: 'Day Ticket',
            categoryId: '20',
            cash: 40,
            holder: { firstName: 'Ana', lastName: 'Lopez' },
          },
        ],
        {
          purchaser: { firstName: 'Carl', lastName: 'Diaz' },
          orderDate: '2026-11-20T18:15:00Z',
        },
      ),
    );
    await settleDeliveries(t.app);
    const recorded = logLines
      .map((l) => JSON.parse(l) as { msg: string; objectId?: string; barcode?: string })
      .filter((l) => /Google Wallet object update recorded/.test(l.msg));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.objectId).toMatch(new RegExp(`^${DEVELOPMENT_ISSUER_ID}\\.`));
    expect(recorded[0]!.barcode).toBe('************0011');
    expect(logLines.join('\n')).not.toContain('3000000000000011');
  });
});
