// Mail through the app's own worker: a message queued while the SMTP server is down arrives
// once it is up, exactly once.
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { createTestApp, LATER_JOBS_POLL, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test-support/smtp.fixtures.ts';

let t: TestApp;
let smtp: TestSmtpServer | undefined;
let port: number;

beforeAll(async () => {
  port = await new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const address = srv.address() as { port: number };
      srv.close(() => resolve(address.port));
    });
  });
  t = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, DELIVERY_RETRY_DELAY_SECONDS: '1', DELIVERY_RETRY_LIMIT: '5', ...LATER_JOBS_POLL },
  });
});
afterAll(async () => {
  await t.close();
  await smtp?.close();
});

it('SMTP down, then up: the message arrives exactly once', async () => {
  const { outboxId } = await t.database.db.transaction((tx) =>
    t.app.mailer.send(tx, { to: 'team@example.com', subject: 'Down then up', text: 'Hello' }),
  );
  const delivery = async () => (await t.database.db.select().from(schema.deliveries).where(eq(schema.deliveries.target, 'mail')))[0];
  await expect.poll(async () => (await delivery())?.state, { timeout: 15_000 }).toBe('retrying');
  expect((await delivery())!.lastError).toMatch(/ECONNREFUSED|connect/i);

  smtp = await startSmtpServer({ port });
  await smtp.waitFor(1, 30_000);
  await settleDeliveries(t.app);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]!.raw).toContain('Subject: Down then up');
  expect(await delivery()).toMatchObject({ state: 'sent', lastError: null });
  const [row] = await t.database.db.select().from(schema.outbox).where(eq(schema.outbox.id, outboxId));
  expect(row!.sentAt).toBeInstanceOf(Date);
  expect(row!.text).toBeNull();
});

it('a start seals the unsent bodies an older version kept in clear and erases the sent ones', async () => {
  const [unsent, sent] = await t.database.db
    .insert(schema.outbox)
    .values([
      { to: 'old@example.com', subject: 'Kept in clear', text: 'Your link: https://park.example.com/old-secret-link' },
      { to: 'old@example.com', subject: 'Sent in clear', text: 'Your link: https://park.example.com/old-sent-link', sentAt: new Date() },
    ])
    .returning();
  // Another instance starting on the same database (as after an upgrade).
  const next = await createTestApp({ database: t.database, env: { DELIVERY_WORKERS: 'false' } });
  try {
    const rows = await t.database.db.select().from(schema.outbox);
    expect(JSON.stringify(rows)).not.toContain('park.example.com');
    const sealed = rows.find((r) => r.id === unsent!.id)!;
    expect(sealed).toMatchObject({ bodySealed: true, sentAt: null });
    expect(next.app.mailer.readBody(sealed)).toBe('Your link: https://park.example.com/old-secret-link');
    expect(rows.find((r) => r.id === sent!.id)).toMatchObject({ bodySealed: true, text: null, subject: 'Sent in clear' });
  } finally {
    await next.close();
  }
});
