// POST /api/stored-value/: the card a barcodeHash names (an unknown hash is a throttled failed
// lookup), its balance and the attraction usage of the park's current operating day, which
// starts at 2:00 AM in PARK_TIMEZONE (America/Los_Angeles here), also on the daylight-saving
// days.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder, staff } from '../../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../../test-support/test-app.ts';
import { operatingDayBounds } from './stored-value.service.ts';

const run = promisify(execFile);
const PUBLIC_URL = 'https://park.example.com';
const SVC = { orderId: '50000001', barcode: '5000000000000011' };
const DAY_TICKET = { orderId: '50000001', barcode: '5000000000000028' };
const OTHER_SVC = { orderId: '50000002', barcode: '5000000000000035' };
const LINKED_SVC = { orderId: '50000003', barcode: '5000000000000042' };

let t: TestApp;
let ipSeq = 0;
/** Each test gets its own client address so the per-address throttle never crosses tests. */
const nextIp = () => `10.8.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
const storedValue = (body: unknown, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/stored-value/', payload: body as Record<string, unknown>, remoteAddress });
const login = async (body: object) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress: nextIp() });
  expect(res.statusCode).toBe(200);
  return res.json<{ barcodeHash: string | null; ticketShares: { id: string }[] }>();
};
async function postUsage(events: { barcode: string; attraction: string; location?: string; timestamp: string }[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/integrations/usage',
    headers: integrationAuth,
    payload: { events: events.map((e) => ({ location: 'Main Pier', ...e })) },
  });
  expect(res.statusCode).toBe(200);
}
const svcOrder = (credits = 42.5, cash = 12.25) =>
  anOrder([
    { barcode: SVC.barcode, product: 'Stored Value Card $50', category: 'Stored Value Card', credits, cash },
    { barcode: DAY_TICKET.barcode, product: 'Day Ticket', category: 'Day Ticket', cash: 5 },
  ]);
/** Moves the clock the app (and the park's operating day) sees. */
const setNow = (iso: string) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
};

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL, PARK_TIMEZONE: 'America/Los_Angeles' } });
  await putOrder(t.app, SVC.orderId, svcOrder());
  await putOrder(
    t.app,
    OTHER_SVC.orderId,
    anOrder([{ barcode: OTHER_SVC.barcode, product: 'Stored Value Card $20', category: 'stored value card ', credits: 20 }]),
  );
  await putOrder(
    t.app,
    LINKED_SVC.orderId,
    anOrder([{ barcode: LINKED_SVC.barcode, product: 'Stored Value Card $10', category: 'Stored Value Card', credits: 10 }]),
  );
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('the barcodeHash in the order object', () => {
  it("is the Stored Value Card's keyed hash, for login and register, and kept for the page", async () => {
    const expected = t.app.keys.keyedHash('stored-value', SVC.barcode);
    expect((await login(SVC)).barcodeHash).toBe(expected);
    // Looked up again: the same hash, still one link.
    expect((await login(SVC)).barcodeHash).toBe(expected);
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/register/',
      payload: { ...SVC, firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phone: '3105550100' },
      remoteAddress: nextIp(),
    });
    expect(register.statusCode).toBe(200);
    expect(register.json().barcodeHash).toBe(expected);
    const links = await t.database.db.select().from(schema.storedValueLinks);
    expect(links.filter((l) => l.barcode === SVC.barcode)).toEqual([expect.objectContaining({ barcodeHash: expected })]);
    expect((await storedValue({ barcodeHash: expected })).statusCode).toBe(200);
  });

  it('is kept by the first lookup that answers it: a lookup of a card whose link is kept writes nothing', async () => {
    // Counts every insert tried on the links, conflicting ones too (a BEFORE trigger fires before the conflict check).
    await t.database.executeSql(`
      create table link_inserts_tried (barcode text);
      create function count_link_insert() returns trigger language plpgsql as $$
        begin insert into link_inserts_tried values (new.barcode); return new; end $$;
      create trigger count_link_insert before insert on stored_value_links for each row execute function count_link_insert();`);
    try {
      const tried = async () =>
        (await t.database.executeSql(`select count(*)::int as n from link_inserts_tried where barcode = $1`, [LINKED_SVC.barcode])).rows[0]!
          .n;
      const first = await login(LINKED_SVC);
      expect(first.barcodeHash).toBe(t.app.keys.keyedHash('stored-value', LINKED_SVC.barcode));
      expect(await tried()).toBe(1);
      expect((await login(LINKED_SVC)).barcodeHash).toBe(first.barcodeHash);
      expect((await login(LINKED_SVC)).barcodeHash).toBe(first.barcodeHash);
      expect(await tried()).toBe(1);
    } finally {
      await t.database.executeSql(
        `drop trigger count_link_insert on stored_value_links; drop function count_link_insert; drop table link_inserts_tried`,
      );
    }
  });

  it('is null for a ticket that is not a Stored Value Card, which gets no link', async () => {
    expect((await login(DAY_TICKET)).barcodeHash).toBeNull();
    const links = await t.database.db.select().from(schema.storedValueLinks);
    expect(links.map((l) => l.barcode)).not.toContain(DAY_TICKET.barcode);
    // Its keyed hash, though well formed, names nothing.
    const res = await storedValue({ barcodeHash: t.app.keys.keyedHash('stored-value', DAY_TICKET.barcode) });
    expect(res.statusCode).toBe(404);
  });

  it('is null for a shared view of the card (a stopped share could not take the page link back) and for a test pass', async () => {
    const share = await staff.share(t.database.db, {
      barcode: OTHER_SVC.barcode,
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: 'rosa@example.com',
      hashUrlHash: 'not-used',
    });
    const shared = await login({ ...OTHER_SVC, shareId: share.shareId });
    expect(shared.barcodeHash).toBeNull();
    await staff.testPass(t.database.db, { barcode: '99000077', description: 'Test SVC', data: '{"category":"Stored Value Card"}' });
    expect((await login({ orderId: '0', barcode: '99000077' })).barcodeHash).toBeNull();
  });
});

describe('POST /api/stored-value/', () => {
  it("answers the card's balance and only today's usage, in time order, with the operating day and the park's time zone", async () => {
    setNow('2026-11-21T15:00:00-08:00');
    const { barcodeHash } = await login(SVC);
    await postUsage([
      { barcode: SVC.barcode, attraction: 'Pacific Wheel', timestamp: '2026-11-21T13:02:45-08:00' },
      { barcode: SVC.barcode, attraction: 'Sea Dragon', location: 'West Pier', timestamp: '2026-11-21T10:05:12-08:00' },
      // Yesterday's, and the last second of yesterday's operating day (1:59:59 AM today).
      { barcode: SVC.barcode, attraction: 'Carousel', timestamp: '2026-11-20T16:30:00-08:00' },
      { barcode: SVC.barcode, attraction: 'Ring Toss', timestamp: '2026-11-21T01:59:59-08:00' },
      // The first second of today's operating day.
      { barcode: SVC.barcode, attraction: 'Bumper Cars', timestamp: '2026-11-21T02:00:00-08:00' },
      // Tomorrow's operating day, and another card's usage today.
      { barcode: SVC.barcode, attraction: 'Carousel', timestamp: '2026-11-22T02:00:00-08:00' },
      { barcode: OTHER_SVC.barcode, attraction: 'Carousel', timestamp: '2026-11-21T11:00:00-08:00' },
    ]);
    const res = await storedValue({ barcodeHash });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      barcode: SVC.barcode,
      credits: 42.5,
      cash: 12.25,
      today: '2026-11-21',
      timeZone: 'America/Los_Angeles',
      attractions: [
        { attraction: 'Bumper Cars', location: 'Main Pier', timestamp: '2026-11-21T10:00:00.000Z' },
        { attraction: 'Sea Dragon', location: 'West Pier', timestamp: '2026-11-21T18:05:12.000Z' },
        { attraction: 'Pacific Wheel', location: 'Main Pier', timestamp: '2026-11-21T21:02:45.000Z' },
      ],
    });
  });

  it('before 2:00 AM still answers the previous operating day', async () => {
    setNow('2026-11-22T01:59:00-08:00');
    const { barcodeHash } = await login(SVC);
    const body = (await storedValue({ barcodeHash })).json();
    expect(body.today).toBe('2026-11-21');
    expect(body.attractions.map((a: { attraction: string }) => a.attraction)).toEqual(['Bumper Cars', 'Sea Dragon', 'Pacific Wheel']);
    setNow('2026-11-22T02:00:00-08:00');
    const next = (await storedValue({ barcodeHash })).json();
    expect(next.today).toBe('2026-11-22');
    expect(next.attractions).toEqual([{ attraction: 'Carousel', location: 'Main Pier', timestamp: '2026-11-22T10:00:00.000Z' }]);
  });

  it('answers the balance the ticketing feed sent last, and an empty list on a day without usage', async () => {
    setNow('2026-12-05T12:00:00-08:00');
    await putOrder(t.app, SVC.orderId, svcOrder(7, 0));
    const { barcodeHash } = await login(SVC);
    const body = (await storedValue({ barcodeHash })).json();
    expect(body).toMatchObject({ credits: 7, cash: 0, today: '2026-12-05', attractions: [] });
    await putOrder(t.app, SVC.orderId, svcOrder());
  });

  describe.each([
    {
      day: 'the spring-forward day (2026-03-08: 1:59:59 AM PST is followed by 3:00 AM PDT)',
      events: {
        before: ['2026-03-07T14:00:00-08:00', '2026-03-08T01:59:00-08:00', '2026-03-08T01:59:59-08:00'],
        after: ['2026-03-08T03:00:00-07:00', '2026-03-08T09:00:00-07:00'],
        nextDay: ['2026-03-09T02:00:00-07:00'],
      },
      earlyNow: '2026-03-08T01:30:00-08:00',
      lateNow: '2026-03-08T12:00:00-07:00',
      days: ['2026-03-07', '2026-03-08'],
      lengths: [24, 23],
    },
    {
      day: 'the fall-back day (2026-11-01: 1:00 to 1:59 AM happen twice, PDT then PST)',
      events: {
        before: ['2026-10-31T14:00:00-07:00', '2026-11-01T01:30:00-07:00', '2026-11-01T01:59:00-08:00'],
        after: ['2026-11-01T02:00:00-08:00', '2026-11-01T09:00:00-08:00'],
        nextDay: ['2026-11-02T02:00:00-08:00'],
      },
      earlyNow: '2026-11-01T01:45:00-08:00',
      lateNow: '2026-11-01T12:00:00-08:00',
      days: ['2026-10-31', '2026-11-01'],
      lengths: [25, 24],
    },
  ])('on $day', ({ events, earlyNow, lateNow, days, lengths }) => {
    const iso = (s: string) => new Date(s).toISOString();
    let barcodeHash: string | null;
    beforeAll(async () => {
      barcodeHash = (await login(OTHER_SVC)).barcodeHash;
      const all = [...events.before, ...events.after, ...events.nextDay];
      await postUsage(all.map((timestamp, i) => ({ barcode: OTHER_SVC.barcode, attraction: `Ride ${i}`, timestamp })));
    });

    it('usage at 1:59 AM belongs to the day before, usage from 2:00 AM to the day', async () => {
      setNow(lateNow);
      const late = (await storedValue({ barcodeHash })).json();
      expect(late.today).toBe(days[1]);
      expect(late.attractions.map((a: { timestamp: string }) => a.timestamp)).toEqual(events.after.map(iso));
      setNow(earlyNow);
      const early = (await storedValue({ barcodeHash })).json();
      expect(early.today).toBe(days[0]);
      expect(early.attractions.map((a: { timestamp: string }) => a.timestamp)).toEqual(events.before.map(iso));
    });

    it(`makes the operating days around it ${lengths.join(' and ')} hours long`, () => {
      const hours = (b: { from: Date; to: Date }) => (b.to.getTime() - b.from.getTime()) / 3_600_000;
      const before = operatingDayBounds(new Date(earlyNow), 'America/Los_Angeles');
      const day = operatingDayBounds(new Date(lateNow), 'America/Los_Angeles');
      expect(day.from.toISOString()).toBe(iso(events.after[0]!));
      expect(before.to.toISOString()).toBe(day.from.toISOString());
      expect(day.to.toISOString()).toBe(iso(events.nextDay[0]!));
      expect([hours(before), hours(day)]).toEqual(lengths);
    });
  });

  it('answers 404 "Unable to locate order" to an unknown or malformed hash, and the 11th failure from one address 429', async () => {
    const ip = nextIp();
    const { barcodeHash } = await login(SVC);
    const misses = [
      t.app.keys.keyedHash('stored-value', '5000000000009999'),
      `${barcodeHash!.slice(0, -1)}${barcodeHash!.endsWith('A') ? 'B' : 'A'}`,
      '',
      'x',
      `${barcodeHash}A`,
      barcodeHash!.slice(1),
      'a'.repeat(43).replace(/^a/, '+'),
      ' '.repeat(43),
      '../../../etc/passwd',
      '\u00e9'.repeat(43),
    ];
    // A NUL is refused before any look, like anywhere in a body (400), and is no failure.
    expect((await storedValue({ barcodeHash: '\u0000'.repeat(43) }, ip)).statusCode).toBe(400);
    for (const hash of misses) {
      const res = await storedValue({ barcodeHash: hash }, ip);
      expect(res.statusCode, JSON.stringify(hash)).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ORDER_NOT_FOUND', message: 'Unable to locate order' });
    }
    const blocked = await storedValue({ barcodeHash }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The same counter as login's.
    const loginBlocked = await t.app.inject({ method: 'POST', url: '/api/login/', payload: SVC, remoteAddress: ip });
    expect(loginBlocked.statusCode).toBe(429);
    // Another address is not affected.
    expect((await storedValue({ barcodeHash })).statusCode).toBe(200);
  });

  it('counts failed logins from the address too', async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { orderId: String(59000000 + i), barcode: '5000000000009999' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await storedValue({ barcodeHash: (await login(SVC)).barcodeHash }, ip)).statusCode).toBe(429);
  });

  it('answers 400 to a body that names no hash, without counting it', async () => {
    const ip = nextIp();
    for (const body of [{}, { barcodeHash: 42 }, { barcodeHash: null }, { barcodeHash: 'x', extra: 1 }, []]) {
      const res = await storedValue(body, ip);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    for (let i = 0; i < 10; i++) expect((await storedValue({ barcodeHash: 'x' }, ip)).statusCode).toBe(404);
  });

  it('stops answering once the card is dropped from the order (the link goes with the ticket)', async () => {
    const card = { orderId: '50000003', barcode: '5000000000000042' };
    await putOrder(
      t.app,
      card.orderId,
      anOrder([{ barcode: card.barcode, category: 'Stored Value Card', credits: 3 }, { barcode: '5000000000000059' }]),
    );
    const { barcodeHash } = await login(card);
    expect((await storedValue({ barcodeHash })).statusCode).toBe(200);
    await putOrder(t.app, card.orderId, anOrder([{ barcode: '5000000000000059' }]));
    expect((await storedValue({ barcodeHash })).statusCode).toBe(404);
  });
});

describe("the voucher's QR code", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bw-stored-value-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names a page that answers the card, even when the voucher is the first link handed out', async () => {
    const card = { orderId: '50000004', barcode: '5000000000000066' };
    await putOrder(t.app, card.orderId, anOrder([{ barcode: card.barcode, category: 'Stored Value Card', credits: 9 }]));
    const res = await t.app.inject({ method: 'POST', url: '/api/voucher/', payload: card, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    const pdf = join(dir, 'voucher.pdf');
    await writeFile(pdf, res.rawPayload);
    await run('pdftoppm', ['-r', '150', '-png', '-singlefile', pdf, join(dir, 'voucher')]);
    const { stdout } = await run('zbarimg', ['-q', join(dir, 'voucher.png')]);
    const qr = stdout.split('\n').find((line) => line.startsWith('QR-Code:'));
    const url = new URL(qr!.slice('QR-Code:'.length));
    expect(url.origin).toBe(PUBLIC_URL);
    const match = /^\/stored-value\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    expect(match).not.toBeNull();
    const page = await storedValue({ barcodeHash: match![1] });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ barcode: card.barcode, credits: 9 });
  });
});
