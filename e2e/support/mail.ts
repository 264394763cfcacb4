// Mail as the e2e tests read it from the real SMTP server (smtp-server) a server process of
// their own sends through: a raw message's body, and a link it carries.
import { expect } from 'vitest';
import type { TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';

/** The body of a raw message with quoted-printable soft line breaks undone (a long link is wrapped). */
export const bodyOf = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The path of the first link to `baseUrl + path#<token>` mailed to this address (waits up to 20 s for the mail). */
export async function mailedLink(smtp: TestSmtpServer, to: string, baseUrl: string, path: string): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.received.find((m) => m.to.includes(to));
    if (mail) {
      const link = new RegExp(`${baseUrl}${path}#[A-Za-z0-9_.-]+`).exec(bodyOf(mail.raw))?.[0];
      expect(link, mail.raw).toBeDefined();
      return link!.slice(baseUrl.length);
    }
    if (Date.now() > until) throw new Error(`no mail with a link to ${path} came for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
