// Ticket shares end to end through the API: the token, validation, the limit (also under
// concurrent starts), the mail in the same transaction, email changes and stopped shares.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { count, eq } from 'drizzle-orm';
import * as schema from '@boardwalk/db/schema';
import { shareTexts } from '@boardwalk/contract/share';
import { hashSecret } from '../../platform/secrets.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test-support/smtp.fixtures.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let smtp: TestSmtpServer;
const PUBLIC_URL = 'https://tickets.pier.example';
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

/** Tickets with credits (one per describe, so their shares never cross) and one without. */
const T = {
  main: { orderId: '50000001', barcode: '5000000000000011' },
  limit: { orderId: '50000002', barcode: '5000000000000028' },
  race: { orderId: '50000003', barcode: '5000000000000035' },
  edit: { orderId: '50000004', barcode: '5000000000000042' },
  stop: { orderId: '50000005', barcode: '5000000000000059' },
  other: { orderId: '50000006', barcode: '5000000000000066' },
  noCredits: { orderId: '50000007', barcode: '5000000000000073' },
};
const guest = { firstName: 'Rosa', lastName: 'Diaz', email: 'rosa@example.com', phone: '(310) 555-0142' };

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL, BRAND_NAME: 'Pier Park', SUPPORT_EMAIL: 'help@example.com' } });
  for (const [name, { orderId, barcode }] of Object.entries(T)) {
    await putOrder(
      t.app,
      orderId,
      anOrder([
        {
          barcode,
          product: 'Play Card',
          category: 'Stored Value Card',
          credits: name === 'noCredits' ? 0 : 40,
          holder: { firstName: 'Carl', lastName: 'Diaz', email: 'carl@example.com' },
        },
      ]),
    );
  }
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

function login(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/login/', payload: body, remoteAddress: nextIp() });
}
async function tokenOf(ticket: { orderId: string; barcode: string }): Promise<string> {
  const res = await login(ticket);
  expect(res.statusCode).toBe(200);
  const token = res.json().ticketShareToken as string | null;
  expect(token).toEqual(expect.any(String));
  return token!;
}
const bearer = (token: string | undefined) => (token === undefined ? {} : { authorization: `Bearer ${token}` });
const list = (ticket: string, token?: string) => t.app.inject({ method: 'GET', url: `/api/share/${ticket}`, headers: bearer(token) });
const create = (body: Record<string, unknown>, token?: string) =>
  t.app.inject({ method: 'POST', url: '/api/share/', payload: body, headers: bearer(token) });
const update = (ticket: string, shareId: string, body: Record<string, unknown>, token?: string) =>
  t.app.inject({ method: 'PUT', url: `/api/share/${ticket}/${shareId}`, payload: body, headers: bearer(token) });
