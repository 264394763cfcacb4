// Webhooks across a real process killed with SIGKILL (PostgreSQL): a change acknowledged by a
// server that dies before its webhook went out is delivered within a minute of the restart,
// once, signed with the endpoint's secret.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOKS_API } from '@boardwalk/contract/webhooks';
import { createTestDatabase, testDbKind, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { killApiProcess, startApiProcess } from '../../../../test-support/api-process.ts';
import { anOrder } from '../../../../test-support/fixtures.ts';
import { integrationAuth, TEST_INTEGRATION_KEY } from '../../../../test-support/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test-support/webhooks.ts';

const ADMIN = { teamMemberUsername: 'admin@boardwalk.local', teamMemberPassword: 'webhook-processes-admin-password' };

describe.skipIf(testDbKind() !== 'postgres')('webhooks across a server killed with SIGKILL', () => {
  let database: TestDatabase;
  let dir: string;
  let receiver: WebhookReceiver;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dir = await mkdtemp(join(tmpdir(), 'bw-webhook-processes-'));
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await receiver?.close();
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(extra: Record<string, string>) {
    const started = await startApiProcess('server', {
      DATABASE_URL: database.url!,
      DATA_DIR: dir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      INTEGRATION_API_KEYS: `ticketing:${TEST_INTEGRATION_KEY}`,
      ADMIN_PASSWORD: ADMIN.teamMemberPassword,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      DELIVERY_POLL_SECONDS: '1',
      ...extra,
    });
    running.push(started.child);
    return started;
  }

  it('delivers, once, the webhook of a change acknowledged just before the server died', async () => {
    // The first server takes the change and dies before any worker of its sent the webhook.
    const first = await start({ DELIVERY_WORKERS: 'false' });
    const login = await fetch(`${first.url}/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(201);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const created = await fetch(`${first.url}${WEBHOOKS_API}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url('/crm'), description: 'CRM', eventTypes: ['guest.registered'] }),
    });
    expect(created.status).toBe(201);
    receiver.secrets.set('/crm', ((await created.json()) as { secret: string }).secret);
    const order = await fetch(`${first.url}/api/integrations/orders/62000001`, {
      method: 'PUT',
      headers: { ...integrationAuth, 'content-type': 'application/json' },
      body: JSON.stringify(anOrder([{ barcode: '6200000100000001' }])),
    });
    expect(order.status).toBe(201);
    const registered = await fetch(`${first.url}/api/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        orderId: '62000001',
        barcode: '6200000100000001',
        firstName: 'Kit',
        lastName: 'Moss',
        email: 'kit@example.com',
        phone: '3125550111',
      }),
    });
    expect(registered.status).toBe(200);
    await killApiProcess(first);
    expect(receiver.received).toHaveLength(0);

    const restarted = Date.now();
    await start({});
    await expect.poll(() => receiver.at('/crm').length, { timeout: 60_000 }).toBe(1);
    console.log(`webhook delivered ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart`);
    expect(Date.now() - restarted).toBeLessThan(60_000);
    // Once: nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const [delivery] = receiver.at('/crm');
    expect(receiver.at('/crm')).toHaveLength(1);
    expect(delivery!.verifiedWith).toEqual(['/crm']);
    expect(delivery!.payload).toMatchObject({ type: 'guest.registered', data: { orderId: '62000001', barcode: '6200000100000001' } });
  }, 240_000);
});
