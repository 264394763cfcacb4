// Share mail is not a relay: at most TICKET_SHARE_MAILS_PER_DAY share mails per ticket per
// park day (new shares and email changes, stopped shares included, so create/stop cycles and
// parallel bursts cannot pass it), 429 beyond with nothing changed; names are names (no
// link, markup or digit gets into a mail), and the mail's only link is the server's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import { shareFields } from '@boardwalk/contract/share';
import { operatingDayStart } from '../../platform/park-time.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { shareMail } from './share.service.ts';

let t: TestApp;
const LIMIT = 3;
const PUBLIC_URL = 'https://tickets.pier.example';
let ipSeq = 0;
const nextIp = () => `10.8.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const T = {
  cycle: { orderId: '51000001', barcode: '5100000000000018' },
  change: { orderId: '51000002', barcode: '5100000000000025' },
  burst: { orderId: '51000003', barcode: '5100000000000032' },
  names: { orderId: '51000004', barcode: '5100000000000049' },
  intl: { orderId: '51000005', barcode: '5100000000000056' },
};
const guest = { firstName: 'Rosa', lastName: 'Diaz', email: 'rosa@example.com', phone: '' };

beforeAll(async () => {
  t = await createTestApp({ env: { TICKET_SHARE_MAILS_PER_DAY: String(LIMIT), PUBLIC_URL, BRAND_NAME: 'Pier Park' } });
  for (const { orderId, barcode } of Object.values(T)) {
    await putOrder(
      t.app,
      orderId,
      anOrder([
        { barcode, product: 'Play Card', category: 'Stored Value Card', credits: 40, holder: { firstName: 'Carl', lastName: 'Diaz' } },
      ]),
    );
  }
});
afterAll(() => t.close());

async function tokenOf(ticket: { orderId: string; barcode: string }): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/login/', payload: ticket, remoteAddress: nextIp() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticketShareToken as string;
}
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const create = (body: Record<string, unknown>, token: string) =>
  t.app.inject({ method: 'POST', url: '/api/share/', payload: body, headers: auth(token) });
const update = (ticket: string, shareId: string, body: Record<string, unknown>, token: string) =>
  t.app.inject({ method: 'PUT', url: `/api/share/${ticket}/${shareId}`, payload: body, headers: auth(token) });
const stop = (orderId: string, barcode: string, shareId: string, token: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/share/${orderId}/${barcode}/${shareId}/`, headers: auth(token) });

/** Every share row and the number of outbox rows: what a refused call must leave as it was. */
async function state() {
  const db = t.database.db;
  const [shares, [outbox]] = await Promise.all([
    db.select().from(schema.ticketShares).orderBy(schema.ticketShares.createdAt, schema.ticketShares.shareId),
    db.select({ n: count() }).from(schema.outbox),
  ]);
  return { shares, outbox: outbox!.n };
}

/** The refusal: 429, the reason, and a Retry-After up to the next 2 AM in the park. */
function expectMailLimit(res: Awaited<ReturnType<typeof create>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toMatchObject({
    error: 'TOO_MANY_ATTEMPTS',
    message: `This ticket has sent its ${LIMIT} share emails for today. Try again after 2 AM (park time).`,
    reason: 'SHARE_MAIL_LIMIT_REACHED',
    params: { limit: LIMIT },
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(25 * 3600);
}

describe('the daily share-mail limit of a ticket', () => {
  it('counts stopped shares: create/stop cycles stop at the limit with 429, changing nothing; the next park day counts afresh', async () => {
    const token = await tokenOf(T.cycle);
    for (let i = 0; i < LIMIT; i++) {
      const made = await create({ ...T.cycle, ...guest, email: `cycle${i}@example.com` }, token);
      expect(made.statusCode, made.body).toBe(200);
      expect((await stop(T.cycle.orderId, T.cycle.barcode, made.json().id, token)).statusCode).toBe(204);
    }
    const before = await state();
    expectMailLimit(await create({ ...T.cycle, ...guest, email: 'one-more@example.com' }, token));
    expect(await state()).toEqual(before);

    // The mails of a day before (before today's 2 AM in the park) no longer count.
    const dayStart = operatingDayStart(new Date(), t.app.config.parkTimezone);
    await t.database.db
      .update(schema.ticketShares)
      .set({ createdAt: new Date(dayStart.getTime() - 1000) })
      .where(eq(schema.ticketShares.barcode, T.cycle.barcode));
    expect((await create({ ...T.cycle, ...guest, email: 'next-day@example.com' }, token)).statusCode).toBe(200);
  });

  it('counts a new address (a new share and mail); a change in place sends none and stays allowed', async () => {
    const token = await tokenOf(T.change);
    const first = await create({ ...T.change, ...guest, email: 'a0@example.com' }, token);
    expect(first.statusCode).toBe(200);
    let shareId = first.json().id as string;
    for (let i = 1; i < LIMIT; i++) {
      const changed = await update(T.change.barcode, shareId, { ...guest, email: `a${i}@example.com` }, token);
      expect(changed.statusCode, changed.body).toBe(200);
      shareId = changed.json().id;
    }
    const before = await state();
    expectMailLimit(await update(T.change.barcode, shareId, { ...guest, email: 'a-last@example.com' }, token));
    // The share it would have stopped is still there, with its address; no mail.
    expect(await state()).toEqual(before);
    expectMailLimit(await create({ ...T.change, ...guest, email: 'new@example.com' }, token));
    const inPlace = await update(T.change.barcode, shareId, { ...guest, firstName: 'Rosalind', email: `a${LIMIT - 1}@example.com` }, token);
    expect(inPlace.statusCode, inPlace.body).toBe(200);
    expect((await state()).outbox).toBe(before.outbox);
  });

  it('never passes the limit under a parallel burst (counted under the ticket lock)', async () => {
    const token = await tokenOf(T.burst);
    const before = await state();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create({ ...T.burst, ...guest, email: `burst${i}@example.com` }, token)),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array<number>(LIMIT).fill(200), ...Array<number>(8 - LIMIT).fill(429)]);
    const after = await state();
    expect(after.shares.filter((s) => s.barcode === T.burst.barcode)).toHaveLength(LIMIT);
    expect(after.outbox).toBe(before.outbox + LIMIT);
  });
});

