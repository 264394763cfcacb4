import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-support/test-database';
import { deliveries, outbox } from '@boardwalk/db/schema';
import { startJobQueue, type JobQueue } from '../../platform/jobs/job-queue.ts';
import { loadKeys, type Keys } from '../../platform/keys.plugin.ts';
import { createMailer, MAIL_QUEUE, type OutgoingMail } from './mailer.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test-support/smtp.fixtures.ts';

let database: TestDatabase;
let jobs: JobQueue;
let keys: Keys;
let smtp: TestSmtpServer;
const from = { name: 'Boardwalk', address: 'guestservices@example.com' };
const mail = { to: 'team@example.com', subject: 'Photo reset request for order 12345678', text: 'Barcode: 2400000000000011' };
const settings = { retryLimit: 3, retryDelaySeconds: 1, expireSeconds: 30, pollSeconds: 0.5 };

function recordingLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj, msg }),
  };
}

/** Queues the message as a service does, then runs its job once (try number `retryCount + 1`). */
async function sendAndTry(mailer: ReturnType<typeof createMailer>, message: OutgoingMail, retryCount = 0) {
  const result = await database.db.transaction((tx) => mailer.send(tx, message));
  const [delivery] = await database.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.jobId, (await jobIdOf(result.outboxId))!));
  const job = {
    id: delivery!.jobId!,
    data: { outboxId: result.outboxId, deliveryId: delivery!.id },
    retryCount,
    retryLimit: settings.retryLimit,
  };
  const outcome = await mailer.deliver(job).then(
    () => 'done',
    (error: Error) => error.message,
  );
  const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
  const [after] = await database.db.select().from(deliveries).where(eq(deliveries.id, delivery!.id));
  return { result, outcome, row: row!, delivery: after!, job };
}

async function jobIdOf(outboxId: number): Promise<string | undefined> {
  const { rows } = await database.executeSql(`select id from pgboss.job where name = 'mail' and singleton_key = $1`, [`mail:${outboxId}`]);
  return rows[0]?.id as string | undefined;
}

beforeAll(async () => {
  database = await createTestDatabase();
  jobs = await startJobQueue(database, settings, () => undefined);
  await jobs.createQueue(MAIL_QUEUE, 'stately');
  keys = await loadKeys(database.db);
  smtp = await startSmtpServer({ user: 'boardwalk', password: 'smtp-pass-Zq81' });
});
afterAll(async () => {
  await smtp.close();
  await jobs.stop();
  await database.close();
});

