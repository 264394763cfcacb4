import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@boardwalk/db/test-database';
import { outbox } from '@boardwalk/db/schema';
import { createMailer } from './mailer.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp.fixtures.ts';

let database: TestDatabase;
let smtp: TestSmtpServer;
const from = { name: 'Boardwalk', address: 'guestservices@example.com' };
const mail = { to: 'team@example.com', subject: 'Photo reset request for order 12345678', text: 'Barcode: 2400000000000011' };

function recordingLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj, msg }),
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer({ user: 'boardwalk', password: 'smtp-pass-Zq81' });
});
afterAll(async () => {
  await smtp.close();
  await database.close();
});

describe('mailer', () => {
  it('sends over SMTP (with the URL credentials) and marks the outbox row sent', async () => {
    const log = recordingLog();
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from, log });
    const result = await mailer.send(mail);
    mailer.close();
    expect(result.sent).toBe(true);
    const [message] = await smtp.waitFor(1);
    expect(message!.to).toEqual(['team@example.com']);
    expect(message!.from).toBe('guestservices@example.com');
    expect(message!.raw).toContain('Subject: Photo reset request for order 12345678');
    expect(message!.raw).toContain('Barcode: 2400000000000011');
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
    expect(row).toMatchObject({ to: 'team@example.com', subject: mail.subject, text: mail.text, error: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(log.lines).toEqual([]);
  });

  it('without SMTP_URL keeps the message in the outbox and logs it without its text', async () => {
    const log = recordingLog();
    const mailer = createMailer({ db: database.db, smtpUrl: undefined, from, log });
    const result = await mailer.send(mail);
    expect(result.sent).toBe(false);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
    expect(row).toMatchObject({ sentAt: null, error: null, text: mail.text });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.obj).toEqual({ outboxId: result.outboxId, to: mail.to, subject: mail.subject });
    expect(JSON.stringify(log.lines)).not.toContain('2400000000000011');
  });

  it('keeps a refused message in the outbox with the reason, never throwing and never logging the password', async () => {
    const log = recordingLog();
    const badUrl = smtp.url.replace('smtp-pass-Zq81', 'wrong-pass-Yx72');
    const mailer = createMailer({ db: database.db, smtpUrl: badUrl, from, log });
    const result = await mailer.send(mail);
    mailer.close();
    expect(result.sent).toBe(false);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
    expect(row!.sentAt).toBeNull();
    expect(row!.error).toMatch(/auth|login|credentials|password/i);
    expect(log.lines.map((l) => l.level)).toEqual(['warn']);
    expect(JSON.stringify({ log: log.lines, row })).not.toContain('wrong-pass-Yx72');
    expect(JSON.stringify(log.lines)).not.toContain('2400000000000011');
  });

  it('keeps a message the server refuses (recipient) with its reason', async () => {
    const refusing = await startSmtpServer({ refuseRecipients: true });
    try {
      const log = recordingLog();
      const mailer = createMailer({ db: database.db, smtpUrl: refusing.url, from, log });
      const result = await mailer.send(mail);
      mailer.close();
      expect(result.sent).toBe(false);
      const [row] = await database.db.select().from(outbox).where(eq(outbox.id, result.outboxId));
      expect(row!.error).toContain('Mailbox unavailable');
    } finally {
      await refusing.close();
    }
  });
});