const remove = (orderId: string, ticket: string, shareId: string, salesforceId = '', token?: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/share/${orderId}/${ticket}/${shareId}/${salesforceId}`, headers: bearer(token) });

async function counts() {
  const db = t.database.db;
  const [[shares], [outbox]] = await Promise.all([
    db.select({ n: count() }).from(schema.ticketShares),
    db.select({ n: count() }).from(schema.outbox),
  ]);
  return { shares: shares!.n, outbox: outbox!.n };
}
const activeCount = async (barcode: string) =>
  (await t.database.db.select().from(schema.ticketShares).where(eq(schema.ticketShares.barcode, barcode))).filter((r) => !r.removedAt)
    .length;
/** The hashUrl of a direct link. */
const hashUrlOf = (directLink: string) => directLink.slice(PUBLIC_URL.length + 1);
/** The message that reached the SMTP server for this address (waiting for it). */
async function mailTo(address: string) {
  const until = Date.now() + 10_000;
  for (;;) {
    const found = smtp.received.find((m) => m.to.includes(address));
    if (found) return found;
    if (Date.now() > until) throw new Error(`no mail to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the token', () => {
  it('gives the owner of a ticket with credits a token; none without credits or in a shared view', async () => {
    await tokenOf(T.main);
    expect((await login(T.noCredits)).json().ticketShareToken).toBeNull();
  });

  it('refuses every call without a token, with a bad one, or with the token of another ticket (401), writing nothing', async () => {
    const otherToken = await tokenOf(T.other);
    const mine = await tokenOf(T.main);
    const made = (await create({ ...T.main, ...guest }, mine)).json();
    const before = await counts();
    for (const token of [undefined, '', 'not-a-token', `${mine}x`, otherToken]) {
      const answers = await Promise.all([
        list(T.main.barcode, token),
        create({ ...T.main, ...guest }, token),
        update(T.main.barcode, made.id, { ...guest, firstName: 'Changed' }, token),
        remove(T.main.orderId, T.main.barcode, made.id, '', token),
      ]);
      for (const res of answers) {
        expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(401);
        expect(res.json().error).toBe('UNAUTHORIZED');
      }
    }
    // A token only names its own ticket, whatever path it is sent to.
    expect((await list(T.other.barcode, mine)).statusCode).toBe(401);
    // Another share's link names another ticket.
    expect((await list(hashUrlOf(made.directLink), otherToken)).statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('answers 408 with the spec text once the token is more than 30 minutes old', async () => {
    const token = await tokenOf(T.main);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 29 * 60 * 1000);
    expect((await list(T.main.barcode, token)).statusCode).toBeLessThan(300);
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    const before = await counts();
    for (const res of [
      await list(T.main.barcode, token),
      await create({ ...T.main, ...guest }, token),
      await update(T.main.barcode, '00000000-0000-4000-8000-000000000000', guest, token),
      await remove(T.main.orderId, T.main.barcode, '00000000-0000-4000-8000-000000000000', '', token),
    ]) {
      expect(res.statusCode).toBe(408);
      expect(res.json().message).toBe('This ticket sharing session has expired. Please refresh and try again.');
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a ticket without credits even with a signed token (403)', async () => {
    const token = await t.app.keys.signToken('ticket-share', T.noCredits.barcode, 60);
    const res = await create({ ...T.noCredits, ...guest }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(shareTexts.noCredits);
  });
});

describe('POST /api/share/ and GET /api/share/{ticket}', () => {
  it('answers 204 while the ticket has no share', async () => {
    const token = await tokenOf(T.edit);
    const res = await list(T.edit.barcode, token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('starts a share: phone kept as digits, a new link stored only as its hash and mailed to the guest through the mail job', async () => {
    const token = await tokenOf(T.main);
    const res = await create({ ...T.main, ...guest, email: 'rosa.new@example.com', hashUrl: '' }, token);
    expect(res.statusCode).toBe(200);
    const share = res.json();
    expect(share).toMatchObject({
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: 'rosa.new@example.com',
      phone: '3105550142',
      salesforceId: null,
    });
    expect(share.directLink).toMatch(new RegExp(`^${PUBLIC_URL}/[A-Za-z0-9_-]{86,}$`));
    const hashUrl = hashUrlOf(share.directLink);

    const [row] = await t.database.db.select().from(schema.ticketShares).where(eq(schema.ticketShares.shareId, share.id));
    expect(row).toMatchObject({ barcode: T.main.barcode, hashUrlHash: hashSecret(hashUrl), phone: '3105550142', removedAt: null });
    expect(JSON.stringify(row)).not.toContain(hashUrl);

    // The outbox row was written with the share; the mail job delivers it at once (the body sealed
    // until sent is the mailer's rule, tested in mailer.test.ts).
    const [outboxRow] = await t.database.db.select().from(schema.outbox).where(eq(schema.outbox.to, 'rosa.new@example.com'));
    expect(outboxRow!.subject).toBe('Carl Diaz shared a Pier Park ticket with you');
    await settleDeliveries(t.app);
    const mail = await mailTo('rosa.new@example.com');
    expect(mail.to).toEqual(['rosa.new@example.com']);
    expect(mail.subject).toBe('Carl Diaz shared a Pier Park ticket with you');
    expect(mail.text).toContain(share.directLink);
    const [delivered] = await t.database.db.select().from(schema.outbox).where(eq(schema.outbox.id, outboxRow!.id));
    expect(delivered!.sentAt).toBeInstanceOf(Date);
    // Sent: the body is gone; recipient and subject stay.
    expect(delivered).toMatchObject({ text: null, to: 'rosa.new@example.com', subject: 'Carl Diaz shared a Pier Park ticket with you' });

    // The list: the same share, without its link.
    const listed = await list(T.main.barcode, token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual({ ...share, directLink: null });
    // ... also when the ticket is named by one of its share links.
    expect((await list(hashUrl, token)).json()).toContainEqual({ ...share, directLink: null });

    // The link opens the shared view, which carries no share token.
    const shared = await login({ hashUrl });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toMatchObject({
      orderId: '',
      shareId: share.id,
      sharedWith: { firstName: 'Rosa' },
      ticketShares: [],
      ticketShareToken: null,
    });
    const byId = await login({ ...T.main, shareId: share.id });
    expect(byId.json()).toMatchObject({ shareId: share.id, ticketShareToken: null });
    // And the owner's order object lists it.
    expect((await login(T.main)).json().ticketShares).toContainEqual({ ...share, directLink: null });
  });

  it('keeps the phone optional', async () => {
    const token = await tokenOf(T.main);
    for (const phone of ['', null, undefined]) {
      const res = await create({ ...T.main, ...guest, phone }, token);
      expect(res.statusCode).toBe(200);
      expect(res.json().phone).toBeNull();
      await remove('0', T.main.barcode, res.json().id, '', token);
    }
  });

  it.each([
    ['firstName', { firstName: ' ' }],
    ['firstName', { firstName: undefined }],
    ['lastName', { lastName: '' }],
    ['email', { email: '' }],
    ['email', { email: 'rosa@example' }],
    ['email', { email: 'ro sa@example.com' }],
    ['phone', { phone: '(310) 555-01' }],
    ['barcode', { barcode: '12' }],
    ['orderId', { orderId: 'abc' }],
    ['hashUrl', { hashUrl: 'short' }],
  ])('refuses a bad %s with 400 naming it, writing and mailing nothing', async (field, change) => {
    const token = await tokenOf(T.main);
    const before = await counts();
    const res = await create({ ...T.main, ...guest, ...change }, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toContain(field);
    expect(res.json().message).toMatch(new RegExp(field));
    expect(await counts()).toEqual(before);
  });

  it("refuses another order's id with 401", async () => {
    const token = await tokenOf(T.main);
    const before = await counts();
    expect((await create({ ...T.main, orderId: T.other.orderId, ...guest }, token)).statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });
});

describe('the share limit', () => {
  it('refuses the 11th active share with 400 and the reason, writing and mailing nothing', async () => {
    const token = await tokenOf(T.limit);
    for (let i = 0; i < 10; i++) {
      const res = await create({ ...T.limit, ...guest, email: `g${i}@example.com` }, token);
      expect(res.statusCode).toBe(200);
    }
    const before = await counts();
    const res = await create({ ...T.limit, ...guest, email: 'eleventh@example.com' }, token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'A ticket can be shared with at most 10 guests.',
      reason: 'SHARE_LIMIT_REACHED',
      params: { limit: 10 },
    });
    expect(await counts()).toEqual(before);
    expect(await activeCount(T.limit.barcode)).toBe(10);

    // A stopped share frees its place.
    const first = (await list(T.limit.barcode, token)).json()[0];
    expect((await remove(T.limit.orderId, T.limit.barcode, first.id, '', token)).statusCode).toBe(204);
    expect((await create({ ...T.limit, ...guest, email: 'eleventh@example.com' }, token)).statusCode).toBe(200);
    expect(await activeCount(T.limit.barcode)).toBe(10);
  });

  it('never passes the limit under concurrent starts', async () => {
    const token = await tokenOf(T.race);
    for (let i = 0; i < 8; i++) expect((await create({ ...T.race, ...guest, email: `r${i}@example.com` }, token)).statusCode).toBe(200);
    const outboxBefore = (await counts()).outbox;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create({ ...T.race, ...guest, email: `race${i}@example.com` }, token)),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 400, 400, 400, 400]);
    expect(await activeCount(T.race.barcode)).toBe(10);
    // One mail per share made, none for the refused ones.
    expect((await counts()).outbox).toBe(outboxBefore + 2);
  });
});

describe('PUT /api/share/{ticket}/{shareId}', () => {
  it('updates a share in place when the email stays (no new link, no mail)', async () => {
    const token = await tokenOf(T.edit);
    const made = (await create({ ...T.edit, ...guest }, token)).json();
    const before = await counts();
    const res = await update(
      T.edit.barcode,
      made.id,
      { ...guest, firstName: 'Rosalind', phone: '3105550199', salesforceId: 'SF-001' },
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...made, firstName: 'Rosalind', phone: '3105550199', salesforceId: 'SF-001', directLink: null });
    expect(await counts()).toEqual(before);
    // The old link still works and shows the new name.
    expect((await login({ hashUrl: hashUrlOf(made.directLink) })).json().sharedWith).toMatchObject({ firstName: 'Rosalind' });
    // salesforceId left out keeps it; the phone can be cleared.
    const again = await update(T.edit.barcode, made.id, { ...guest, phone: '' }, token);
    expect(again.json()).toMatchObject({ salesforceId: 'SF-001', phone: null, firstName: 'Rosa' });
  });

  it('stops the old link and mails a new share when the email changes', async () => {
    const token = await tokenOf(T.edit);
    const made = (await create({ ...T.edit, ...guest, email: 'first@example.com' }, token)).json();
    const res = await update(T.edit.barcode, made.id, { ...guest, email: 'second@example.com' }, token);
    expect(res.statusCode).toBe(200);
    const renewed = res.json();
    expect(renewed.id).not.toBe(made.id);
    expect(renewed.email).toBe('second@example.com');
    expect(renewed.directLink).toMatch(new RegExp(`^${PUBLIC_URL}/`));
    expect(renewed.directLink).not.toBe(made.directLink);

    const old = await login({ hashUrl: hashUrlOf(made.directLink) });
    expect(old.statusCode).toBe(410);
    expect(old.json().message).toBe('Pass No Longer Shared');
    expect((await login({ hashUrl: hashUrlOf(renewed.directLink) })).json()).toMatchObject({ shareId: renewed.id });
    const ids = ((await list(T.edit.barcode, token)).json() as { id: string }[]).map((s) => s.id);
    expect(ids).toContain(renewed.id);
    expect(ids).not.toContain(made.id);

    await settleDeliveries(t.app);
    const mail = await mailTo('second@example.com');
    expect(mail.to).toEqual(['second@example.com']);
    expect(mail.text).toContain(renewed.directLink);
  });

  it('answers 404 for a share that is not active on this ticket, and 400 for bad fields, writing nothing', async () => {
    const token = await tokenOf(T.edit);
    const made = (await create({ ...T.edit, ...guest }, token)).json();
    const before = await counts();
    expect((await update(T.edit.barcode, '00000000-0000-4000-8000-000000000000', guest, token)).statusCode).toBe(404);
    const bad = await update(T.edit.barcode, made.id, { ...guest, email: 'nope' }, token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/email/);
    expect((await update(T.edit.barcode, 'not-a-uuid', guest, token)).statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });
});

describe('DELETE /api/share/{orderId or 0}/{ticket}/{shareId}/{salesforceId or empty}', () => {
  it('stops the share: its link answers 410, its share id is dropped, wallet calls with it answer 410', async () => {
    const token = await tokenOf(T.stop);
    const made = (await create({ ...T.stop, ...guest }, token)).json();
    const hashUrl = hashUrlOf(made.directLink);
    expect((await login({ ...T.stop, shareId: made.id })).json()).toMatchObject({ shareId: made.id });

    const res = await remove(T.stop.orderId, T.stop.barcode, made.id, '', token);
    expect(res.statusCode).toBe(204);

    const link = await login({ hashUrl });
    expect(link.statusCode).toBe(410);
    expect(link.json().message).toBe('Pass No Longer Shared');
    expect((await login({ ...T.stop, shareId: made.id })).json()).toMatchObject({ shareId: '', sharedWith: null });
    for (const url of ['/api/apple-wallet/', '/api/google-wallet/']) {
      const byId = await t.app.inject({ method: 'POST', url, payload: { ...T.stop, shareId: made.id }, remoteAddress: nextIp() });
      expect(byId.statusCode).toBe(410);
      const byLink = await t.app.inject({ method: 'POST', url, payload: { hashUrl }, remoteAddress: nextIp() });
      expect(byLink.statusCode).toBe(410);
    }
    expect((await list(T.stop.barcode, token)).statusCode).toBe(204);
    // The row is kept as a tombstone.
    const [row] = await t.database.db.select().from(schema.ticketShares).where(eq(schema.ticketShares.shareId, made.id));
    expect(row!.removedAt).toBeInstanceOf(Date);
    // Stopping it again: it is not active.
    expect((await remove(T.stop.orderId, T.stop.barcode, made.id, '', token)).statusCode).toBe(404);
  });

  it('takes order id 0, a salesforceId segment or none, and the ticket by one of its links', async () => {
    const token = await tokenOf(T.stop);
    const a = (await create({ ...T.stop, ...guest }, token)).json();
    const b = (await create({ ...T.stop, ...guest }, token)).json();
    const c = (await create({ ...T.stop, ...guest }, token)).json();
    expect((await remove('0', T.stop.barcode, a.id, 'SF-9', token)).statusCode).toBe(204);
    const noSlash = await t.app.inject({ method: 'DELETE', url: `/api/share/0/${T.stop.barcode}/${b.id}`, headers: bearer(token) });
    expect(noSlash.statusCode).toBe(204);
    expect((await remove(T.stop.orderId, hashUrlOf(c.directLink), c.id, '', token)).statusCode).toBe(204);
  });

  it("refuses another order's id (401) and bad segments (400), writing nothing", async () => {
    const token = await tokenOf(T.stop);
    const made = (await create({ ...T.stop, ...guest }, token)).json();
    const before = await counts();
    expect((await remove(T.other.orderId, T.stop.barcode, made.id, '', token)).statusCode).toBe(401);
    expect((await remove('x', T.stop.barcode, made.id, '', token)).statusCode).toBe(400);
    expect((await remove('0', 'abc', made.id, '', token)).statusCode).toBe(400);
    expect((await remove('0', T.stop.barcode, 'abc', '', token)).statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });
});

describe('erasing the owner', () => {
  it("takes the owner's name out of the invitations their shares mailed (the outbox keeps a sent mail's subject)", async () => {
    const res = await create({ ...T.other, ...guest, email: 'zoe.invited@example.com', hashUrl: '' }, await tokenOf(T.other));
    expect(res.statusCode, res.body).toBe(200);
    const subjectTo = async (to: string) =>
      (await t.database.db.select({ subject: schema.outbox.subject }).from(schema.outbox).where(eq(schema.outbox.to, to)))[0]?.subject;
    expect(await subjectTo('zoe.invited@example.com')).toBe('Carl Diaz shared a Pier Park ticket with you');
    await t.app.privacy.erase({ barcode: T.other.barcode }, async () => {});
    expect(await subjectTo('zoe.invited@example.com')).toBe('A guest shared a Pier Park ticket with you');
  });
});
