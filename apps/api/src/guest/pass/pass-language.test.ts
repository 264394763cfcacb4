// The guest page's language switch (PUT /api/pass/language): the pass reached the way the
// wallet calls reach it, the language stored with the registration or the share, the event
// told, and the wallets following: the saved Google object is replaced with its texts in the
// new language (at a double of Google's REST API), while the Apple pass, which carries every
// language already, is not pushed. Bad input changes nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import type { GenericObject } from '../../wallet/google/google-wallet.ts';
import type { Push } from '../../../test-support/apns-double.ts';
import { eventsOfType } from '../../../test-support/events.ts';
import { anOrder, putOrder, snapshotGuestTables, staff } from '../../../test-support/fixtures.ts';
import type { GoogleDouble } from '../../../test-support/google-double.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { startWalletDoubles, WALLET_PASS_TYPE } from '../../../test-support/wallet-doubles.ts';
import { dayTicket, ticketInWallets } from '../../../test-support/wallet-tickets.ts';
import { hashSecret, newSecret } from '../../platform/secrets.ts';

const GUEST = { firstName: 'Ana', lastName: 'Lopez', email: 'ana.lopez@example.com', phone: '3105550111' };

let t: TestApp;
let dir: string;
let doubles: Awaited<ReturnType<typeof startWalletDoubles>>;
let google: GoogleDouble;
let pushes: Push[];
const logLines: string[] = [];
let ipSeq = 0;
const nextIp = () => `10.49.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const switchTo = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/pass/language', payload: body, remoteAddress: nextIp() });
const register = (orderId: string, barcode: string) =>
  t.app.inject({ method: 'POST', url: '/api/register/', payload: { orderId, barcode, ...GUEST }, remoteAddress: nextIp() });
const inWallets = (orderId: string, barcode: string) =>
  ticketInWallets(t.app, { passType: WALLET_PASS_TYPE, google, clientAddress: nextIp }, orderId, barcode, [
    { id: `device${barcode}`, pushToken: barcode.padEnd(64, 'a') },
  ]);
const registrationLanguage = async (barcode: string) =>
  (await t.database.db.select().from(schema.registrations).where(eq(schema.registrations.barcode, barcode)))[0]?.language;
const subheaderOf = (call: { body: unknown }) => (call.body as GenericObject).subheader;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-pass-language-'));
  doubles = await startWalletDoubles(dir);
  google = doubles.google;
  pushes = doubles.pushes;
  t = await createTestApp({
    env: { ...doubles.env, DATA_DIR: dir, PUBLIC_URL: 'https://wallet.example.com', LOG_LEVEL: 'debug' },
    logStream: { write: (line) => void logLines.push(line) },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await doubles?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  pushes.length = 0;
  google.objectCalls = [];
});

describe('PUT /api/pass/language', () => {
  it("stores the own guest's language with the registration: the Google object follows, the Apple pass needs no push", async () => {
    const ticket = await inWallets('49100001', '4910000000000011');
    expect((await register(ticket.orderId, ticket.barcode)).statusCode).toBe(200);
    await settleDeliveries(t.app);
    expect(await registrationLanguage(ticket.barcode)).toBe('en');
    pushes.length = 0;
    google.objectCalls = [];

    const res = await switchTo({ orderId: ticket.orderId, barcode: ticket.barcode, language: 'es' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ language: 'es' });
    expect(await registrationLanguage(ticket.barcode)).toBe('es');
    await settleDeliveries(t.app);
    expect(google.objectCalls).toHaveLength(1);
    expect(google.objectCalls[0]!.path).toBe(`/walletobjects/v1/genericObject/${ticket.objectId}`);
    expect(subheaderOf(google.objectCalls[0]!)).toEqual({
      defaultValue: { language: 'es', value: 'Titular' },
      translatedValues: [{ language: 'en-US', value: 'Ticketholder' }],
    });
    expect(pushes).toEqual([]);
    expect(await eventsOfType(t.app, 'guest.language_changed')).toContainEqual({
      orderId: ticket.orderId,
      barcode: ticket.barcode,
      shareId: null,
      language: 'es',
    });

    // The same language again changes nothing and tells nothing.
    const events = (await eventsOfType(t.app, 'guest.language_changed')).length;
    expect((await switchTo({ orderId: ticket.orderId, barcode: ticket.barcode, language: 'es' })).json()).toEqual({ language: 'es' });
    await settleDeliveries(t.app);
    expect(google.objectCalls).toHaveLength(1);
    expect(await eventsOfType(t.app, 'guest.language_changed')).toHaveLength(events);
    // Back to English: the object's default is English again.
    expect((await switchTo({ orderId: ticket.orderId, barcode: ticket.barcode, shareId: '', language: 'en' })).statusCode).toBe(200);
    await settleDeliveries(t.app);
    expect(subheaderOf(google.objectCalls.at(-1)!)?.defaultValue).toEqual({ language: 'en-US', value: 'Ticketholder' });
  });

  it("stores a shared guest's language with their share (by share link or share id), not the owner's registration", async () => {
    await putOrder(t.app, '49100002', anOrder([{ ...dayTicket('4910000000000028', 5), credits: 3 }]));
    expect((await register('49100002', '4910000000000028')).statusCode).toBe(200);
    const hashUrl = newSecret();
    const share = await staff.share(t.database.db, {
      barcode: '4910000000000028',
      hashUrlHash: hashSecret(hashUrl),
      firstName: 'Dee',
      lastName: 'Friend',
      email: 'dee@example.com',
    });
    const shareLanguage = async () =>
      (await t.database.db.select().from(schema.ticketShares).where(eq(schema.ticketShares.shareId, share.shareId)))[0]!.language;

    expect((await switchTo({ hashUrl, language: 'es' })).json()).toEqual({ language: 'es' });
    expect(await shareLanguage()).toBe('es');
    expect(await registrationLanguage('4910000000000028')).toBe('en');
    const byShareId = await switchTo({ orderId: '49100002', barcode: '4910000000000028', shareId: share.shareId, language: 'en' });
    expect(byShareId.statusCode, byShareId.body).toBe(200);
    expect(await shareLanguage()).toBe('en');
    expect(await eventsOfType(t.app, 'guest.language_changed')).toContainEqual({
      orderId: '49100002',
      barcode: '4910000000000028',
      shareId: share.shareId,
      language: 'es',
    });
    // Never a share link or barcode in the log.
    expect(logLines.join('\n')).not.toContain(hashUrl);
    expect(logLines.join('\n')).not.toContain('4910000000000028');
  });

  it('answers bad input with a clear 4xx and changes nothing', async () => {
    await putOrder(t.app, '49100003', anOrder([dayTicket('4910000000000035', 5)]));
    const ticket = { orderId: '49100003', barcode: '4910000000000035' };
    const before = await snapshotGuestTables(t.database.db);

    const french = await switchTo({ ...ticket, language: 'fr' });
    expect(french.statusCode).toBe(400);
    expect(french.json().message).toMatch(/Language must be one of: en, es/);
    for (const body of [
      { ...ticket },
      { language: 'es' },
      { ...ticket, language: 'es', extra: 1 },
      { ...ticket, hashUrl: newSecret(), language: 'es' },
    ]) {
      expect((await switchTo(body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const unknown = await switchTo({ orderId: '49100003', barcode: '4910000000000099', language: 'es' });
    expect(unknown.statusCode).toBe(404);
    // Nothing holds an unregistered ticket's language: its registration will.
    const unregistered = await switchTo({ ...ticket, language: 'es' });
    expect(unregistered.statusCode).toBe(409);
    expect(unregistered.json().message).toBe('This ticket is not registered yet: its registration will keep the language the page shows.');
    expect((await switchTo({ hashUrl: newSecret(), language: 'es' })).statusCode).toBe(404);
    expect(await snapshotGuestTables(t.database.db)).toBe(before);
  });

  it('answers a stopped share "Pass No Longer Shared" and changes nothing', async () => {
    await putOrder(t.app, '49100004', anOrder([{ ...dayTicket('4910000000000042', 5), credits: 3 }]));
    const hashUrl = newSecret();
    await staff.share(t.database.db, {
      barcode: '4910000000000042',
      hashUrlHash: hashSecret(hashUrl),
      firstName: 'Dee',
      lastName: 'Friend',
      email: 'dee@example.com',
      removedAt: new Date(),
    });
    const before = await snapshotGuestTables(t.database.db);
    const res = await switchTo({ hashUrl, language: 'es' });
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toBe('Pass No Longer Shared');
    expect(await snapshotGuestTables(t.database.db)).toBe(before);
  });
});
