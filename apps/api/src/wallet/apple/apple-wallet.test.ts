import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { guestMessages } from '@boardwalk/contract/errors';
import { hashSecret, newSecret } from '../../platform/secrets.ts';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { manifestProblems, opensslVerify, readPassStrings, unpackPass } from '../../../test-support/pkpass-check.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { pkpassDisposition } from './apple-wallet.routes.ts';
import { stringsFile } from './apple-pass-strings.ts';

const PUBLIC_URL = 'https://wallet.example.com';
const BRAND = 'Sea Breeze Pier';
const SUPPORT = 'help@seabreeze.example.com';

let t: TestApp;
let dataDir: string;
let rootCa: string;
const logLines: string[] = [];
let ipSeq = 0;
const nextIp = () => `10.8.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const env = () => ({
  DATA_DIR: dataDir,
  PUBLIC_URL,
  BRAND_NAME: BRAND,
  SUPPORT_EMAIL: SUPPORT,
  PASS_BACKGROUND_COLOR: '1b4965',
  PASS_FOREGROUND_COLOR: 'ffffff',
  APPLE_PASS_TYPE_ID: 'pass.com.example.seabreeze',
  APPLE_TEAM_ID: 'ABCDE12345',
  LOG_LEVEL: 'info',
});

function generate(body: Record<string, unknown>, remoteAddress = nextIp()) {
  return t.app.inject({ method: 'POST', url: '/api/apple-wallet/', payload: body, remoteAddress });
}

/** Generates the pass and checks it the way a device would, without trusting the generator. */
async function checkedPass(body: Record<string, unknown>) {
  const res = await generate(body);
  expect(res.statusCode, res.body).toBe(200);
  const unpacked = await unpackPass(res.rawPayload);
  expect(await manifestProblems(unpacked.dir)).toEqual([]);
  const verified = opensslVerify(unpacked.dir, rootCa);
  expect(verified.ok, verified.output).toBe(true);
  await unpacked.cleanup();
  return { res, pass: unpacked.pass, files: unpacked.files, manifest: unpacked.manifest };
}

const walletTables = async () =>
  JSON.stringify(
    await Promise.all([
      t.database.db.select().from(schema.walletPasses),
      t.database.db.select().from(schema.walletPassTokens),
      t.database.db.select().from(schema.appleDeviceRegistrations),
    ]),
  );

type Fields = { key: string; label: string; value: string }[];
/** The fields of a pass, whatever its style (generic, store card, event ticket). */
const fieldsOf = (pass: Record<string, unknown>) => {
  const style = (pass.generic ?? pass.storeCard ?? pass.eventTicket) as Record<string, Fields>;
  return [...style.headerFields!, ...style.primaryFields!, ...style.secondaryFields!, ...style.auxiliaryFields!, ...style.backFields!];
};
const field = (pass: Record<string, unknown>, key: string) => fieldsOf(pass).find((f) => f.key === key);

let photoPng: Buffer;
const activeHashUrl = newSecret();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bw-apple-wallet-'));
  t = await createTestApp({ env: env(), logStream: { write: (line) => void logLines.push(line) } });
  rootCa = join(dataDir, 'certs', 'apple-dev-root.pem');
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
        { barcode: '3000000000000028', product: 'Fun Card', category: 'Stored Value Card', credits: 25, cash: 3 },
      ],
      { orderDate: '2026-11-20T18:15:00Z', purchaser: { firstName: 'Carl', lastName: 'Diaz' } },
    ),
  );
  await putOrder(t.app, '30000002', anOrder([{ barcode: '3400000000000024', product: 'Tap Pass' }]));
  await putOrder(t.app, '30000003', anOrder([{ barcode: '3400000000000031', merchItemId: '8888' }]));
  await putOrder(t.app, '30000004', anOrder([{ barcode: '3000000000000042', merchItemId: '7777' }]));
  await putOrder(t.app, '30000005', anOrder([{ barcode: '3000000000000059', refunded: true, expires: '2027-01-31T23:59:59-08:00' }]));
  await putOrder(
    t.app,
    '30000006',
    anOrder([{ barcode: '3000000000000066', categoryId: '77', isPassholder: true, product: '2027 Season Pass' }]),
  );

  await staff.customization(db, 'Day Ticket', '7b2cbf', 'ffd60a', { instructions: 'Show this pass at the gate.' });
  await staff.customization(db, 'Hidden', '000000', 'ffffff', { hideBarcode: true });
  await staff.mapping(db, { categoryId: '20', customizationName: 'Day Ticket' });
  await staff.mapping(db, { categoryId: '77', customizationName: 'Hidden' });
  await staff.exclusion(db, { merchItemId: '8888', excludeNfc: true, customError: 'No NFC' });
  await staff.exclusion(db, { merchItemId: '7777', customError: 'Show your printed ticket at the gate.' });
  await staff.share(db, {
    barcode: '3000000000000028',
    hashUrlHash: hashSecret(activeHashUrl),
    firstName: 'Dee',
    lastName: 'Friend',
    email: 'dee@example.com',
  });
  photoPng = await sharp({ create: { width: 90, height: 120, channels: 3, background: '#c08040' } })
    .png()
    .toBuffer();
  await db
    .insert(schema.photos)
    .values({ uid: 'photo-uid-1', barcode: '3000000000000066', bmp: Buffer.from('BM'), png: photoPng, width: 90, height: 120 });
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('POST /api/apple-wallet/', () => {
  it('answers a signed .pkpass that unzip, a recomputed manifest and openssl accept', async () => {
    const { res, files, manifest } = await checkedPass({ orderId: '30000001', barcode: '3000000000000011' });
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Sea Breeze Pier.pkpass"; filename*=UTF-8''Sea%20Breeze%20Pier.pkpass`,
    );
    // Every file but the manifest and its signature is in the manifest: both languages' strings too.
    const listed = ['en.lproj/pass.strings', 'es.lproj/pass.strings', 'pass.json'];
    for (const image of ['icon', 'logo']) listed.push(`${image}.png`, `${image}@2x.png`, `${image}@3x.png`);
    expect([...files.keys()].sort()).toEqual([...listed, 'manifest.json', 'signature'].sort());
    expect(Object.keys(manifest).sort()).toEqual(listed.sort());
    // The images are real PNGs at @1x, @2x and @3x.
    const icon3 = await sharp(files.get('icon@3x.png')!).metadata();
    expect([icon3.format, icon3.width, icon3.height]).toEqual(['png', 87, 87]);
  });

  it('fails the check when a file or the manifest is tampered with', async () => {
    const res = await generate({ orderId: '30000001', barcode: '3000000000000011' });
    const unpacked = await unpackPass(res.rawPayload);
    try {
      const pass = join(unpacked.dir, 'pass.json');
      await writeFile(pass, (await readFile(pass, 'utf8')).replace('Ana Lopez', 'Eve Lopez'));
      expect(await manifestProblems(unpacked.dir)).toEqual([expect.stringMatching(/^pass\.json: SHA-1/)]);
      // Rewriting the manifest to match breaks the signature instead.
      const manifestFile = join(unpacked.dir, 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, string>;
      manifest['pass.json'] = createHash('sha1')
        .update(await readFile(pass))
        .digest('hex');
      await writeFile(manifestFile, JSON.stringify(manifest));
      expect(await manifestProblems(unpacked.dir)).toEqual([]);
      expect(opensslVerify(unpacked.dir, rootCa).ok).toBe(false);
      // An extra file is caught too.
      await writeFile(join(unpacked.dir, 'strip.png'), photoPng);
      expect(await manifestProblems(unpacked.dir)).toEqual(['strip.png is not in the manifest']);
    } finally {
      await unpacked.cleanup();
    }
  });

  it('holds what the pass card shows, in pass.json terms', async () => {
    const { pass } = await checkedPass({ orderId: '30000001', barcode: '3000000000000011' });
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.com.example.seabreeze',
      teamIdentifier: 'ABCDE12345',
      webServiceURL: `${PUBLIC_URL}/api/passkit`,
      organizationName: BRAND,
      description: `${BRAND} Day Ticket`,
      backgroundColor: 'rgb(123, 44, 191)',
      foregroundColor: 'rgb(255, 214, 10)',
      barcodes: [
        { format: 'PKBarcodeFormatCode128', message: '3000000000000011', messageEncoding: 'iso-8859-1', altText: '3000000000000011' },
      ],
      expirationDate: '2031-01-01T07:59:59Z',
    });
    expect(pass.serialNumber).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof pass.authenticationToken).toBe('string');
    expect((pass.authenticationToken as string).length).toBeGreaterThanOrEqual(16);
    expect(pass.voided).toBeUndefined();
    expect(pass.nfc).toBeUndefined();
    expect(field(pass, 'holder')).toMatchObject({ label: 'Ticketholder', value: 'Ana Lopez' });
    expect(field(pass, 'product')).toMatchObject({ label: 'Product', value: 'Day Ticket' });
    // Amounts and dates are the phone's to write ("$12.50", "Nov 20, 2026" on an English phone), dates on the park's calendar.
    expect(field(pass, 'balance')).toMatchObject({ label: 'Balance', value: 12.5, currencyCode: 'USD' });
    expect(field(pass, 'purchaser')).toMatchObject({ value: 'Carl Diaz' });
    const parkDate = { dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleNone', ignoresTimeZone: true };
    expect(field(pass, 'orderDate')).toMatchObject({ label: 'Order Date', value: '2026-11-20T10:15:00-08:00', ...parkDate });
    expect(field(pass, 'expires')).toMatchObject({ label: 'Expires', value: '2030-12-31T23:59:59-08:00', ...parkDate });
    expect(field(pass, 'instructions')).toMatchObject({ value: 'Show this pass at the gate.' });
    expect(field(pass, 'support')).toMatchObject({ value: SUPPORT });
  });

  it('keeps one serial number and one token per ticket, storing no token', async () => {
    const first = (await checkedPass({ orderId: '30000001', barcode: '3000000000000011' })).pass;
    const second = (await checkedPass({ orderId: '30000001', barcode: '3000000000000011' })).pass;
    expect(second.serialNumber).toBe(first.serialNumber);
    expect(second.authenticationToken).toBe(first.authenticationToken);
    expect(await t.database.db.select().from(schema.walletPassTokens)).toEqual([]);
    const rows = JSON.stringify(await t.database.db.select().from(schema.walletPasses));
    expect(rows).not.toContain(first.authenticationToken as string);
  });

  it('shows credits on a Stored Value Card, also reached by its share link', async () => {
    const { pass } = await checkedPass({ hashUrl: activeHashUrl });
    expect(pass.storeCard).toBeDefined();
    expect(field(pass, 'balance')).toMatchObject({ label: 'Credits', value: '25 Credits' });
    expect(field(pass, 'product')).toMatchObject({ value: 'Fun Card' });
  });

  it('gives a barcode starting with 34 the NFC variant, unless an exclusion says excludeNFC', async () => {
    const nfc = (await checkedPass({ orderId: '30000002', barcode: '3400000000000024' })).pass;
    expect(nfc.nfc).toMatchObject({ message: '3400000000000024' });
    const key = (nfc.nfc as { encryptionPublicKey: string }).encryptionPublicKey;
    // The public half of the P-256 key kept in DATA_DIR/certs.
    const { createPublicKey } = await import('node:crypto');
    const devKey = createPublicKey(await readFile(join(dataDir, 'certs', 'apple-dev-nfc-key.pem'), 'utf8'));
    expect(key).toBe(devKey.export({ type: 'spki', format: 'der' }).toString('base64'));
    expect(devKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');

    const excluded = (await checkedPass({ orderId: '30000003', barcode: '3400000000000031' })).pass;
    expect(excluded.nfc).toBeUndefined();
    expect(excluded.barcodes).toBeDefined();
  });

  it('voids a refunded ticket and takes expirationDate from expires', async () => {
    const { pass } = await checkedPass({ orderId: '30000005', barcode: '3000000000000059' });
    expect(pass.voided).toBe(true);
    expect(pass.expirationDate).toBe('2027-02-01T07:59:59Z');
    expect(field(pass, 'product')?.value).toBe('Day Ticket (Refunded)');
  });

  it("carries en.lproj and es.lproj strings with the same keys: every label and the pass's own texts, not its data", async () => {
    for (const body of [
      { orderId: '30000001', barcode: '3000000000000011' },
      { orderId: '30000005', barcode: '3000000000000059' },
      { hashUrl: activeHashUrl },
    ]) {
      // checkedPass: unzipped by unzip, every file (the .lproj ones too) in the manifest, the signature verified by openssl.
      const { pass, files, manifest } = await checkedPass(body);
      expect(Object.keys(manifest)).toEqual(expect.arrayContaining(['en.lproj/pass.strings', 'es.lproj/pass.strings']));
      const raw = files.get('es.lproj/pass.strings')!;
      expect([raw[0], raw[1]]).toEqual([0xff, 0xfe]); // UTF-16, little-endian, with its byte order mark
      const en = readPassStrings(files.get('en.lproj/pass.strings')!);
      const es = readPassStrings(raw);
      expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
      // pass.json carries the English text, which is each entry's key: an English phone shows it as it is.
      for (const [key, text] of en) expect(text).toBe(key);
      for (const f of fieldsOf(pass)) {
        expect(es.has(f.label), f.label).toBe(true);
        const changeMessage = (f as { changeMessage?: string }).changeMessage;
        if (changeMessage) expect(es.get(changeMessage), changeMessage).toMatch(/%@/);
      }
    }
    const { pass, files } = await checkedPass({ orderId: '30000005', barcode: '3000000000000059' });
    const es = readPassStrings(files.get('es.lproj/pass.strings')!);
    expect(es.get('Product')).toBe('Producto');
    expect(es.get('Balance')).toBe('Saldo');
    expect(es.get('Your balance is now %@')).toBe('Su saldo ahora es %@');
    expect(es.get(field(pass, 'product')!.value)).toBe('Day Ticket (Reembolsado)');
    // Data is shown as it is: the support address, the amounts and dates (which the phone writes).
    expect(es.has(SUPPORT)).toBe(false);
    expect(field(pass, 'balance')).toMatchObject({ value: expect.any(Number), currencyCode: 'USD' });
    const card = await checkedPass({ hashUrl: activeHashUrl });
    const cardEs = readPassStrings(card.files.get('es.lproj/pass.strings')!);
    expect(cardEs.get(field(card.pass, 'balance')!.value)).toBe('25 créditos');
    expect(cardEs.get('Credits')).toBe('Créditos');
    expect(cardEs.has('Fun Card')).toBe(false);
  });

  it("carries the instructions staff wrote in Spanish as the English ones' translation, the English where they wrote none", async () => {
    const c = schema.passCustomizations;
    const english = 'Show this pass at the gate.';
    const instructionsOf = async () => {
      const { pass, files } = await checkedPass({ orderId: '30000001', barcode: '3000000000000011' });
      expect(field(pass, 'instructions')!.value).toBe(english);
      return readPassStrings(files.get('es.lproj/pass.strings')!).get(english);
    };
    expect(await instructionsOf()).toBe(english);
    await t.database.db.update(c).set({ instructionsEs: 'Muestre este pase en la entrada.' }).where(eq(c.name, 'Day Ticket'));
    try {
      expect(await instructionsOf()).toBe('Muestre este pase en la entrada.');
    } finally {
      await t.database.db.update(c).set({ instructionsEs: null });
    }
  });

  it('escapes quotes, backslashes and line breaks in its strings files', () => {
    const texts: [string, string][] = [
      ['Say "hi"\\ now', 'Diga «hola» "ya"\nmañana'],
      ['a\tb', 'ñ'],
    ];
    expect([...readPassStrings(stringsFile(texts))]).toEqual(texts);
  });

  it('honours hideBarcode and carries the holder photo as the thumbnail', async () => {
    const { pass, files, manifest } = await checkedPass({ orderId: '30000006', barcode: '3000000000000066' });
    expect(pass.barcodes).toBeUndefined();
    expect(files.get('thumbnail.png')?.equals(photoPng)).toBe(true);
    expect(manifest['thumbnail.png']).toBe(createHash('sha1').update(photoPng).digest('hex'));
  });

  it('answers an excluded ticket with its message, writing nothing', async () => {
    const before = await walletTables();
    const res = await generate({ orderId: '30000004', barcode: '3000000000000042' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Show your printed ticket at the gate.');
    expect(await walletTables()).toBe(before);
  });

  it('answers "Unable to locate order" for a wrong order or barcode, and 400 for bad input, writing nothing', async () => {
    const before = await walletTables();
    for (const body of [
      { orderId: '30000001', barcode: '3000000000000099' },
      { orderId: '39999999', barcode: '3000000000000011' },
      { hashUrl: newSecret() },
    ]) {
      const res = await generate(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
      expect(res.json().message).toBe(guestMessages.orderNotFound);
    }
    for (const body of [
      {},
      { orderId: '3000', barcode: '3000000000000011' },
      { orderId: '30000001', barcode: 'abc' },
      { orderId: '30000001', barcode: '3000000000000011', extra: 1 },
      { orderId: '30000001', barcode: '3000000000000011', hashUrl: activeHashUrl },
    ]) {
      const res = await generate(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/apple-wallet/',
      payload: 'not json',
      headers: { 'content-type': 'application/json' },
      remoteAddress: nextIp(),
    });
    expect(bad.statusCode).toBe(400);
    expect(await walletTables()).toBe(before);
  });

  it('names the download for the brand, safely', () => {
    expect(pkpassDisposition('Boardwalk')).toBe(`attachment; filename="Boardwalk.pkpass"; filename*=UTF-8''Boardwalk.pkpass`);
    expect(pkpassDisposition('Café "Pier"')).toBe(`attachment; filename="Caf Pier.pkpass"; filename*=UTF-8''Caf%C3%A9%20%22Pier%22.pkpass`);
  });
});

describe('development certificates', () => {
  it('are made once in DATA_DIR/certs, said so in the log, and reused by the next start', async () => {
    expect(logLines.some((l) => l.includes('development certificates in use') && l.includes('"level":40'))).toBe(true);
    const chain = await readFile(join(dataDir, 'certs', 'apple-dev-chain.pem'), 'utf8');
    const root = await readFile(rootCa, 'utf8');
    const again = await createTestApp({ env: env() });
    try {
      expect(await readFile(join(dataDir, 'certs', 'apple-dev-chain.pem'), 'utf8')).toBe(chain);
      expect(await readFile(rootCa, 'utf8')).toBe(root);
    } finally {
      await again.close();
    }
    // The signer is shaped like Apple's pass type certificates.
    const { X509Certificate } = await import('node:crypto');
    const signer = new X509Certificate(chain.slice(chain.indexOf('-----BEGIN CERTIFICATE-----')));
    expect(signer.subject).toContain('UID=pass.com.example.seabreeze');
    expect(signer.subject).toContain('OU=ABCDE12345');
    expect(signer.toLegacyObject().ext_key_usage).toContain('1.2.840.113635.100.4.14');
    expect(signer.raw.includes(Buffer.from('2a864886f76364060110', 'hex'))).toBe(true); // 1.2.840.113635.100.6.1.16
  });
});

describe('configured certificates', () => {
  it('are read from PEM files, the key with its passphrase, and sign passes without the development warning', async () => {
    const { createPrivateKey } = await import('node:crypto');
    const chain = await readFile(join(dataDir, 'certs', 'apple-dev-chain.pem'), 'utf8');
    const [key, signer, wwdr] = chain.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g)!;
    const dir = await mkdtemp(join(tmpdir(), 'bw-apple-configured-'));
    const files = { cert: join(dir, 'signer.pem'), key: join(dir, 'signer.key'), wwdr: join(dir, 'wwdr.pem') };
    await writeFile(files.cert, signer!);
    await writeFile(files.wwdr, wwdr!);
    await writeFile(
      files.key,
      createPrivateKey(key!).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'correct horse' }),
    );
    const lines: string[] = [];
    const configured = await createTestApp({
      env: {
        ...env(),
        DATA_DIR: dir,
        APPLE_CERT_FILE: files.cert,
        APPLE_KEY_FILE: files.key,
        APPLE_KEY_PASSPHRASE: 'correct horse',
        APPLE_WWDR_FILE: files.wwdr,
        APNS_URL: '',
      },
      logStream: { write: (l) => void lines.push(l) },
    });
    try {
      await putOrder(configured.app, '30000001', anOrder([{ barcode: '3000000000000011' }]));
      const res = await configured.app.inject({
        method: 'POST',
        url: '/api/apple-wallet/',
        payload: { orderId: '30000001', barcode: '3000000000000011' },
        remoteAddress: nextIp(),
      });
      expect(res.statusCode, res.body).toBe(200);
      const unpacked = await unpackPass(res.rawPayload);
      // Verifies against the root that issued the configured WWDR certificate.
      expect(opensslVerify(unpacked.dir, rootCa).ok).toBe(true);
      await unpacked.cleanup();
      expect(lines.some((l) => l.includes('development certificates in use'))).toBe(false);
    } finally {
      await configured.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
