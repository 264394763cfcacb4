// POST /api/voucher/: the PDF is checked with tools that do not trust the generator:
// poppler's pdftoppm renders it and zbarimg (zbar-tools) reads the symbols off the image,
// pdftotext and pdfimages show what the page says and holds.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, snapshotGuestTables } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { voucherFileName } from './voucher.service.ts';
import { renderVoucher, winAnsi } from './voucher.document.ts';

const run = promisify(execFile);
const TOOLS = {
  pdfinfo: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  pdftotext: 'poppler-utils',
  pdfimages: 'poppler-utils',
  zbarimg: 'zbar-tools',
} as const;

/** Runs a Debian tool; a missing one fails with the package to install (npm test installs them). */
async function tool(name: keyof typeof TOOLS, args: string[]) {
  try {
    return await run(name, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error(`${name} is not installed: apt-get install ${TOOLS[name]} (scripts/test.mjs installs it)`, { cause: error });
    // zbarimg exits 4 when it finds no symbol: an answer, not a failure of the tool.
    if (name === 'zbarimg' && typeof e.code === 'number' && e.code === 4) return { stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    throw error;
  }
}

let dir: string;
let seq = 0;
async function withPdf<T>(pdf: Buffer, use: (file: string) => Promise<T>) {
  const file = join(dir, `voucher-${++seq}.pdf`);
  await writeFile(file, pdf);
  return use(file);
}
/** The symbols zbarimg reads off the page rendered at 150 dpi, e.g. ["CODE-128:1000000000000035"]. */
const scan = (pdf: Buffer) =>
  withPdf(pdf, async (file) => {
    const prefix = file.replace(/\.pdf$/, '');
    await tool('pdftoppm', ['-r', '150', '-png', '-singlefile', file, prefix]);
    const { stdout } = await tool('zbarimg', ['-q', `${prefix}.png`]);
    return stdout.split('\n').filter(Boolean).sort();
  });
const pageCount = (pdf: Buffer) =>
  withPdf(pdf, async (file) => Number(/^Pages:\s+(\d+)/m.exec((await tool('pdfinfo', [file])).stdout)?.[1]));
const text = (pdf: Buffer) => withPdf(pdf, async (file) => (await tool('pdftotext', ['-layout', file, '-'])).stdout);
/** The images the page holds: [width, height] of each. */
const images = (pdf: Buffer) =>
  withPdf(pdf, async (file) => {
    const { stdout } = await tool('pdfimages', ['-list', file]);
    return stdout
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[2] === 'image')
      .map((cols) => [Number(cols[3]), Number(cols[4])]);
  });

let t: TestApp;
let ipSeq = 0;
/** Each test gets its own client address so the per-address throttle never crosses tests. */
const nextIp = () => `10.7.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
const voucher = (body: unknown, remoteAddress = nextIp(), headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/voucher/', payload: body as Record<string, unknown>, remoteAddress, headers });
const login = (body: unknown, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/login/', payload: body as Record<string, unknown>, remoteAddress });

const PUBLIC_URL = 'https://park.example.com';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-voucher-'));
  // The demo data holds the Stored Value Card (10000002) and the excluded ticket (10000004).
  t = await createTestApp({ env: { DEMO_DATA: 'true', PUBLIC_URL, BRAND_NAME: 'Boardwalk' } });
  await putOrder(
    t.app,
    '30000001',
    anOrder([
      {
        barcode: '3000000000000011',
        product: '2027 Season Pass',
        category: 'Season Pass',
        isPassholder: true,
        holder: { firstName: 'Ana', lastName: 'Lopez' },
        cash: 12.5,
      },
      {
        barcode: '3000000000000028',
        product: 'Day Ticket',
        refunded: true,
        redeemed: '2026-11-21T10:00:00-08:00',
        holder: { firstName: 'Ben', lastName: 'Lopez' },
      },
    ]),
  );
  const png = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#7ab' } })
    .png()
    .toBuffer();
  await t.database.db
    .insert(schema.photos)
    .values({ uid: 'photo-3000000000000011', barcode: '3000000000000011', bmp: Buffer.alloc(0), png, width: 300, height: 400 });
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('POST /api/voucher/', () => {
  it('answers a PDF attachment named with the barcode whose Code 128 a scanner reads', async () => {
    const res = await voucher({ orderId: '10000003', barcode: '1000000000000035' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Boardwalk-voucher-1000000000000035.pdf"');
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pageCount(pdf)).toBe(1);
    expect(await scan(pdf)).toEqual(['CODE-128:1000000000000035']);
  });

  it("prints the Stored Value Card's credits and the QR code of its stored-value page", async () => {
    const res = await voucher({ orderId: '10000002', barcode: '3500000000000028' });
    expect(res.statusCode).toBe(200);
    const url = `${PUBLIC_URL}/stored-value/${t.app.keys.keyedHash('stored-value', '3500000000000028')}`;
    expect(await scan(res.rawPayload)).toEqual(['CODE-128:3500000000000028', `QR-Code:${url}`]);
    const page = await text(res.rawPayload);
    expect(page).toContain('Boardwalk');
    expect(page).toMatch(/Credits\s+42\.5 Credits/);
    expect(page).toContain('Stored Value Card $50');
    expect(page).toContain('Carl Diaz');
    expect(page).toMatch(/Order Date\s+Nov 8, 2026/);
    expect(page).toMatch(/Expires\s+Dec 31, 2030/);
  });

  it('prints holder, product, dates and the cash balance in USD, with the holder photo and the logo', async () => {
    const res = await voucher({ orderId: '30000001', barcode: '3000000000000011' });
    expect(res.statusCode).toBe(200);
    const page = await text(res.rawPayload);
    expect(page).toMatch(/Balance\s+\$12\.50/);
    expect(page).toMatch(/Ticketholder\s+Ana Lopez/);
    expect(page).toContain('2027 Season Pass');
    expect(page).toMatch(/Order Date\s+Nov 20, 2026/);
    expect(page).not.toContain('VOID');
    expect(await images(res.rawPayload)).toEqual(
      expect.arrayContaining([
        [300, 400],
        [256, 256],
      ]),
    );
    expect(await scan(res.rawPayload)).toEqual(['CODE-128:3000000000000011']);
  });

  it('marks a refunded, redeemed ticket void and still prints its barcode', async () => {
    const res = await voucher({ orderId: '30000001', barcode: '3000000000000028' });
    expect(res.statusCode).toBe(200);
    const page = await text(res.rawPayload);
    expect(page).toContain('VOID: Refunded / Redeemed');
    expect(page).toMatch(/Redeemed\s+Nov 21, 2026, 10:00 AM/);
    expect(page).toMatch(/Purchaser\s+Ana Lopez/);
    expect(await images(res.rawPayload)).toEqual([[256, 256]]);
    expect(await scan(res.rawPayload)).toEqual(['CODE-128:3000000000000028']);
  });

  it("is written in the language the request's Accept-Language prefers: Spanish words, dates and amounts", async () => {
    const spanish = { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' };
    const card = await text((await voucher({ orderId: '10000002', barcode: '3500000000000028' }, nextIp(), spanish)).rawPayload);
    expect(card).toContain('Comprobante de boleto');
    expect(card).toContain('PRODUCTO');
    expect(card).toMatch(/Créditos\s+42\.5 créditos/);
    expect(card).toMatch(/Fecha de compra\s+8 nov 2026/);
    expect(card).toMatch(/Vence\s+31 dic 2030/);
    expect(card).toContain('Consulte su saldo');
    expect(card).toContain('Presente este comprobante con el código de barras en la entrada. Impreso el');
    expect(card).toContain('Stored Value Card $50'); // the product's name is data: as staff wrote it
    expect(card).not.toMatch(/Credits|Expires|Order Date/);
    const void_ = await text((await voucher({ orderId: '30000001', barcode: '3000000000000028' }, nextIp(), spanish)).rawPayload);
    expect(void_).toContain('ANULADO: Reembolsado / Canjeado');
    expect(void_).toMatch(/Canjeado\s+21 nov 2026, 10:00 a\.m\./);
    expect(void_).toMatch(/Saldo\s+\$(12\.50|0\.00)/);
    expect(void_).toContain('Este boleto está anulado y no se aceptará en la entrada.');
    // A language Boardwalk does not have is English, as before.
    const french = await text(
      (await voucher({ orderId: '30000001', barcode: '3000000000000028' }, nextIp(), { 'accept-language': 'fr' })).rawPayload,
    );
    expect(french).toContain('VOID: Refunded / Redeemed');
  });

  it('answers "Unable to locate order" with the status login answers for a bad order', async () => {
    for (const body of [
      { orderId: '10000003', barcode: '1000000000000042' },
      { orderId: '99999999', barcode: '1000000000000035' },
    ]) {
      const [res, loginRes] = await Promise.all([voucher(body), login(body)]);
      expect(res.statusCode).toBe(loginRes.statusCode);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ORDER_NOT_FOUND', message: 'Unable to locate order' });
    }
  });

  it('counts misses against the lookup throttle like login', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await voucher({ orderId: '10000005', barcode: `10000000000${String(i).padStart(5, '0')}` }, ip)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses[5]).toBe(429);
  });

  it('refuses an excluded ticket with its exclusion message', async () => {
    const [res, loginRes] = await Promise.all([
      voucher({ orderId: '10000004', barcode: '1000000000000042' }),
      login({ orderId: '10000004', barcode: '1000000000000042' }),
    ]);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ error: 'FORBIDDEN', message: loginRes.json().excluded });
    expect(res.json().message).toBeTruthy();
  });

  it('answers 400 with a clear message and changes nothing for bad input, test passes and shared views', async () => {
    const before = await snapshotGuestTables(t.database.db);
    const cases: unknown[] = [
      { orderId: '0', barcode: '99000001' },
      { orderId: '10000002', barcode: '3500000000000028', shareId: '5f0c3c9e-4b1a-4d8e-9a56-2a4b8c1d3e4f' },
      { hashUrl: 'x'.repeat(90) },
      { orderId: '10000002' },
      { orderId: '1000002', barcode: '3500000000000028' },
      { orderId: '10000002', barcode: '35000000000000280000' },
      { orderId: 10000002, barcode: '3500000000000028' },
      {},
    ];
    for (const body of cases) {
      const res = await voucher(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'VALIDATION_FAILED' });
      expect(res.json().message).toBeTruthy();
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/voucher/',
      payload: 'orderId=1',
      headers: { 'content-type': 'application/json' },
      remoteAddress: nextIp(),
    });
    expect(notJson.statusCode).toBe(400);
    expect(await snapshotGuestTables(t.database.db)).toBe(before);
  });

  it('is listed in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/voucher/']).toBeDefined();
  });
});

describe('voucher helpers', () => {
  it('names the file for the brand and barcode with characters safe in any file name', () => {
    expect(voucherFileName('Boardwalk', '1000000000000035')).toBe('Boardwalk-voucher-1000000000000035.pdf');
    expect(voucherFileName('Café "Pier" / Park', '12345678')).toBe('Cafe-Pier-Park-voucher-12345678.pdf');
    expect(voucherFileName('???', '12345678')).toBe('voucher-12345678.pdf');
  });

  it('keeps the longest texts the feed allows on one page with readable codes', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { orderId: '10000002', barcode: '3500000000000028' },
      remoteAddress: nextIp(),
    });
    const long = (word: string, n: number) =>
      Array.from({ length: n }, () => word)
        .join(' ')
        .slice(0, n * 5);
    const order = {
      ...login.json(),
      product: long('Wide', 40),
      firstName: long('Name', 20),
      lastName: long('Last', 20),
      purchaserFirstName: long('Buyer', 17),
      purchaserLastName: 'X',
      refunded: true,
      redeemed: '2026-11-21T18:00:00Z',
    };
    const photoPng = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#345' } })
      .png()
      .toBuffer();
    const pdf = await renderVoucher({
      brandName: long('Brand', 12),
      order,
      photoPng,
      storedValueUrl: `${PUBLIC_URL}/stored-value/${'h'.repeat(43)}`,
      timeZone: 'America/Los_Angeles',
    });
    expect(await pageCount(pdf)).toBe(1);
    expect(await scan(pdf)).toEqual(['CODE-128:3500000000000028', `QR-Code:${PUBLIC_URL}/stored-value/${'h'.repeat(43)}`]);
  });

  it('keeps what the standard fonts can show and replaces the rest', () => {
    expect(winAnsi('José Ñuñez – “Pier”')).toBe('José Ñuñez – “Pier”');
    expect(winAnsi('Łukasz Dvořák 李\u0007')).toBe('?ukasz Dvorák ?');
  });
});
