// A wave's slices: a page of devices at a time, each slice queueing the next; a retried first
// job going on from its cursor; a newer wave taking over an older one's rest; a push APNs
// refused sent once more; no APNs, nothing to page through.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import type { ApnsClient } from '../apple/apns.ts';
import type { NewJob, RunningJob } from '../../platform/jobs/job-queue.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { microsecondTag } from '@boardwalk/db/sql';
import { findNewestWaveTag } from '../park-waves.repo.ts';
import { createParkWaves, type ParkWaveJob } from './park-waves.service.ts';

const DEVICES = 250;
let t: TestApp;
let pushed: string[];
let sent: NewJob[];
/** Tokens APNs answers 503 the first time. */
let refuseOnce: Set<string>;

const apns: ApnsClient = {
  async push(token) {
    pushed.push(token);
    if (refuseOnce.delete(token)) return { outcome: 'failed', status: 503 };
    return { outcome: 'sent', status: 200 };
  },
  close: async () => undefined,
};

const wavesWith = (apnsClient: ApnsClient | undefined) =>
  createParkWaves(
    {
      db: t.database.db,
      appleWallet: { apns: apnsClient },
      jobs: { send: async (_tx, job) => (sent.push(job), 'job') },
      changes: t.app.jobs,
      config: { parkTimezone: 'America/Los_Angeles' },
      log: t.app.log,
    },
    { page: 100, sliceMs: 0 },
  );
const job = (id: string, data: ParkWaveJob): RunningJob<ParkWaveJob> => ({ id, data, retryCount: 0, retryLimit: 2 });
const waveRow = async (id: string) => (await t.database.db.select().from(schema.walletWaves).where(eq(schema.walletWaves.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.execute(sql`insert into orders (order_id, order_date) values ('44000001', now())`);
  await db.execute(sql`insert into tickets (barcode, order_id, position, product)
    select '44' || lpad(i::text, 14, '0'), '44000001', i, 'Day Ticket' from generate_series(1, ${DEVICES}) i`);
  await db.execute(sql`insert into wallet_passes (barcode, content_hash) select barcode, 'x' from tickets where order_id = '44000001'`);
  await db.execute(sql`insert into apple_device_registrations (device_library_identifier, serial_number, push_token)
    select 'dev-' || substr(p.barcode, 3), p.serial_number, lpad(to_hex(substr(p.barcode, 3)::int), 64, '0') from wallet_passes p`);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  pushed = [];
  sent = [];
  refuseOnce = new Set();
});

it('pushes a page a slice, each slice queueing the next, until every device is pushed once', async () => {
  const waves = wavesWith(apns);
  const id = randomUUID();
  await waves.run(job(id, { reason: 'test' }));
  expect(pushed).toHaveLength(100);
  expect(sent.map((s) => s.data)).toEqual([{ waveId: id }]);
  await waves.run(job(randomUUID(), { waveId: id }));
  await waves.run(job(randomUUID(), { waveId: id }));
  expect(new Set(pushed).size).toBe(DEVICES);
  expect(pushed).toHaveLength(DEVICES);
  expect(sent).toHaveLength(2);
  expect(await waveRow(id)).toMatchObject({ devices: DEVICES, pushed: DEVICES, failed: 0, finishedAt: expect.any(Date) });
});

it('goes on from its cursor when its first job is tried again (a restart), pushing no device twice', async () => {
  const waves = wavesWith(apns);
  const id = randomUUID();
  await waves.run(job(id, { reason: 'test' }));
  await waves.run(job(id, { reason: 'test' }));
  await waves.run(job(randomUUID(), { waveId: id }));
  expect(pushed).toHaveLength(DEVICES);
  expect(new Set(pushed).size).toBe(DEVICES);
  expect(await waveRow(id)).toMatchObject({ devices: DEVICES, finishedAt: expect.any(Date) });
});

it('leaves the rest of an older wave to a newer one', async () => {
  const waves = wavesWith(apns);
  const older = randomUUID();
  await waves.run(job(older, { reason: 'first edit' }));
  const newer = randomUUID();
  await waves.run(job(newer, { reason: 'second edit' }));
  pushed = [];
  await waves.run(job(randomUUID(), { waveId: older }));
  expect(pushed).toEqual([]);
  expect(await waveRow(older)).toMatchObject({ devices: 100, finishedAt: expect.any(Date) });
});

it('sends a push APNs refused once more, and counts it pushed', async () => {
  const waves = wavesWith(apns);
  refuseOnce = new Set([(1).toString(16).padStart(64, '0')]);
  const id = randomUUID();
  await waves.run(job(id, { reason: 'test' }));
  expect(pushed.filter((p) => p === (1).toString(16).padStart(64, '0'))).toHaveLength(2);
  expect(await waveRow(id)).toMatchObject({ devices: 100, pushed: 100, failed: 0 });
});

// A device's tag is its newest pass's; the PassKit service lists every pass to a device whose
// tag is older than the newest wave. A pass changed twice within a second is a second ahead of
// now (nextUpdatedAt): a wave begun then must still be newer than its tag, not equal to it
// (park-waves.test.ts found the device listed nothing when the two fell in one second).
it('begins after every pass tag a device may hold, one a second ahead of now included', async () => {
  const db = t.database.db;
  await db.execute(sql`update wallet_passes set updated_at = date_trunc('second', now()) + interval '1 second'
    where barcode = (select min(barcode) from wallet_passes)`);
  await wavesWith(apns).run(job(randomUUID(), { reason: 'test' }));
  const [newest] = await db.select({ tag: microsecondTag(sql`max(${schema.walletPasses.updatedAt})`) }).from(schema.walletPasses);
  expect(BigInt((await findNewestWaveTag(db))!)).toBeGreaterThan(BigInt(newest!.tag));
});

it('ends at once without APNs, paging through nothing', async () => {
  const id = randomUUID();
  await wavesWith(undefined).run(job(id, { reason: 'test' }));
  expect(sent).toEqual([]);
  expect(await waveRow(id)).toMatchObject({ devices: 0, finishedAt: expect.any(Date) });
});
