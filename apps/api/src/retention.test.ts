import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appleDeviceRegistrations,
  auditLog,
  attractionUsage,
  deliveries,
  integrationEvents,
  webhookEndpoints,
  webhookMessages,
  loyaltyAccounts,
  orders,
  outbox,
  photos,
  registrations,
  staffSessions,
  teamMembers,
  tickets,
  walletPasses,
  spentPrivacyLinks,
  loyaltyEmailCodes,
  revokedPrivacyLinks,
} from '@boardwalk/db/schema';
import { createTestApp, type TestApp } from '../test-support/test-app.ts';

// The rules of retention (platform/retention.ts), each beside its data, run through the app as
// the daily job runs them. The clock is moved far ahead (rows are dated from it), so the run
// the app makes at start, on today's clock, finds none of them due.
const DAY = 86_400_000;
const NOW = new Date(Date.now() + 1000 * DAY);
const HOUR = 3_600_000;

/** The periods as configured by default, in days. */
const PERIODS = {
  registrations: 730,
  photos: 30,
  mails: 30,
  'staff sessions': 90,
  'attraction usage': 90,
  'device registrations': 30,
  'audit fields (loyalty)': 730,
  'spent privacy links': 1,
  'loyalty email codes': 1,
  'revoked privacy links': 1,
  events: 30,
  'webhook test messages': 30,
};
/** Rows of each category a dated set holds. */
const PER_SET = {
  registrations: 2,
  photos: 1,
  mails: 3,
  'staff sessions': 1,
  'attraction usage': 1,
  'device registrations': 2,
  'audit fields (loyalty)': 1,
  'spent privacy links': 1,
  'loyalty email codes': 1,
  'revoked privacy links': 1,
  events: 1,
  'webhook test messages': 1,
};

let t: TestApp;
let second: TestApp;
let adminGuid: string;
let endpointId: string;

beforeAll(async () => {
  t = await createTestApp();
  second = await createTestApp({ database: t.database });
  const [admin] = await t.database.db.select({ guid: teamMembers.guid }).from(teamMembers).limit(1);
  adminGuid = admin!.guid;
  const [endpoint] = await t.database.db
    .insert(webhookEndpoints)
    .values({ url: 'https://crm.example.com/hook', secret: 'sealed', active: false })
    .returning();
  endpointId = endpoint!.id;
});
afterAll(async () => {
  await second.close();
  await t.close();
});

