// Outgoing email (decisions.md "Photos", "Ticket shares"): one interface, one real
// adapter, nodemailer over SMTP_URL. Every message is written to the outbox table first;
// sentAt is set once the SMTP server accepted it. Without SMTP_URL the message stays in
// the outbox and a log line says so (recipient, subject and outbox id; never the text,
// which may carry a barcode).
import nodemailer from 'nodemailer';
import type { Executor } from '@boardwalk/db/client';
import { insertOutboxMessage, markOutboxFailed, markOutboxSent } from './outbox.repo.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text body. */
  text: string;
}

export interface MailResult {
  outboxId: number;
  /** True once an SMTP server accepted the message. */
  sent: boolean;
}

export interface Mailer {
  /** Keeps the message in the outbox and sends it when SMTP is configured; never throws for a refused send. */
  send(mail: OutgoingMail): Promise<MailResult>;
  close(): void;
}

interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface MailerOptions {
  db: Executor;
  /** smtp:// or smtps:// URL with any credentials; unset keeps mail in the outbox only. */
  smtpUrl: string | undefined;
  /** The sender: the brand's name and address. */
  from: { name: string; address: string };
  log: MailLog;
}

/** A failed send's reason for the outbox and log: the error text, without the SMTP URL's password. */
function describeError(error: unknown, smtpUrl: string): string {
  const message = error instanceof Error ? error.message : String(error);
  let password = '';
  try {
    password = decodeURIComponent(new URL(smtpUrl).password);
  } catch {
    // Not parseable: nothing to hide.
  }
  return (password ? message.replaceAll(password, '[redacted]') : message).slice(0, 500);
}

export function createMailer(options: MailerOptions): Mailer {
  const { db, smtpUrl, from, log } = options;
  const transport = smtpUrl
    ? nodemailer.createTransport({
        url: smtpUrl,
        // A slow mail server must not hold a guest's request for minutes (defaults are 2 min and 10 min).
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : undefined;

  return {
    async send(mail) {
      const outboxId = await insertOutboxMessage(db, mail);
      if (!transport || !smtpUrl) {
        log.info({ outboxId, to: mail.to, subject: mail.subject }, 'mail kept in the outbox (SMTP_URL is not set)');
        return { outboxId, sent: false };
      }
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
        await markOutboxSent(db, outboxId);
        return { outboxId, sent: true };
      } catch (error) {
        const reason = describeError(error, smtpUrl);
        await markOutboxFailed(db, outboxId, reason);
        log.warn({ outboxId, to: mail.to, subject: mail.subject, err: reason }, 'mail not sent; kept in the outbox');
        return { outboxId, sent: false };
      }
    },
    close() {
      transport?.close();
    },
  };
}