describe('names on a share', () => {
  const bad = [
    'http://evil.example',
    'evil.com',
    'www.evil.com',
    'Rosa <b>',
    '<script>',
    'Rosa2',
    '1234',
    'Rosa: see',
    'Ro/sa',
    'a'.repeat(51),
    '.Rosa',
  ];

  it('refuses a name with a link, markup or digits (400, the rule in the message), writing and mailing nothing', async () => {
    const token = await tokenOf(T.names);
    const made = await create({ ...T.names, ...guest, email: 'names@example.com' }, token);
    expect(made.statusCode).toBe(200);
    const before = await state();
    for (const name of bad) {
      for (const field of ['firstName', 'lastName'] as const) {
        const res = await create({ ...T.names, ...guest, email: 'other@example.com', [field]: name }, token);
        expect(res.statusCode, `${field} ${name}`).toBe(400);
        expect(res.json().error).toBe('VALIDATION_FAILED');
        expect(res.json().fields?.[0]?.message ?? res.json().message).toMatch(
          name.length > 50 ? /is too long \(at most 50 characters\)/ : /may hold only letters, spaces, hyphens, apostrophes and periods/,
        );
        const changed = await update(T.names.barcode, made.json().id, { ...guest, email: 'names@example.com', [field]: name }, token);
        expect(changed.statusCode, `${field} ${name}`).toBe(400);
      }
    }
    expect(await state()).toEqual(before);
  });

  it("takes names of any language: Zoë O'Brien-Núñez, J. R. R. Tolkien, 王小明, Ngũgĩ wa Thiong'o", async () => {
    const token = await tokenOf(T.intl);
    const good = [
      { firstName: 'Zoë', lastName: "O'Brien-Núñez" },
      { firstName: "Zoë O'Brien-Núñez", lastName: 'Smith Jr.' },
      { firstName: 'J. R. R.', lastName: 'Tolkien' },
      { firstName: '小明', lastName: '王' },
      { firstName: 'Ngũgĩ', lastName: 'wa Thiong’o' },
    ];
    let shareId = '';
    for (const names of good) {
      // The client runs the same rule before it sends.
      expect(shareFields.safeParse({ ...guest, ...names }).success).toBe(true);
      // The first starts a share, the others change it in place (same address: no mail).
      const res = shareId
        ? await update(T.intl.barcode, shareId, { ...guest, ...names, email: 'intl@example.com' }, token)
        : await create({ ...T.intl, ...guest, ...names, email: 'intl@example.com' }, token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject(names);
      shareId = res.json().id;
    }
    for (const name of bad) expect(shareFields.safeParse({ ...guest, firstName: name }).success).toBe(false);
  });
});

describe('the share mail', () => {
  const config = { brandName: 'Pier Park' } as never;
  const ticket = { firstName: 'Carl', lastName: 'Diaz', holderFirstName: null, holderLastName: null, product: 'Play Card' };
  const link = `${PUBLIC_URL}/AbCdEfGhIjKlMnOpQrStUvWxYz`;

  it("carries names only when they are names, and no link but the server's", () => {
    const mail = shareMail({ config }, ticket, { firstName: 'Zoë', email: 'zoe@example.com' }, link, 'en');
    expect(mail.subject).toBe('Carl Diaz shared a Pier Park ticket with you');
    expect(mail.text).toContain('Hi Zoë,');
    expect(mail.text.match(/https?:\/\/\S+/g)).toEqual([`${link}?lang=en`]);

    // A name from before the rule (a share, or the owner's registration) that is not a name.
    const spam = shareMail(
      { config },
      { ...ticket, firstName: 'Win a prize at http://evil.example', lastName: '<b>now</b>' },
      { firstName: 'Visit www.evil.example', email: 'zoe@example.com' },
      link,
      'en',
    );
    expect(spam.subject).toBe('A guest shared a Pier Park ticket with you');
    expect(spam.text).toMatch(/^Hello,\n/);
    expect(`${spam.subject}\n${spam.text}`).not.toMatch(/evil|<b>|prize/);
    expect(spam.text.match(/https?:\/\/\S+/g)).toEqual([`${link}?lang=en`]);
  });
});
