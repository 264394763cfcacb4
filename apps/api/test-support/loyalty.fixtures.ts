// Test support: a guest proving a loyalty email (verify, the code from the mail, confirm) and
// joining with it, as the loyalty page does.
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { LOYALTY_EMAIL_PROOF, type ConfirmAnswer } from '@boardwalk/contract/loyalty';
import { outbox } from '@boardwalk/db/schema';
import type { TestApp } from './test-app.ts';
import type { TestSmtpServer } from './smtp.fixtures.ts';

let ip = 0;
const anAddress = () => `10.250.${(++ip >> 8) & 255}.${ip & 255}`;

/** The 6-digit code of the newest mail to the email: from the outbox, or (sent already) the SMTP server. */
export async function codeMailedTo(t: TestApp, email: string, smtp?: TestSmtpServer): Promise<string> {
  for (let wait = 0; wait < 100; wait++) {
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.to, email)).orderBy(desc(outbox.id)).limit(1);
    const body = row ? t.app.mailer.readBody(row) : null;
    const text = body ?? [...(smtp?.received ?? [])].reverse().find((mail) => mail.to.includes(email.toLowerCase()))?.text ?? '';
    const code = /^(\d{6})\r?$/m.exec(text)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}

/** Asks for a code and enters it: what confirm answers. */
export async function proveEmail(t: TestApp, email: string, remoteAddress = anAddress(), smtp?: TestSmtpServer): Promise<ConfirmAnswer> {
  const asked = await t.app.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { email }, remoteAddress });
  expect(asked.statusCode, asked.body).toBe(202);
  const code = await codeMailedTo(t, email, smtp);
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/loyalty/confirm', payload: { email, code }, remoteAddress });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return confirmed.json<ConfirmAnswer>();
}

/** Proves a new email and creates its account: create's answer (status and body, the claim token on 200). */
export async function joinLoyalty(
  t: TestApp,
  request: { email: string; firstName: string; lastName: string },
  remoteAddress = anAddress(),
): Promise<{ statusCode: number; body: string }> {
  const proved = await proveEmail(t, request.email, remoteAddress);
  if (proved.account !== 'new') throw new Error(`${request.email} has an account already`);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/loyalty/create',
    payload: { ...request, proof: proved.proof },
    remoteAddress,
  });
  return { statusCode: res.statusCode, body: res.body };
}

/** What confirm answers a proven email with no account, made directly (for tests of what comes after the proof). */
export const proofOf = (t: TestApp, email: string) =>
  t.app.keys.signToken(LOYALTY_EMAIL_PROOF.purpose, email.trim().toLowerCase(), LOYALTY_EMAIL_PROOF.ttlSeconds);