/** A ticket of its own order, expiring at `expires` (or used at `redeemed`). */
async function aTicket(expires: Date | null, redeemed?: Date) {
  const orderId = String(Math.floor(Math.random() * 9e7) + 1e7);
  const barcode = `${orderId}${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await t.database.db.insert(orders).values({ orderId, orderDate: new Date() });
  await t.database.db.insert(tickets).values({
    barcode,
    orderId,
    position: 1,
    product: 'Season Pass',
    expires,
    ...(redeemed && { redeemed }),
  });
  return barcode;
}

/** A registration of a new ticket, by `email`. */
async function aRegistration(email: string, expires: Date | null, redeemed?: Date) {
  const barcode = await aTicket(expires, redeemed);
  await t.database.db.insert(registrations).values({
    barcode,
    firstName: 'Rae',
    lastName: 'Guest',
    email,
    phone: '5555550100',
    optInEmailMarketing: true,
    optInSmsMarketing: true,
  });
  return barcode;
}

/** A mail not sent, whose delivery is in `state` since `at`. */
async function aMailDelivered(state: 'dead' | 'retrying', at: Date) {
  const db = t.database.db;
  const [mail] = await db
    .insert(outbox)
    .values({ to: `${state}@example.com`, subject: state, createdAt: at })
    .returning({ id: outbox.id });
  await db
    .insert(deliveries)
    .values({ target: 'mail', recipient: 'm***@example.com', state, queue: 'mail', payload: { outboxId: mail!.id }, updatedAt: at });
}

/**
 * One row of each category whose period started `started(period)`: the registrations of a
 * ticket that expired then and of one used then (and of a loyalty member's, kept), a photo of a
 * ticket that expired then, a mail sent then, one whose delivery died then and one never
 * queued written then, a session that ended then, a ride then, and the devices of a ticket
 * that expired then and of a pass voided then.
 */
async function aSet(started: (periodDays: number) => Date) {
  const db = t.database.db;
  const registered = started(PERIODS.registrations);
  const email = `${randomUUID()}@example.com`;
  await aRegistration(email, registered);
  await aRegistration(`used-${email}`, null, registered);
  await db.insert(loyaltyAccounts).values({ email: `member-${email}`, firstName: 'Mem', lastName: 'Ber', createdBy: 'guest' });
  await aRegistration(`MEMBER-${email}`, registered);
  const photoTicket = await aTicket(started(PERIODS.photos));
  await db
    .insert(photos)
    .values({ uid: randomUUID(), barcode: photoTicket, bmp: Buffer.from('bmp'), png: Buffer.from('png'), width: 1, height: 1 });

  const mailDate = started(PERIODS.mails);
  await db.insert(outbox).values({ to: 'sent@example.com', subject: 'Sent', sentAt: mailDate });
  await aMailDelivered('dead', mailDate);
  await db.insert(outbox).values({ to: 'kept@example.com', subject: 'Never queued', createdAt: mailDate });

  await db.insert(staffSessions).values({
    teamMemberGuid: adminGuid,
    startTimestamp: new Date(started(PERIODS['staff sessions']).getTime() - HOUR),
    endTimestamp: started(PERIODS['staff sessions']),
    active: false,
    accessTokenHash: randomUUID(),
  });

  await db.insert(attractionUsage).values({
    barcode: photoTicket,
    attraction: 'Ferris Wheel',
    location: 'Pier',
    timestamp: started(PERIODS['attraction usage']),
  });

  // An event for the operator's systems that happened then.
  await db
    .insert(integrationEvents)
    .values({ type: 'share.stopped', subject: 'ticket:0', data: { shareId: randomUUID() }, createdAt: started(PERIODS.events) });

  // A webhook test message sent then (an event's messages go with it).
  await db.insert(webhookMessages).values({
    endpointId,
    eventId: null,
    type: 'webhook.test',
    subject: `test:${randomUUID()}`,
    state: 'delivered',
    createdAt: started(PERIODS['webhook test messages']),
  });

  // A privacy link spent by an erasure, whose token would have expired then.
  await db.insert(spentPrivacyLinks).values({ linkId: randomUUID(), expiresAt: started(PERIODS['spent privacy links']) });
  // A loyalty email's code that expired then, and an erasure's revocation of links that would have expired then.
  await db.insert(loyaltyEmailCodes).values({ emailHash: randomUUID(), codeHash: 'x', expiresAt: started(PERIODS['loyalty email codes']) });
  await db
    .insert(revokedPrivacyLinks)
    .values({ emailHash: randomUUID(), revokedAt: new Date(0), expiresAt: started(PERIODS['revoked privacy links']) });

  // A staff edit of a member then (its personal fields go, the entry stays), and one of a team member's record (not a guest's: kept).
  const audited = started(PERIODS['audit fields (loyalty)']);
  await db.insert(auditLog).values([
    {
      at: audited,
      username: 'admin',
      action: 'update',
      resource: 'loyalty',
      recordId: randomUUID(),
      before: { email: `old-${email}`, firstName: 'Rae', balance: 10 },
      after: { email, firstName: 'Ray', balance: 10 },
    },
    {
      at: audited,
      username: 'admin',
      action: 'update',
      resource: 'team-members',
      recordId: randomUUID(),
      before: { firstName: 'Sam' },
      after: { firstName: 'Samuel' },
    },
  ]);

  const deviceDate = started(PERIODS['device registrations']);
  const expiredTicket = await aTicket(deviceDate);
  const [expiredPass] = await db.insert(walletPasses).values({ barcode: expiredTicket }).returning();
  // A voided pass names no holder any more.
  const [voidedPass] = await db.insert(walletPasses).values({ voidedAt: deviceDate }).returning();
  for (const pass of [expiredPass!, voidedPass!]) {
    await db
      .insert(appleDeviceRegistrations)
      .values({ deviceLibraryIdentifier: randomUUID(), serialNumber: pass.serialNumber, pushToken: randomUUID() });
  }
}

const times = (n: number) => Object.fromEntries(Object.entries(PER_SET).map(([category, rows]) => [category, rows * n]));
const add = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! + (b[k] ?? 0)]));

describe('retention', () => {
  it('removes each category at its boundary and not a day earlier, once, with two workers; a dry run removes nothing', async () => {
    // Due: the period ended a minute ago. Kept: it ends tomorrow.
    await aSet((days) => new Date(NOW.getTime() - days * DAY - 60_000));
    await aSet((days) => new Date(NOW.getTime() - (days - 1) * DAY));

    expect(await t.app.retention.run({ now: NOW, dryRun: true })).toEqual(times(1));
    expect(await t.app.retention.run({ now: NOW, dryRun: true })).toEqual(times(1));

    const [one, two] = await Promise.all([t.app.retention.run({ now: NOW }), second.app.retention.run({ now: NOW })]);
    expect(add(one!, two!)).toEqual(times(1));
    expect(await t.app.retention.run({ now: NOW })).toEqual(times(0));

    // At the kept set's boundary, a day later, nothing yet; a minute after it, the kept set.
    expect(await t.app.retention.run({ now: new Date(NOW.getTime() + DAY), dryRun: true })).toEqual(times(0));
    expect(await t.app.retention.run({ now: new Date(NOW.getTime() + DAY + 60_000) })).toEqual(times(1));
    expect(await t.database.db.$count(photos)).toBe(0);
    // Registrations stay, emptied, but the loyalty members'; their tickets are published.
    const left = await t.database.db.select().from(registrations);
    expect(left.filter((r) => r.email !== '').map((r) => r.email)).toEqual([
      expect.stringMatching(/^MEMBER-/),
      expect.stringMatching(/^MEMBER-/),
    ]);
    const emptied = left.filter((r) => r.email === '');
    expect(emptied).toHaveLength(4);
    for (const r of emptied)
      expect(r).toMatchObject({ firstName: '', lastName: '', phone: '', optInEmailMarketing: false, optInSmsMarketing: false });
    const audit = await t.database.db.select().from(auditLog);
    expect(audit.filter((e) => e.resource === 'loyalty').map((e) => [e.before, e.after])).toEqual(
      Array(2).fill([{ balance: 10 }, { balance: 10 }]),
    );
    expect(audit.filter((e) => e.resource === 'team-members').map((e) => e.after)).toEqual(Array(2).fill({ firstName: 'Samuel' }));
    const { rows } = await t.database.executeSql(`select singleton_key from pgboss.job where name = 'ticket-changed'`);
    expect(rows.map((row) => row.singleton_key)).toEqual(expect.arrayContaining(emptied.map((r) => r.barcode)));
    expect(await t.database.db.$count(appleDeviceRegistrations)).toBe(0);
  });

  it('keeps what is not due: a valid ticket’s photo and devices, a mail still being tried, an open session; a period of 0 keeps everything', async () => {
    const db = t.database.db;
    const valid = await aTicket(null);
    await db
      .insert(photos)
      .values({ uid: randomUUID(), barcode: valid, bmp: Buffer.from('b'), png: Buffer.from('p'), width: 1, height: 1 });
    const [pass] = await db.insert(walletPasses).values({ barcode: valid }).returning();
    await db
      .insert(appleDeviceRegistrations)
      .values({ deviceLibraryIdentifier: randomUUID(), serialNumber: pass!.serialNumber, pushToken: 'x' });
    await aMailDelivered('retrying', new Date(0));
    expect(await t.app.retention.run({ now: NOW })).toEqual(times(0));

    await aSet((days) => new Date(NOW.getTime() - days * DAY - 60_000));
    const keeping = await createTestApp({ database: t.database, env: { RETENTION_PHOTO_DAYS: '0', RETENTION_MAIL_DAYS: '0' } });
    try {
      const removed = await keeping.app.retention.run({ now: NOW });
      expect(removed).toEqual({
        registrations: 2,
        'staff sessions': 1,
        'attraction usage': 1,
        'device registrations': 2,
        'audit fields (loyalty)': 1,
        'spent privacy links': 1,
        'loyalty email codes': 1,
        'revoked privacy links': 1,
        events: 1,
        'webhook test messages': 1,
      });
    } finally {
      await keeping.close();
    }
    expect(await t.app.retention.run({ now: NOW })).toEqual({ ...times(0), photos: 1, mails: 3 });
    await t.database.db.delete(registrations);
  });

  it('counts what it removed in /metrics, by category', async () => {
    await aSet((days) => new Date(NOW.getTime() - days * DAY - 60_000));
    await t.app.retention.run({ now: NOW });
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/boardwalk_retention_removed_total\{category="mails"\} \d+/);
    expect(metrics.body).toContain('boardwalk_retention_removed_total{category="device registrations"}');
  });

  it('is a daily job, runs at start, and may run an hour', async () => {
    const { rows } = await t.database.executeSql(`select cron from pgboss.schedule where name = 'retention'`);
    expect(rows).toEqual([{ cron: '0 10 * * *' }]);
    const queue = await t.database.executeSql(`select expire_seconds from pgboss.queue where name = 'retention'`);
    expect(queue.rows).toEqual([{ expire_seconds: 3600 }]);
  });
});
