// The guest's language through the API: each guest call's Accept-Language is stored with the
// registration, the share and the loyalty member, named by their events, and the mails are
// written in it, received so by an SMTP server: the share invitation, the loyalty code, the
// statement link, the privacy link, the staff's pass link and the expiry reminder.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { eventsOfType } from '../../test-support/events.ts';
import { codeMailedTo, proofOf } from '../../test-support/loyalty.fixtures.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test-support/smtp.fixtures.ts';
import { loginAs, type StaffLogin } from '../../test-support/staff.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../test-support/test-app.ts';
import { reminderMail } from '../loyalty/loyalty-expiry.service.ts';
import { findReminderRecipient } from '../loyalty/loyalty-lots.repo.ts';

let t: TestApp;
let smtp: TestSmtpServer;
let staff: StaffLogin;
let ip = 0;
const remoteAddress = () => `10.49.${(++ip >> 8) & 255}.${ip & 255}`;
const SPANISH = { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' };
const TICKET = { orderId: '49000001', barcode: '4900000000000011' };
const GUEST = { firstName: 'Lucía', lastName: 'Ortega', email: 'lucia.ortega@example.com', phone: '3105550149' };

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The tests read each mail as the SMTP server received it: a sent mail keeps no body in the outbox.
  t = await createTestApp({ env: { SMTP_URL: smtp.url, BRAND_NAME: 'Pier Park', SUPPORT_EMAIL: 'help@example.com' } });
  staff = await loginAs(t.app, { accessLevel: 1, permissions: ['Loyalty Manage'] });
  await putOrder(
    t.app,
    TICKET.orderId,
    anOrder([
      {
        barcode: TICKET.barcode,
        product: 'Play Card',
        category: 'Stored Value Card',
        credits: 40,
        holder: { firstName: 'Carl', lastName: 'Diaz' },
      },
    ]),
  );
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: remoteAddress() });

const to = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));

/** The messages the SMTP server received for the email, once every queued mail is delivered. */
async function receivedBy(email: string) {
  await settleDeliveries(t.app);
  return to(email);
}