describe('mailer', () => {
  it('queues the message with the outbox row; its job sends over SMTP (with the URL credentials) and marks the row sent', async () => {
    const log = recordingLog();
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: smtp.url, from, log });
    const { result, outcome, row, delivery } = await sendAndTry(mailer, mail);
    mailer.close();
    expect(result.queued).toBe(true);
    expect(outcome).toBe('done');
    const [message] = await smtp.waitFor(1);
    expect(message!.to).toEqual(['team@example.com']);
    expect(message!.from).toBe('guestservices@example.com');
    expect(message!.raw).toContain('Subject: Photo reset request for order 12345678');
    expect(message!.raw).toContain('Barcode: 2400000000000011');
    // The outbox id is the Message-ID: a receiver can tell a retried message from a new one.
    expect(message!.raw).toContain(`Message-ID: <outbox-${result.outboxId}@example.com>`);
    // Sent: the body is erased; recipient, subject and times stay.
    expect(row).toMatchObject({ to: 'team@example.com', subject: mail.subject, text: null, bodySealed: true, error: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(delivery).toMatchObject({ target: 'mail', state: 'sent', attempts: 1, recipient: 't…@example.com' });
    expect(log.lines).toEqual([]);
  });

  it('never sends a message twice: a second run of its job finds it sent', async () => {
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: smtp.url, from, log: recordingLog() });
    const before = smtp.received.length;
    const { job } = await sendAndTry(mailer, { ...mail, subject: 'Once' });
    await mailer.deliver({ ...job, retryCount: 1 });
    mailer.close();
    expect(smtp.received.length).toBe(before + 1);
    const [delivery] = await database.db.select().from(deliveries).where(eq(deliveries.id, job.data.deliveryId));
    expect(delivery).toMatchObject({ state: 'skipped', lastError: 'Already sent', attempts: 2 });
  });

  it('without SMTP_URL keeps the message in the outbox, queues nothing and logs it without its text', async () => {
    const log = recordingLog();
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: undefined, from, log });
    const result = await database.db.transaction((tx) => mailer.send(tx, mail));
    expect(result.queued).toBe(false);
    expect(await jobIdOf(result.outboxId)).toBeUndefined();
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
    // Kept sealed until it is sent: neither the text nor any part of it is stored.
    expect(row).toMatchObject({ sentAt: null, error: null, bodySealed: true });
    expect(row!.text).not.toContain('2400000000000011');
    expect(row!.text).not.toContain('Barcode');
    expect(mailer.readBody(row!)).toBe(mail.text);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.obj).toEqual({ outboxId: result.outboxId, to: 't…@example.com', subject: mail.subject });
    expect(JSON.stringify(log.lines)).not.toContain(mail.to);
    expect(JSON.stringify(log.lines)).not.toContain('2400000000000011');
  });

  it('a rolled-back transaction leaves neither the message nor its job', async () => {
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: smtp.url, from, log: recordingLog() });
    let outboxId = 0;
    await expect(
      database.db.transaction(async (tx) => {
        outboxId = (await mailer.send(tx, mail)).outboxId;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    mailer.close();
    expect(await database.db.select().from(outbox).where(eq(outbox.id, outboxId))).toEqual([]);
    expect(await jobIdOf(outboxId)).toBeUndefined();
  });

  it('a refused login (535) is dead at once with the reason, for staff to retry once SMTP_URL is fixed; the password is never logged', async () => {
    const log = recordingLog();
    const badUrl = smtp.url.replace('smtp-pass-Zq81', 'wrong-pass-Yx72');
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: badUrl, from, log });
    const { outcome, row, delivery } = await sendAndTry(mailer, mail);
    mailer.close();
    expect(outcome).toBe('done');
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/auth|login|credentials|password/i);
    expect(delivery.state).toBe('dead');
    expect(log.lines.map((l) => l.level)).toEqual(['warn']);
    expect(JSON.stringify({ log: log.lines, row, delivery })).not.toContain('wrong-pass-Yx72');
    expect(JSON.stringify(log.lines)).not.toContain('2400000000000011');
  });

  it('a recipient the server refuses is dead at once, not retried, with its reason', async () => {
    const refusing = await startSmtpServer({ refuseRecipients: true });
    try {
      const log = recordingLog();
      const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: refusing.url, from, log });
      const { outcome, row, delivery } = await sendAndTry(mailer, mail);
      mailer.close();
      // The server's reason names the recipient: masked in the log, the delivery and the outbox's reason.
      expect(log.lines.map((l) => l.level)).toEqual(['warn']);
      expect(JSON.stringify(log.lines)).toContain('t…@example.com');
      expect(JSON.stringify({ log: log.lines, error: row.error, delivery })).not.toContain(mail.to);
      // Permanent: the job ends without an error, so the queue does not try it again.
      expect(outcome).toBe('done');
      expect(row.error).toContain('Mailbox unavailable');
      expect(delivery).toMatchObject({ state: 'dead', attempts: 1 });
      expect(delivery.lastError).toContain('Mailbox unavailable');
    } finally {
      await refusing.close();
    }
  });

  it('a server that cannot be reached is retried: the delivery waits as retrying', async () => {
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: 'smtp://127.0.0.1:9', from, log: recordingLog() });
    const { outcome, delivery } = await sendAndTry(mailer, mail);
    mailer.close();
    expect(outcome).toMatch(/ECONNREFUSED|connect/i);
    expect(delivery).toMatchObject({ state: 'retrying', attempts: 1 });
  });

  it('seals a body for its recipient (AES-256-GCM): no link in the row; the mail that arrives is intact and the body is erased', async () => {
    const link = 'https://park.example.com/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const text = `Zoë shared a ticket with you.\n\nOpen it: ${link}\n\nLöwe, ☃ and friends`;
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: smtp.url, from, log: recordingLog() });
    const result = await database.db.transaction((tx) => mailer.send(tx, { to: 'rosa@example.com', subject: 'A ticket for you', text }));
    const [stored] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
    expect(stored!.text).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    for (const part of [link, 'park.example.com', 'http', 'Open it', 'Zoë']) expect(stored!.text).not.toContain(part);
    // Sealed for its recipient: moved to another address it does not open.
    expect(mailer.readBody({ to: 'mallory@example.com', text: stored!.text })).toBeNull();
    const before = smtp.received.length;
    const [delivery] = await database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.jobId, (await jobIdOf(result.outboxId))!));
    await mailer.deliver({
      id: delivery!.jobId!,
      data: { outboxId: result.outboxId, deliveryId: delivery!.id },
      retryCount: 0,
      retryLimit: 3,
    });
    mailer.close();
    const arrived = (await smtp.waitFor(before + 1))[before]!;
    expect(arrived.to).toEqual(['rosa@example.com']);
    // Quoted-printable (the text is not ASCII), decoded as a mail client does.
    expect(arrived.raw).toContain('Content-Transfer-Encoding: quoted-printable');
    expect(arrived.text).toContain(text);
    const [sent] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
    expect(sent).toMatchObject({ to: 'rosa@example.com', subject: 'A ticket for you', text: null, error: null });
    expect(sent!.sentAt).toBeInstanceOf(Date);
  });

  it('a body that was altered (or moved to another recipient) is not sent: dead, with the reason', async () => {
    for (const alter of ['ciphertext', 'recipient'] as const) {
      const log = recordingLog();
      const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: smtp.url, from, log });
      const result = await database.db.transaction((tx) => mailer.send(tx, { ...mail, subject: `Altered ${alter}` }));
      const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
      if (alter === 'ciphertext') {
        // One bit of the ciphertext flipped.
        const [v, iv, data, tag] = row!.text!.split('.') as [string, string, string, string];
        const bytes = Buffer.from(data, 'base64url');
        bytes[0]! ^= 1;
        await database.db
          .update(outbox)
          .set({ text: [v, iv, bytes.toString('base64url'), tag].join('.') })
          .where(eq(outbox.id, row!.id));
      } else {
        await database.db.update(outbox).set({ to: 'mallory@example.com' }).where(eq(outbox.id, row!.id));
      }
      const before = smtp.received.length;
      const [delivery] = await database.db
        .select()
        .from(deliveries)
        .where(eq(deliveries.jobId, (await jobIdOf(result.outboxId))!));
      const outcome = await mailer
        .deliver({ id: delivery!.jobId!, data: { outboxId: result.outboxId, deliveryId: delivery!.id }, retryCount: 0, retryLimit: 3 })
        .then(
          () => 'done',
          (error: Error) => error.message,
        );
      mailer.close();
      // Permanent: the job ends without an error, so the queue does not try it again.
      expect(outcome).toBe('done');
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.received.length).toBe(before);
      const [after] = await database.db.select().from(deliveries).where(eq(deliveries.id, delivery!.id));
      expect(after).toMatchObject({ state: 'dead', attempts: 1, lastError: expect.stringContaining('cannot be opened') });
      const [kept] = await database.db.select().from(outbox).where(eq(outbox.id, row!.id));
      expect(kept).toMatchObject({ sentAt: null, error: expect.stringContaining('cannot be opened') });
      expect(log.lines.map((l) => l.level)).toEqual(['warn']);
    }
  });

  it('at start, rows an older version kept in clear are sealed (unsent) or erased (sent), once', async () => {
    const mailer = createMailer({ db: database.db, jobs, keys, smtpUrl: undefined, from, log: recordingLog() });
    const [unsent, sent] = await database.db
      .insert(outbox)
      .values([
        { to: 'old@example.com', subject: 'Old, unsent', text: 'Open https://park.example.com/old-unsent-link' },
        { to: 'old@example.com', subject: 'Old, sent', text: 'Open https://park.example.com/old-sent-link', sentAt: new Date() },
      ])
      .returning();
    expect(await mailer.sealClearBodies()).toMatchObject({ erased: expect.any(Number), sealed: expect.any(Number) });
    const rows = await database.db.select().from(outbox);
    expect(JSON.stringify(rows)).not.toContain('park.example.com');
    expect(rows.every((r) => r.bodySealed)).toBe(true);
    const [sealedRow] = rows.filter((r) => r.id === unsent!.id);
    expect(mailer.readBody(sealedRow!)).toBe('Open https://park.example.com/old-unsent-link');
    expect(rows.find((r) => r.id === sent!.id)).toMatchObject({ text: null, subject: 'Old, sent' });
    expect(await mailer.sealClearBodies()).toEqual({ erased: 0, sealed: 0 });
  });
});
