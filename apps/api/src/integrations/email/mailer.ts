// Outgoing email: one interface, one real adapter, nodemailer over SMTP_URL. Every message is
// written to the outbox table and, with SMTP_URL, a mail job in the same transaction; sentAt
// is set once the SMTP server accepted it. Without SMTP_URL the message stays in the outbox
// and a log line says so (the recipient masked, subject and outbox id; never the text, which may carry
// a barcode or a link). A body holds secrets (share links, 24-hour pass links, barcodes):
// the outbox keeps it sealed (AES-256-GCM under the server's encryption key, bound to the
// recipient) until it is sent, and erases it once sent; recipient, subject, state and times stay.
import nodemailer from 'nodemailer';
import type { Executor } from '@boardwalk/db/client';
import { PermanentDeliveryError, queueDelivery, tryDelivery, type DeliveryJobData } from '../../platform/jobs/delivery.ts';
import type { JobSender, RunningJob } from '../../platform/jobs/job-queue.ts';
import type { Keys } from '../../platform/keys.plugin.ts';
import {
  findOutboxMessage,
  findUnsealedOutboxMessages,
  insertOutboxMessage,
  markOutboxFailed,
  markOutboxSent,
  replaceUnsealedOutboxText,
} from './outbox.repo.ts';
import { maskEmails } from '../../platform/logging.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text body. */
  text: string;
}

export interface MailResult {
  outboxId: number;
  /** True when a delivery job was queued (SMTP_URL is set). */
  queued: boolean;
}

export interface MailPayload {
  outboxId: number;
}

export interface Mailer {
  /**
   * Keeps the message in the outbox and, with SMTP_URL, queues its delivery: both in the
   * caller's transaction, so a message exists exactly when the change that wrote it commits.
   */
  send(tx: Executor, mail: OutgoingMail): Promise<MailResult>;
  /**
   * The mail job: sends an outbox message that is not sent yet, with the outbox id as its
   * Message-ID (a retry is the same message, never a second one). A recipient the server
   * refuses (5xx) is not tried again.
   */
  deliver(job: RunningJob<MailPayload & DeliveryJobData>): Promise<void>;
  /** The body of an outbox row as it was sent to send(), or null once sent (erased) or when it does not open. */
  readBody(message: { to: string; text: string | null }): string | null;
  /**
   * Outbox rows written in clear (before bodies were sealed): sent ones lose their body,
   * unsent ones are sealed. Answers how many of each.
   */
  sealClearBodies(): Promise<{ erased: number; sealed: number }>;
  close(): void;
}

interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface MailerOptions {
  db: Executor;
  jobs: JobSender;
  keys: Pick<Keys, 'seal' | 'unseal'>;
  /** smtp:// or smtps:// URL with any credentials; unset keeps mail in the outbox only. */
  smtpUrl: string | undefined;
  /** The sender: the brand's name and address. */
  from: { name: string; address: string };
  log: MailLog;
}

/**
 * A failed send's reason for the outbox, the delivery and the log: the error text, without the
 * SMTP URL's password and with email addresses masked (a refusal names the recipient).
 */
function describeError(error: unknown, smtpUrl: string): string {
  const message = error instanceof Error ? error.message : String(error);
  let password = '';
  try {
    password = decodeURIComponent(new URL(smtpUrl).password);
  } catch {
    // Not parseable: nothing to hide.
  }
  return maskEmails(password ? message.replaceAll(password, '[redacted]') : message).slice(0, 500);
}

/** SMTP answers 5xx when it will never take the message as it is (recipient refused, authentication failed). */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500;
};

/** A body is sealed for its recipient: moved to another row's address it does not open. */
const bodyPurpose = (to: string) => `outbox-body\0${to}`;

/** The queue of outgoing mail (one outbox message). */
export const MAIL_QUEUE = 'mail';

export function createMailer(options: MailerOptions): Mailer {
  const { db, jobs, keys, smtpUrl, from, log } = options;
  const transport = smtpUrl
    ? nodemailer.createTransport({
        url: smtpUrl,
        // A slow mail server must not hold a worker for minutes (defaults are 2 min and 10 min).
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : undefined;
  const messageDomain = new URL(`mailto:${from.address}`).pathname.split('@')[1] ?? 'boardwalk.local';

  return {
    async send(tx, mail) {
      const outboxId = await insertOutboxMessage(tx, {
        to: mail.to,
        subject: mail.subject,
        text: keys.seal(bodyPurpose(mail.to), mail.text),
      });
      if (!transport) {
        log.info({ outboxId, to: maskEmails(mail.to), subject: mail.subject }, 'mail kept in the outbox (SMTP_URL is not set)');
        return { outboxId, queued: false };
      }
      const payload: MailPayload = { outboxId };
      await queueDelivery(jobs, tx, {
        queue: MAIL_QUEUE,
        target: 'mail',
        barcode: null,
        recipient: maskEmails(mail.to),
        payload,
        singletonKey: `mail:${outboxId}`,
      });
      return { outboxId, queued: true };
    },
    async deliver(job) {
      await tryDelivery(db, job, async () => {
        const message = await findOutboxMessage(db, job.data.outboxId);
        if (!message) return { state: 'skipped', note: 'The message is no longer in the outbox' };
        if (message.sentAt) return { state: 'skipped', note: 'Already sent' };
        if (!transport || !smtpUrl) return { state: 'skipped', note: 'SMTP_URL is not set' };
        const text = message.text === null ? null : keys.unseal(bodyPurpose(message.to), message.text);
        if (text === null) {
          // Altered, moved to another recipient, or sealed under another key: never sent as it is.
          const reason = 'The message body cannot be opened (altered, or sealed under another key); not sent';
          await markOutboxFailed(db, message.id, reason);
          log.warn({ outboxId: message.id, subject: message.subject }, 'mail not sent: its body cannot be opened');
          throw new PermanentDeliveryError(reason);
        }
        try {
          await transport.sendMail({
            from,
            to: message.to,
            subject: message.subject,
            text,
            messageId: `<outbox-${message.id}@${messageDomain}>`,
          });
        } catch (error) {
          const reason = describeError(error, smtpUrl);
          await markOutboxFailed(db, message.id, reason);
          log.warn(
            { outboxId: message.id, to: maskEmails(message.to), subject: message.subject, err: reason },
            'mail not sent; kept in the outbox',
          );
          throw isPermanent(error) ? new PermanentDeliveryError(reason) : new Error(reason);
        }
        await markOutboxSent(db, message.id);
        return { state: 'sent' };
      });
    },
    readBody: (message) => (message.text === null ? null : keys.unseal(bodyPurpose(message.to), message.text)),
    async sealClearBodies() {
      let erased = 0;
      let sealed = 0;
      for (const message of await findUnsealedOutboxMessages(db)) {
        const text = message.sentAt || message.text === null ? null : keys.seal(bodyPurpose(message.to), message.text);
        // Another instance starting at the same time may have done this row already.
        if (!(await replaceUnsealedOutboxText(db, message.id, text))) continue;
        if (text === null) erased++;
        else sealed++;
      }
      return { erased, sealed };
    },
    close() {
      transport?.close();
    },
  };
}
