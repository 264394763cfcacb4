// The event feed (GET /api/integrations/events): each cause records its event, with its
// documented payload and no secret, in the change's own transaction; the feed lists them in
// order from a cursor that never passes one (an event of a transaction still running holds
// back the later ones); an erasure takes a person's events with it and leaves guest.erased.
import { proofOf } from '../../../test-support/loyalty.fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventData, type EventFeedPage } from '@boardwalk/contract/events';
import * as schema from '@boardwalk/db/schema';
import { testDbKind } from '@boardwalk/db/test-support/test-database';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { eventsOfType, readEventFeed } from '../../../test-support/events.ts';
import { loginAs } from '../../../test-support/staff.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { recordEvent } from '../../platform/events.ts';

let t: TestApp;
let ip = 0;
const ORDER = '84000001';
const BARCODE = '8400000100000001';
const guest = { firstName: 'Ines', lastName: 'Okafor', email: 'ines.okafor@example.com', phone: '3125550143' };
const friend = { firstName: 'Theo', lastName: 'Marsh', email: 'theo.marsh@example.com' };

const feed = (query = '') => t.app.inject({ method: 'GET', url: `/api/integrations/events${query}`, headers: integrationAuth });
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.9.0.${++ip}` });

const readAll = (limit?: number) => readEventFeed(t.app, limit);

beforeAll(async () => {
  t = await createTestApp();
  await putOrder(
    t.app,
    ORDER,
    anOrder([{ barcode: BARCODE, product: 'Play Card', category: 'Stored Value Card', credits: 40, holder: guest }]),
  );
});
afterAll(() => t.close());

describe('events', () => {
  it('a registration, a consent, a share made and stopped, a new member: each recorded with its documented payload, no secret', async () => {
    const registered = await post('/api/register/', {
      orderId: ORDER,
      barcode: BARCODE,
      ...guest,
      optInEmailMarketing: false,
      optInSMSMarketing: true,
    });
    expect(registered.statusCode).toBe(200);
    const token = registered.json<{ ticketShareToken: string }>().ticketShareToken;
    const shared = await post('/api/share/', { orderId: ORDER, barcode: BARCODE, ...friend }, { authorization: `Bearer ${token}` });
    expect(shared.statusCode).toBe(200);
    const { id: shareId, directLink } = shared.json<{ id: string; directLink: string }>();
    const corrected = await t.app.inject({
      method: 'PUT',
      url: `/api/share/${BARCODE}/${shareId}`,
      payload: { ...friend, lastName: 'Marsh-Reed', phone: '6175550110' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const stopped = await t.app.inject({
      method: 'DELETE',
      url: `/api/share/${ORDER}/${BARCODE}/${shareId}/`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(stopped.statusCode).toBe(204);
    const joined = await post('/api/loyalty/create', {
      email: guest.email,
      firstName: guest.firstName,
      lastName: guest.lastName,
      proof: proofOf(t, guest.email),
    });
    expect(joined.statusCode).toBe(200);
    const [member] = await t.database.db.select().from(schema.loyaltyAccounts);

    const { events } = await readAll();
    expect(events.map((e) => e.type)).toEqual([
      'guest.registered',
      'guest.consent_changed',
      'share.created',
      'share.updated',
      'share.stopped',
      'loyalty.member_created',
    ]);
    for (const event of events) {
      expect(() => eventData[event.type].parse(event.data)).not.toThrow();
      expect(event).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), version: 1 });
      expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
    }
    const ticket = { orderId: ORDER, barcode: BARCODE };
    expect(events.map((e) => e.data)).toEqual([
      { ...ticket, ...guest, consents: { email: false, sms: true }, language: 'en' },
      { ...ticket, channel: 'sms', given: true, source: 'registration form' },
      { ...ticket, shareId, ...friend, phone: null, language: 'en' },
      { ...ticket, shareId, ...friend, lastName: 'Marsh-Reed', phone: '6175550110', language: 'en' },
      { ...ticket, shareId },
      {
        memberNumber: member!.memberNumber,
        firstName: guest.firstName,
        lastName: guest.lastName,
        email: guest.email,
        createdBy: 'guest',
        language: 'en',
      },
    ]);
    // No token, link or loyalty user id of any kind.
    const text = JSON.stringify(events);
    for (const secret of [token, directLink, directLink.split('/').at(-1)!, joined.body, member!.id]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/https?:/);
  });

  it('each ledger entry is told with the balance it left: a raise and a deduction by staff, in one transaction each', async () => {
    const [member] = await t.database.db.select().from(schema.loyaltyAccounts);
    const { headers } = await loginAs(t.app, { accessLevel: 1000 });
    for (const [points, reason] of [
      [250, 'Welcome gift'],
      [-40, 'Duplicate claim'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/loyalty/adjust/',
        headers,
        payload: { userID: member!.id, points, reason },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const changes = await eventsOfType(t.app, 'loyalty.points_changed');
    expect(changes).toEqual([
      {
        memberNumber: member!.memberNumber,
        entry: expect.objectContaining({ points: 250, kind: 'adjustment', reason: 'Welcome gift' }),
        balance: 250,
      },
      {
        memberNumber: member!.memberNumber,
        entry: expect.objectContaining({ points: -40, kind: 'adjustment', reason: 'Duplicate claim' }),
        balance: 210,
      },
    ]);
    for (const data of changes) expect(() => eventData['loyalty.points_changed'].parse(data)).not.toThrow();
  });

  it('pages from a cursor: every event once, in order; the same cursor again when nothing is new', async () => {
    const all = await readAll();
    const paged = await readAll(2);
    expect(paged.events.map((e) => e.id)).toEqual(all.events.map((e) => e.id));
    const again = (await feed(`?after=${paged.next}`)).json<EventFeedPage>();
    expect(again).toEqual({ events: [], next: paged.next });
    expect(new Set(all.events.map((e) => e.id)).size).toBe(all.events.length);
  });

  it('a rolled-back change records nothing', async () => {
    const before = await readAll();
    await expect(
      t.database.db.transaction(async (tx) => {
        await recordEvent(tx, 'share.stopped', `ticket:${BARCODE}`, { orderId: ORDER, barcode: BARCODE, shareId: 'rolled-back' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await feed(`?after=${before.next}`)).json<EventFeedPage>().events).toEqual([]);
  });

  it.skipIf(testDbKind() !== 'postgres')(
    'an event of a transaction still running holds back the later ones: the cursor never passes it',
    async () => {
      const { next } = await readAll();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const slow = t.database.db.transaction(async (tx) => {
        await recordEvent(tx, 'share.stopped', `ticket:${BARCODE}`, { orderId: ORDER, barcode: BARCODE, shareId: 'first' });
        written();
        await held;
      });
      await wrote;
      await t.database.db.transaction((tx) =>
        recordEvent(tx, 'share.stopped', `ticket:${BARCODE}`, { orderId: ORDER, barcode: BARCODE, shareId: 'second' }),
      );
      const waiting = (await feed(`?after=${next}`)).json<EventFeedPage>();
      expect(waiting).toEqual({ events: [], next });
      release();
      await slow;
      // Listed once no older writing transaction runs (another test file's, on the same server, may for a moment).
      await expect
        .poll(async () => (await feed(`?after=${next}`)).json<EventFeedPage>().events.map((e) => e.data.shareId), { timeout: 30_000 })
        .toEqual(['first', 'second']);
    },
  );

  it('refuses a call without the key (401), and a cursor or limit it never answered (400), naming the field', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/integrations/events' })).statusCode).toBe(401);
    for (const query of [
      '?after=abc',
      '?after=1-2-3',
      '?after=09-0',
      '?after=18446744073709551616-0',
      '?after=1-9007199254740993',
      '?limit=0',
      '?limit=1001',
      '?limit=many',
    ]) {
      const res = await feed(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.body).toMatch(/after|limit/);
    }
    expect((await feed('?after=18446744073709551615-0')).statusCode).toBe(200);
  });

  it("an erasure takes the person's events with it and records guest.erased with ids only", async () => {
    await t.app.privacy.erase({ email: guest.email }, async () => undefined);
    const { events } = await readAll();
    const text = JSON.stringify(events);
    for (const value of [guest.email, guest.phone, guest.lastName]) expect(text).not.toContain(value);
    expect(events.at(-1)).toMatchObject({ type: 'guest.erased', data: { orderIds: [ORDER], barcodes: [BARCODE], language: null } });
    expect(events.map((e) => e.type)).not.toContain('guest.registered');
    expect(events.map((e) => e.type)).not.toContain('loyalty.member_created');
    // The share made to the friend stays: it names them, not the erased person.
    expect(events.filter((e) => e.type.startsWith('share.') && e.data.email).map((e) => e.data.email)).toEqual([
      friend.email,
      friend.email,
    ]);
  });
});
