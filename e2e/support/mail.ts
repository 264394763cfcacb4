// Mail as the e2e tests read it from the real SMTP server (smtp-server) a server process of
// their own sends through: a link or a code a message carries.
import { expect } from 'vitest';
import type { TestSmtpServer } from '../../apps/api/test-support/smtp.fixtures.ts';

/** The path of the first link to `baseUrl + path#<token>` mailed to this address (waits up to 20 s for the mail). */
export async function mailedLink(smtp: TestSmtpServer, to: string, baseUrl: string, path: string): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    // The first such mail to the address (a loyalty code mailed before it carries no link).
    // The link names the language the mail is written in (?lang=).
    const pattern = new RegExp(`${baseUrl}${path}(?:\\?lang=[a-z]+)?#[A-Za-z0-9_.-]+`);
    const link = smtp.received
      .filter((m) => m.to.includes(to))
      .map((m) => pattern.exec(m.text)?.[0])
      .find(Boolean);
    if (link) return link.slice(baseUrl.length);
    if (Date.now() > until) throw new Error(`no mail with a link to ${path} came for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit loyalty code of the newest mail to this address after `after` mails had come (waits up to 20 s). */
export async function mailedCode(smtp: TestSmtpServer, to: string, after = 0): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.received
      .slice(after)
      .reverse()
      .find((m) => m.to.includes(to.toLowerCase()) && /^\d{6}$/m.test(m.text));
    if (mail) return /^(\d{6})$/m.exec(mail.text)![1]!;
    if (Date.now() > until) throw new Error(`no code came for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Call = (method: 'POST', path: string, body: unknown) => Promise<{ status: number; text: string; json: () => Record<string, unknown> }>;

/** Proves the email as the loyalty page does (verify, the mailed code, confirm): what confirm answers. */
export async function proveLoyaltyEmail(call: Call, smtp: TestSmtpServer, email: string) {
  const after = smtp.received.length;
  const asked = await call('POST', '/api/loyalty/verify', { email });
  expect(asked.status, asked.text).toBe(202);
  const confirmed = await call('POST', '/api/loyalty/confirm', { email, code: await mailedCode(smtp, email, after) });
  expect(confirmed.status, confirmed.text).toBe(200);
  return confirmed.json() as { account: 'existing'; userID: string } | { account: 'new'; proof: string };
}

/** Joins the loyalty club through the API with a proven email: create's answer (the claim token as text on 200). */
export async function joinLoyaltyThroughApi(
  call: Call,
  smtp: TestSmtpServer,
  body: { email: string; firstName: string; lastName: string },
) {
  const proved = await proveLoyaltyEmail(call, smtp, body.email);
  if (proved.account !== 'new') throw new Error(`${body.email} has an account already`);
  return call('POST', '/api/loyalty/create', { ...body, proof: proved.proof });
}

/** The plain id of the account with this email (what its proven code answers), as staff calls name it. */
export async function loyaltyAccountId(call: Call, smtp: TestSmtpServer, email: string): Promise<string> {
  const proved = await proveLoyaltyEmail(call, smtp, email);
  if (proved.account !== 'existing') throw new Error(`${email} has no account`);
  return proved.userID;
}
