// Deliveries across real processes on one PostgreSQL: a server killed with SIGKILL loses no
// acknowledged change, a job in flight in a dead process is taken up again within seconds,
// and two worker processes (`npm run worker`) deliver every job exactly once.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import * as schema from '@boardwalk/db/schema';
import { startJobQueue } from '../../platform/jobs/job-queue.ts';
import { killApiProcess, startApiProcess, type ApiProcess } from '../../../test-support/api-process.ts';
import { startApnsDouble } from '../../../test-support/apns-double.ts';
import { anOrder } from '../../../test-support/fixtures.ts';
import { unpackPass } from '../../../test-support/pkpass-check.ts';
import { integrationAuth, TEST_INTEGRATION_KEY } from '../../../test-support/test-app.ts';

const PASS_TYPE = 'pass.com.example.processes';
const TOKEN = 'f1'.repeat(32);
const WORKER_TICKETS = 100;

describe.skipIf(testDbKind() !== 'postgres')('deliveries across processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let dir: string;
  let apns: Awaited<ReturnType<typeof startApnsDouble>>;
  let hang = false;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dir = await mkdtemp(join(tmpdir(), 'bw-processes-'));
    apns = await startApnsDouble(dir, () => (hang ? 'hang' : { status: 200 }));
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    apns?.server.close();
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(script: 'server' | 'worker', extra: Record<string, string> = {}): Promise<ApiProcess> {
    const started = await startApiProcess(script, {
      DATABASE_URL: database.url!,
      DATA_DIR: dir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      INTEGRATION_API_KEYS: `ticketing:${TEST_INTEGRATION_KEY}`,
      ADMIN_PASSWORD: 'processes-admin-password',
      APPLE_PASS_TYPE_ID: PASS_TYPE,
      APNS_URL: apns.url,
      APNS_CA_FILE: apns.caFile,
      DELIVERY_COALESCE_SECONDS: '2',
      DELIVERY_EXPIRE_SECONDS: '5',
      DELIVERY_RETRY_DELAY_SECONDS: '1',
      DELIVERY_POLL_SECONDS: '0.5',
      ...extra,
    });
    running.push(started.child);
    return started;
  }

  const putOrder = (server: ApiProcess, cash: number) =>
    fetch(`${server.url}/api/integrations/orders/60000001`, {
      method: 'PUT',
      headers: { ...integrationAuth, 'content-type': 'application/json' },
      body: JSON.stringify(anOrder([{ barcode: '6000000000000011', cash }])),
    });

  it('an acknowledged change survives SIGKILL; a push in flight in a dead process goes out again within seconds', async () => {
    const first = await start('server');
    expect((await putOrder(first, 1)).status).toBe(201);
    const res = await fetch(`${first.url}/api/apple-wallet/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: '60000001', barcode: '6000000000000011' }),
    });
    expect(res.status).toBe(200);
    const unpacked = await unpackPass(Buffer.from(await res.arrayBuffer()));
    await unpacked.cleanup();
    const pass = unpacked.pass as { serialNumber: string; authenticationToken: string };
    const reg = await fetch(`${first.url}/api/passkit/v1/devices/processdevice01/registrations/${PASS_TYPE}/${pass.serialNumber}`, {
      method: 'POST',
      headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pushToken: TOKEN }),
    });
    expect(reg.status).toBe(201);

    // Acknowledged, then the process dies before the coalescing window let the push go.
    expect((await putOrder(first, 2)).status).toBe(200);
    await killApiProcess(first);
    expect(apns.pushes).toHaveLength(0);
    const second = await start('server');
    await expect.poll(() => apns.pushes.length, { timeout: 60_000 }).toBe(1);

    // Now the push is in flight (APNs does not answer) when the process dies.
    hang = true;
    expect((await putOrder(second, 3)).status).toBe(200);
    await expect.poll(() => apns.pushes.length, { timeout: 30_000 }).toBe(2);
    await killApiProcess(second);
    hang = false;
    const restarted = Date.now();
    await start('server');
    await expect.poll(() => apns.pushes.length, { timeout: 60_000 }).toBe(3);
    const seconds = (Date.now() - restarted) / 1000;
    console.log(`in-flight push taken up again ${seconds.toFixed(1)} s after the restart`);
    expect(seconds).toBeLessThan(30);
    expect(apns.pushes.every((p) => p.path === `/3/device/${TOKEN}`)).toBe(true);
  }, 240_000);

  it('two worker processes deliver every job exactly once', async () => {
    for (const child of running.splice(0)) child.kill('SIGKILL');
    apns.pushes.length = 0;
    await start('server', { DELIVERY_WORKERS: 'false' });
    await Promise.all([start('worker'), start('worker')]);
    const db = database.db;
    await db.insert(schema.orders).values({ orderId: '61000001', orderDate: new Date('2026-11-20T18:15:00Z') });
    const barcodes = Array.from({ length: WORKER_TICKETS }, (_, i) => `61${String(i).padStart(14, '0')}`);
    await db
      .insert(schema.tickets)
      .values(barcodes.map((barcode, position) => ({ barcode, orderId: '61000001', position, product: 'Day Ticket', cash: 1 })));
    const passes = await db
      .insert(schema.walletPasses)
      .values(barcodes.map((barcode) => ({ barcode, contentHash: 'made-up' })))
      .returning();
    await db.insert(schema.appleDeviceRegistrations).values(
      passes.map((p, i) => ({
        deviceLibraryIdentifier: `worker${i}device`,
        serialNumber: p.serialNumber,
        pushToken: (i + 1).toString(16).padStart(64, '0'),
      })),
    );
    // A staff change's job, queued from this process: the workers pick it up.
    const jobs = await startJobQueue(database, { retryLimit: 2, retryDelaySeconds: 1, expireSeconds: 30, pollSeconds: 1 }, () => undefined);
    try {
      await db.transaction((tx) => jobs.send(tx, { name: 'passes-republish', data: { reason: 'test' } }));
    } finally {
      await jobs.stop();
    }
    const workerPushes = () => apns.pushes.filter((p) => p.path !== `/3/device/${TOKEN}`);
    await expect.poll(() => workerPushes().length, { timeout: 90_000 }).toBeGreaterThanOrEqual(WORKER_TICKETS);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const tokens = workerPushes().map((p) => p.path);
    console.log('other pushes', apns.pushes.length - tokens.length);
    expect(tokens).toHaveLength(WORKER_TICKETS);
    expect(new Set(tokens).size).toBe(WORKER_TICKETS);
  }, 240_000);
});