/** The newest message the SMTP server received for the email once there are `count` (a job mails after the answer). */
async function lastMailTo(email: string, count = 1) {
  await expect.poll(() => to(email).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  return to(email).at(-1)!;
}

describe("a guest's language", () => {
  it('is stored with the registration from Accept-Language, named by guest.registered, and English without one', async () => {
    const registered = await post('/api/register/', { ...TICKET, ...GUEST }, SPANISH);
    expect(registered.statusCode, registered.body).toBe(200);
    const language = async () =>
      (await t.database.db.select().from(schema.registrations).where(eq(schema.registrations.barcode, TICKET.barcode)))[0]!.language;
    expect(await language()).toBe('es');
    expect((await eventsOfType(t.app, 'guest.registered')).at(-1)).toMatchObject({ barcode: TICKET.barcode, language: 'es' });

    expect((await post('/api/register/', { ...TICKET, ...GUEST })).statusCode).toBe(200);
    expect(await language()).toBe('en');
    expect((await eventsOfType(t.app, 'guest.registered')).at(-1)).toMatchObject({ language: 'en' });
  });

  it("writes the share invitation in the sharing guest's language, stored with the share and named by share.created", async () => {
    const login = await post('/api/login/', TICKET);
    const token = login.json().ticketShareToken as string;
    const email = 'mateo.ruiz@example.com';
    const shared = await post(
      '/api/share/',
      { ...TICKET, firstName: 'Mateo', lastName: 'Ruiz', email, phone: '' },
      { ...SPANISH, authorization: `Bearer ${token}` },
    );
    expect(shared.statusCode, shared.body).toBe(200);
    const [share] = await t.database.db.select().from(schema.ticketShares).where(eq(schema.ticketShares.email, email));
    expect(share!.language).toBe('es');
    expect((await eventsOfType(t.app, 'share.created')).at(-1)).toMatchObject({ shareId: share!.shareId, language: 'es' });

    const mail = await lastMailTo(email);
    expect(mail.subject).toBe('Lucía Ortega compartió con usted un boleto de Pier Park');
    expect(mail.text).toMatch(
      /^Hola, Mateo:\n\nLucía Ortega compartió con usted su boleto de Pier Park \(Play Card\)\.\n\nAbra su pase aquí:\n/,
    );
    // The link opens the pass page in Spanish, whatever the recipient's phone says.
    expect(mail.text).toMatch(/^https?:\/\/\S+\/[A-Za-z0-9_-]{86,}\?lang=es$/m);
  });

  it('writes the loyalty code in the language of the call, and stores it with the member it makes', async () => {
    const email = 'valeria.soto@example.com';
    expect((await post('/api/loyalty/verify', { email }, SPANISH)).statusCode).toBe(202);
    const code = await lastMailTo(email);
    expect(code.subject).toBe('Su código para los puntos Brownie de Pier Park');
    expect(code.text).toContain(
      `Su código para confirmar este correo en los puntos Brownie de Pier Park es:\n\n${await codeMailedTo(t, email, smtp)}\n`,
    );

    const created = await post('/api/loyalty/create', { email, firstName: 'Valeria', lastName: 'Soto', proof: proofOf(t, email) }, SPANISH);
    expect(created.statusCode, created.body).toBe(200);
    const [member] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.email, email));
    expect(member!.language).toBe('es');
    expect((await eventsOfType(t.app, 'loyalty.member_created')).at(-1)).toMatchObject({
      memberNumber: member!.memberNumber,
      language: 'es',
    });

    // Later mails follow the stored language: the staff's pass link, the expiry reminder.
    const sent = (await receivedBy(email)).length;
    const passLink = await t.app.inject({
      method: 'POST',
      url: '/api/admin/loyalty/pass-link/',
      headers: staff.headers,
      payload: { userID: member!.id },
    });
    expect(passLink.statusCode, passLink.body).toBe(200);
    const link = await lastMailTo(email, sent + 1);
    expect(link.subject).toBe('Su tarjeta de socio de Pier Park');
    expect(link.text).toContain(
      `Hola, Valeria:\n\nEste es el enlace a su tarjeta de socio de Pier Park (número de socio ${member!.memberNumber}).`,
    );
    expect(link.text).toMatch(/\/loyalty\/pass\?lang=es#/);

    const recipient = (await findReminderRecipient(t.database.db, member!.id))!;
    const reminder = reminderMail(
      { brandName: 'Pier Park', supportEmail: 'help@example.com', parkTimezone: 'America/Los_Angeles', publicUrl: 'https://pier.test' },
      recipient,
      [{ remaining: 1, expiresAt: new Date('2026-12-02T07:30:00Z') }],
    );
    expect(reminder.subject).toBe('Sus puntos Brownie vencen el 1 de diciembre de 2026');
    expect(reminder.text).toContain('Tiene 1 punto Brownie que vence el 1 de diciembre de 2026.');
    expect(reminder.text).toContain('https://pier.test/loyalty/?lang=es\n');
  });

  it('writes the statement link and the privacy link, mailed after the answer, in the language of the request', async () => {
    const member = 'valeria.soto@example.com';
    const [before, privacyBefore] = [(await receivedBy(member)).length, (await receivedBy(GUEST.email)).length];
    expect((await post('/api/loyalty/statement-link', { email: member }, SPANISH)).statusCode).toBe(202);
    expect((await post('/api/privacy/request', { email: GUEST.email }, SPANISH)).statusCode).toBe(202);

    const statement = await lastMailTo(member, before + 1);
    expect(statement.subject).toBe('Sus puntos Brownie de Pier Park');
    expect(statement.text).toContain('Este es el enlace a sus puntos Brownie');
    expect(statement.text).toContain('El enlace es válido por 24 horas y es solo para usted');
    expect(statement.text).toMatch(/\/loyalty\/statement\?lang=es#/);
    const privacy = await lastMailTo(GUEST.email, privacyBefore + 1);
    expect(privacy.subject).toBe('Sus datos en Pier Park');
    expect(privacy.text).toContain(`Solicitó ver los datos que Pier Park tiene sobre ${GUEST.email}.`);
    expect(privacy.text).toMatch(/\/privacy\/manage\?lang=es#/);

    // The same request in English, with no Accept-Language.
    expect((await post('/api/privacy/request', { email: GUEST.email })).statusCode).toBe(202);
    expect((await lastMailTo(GUEST.email, privacyBefore + 2)).subject).toBe('Your data at Pier Park');
  });

  it('follows a member who proves their email again on a page in another language: later mails are in it', async () => {
    const email = 'valeria.soto@example.com';
    const [member] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.email, email));
    expect(member!.language).toBe('es');
    const address = remoteAddress();
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/loyalty/verify',
      payload: { email },
      headers: english,
      remoteAddress: address,
    });
    expect(verify.statusCode).toBe(202);
    const code = await codeMailedTo(t, email, smtp);
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/loyalty/confirm',
      payload: { email, code },
      headers: english,
      remoteAddress: address,
    });
    expect(confirm.json()).toEqual({ account: 'existing', userID: member!.id });
    const [after] = await t.database.db.select().from(schema.loyaltyAccounts).where(eq(schema.loyaltyAccounts.email, email));
    expect(after!.language).toBe('en');

    const count = (await receivedBy(email)).length;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/loyalty/pass-link/',
          headers: staff.headers,
          payload: { userID: member!.id },
        })
      ).statusCode,
    ).toBe(200);
    expect((await lastMailTo(email, count + 1)).subject).toBe('Your Pier Park loyalty pass');
  });
});
