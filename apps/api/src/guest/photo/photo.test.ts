import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { MAX_PHOTO_BYTES, photoMessages } from '@boardwalk/contract/photo';
import { hashSecret, newSecret } from '../../platform/secrets.ts';
import { anOrder, putOrder, snapshotGuestTables, staff } from '../../../test-support/fixtures.ts';
import { createTestApp, publishedTicketChanges, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { decodeBmp } from './bmp.ts';
import { aJpeg, aJpegWithGps, aPngDeclaring, aQuadrantPng, aSidewaysJpeg, dataUrl } from '../../../test-support/photo.fixtures.ts';

let t: TestApp;
let ipSeq = 0;
/** Each request its own client address: the per-address lookup throttle never crosses tests. */
const nextIp = () => `10.4.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
let published: ReturnType<typeof publishedTicketChanges>;

const HOLDER = { orderId: '30000001', barcode: '3000000000000011' };
const ACTIVATED = { orderId: '30000002', barcode: '3000000000000028' };
const DAY_TICKET = { orderId: '30000003', barcode: '3000000000000035' };
const SKIP_IMAGE = { orderId: '30000004', barcode: '3000000000000042' };
const crop = { x: 0, y: 0, width: 400, height: 300 };

let jpeg: Buffer;

function post(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, payload, remoteAddress: nextIp() });
}
function get(url: string) {
  return t.app.inject({ method: 'GET', url, remoteAddress: nextIp() });
}
const previewBody = (ticket: { orderId: string; barcode: string }, bytes: Buffer, extra: Record<string, unknown> = {}) => ({
  filename: 'me.jpg',
  filesize: bytes.length,
  filetype: 'image/jpeg',
  data: dataUrl('image/jpeg', bytes),
  crop,
  uid: '',
  ...ticket,
  ...extra,
});
const uploadBody = (ticket: { orderId: string; barcode: string }, base64: string, extra: Record<string, unknown> = {}) => ({
  filename: 'photo.bmp',
  filesize: Buffer.from(base64, 'base64').length,
  filetype: 'image/bmp',
  data: `data:image/bmp;base64,${base64}`,
  uid: '',
  ...ticket,
  ...extra,
});
async function login(ticket: { orderId: string; barcode: string }) {
  return (await post('/api/login/', ticket)).json() as { photoUid: string | null };
}

/** Every row a photo call may write: equal snapshots mean nothing was written. */
async function snapshot() {
  const db = t.database.db;
  const [photos, resets, outbox] = await Promise.all([
    db.select().from(schema.photos),
    db.select().from(schema.photoResetRequests),
    db.select().from(schema.outbox),
  ]);
  return JSON.stringify({ photos, resets, outbox, guest: await snapshotGuestTables(db) });
}

beforeAll(async () => {
  t = await createTestApp({ env: { TEAM_EMAIL: 'team@example.com' } });
  published = publishedTicketChanges(t.database);
  const season = { product: '2027 Season Pass', category: 'Season Pass', isPassholder: true };
  await putOrder(t.app, HOLDER.orderId, anOrder([{ ...season, barcode: HOLDER.barcode }]));
  await putOrder(t.app, ACTIVATED.orderId, anOrder([{ ...season, barcode: ACTIVATED.barcode, isPassActivated: true }]));
  await putOrder(t.app, DAY_TICKET.orderId, anOrder([{ barcode: DAY_TICKET.barcode }]));
  await putOrder(t.app, SKIP_IMAGE.orderId, anOrder([{ ...season, barcode: SKIP_IMAGE.barcode }]));
  await staff.walletException(t.database.db, { orderNumber: SKIP_IMAGE.orderId, skipImage: true });
  jpeg = await aJpeg(800, 600);
});
afterAll(() => t.close());
beforeEach(() => published.reset());

describe('preview, upload, download, replace', () => {
  it('goes preview -> upload -> download (equal) -> photoUid on the order -> replace -> gone', async () => {
    const preview = await post('/api/preview/', previewBody(HOLDER, jpeg));
    expect(preview.statusCode).toBe(200);
    const { base64, size } = preview.json();
    const bmp = Buffer.from(base64, 'base64');
    expect(bmp.length).toBe(size);
    // The crop of 400 x 300 source pixels, already under 480 x 360: kept at its size.
    expect(decodeBmp(bmp, { maxWidth: 480, maxHeight: 360 })).toMatchObject({ width: 400, height: 300 });

    const upload = await post('/api/upload/', uploadBody(HOLDER, base64));
    expect(upload.statusCode).toBe(200);
    const { uid } = upload.json();
    expect(uid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await published.barcodes()).toEqual([HOLDER.barcode]);
    expect((await login(HOLDER)).photoUid).toBe(uid);

    const download = await get(`/api/download/${uid}/photo.bmp`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/plain/);
    expect(download.body).toBe(base64);

    const png = await get(`/api/download/${uid}/photo.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const pngMeta = await sharp(png.rawPayload).metadata();
    expect([pngMeta.format, pngMeta.width, pngMeta.height]).toEqual(['png', 400, 300]);

    // A second upload while the ticket has a photo is refused: replace first.
    const before = await snapshot();
    const again = await post('/api/upload/', uploadBody(HOLDER, base64));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(photoMessages.uploadFailed);
    expect(await snapshot()).toBe(before);

    // The upload's change is delivered first: a change while one waits is absorbed into it.
    await settleDeliveries(t.app);
    await published.reset();
    const replace = await get(`/api/replace-photo/${HOLDER.barcode}/${uid}`);
    expect(replace.statusCode).toBe(200);
    expect(replace.headers['content-type']).toMatch(/^text\/plain/);
    expect(replace.body).toBe('Replaced!');
    expect(await published.barcodes()).toEqual([HOLDER.barcode]);
    expect((await get(`/api/download/${uid}/photo.bmp`)).statusCode).toBe(404);
    expect((await get(`/api/download/${uid}/photo.png`)).statusCode).toBe(404);
    expect((await login(HOLDER)).photoUid).toBeNull();

    // Replaced: the guest may upload again, under a new uid.
    const second = await post('/api/upload/', uploadBody(HOLDER, base64));
    expect(second.statusCode).toBe(200);
    expect(second.json().uid).not.toBe(uid);
    expect((await get(`/api/replace-photo/${HOLDER.barcode}/${second.json().uid}`)).body).toBe('Replaced!');
  });

  it('crops on the server, in upright pixels, and keeps the colours (BMP is BGR, bottom-up)', async () => {
    const png = await aQuadrantPng(200, 100);
    // The right half: green on top, white below.
    const res = await post(
      '/api/preview/',
      previewBody(HOLDER, png, { crop: { x: 100, y: 0, width: 100, height: 100 }, filetype: 'image/png' }),
    );
    expect(res.statusCode).toBe(200);
    const image = decodeBmp(Buffer.from(res.json().base64, 'base64'), { maxWidth: 480, maxHeight: 360 });
    expect([image.width, image.height]).toEqual([100, 100]);
    expect([...image.rgb.subarray(0, 3)]).toEqual([0, 255, 0]);
    const last = (100 * 100 - 1) * 3;
    expect([...image.rgb.subarray(last, last + 3)]).toEqual([255, 255, 255]);
  });

  it("takes react-image-crop's object: unit 'px' as pixels, '%' of the upright image, another unit refused", async () => {
    const png = await aQuadrantPng(200, 100);
    const inPixels = await post(
      '/api/preview/',
      previewBody(HOLDER, png, { crop: { unit: 'px', x: 100, y: 0, width: 100, height: 100 }, filetype: 'image/png' }),
    );
    const inPercent = await post(
      '/api/preview/',
      previewBody(HOLDER, png, { crop: { unit: '%', x: 50, y: 0, width: 50, height: 100 }, filetype: 'image/png' }),
    );
    expect([inPixels.statusCode, inPercent.statusCode]).toEqual([200, 200]);
    expect(inPercent.json().base64).toBe(inPixels.json().base64);
    const image = decodeBmp(Buffer.from(inPercent.json().base64, 'base64'), { maxWidth: 480, maxHeight: 360 });
    expect([image.width, image.height]).toEqual([100, 100]);
    expect([...image.rgb.subarray(0, 3)]).toEqual([0, 255, 0]);
    const inches = await post(
      '/api/preview/',
      previewBody(HOLDER, png, { crop: { unit: 'in', x: 0, y: 0, width: 1, height: 1 }, filetype: 'image/png' }),
    );
    expect(inches.statusCode).toBe(400);
    expect(inches.json().message).toMatch(/unit/);
  });

  it('turns a photo upright by its EXIF orientation before cropping, and scales down to fit 480 x 360', async () => {
    // Stored 1600 x 1200 sideways: upright it is 1200 x 1600.
    const sideways = await aSidewaysJpeg(1600, 1200);
    const res = await post('/api/preview/', previewBody(HOLDER, sideways, { crop: { x: 0, y: 400, width: 1200, height: 900 } }));
    expect(res.statusCode).toBe(200);
    const image = decodeBmp(Buffer.from(res.json().base64, 'base64'), { maxWidth: 480, maxHeight: 360 });
    expect([image.width, image.height]).toEqual([480, 360]);
    // A crop reaching past the image is clamped to it: 1200 x 1600 upright.
    const clamped = await post('/api/preview/', previewBody(HOLDER, sideways, { crop: { x: 0, y: 0, width: 5000, height: 5000 } }));
    const whole = decodeBmp(Buffer.from(clamped.json().base64, 'base64'), { maxWidth: 480, maxHeight: 360 });
    expect([whole.width, whole.height]).toEqual([270, 360]);
  });

  it('stores a photo with GPS EXIF without any of it', async () => {
    const gps = await aJpegWithGps(640, 480);
    expect((await sharp(gps).metadata()).exif?.includes('PhoneMaker')).toBe(true);
    const preview = await post('/api/preview/', previewBody(HOLDER, gps));
    const upload = await post('/api/upload/', uploadBody(HOLDER, preview.json().base64));
    expect(upload.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(schema.photos);
    expect(row).toBeDefined();
    for (const stored of [row!.bmp, row!.png]) {
      expect(stored.includes('Exif')).toBe(false);
      expect(stored.includes('PhoneMaker')).toBe(false);
      expect(stored.includes('GPS')).toBe(false);
    }
    const meta = await sharp(row!.png).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect([row!.width, row!.height]).toEqual([400, 300]);
    // The stored BMP is exactly what the guest confirmed.
    expect(row!.bmp.toString('base64')).toBe(preview.json().base64);
    expect((await get(`/api/replace-photo/${HOLDER.barcode}/${row!.uid}`)).statusCode).toBe(200);
  });

  it('accepts a file of exactly 5242880 bytes', async () => {
    // A valid JPEG with bytes after its end marker, which decoders ignore.
    const padded = Buffer.concat([jpeg, Buffer.alloc(MAX_PHOTO_BYTES - jpeg.length)]);
    expect(padded.length).toBe(MAX_PHOTO_BYTES);
    const res = await post('/api/preview/', previewBody(HOLDER, padded));
    expect(res.statusCode).toBe(200);
  });
});

