// The lock an erasure leaves on an activated season pass (issue 47, item 2): the erasure (staff's
// or the guest's own) removes the photo as before, and the pass then takes no new photo or name
// until staff lift the lock; staff see why in the person's Privacy document, and lifting is
// guarded and audited (never with the barcode). A pass not yet activated is not locked.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoMessages } from '@boardwalk/contract/photo';
import { PRIVACY_LINK_TOKEN, type PrivacyExport } from '@boardwalk/contract/privacy';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { aJpeg, dataUrl } from '../../../test-support/photo.fixtures.ts';
import { loginAs, type StaffLogin } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { lockActivatedPasses } from './pass-lock.repo.ts';

let t: TestApp;
let officer: StaffLogin;
let ip = 0;
let jpeg: Buffer;
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.47.${Math.floor(++ip / 250)}.${ip % 250}` });

const season = { product: '2027 Season Pass', category: 'Season Pass', isPassholder: true };
const holder = (n: number) => ({
  firstName: 'Lena',
  lastName: `Holder${n}`,
  email: `lena.holder${n}@example.com`,
  phone: `31055502${10 + n}`,
});
let orderSeq = 0;
/** A season pass of its own order, with its holder; activated unless told. */
async function aSeasonPass(n: number, isPassActivated = true) {
  const orderId = String(84_000_000 + ++orderSeq);
  const barcode = `${orderId}0000000${n}`.slice(0, 16);
  await putOrder(t.app, orderId, anOrder([{ ...season, barcode, isPassActivated, holder: holder(n) }], { purchaser: holder(n) }));
  return { orderId, barcode, email: holder(n).email };
}

/** Preview then upload, as the page does; answers the first refusal. */
async function tryUpload({ orderId, barcode }: { orderId: string; barcode: string }) {
  const ticket = { orderId, barcode };
  const preview = await post('/api/preview/', {
    ...ticket,
    filename: 'me.jpg',
    filesize: jpeg.length,
    filetype: 'image/jpeg',
    data: dataUrl('image/jpeg', jpeg),
    crop: { x: 0, y: 0, width: 400, height: 300 },
    uid: '',
  });
  if (preview.statusCode !== 200) return preview;
  const base64 = preview.json<{ base64: string }>().base64;
  return post('/api/upload/', {
    ...ticket,
    filename: 'photo.bmp',
    filesize: Buffer.from(base64, 'base64').length,
    filetype: 'image/bmp',
    data: `data:image/bmp;base64,${base64}`,
    uid: '',
  });
}
async function uploadPhoto(ticket: { orderId: string; barcode: string }) {
  const res = await tryUpload(ticket);
  expect(res.statusCode, res.body).toBe(200);
}
const register = ({ orderId, barcode }: { orderId: string; barcode: string }, lastName = 'Newname') =>
  post('/api/register/', { orderId, barcode, firstName: 'Someone', lastName, email: 'someone.else@example.com', phone: '3105550199' });
const lookup = async ({ orderId, barcode }: { orderId: string; barcode: string }) =>
  (await post('/api/login/', { orderId, barcode })).json<Record<string, unknown>>();
const staffErase = (query: object) => post('/api/admin/privacy/erase', query, officer.headers);
const lift = (barcode: string, who: StaffLogin = officer) => post('/api/admin/privacy/pass-lock/lift', { barcode }, who.headers);
const photoOf = async (barcode: string) => t.database.db.select().from(schema.photos).where(eq(schema.photos.barcode, barcode));
const registrationOf = async (barcode: string) =>
  (await t.database.db.select().from(schema.registrations).where(eq(schema.registrations.barcode, barcode)))[0] ?? null;

beforeAll(async () => {
  t = await createTestApp();
  officer = await loginAs(t.app, { accessLevel: 100 });
  jpeg = await aJpeg(800, 600);
});
afterAll(() => t.close());

describe("staff's erasure of an activated season pass's holder", () => {
  it('removes the photo, and the pass then refuses a new photo and a new name with the lock message (403, nothing written)', async () => {
    const pass = await aSeasonPass(1);
    await uploadPhoto(pass);
    expect(await lookup(pass)).toMatchObject({ passLocked: false, photoUid: expect.any(String) });

    const erased = await staffErase({ email: pass.email });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json()).toMatchObject({ held: true, erased: { photos: 1 } });
    expect(await photoOf(pass.barcode)).toEqual([]);
    expect(await lookup(pass)).toMatchObject({ passLocked: true, photoUid: null, firstName: null, lastName: null });

    const upload = await tryUpload(pass);
    expect(upload.statusCode).toBe(403);
    expect(upload.json().message).toBe('Visit Guest Services to put a new photo on this pass');
    const registration = await register(pass);
    expect(registration.statusCode).toBe(403);
    expect(registration.json().message).toBe(photoMessages.passLocked);
    expect(await photoOf(pass.barcode)).toEqual([]);
    expect(await registrationOf(pass.barcode)).toBeNull();
  });

  it('shows staff why in the Privacy document found by the barcode; lifting needs Privacy Lift Pass Lock, is audited without the barcode, then photo and name go on', async () => {
    const pass = await aSeasonPass(2);
    await uploadPhoto(pass);
    expect((await staffErase({ barcode: pass.barcode })).statusCode).toBe(200);

    const found = await post('/api/admin/privacy/export', { barcode: pass.barcode }, officer.headers);
    expect(found.statusCode).toBe(200);
    expect(found.json<PrivacyExport>().passLocks).toEqual([{ barcode: pass.barcode, reason: 'erasure', lockedAt: expect.any(String) }]);

    const clerk = await loginAs(t.app, { accessLevel: 10 });
    expect((await lift(pass.barcode, clerk)).statusCode).toBe(403);
    expect(await lookup(pass)).toMatchObject({ passLocked: true });

    const lifted = await lift(pass.barcode);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toMatchObject({ barcode: pass.barcode, reason: 'erasure' });
    const [entry] = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.action, 'lift-pass-lock'));
    expect(entry).toMatchObject({ teamMemberGuid: officer.teamMemberGuid, resource: 'privacy', before: { reason: 'erasure' } });
    expect(JSON.stringify(entry)).not.toContain(pass.barcode);

    expect(await lookup(pass)).toMatchObject({ passLocked: false });
    await uploadPhoto(pass);
    expect((await register(pass)).statusCode).toBe(200);
    expect((await lift(pass.barcode)).statusCode).toBe(404);
  });

  it('answers a malformed barcode with 400 and an unlocked pass with 404', async () => {
    expect((await lift('not a barcode')).statusCode).toBe(400);
    const pass = await aSeasonPass(3);
    expect((await lift(pass.barcode)).statusCode).toBe(404);
  });

  it('leaves a season pass not yet activated unlocked: its guest may upload a photo again', async () => {
    const pass = await aSeasonPass(4, false);
    await uploadPhoto(pass);
    expect((await staffErase({ email: pass.email })).statusCode).toBe(200);
    expect(await lookup(pass)).toMatchObject({ passLocked: false, photoUid: null });
    await uploadPhoto(pass);
  });
});

describe("the guest's own erasure", () => {
  it('locks their activated season pass the same way', async () => {
    const pass = await aSeasonPass(5);
    await uploadPhoto(pass);
    const token = t.app.keys.signToken(PRIVACY_LINK_TOKEN.purpose, `${crypto.randomUUID()} ${pass.email}`, PRIVACY_LINK_TOKEN.ttlSeconds);
    const erased = await post('/api/privacy/erase', {}, { authorization: `Bearer ${token}` });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await photoOf(pass.barcode)).toEqual([]);
    expect(await lookup(pass)).toMatchObject({ passLocked: true });
    expect((await tryUpload(pass)).json().message).toBe(photoMessages.passLocked);
    expect((await register(pass)).statusCode).toBe(403);
  });
});

// PostgreSQL only: PGlite has one connection, so a transaction held open would stop the request.
describe.skipIf(testDbKind() !== 'postgres')('a name or a photo racing the erasure that locks the pass', () => {
  it('waits for the erasure and is then refused: the check before the write answered before the lock was committed', async () => {
    for (const write of [register, tryUpload]) {
      const pass = await aSeasonPass(9);
      let locked!: () => void;
      let commit!: () => void;
      const lockWritten = new Promise<void>((resolve) => (locked = resolve));
      const committed = new Promise<void>((resolve) => (commit = resolve));
      // The erasure's step, held open after it locked the pass.
      const erasure = t.database.db.transaction(async (tx) => {
        expect(await lockActivatedPasses(tx, [pass.barcode], 'erasure')).toEqual([pass.barcode]);
        locked();
        await committed;
      });
      await lockWritten;
      const writing = write(pass);
      await new Promise((resolve) => setTimeout(resolve, 500));
      commit();
      await erasure;
      const res = await writing;
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(photoMessages.passLocked);
      expect(await photoOf(pass.barcode)).toEqual([]);
      expect(await registrationOf(pass.barcode)).toBeNull();
    }
  });
});