describe('bad files and wrong callers: a clear 4xx and nothing stored', () => {
  let before: string;
  beforeEach(async () => {
    before = await snapshot();
  });
  const expectNothingStored = async () => {
    expect(await snapshot()).toBe(before);
    expect(await published.barcodes()).toEqual([]);
  };

  it('refuses a file of 5242881 bytes: "File size is too large"', async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(MAX_PHOTO_BYTES + 1 - jpeg.length)]);
    const res = await post('/api/preview/', previewBody(HOLDER, big, { filesize: 1000 }));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File size is too large');
    await expectNothingStored();
  });

  it('refuses a body over the route limit with the same text', async () => {
    const huge = 'A'.repeat(8 * 1024 * 1024);
    const res = await post('/api/preview/', { ...previewBody(HOLDER, jpeg), data: huge });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File size is too large');
    await expectNothingStored();
  });

  it('refuses a text file named .jpg', async () => {
    const text = Buffer.from('Dear guest services, this is not a picture at all.\n'.repeat(20));
    const res = await post('/api/preview/', previewBody(HOLDER, text, { filename: 'holiday.jpg', filetype: 'image/jpeg' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unable to preview photo');
    await expectNothingStored();
  });

  it('refuses a PNG whose header declares 12000 x 12000 pixels, before decoding it', async () => {
    const bomb = aPngDeclaring(12000, 12000);
    expect(bomb.length).toBeLessThan(100_000);
    const res = await post('/api/preview/', previewBody(HOLDER, bomb, { filetype: 'image/png', filename: 'big.png' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unable to preview photo');
    await expectNothingStored();
  });

  it('refuses a truncated JPEG', async () => {
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const res = await post('/api/preview/', previewBody(HOLDER, truncated));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unable to preview photo');
    await expectNothingStored();
  });

  it('refuses data that is not base64, and an empty crop', async () => {
    expect((await post('/api/preview/', { ...previewBody(HOLDER, jpeg), data: 'data:image/jpeg;base64,@@@' })).statusCode).toBe(400);
    const empty = await post('/api/preview/', previewBody(HOLDER, jpeg, { crop: { x: 0, y: 0, width: 0, height: 300 } }));
    expect(empty.statusCode).toBe(400);
    const outside = await post('/api/preview/', previewBody(HOLDER, jpeg, { crop: { x: 5000, y: 5000, width: 10, height: 10 } }));
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe('Unable to preview photo');
    await expectNothingStored();
  });

  it('refuses an upload that is not the 24-bit BMP of a preview', async () => {
    const notBmp = await post('/api/upload/', uploadBody(HOLDER, jpeg.toString('base64')));
    expect(notBmp.statusCode).toBe(400);
    expect(notBmp.json().message).toBe(photoMessages.uploadFailed);
    // A 32-bit BMP header on 24-bit data.
    const preview = await post('/api/preview/', previewBody(HOLDER, jpeg));
    const bmp = Buffer.from(preview.json().base64, 'base64');
    bmp.writeUInt16LE(32, 28);
    expect((await post('/api/upload/', uploadBody(HOLDER, bmp.toString('base64')))).statusCode).toBe(400);
    // A BMP cut short.
    const cut = Buffer.from(preview.json().base64, 'base64').subarray(0, 1000);
    expect((await post('/api/upload/', uploadBody(HOLDER, cut.toString('base64')))).statusCode).toBe(400);
    // A declared type other than image/bmp.
    expect((await post('/api/upload/', uploadBody(HOLDER, preview.json().base64, { filetype: 'image/jpeg' }))).statusCode).toBe(400);
    await expectNothingStored();
  });

  it('refuses a wrong order id or barcode', async () => {
    const preview = await post('/api/preview/', previewBody({ orderId: HOLDER.orderId, barcode: ACTIVATED.barcode }, jpeg));
    expect(preview.statusCode).toBe(404);
    expect(preview.json().message).toBe(photoMessages.previewFailed);
    const good = await post('/api/preview/', previewBody(HOLDER, jpeg));
    const upload = await post('/api/upload/', uploadBody({ orderId: '39999999', barcode: HOLDER.barcode }, good.json().base64));
    expect(upload.statusCode).toBe(404);
    expect(upload.json().message).toBe(photoMessages.uploadFailed);
    await expectNothingStored();
  });

  it('refuses a shared view: no share id or link is taken, only the order id and barcode', async () => {
    const hashUrl = newSecret();
    await staff.share(t.database.db, {
      barcode: HOLDER.barcode,
      hashUrlHash: hashSecret(hashUrl),
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: 'rosa@example.com',
    });
    before = await snapshot();
    const { orderId: _orderId, ...withoutOrder } = previewBody(HOLDER, jpeg);
    expect((await post('/api/preview/', { ...withoutOrder, hashUrl })).statusCode).toBe(400);
    expect((await post('/api/upload/', { ...uploadBody(HOLDER, 'Qk0='), orderId: '', hashUrl })).statusCode).toBe(400);
    expect((await post('/api/preview/', previewBody(HOLDER, jpeg, { shareId: '4e0c6a3c-5c0e-4c39-9d1e-0d7f3a1e2b11' }))).statusCode).toBe(
      400,
    );
    await expectNothingStored();
  });

  it('refuses a ticket that is not a passholder, or has skipImage', async () => {
    for (const ticket of [DAY_TICKET, SKIP_IMAGE]) {
      const res = await post('/api/preview/', previewBody(ticket, jpeg));
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(photoMessages.previewFailed);
    }
    const good = await post('/api/preview/', previewBody(HOLDER, jpeg));
    expect((await post('/api/upload/', uploadBody(SKIP_IMAGE, good.json().base64))).statusCode).toBe(403);
    await expectNothingStored();
  });

  it('answers 404 for an unknown uid, with nothing else said', async () => {
    for (const url of [
      '/api/download/nope/photo.bmp',
      `/api/download/${'A'.repeat(43)}/photo.png`,
      `/api/download/${'x'.repeat(90)}/photo.bmp`,
    ]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'NOT_FOUND', message: 'Not found' });
    }
    // Past Fastify's parameter length: refused before any lookup.
    expect((await get(`/api/download/${'x'.repeat(150)}/photo.bmp`)).statusCode).toBe(414);
    await expectNothingStored();
  });

  it('refuses replace-photo with a wrong barcode or uid', async () => {
    const preview = await post('/api/preview/', previewBody(HOLDER, jpeg));
    const { uid } = (await post('/api/upload/', uploadBody(HOLDER, preview.json().base64))).json();
    before = await snapshot();
    await published.reset();
    for (const url of [
      `/api/replace-photo/${ACTIVATED.barcode}/${uid}`,
      `/api/replace-photo/${HOLDER.barcode}/${'B'.repeat(43)}`,
      '/api/replace-photo/x/y',
    ]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Unable to replace photo');
    }
    await expectNothingStored();
    expect((await get(`/api/replace-photo/${HOLDER.barcode}/${uid}`)).statusCode).toBe(200);
  });
});

describe('an activated pass', () => {
  let uid: string;
  beforeAll(async () => {
    // Activated without a photo (or after staff removed one): the guest may still add one.
    const preview = await post('/api/preview/', previewBody(ACTIVATED, jpeg));
    expect(preview.statusCode).toBe(200);
    const upload = await post('/api/upload/', uploadBody(ACTIVATED, preview.json().base64));
    expect(upload.statusCode).toBe(200);
    uid = upload.json().uid;
  });

  it('refuses self-service replacement and another upload; nothing changes', async () => {
    const before = await snapshot();
    const replace = await get(`/api/replace-photo/${ACTIVATED.barcode}/${uid}`);
    expect(replace.statusCode).toBe(403);
    expect(replace.json().message).toBe('Unable to replace photo');
    const preview = await post('/api/preview/', previewBody(ACTIVATED, jpeg));
    const upload = await post('/api/upload/', uploadBody(ACTIVATED, preview.json().base64));
    expect(upload.statusCode).toBe(409);
    expect(await snapshot()).toBe(before);
    expect(await published.barcodes()).toEqual([]);
    expect((await get(`/api/download/${uid}/photo.bmp`)).statusCode).toBe(200);
  });

  it('takes a reset request: recorded for staff, the team emailed (kept in the outbox without SMTP), once per 48 hours', async () => {
    const res = await get(`/api/reset-photo/${ACTIVATED.orderId}/${ACTIVATED.barcode}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe(photoMessages.resetRequested);
    expect(res.body).toContain('team member will respond by email');
    const requests = await t.database.db.select().from(schema.photoResetRequests);
    expect(requests).toMatchObject([{ orderId: ACTIVATED.orderId, barcode: ACTIVATED.barcode, handledAt: null }]);
    const mail = await t.database.db.select().from(schema.outbox);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: 'team@example.com', sentAt: null });
    // Sealed in the outbox (kept there without SMTP): the barcode is not readable in the row.
    expect(mail[0]!.text).not.toContain(ACTIVATED.barcode);
    expect(t.app.mailer.readBody(mail[0]!)).toContain(ACTIVATED.orderId);
    expect(t.app.mailer.readBody(mail[0]!)).toContain(ACTIVATED.barcode);

    const again = await get(`/api/reset-photo/${ACTIVATED.orderId}/${ACTIVATED.barcode}`);
    expect(again.body).toBe(photoMessages.resetRequested);
    expect(await t.database.db.select().from(schema.photoResetRequests)).toHaveLength(1);
    expect(await t.database.db.select().from(schema.outbox)).toHaveLength(1);
  });

  it('refuses a reset request for a wrong barcode or a pass that is not activated', async () => {
    const before = await snapshot();
    const wrong = await get(`/api/reset-photo/${ACTIVATED.orderId}/${HOLDER.barcode}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe('Unable to request a photo replacement');
    const notActivated = await get(`/api/reset-photo/${HOLDER.orderId}/${HOLDER.barcode}`);
    expect(notActivated.statusCode).toBe(409);
    expect(notActivated.json().message).toBe('Unable to request a photo replacement');
    expect((await get(`/api/reset-photo/${DAY_TICKET.orderId}/${DAY_TICKET.barcode}`)).statusCode).toBe(403);
    expect((await get('/api/reset-photo/abc/def')).statusCode).toBe(400);
    expect(await snapshot()).toBe(before);
  });
});

describe('throttling', () => {
  it('counts failed reset-photo and replace-photo lookups from one address like login', async () => {
    const ip = '10.9.9.9';
    let last = 0;
    for (let i = 0; i < 40 && last !== 429; i++) {
      last = (await t.app.inject({ method: 'GET', url: `/api/replace-photo/${HOLDER.barcode}/guess${i}`, remoteAddress: ip })).statusCode;
    }
    expect(last).toBe(429);
    const reset = await t.app.inject({
      method: 'GET',
      url: `/api/reset-photo/${ACTIVATED.orderId}/${ACTIVATED.barcode}`,
      remoteAddress: ip,
    });
    expect(reset.statusCode).toBe(429);
  });
});
