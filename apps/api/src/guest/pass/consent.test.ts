// Consent that can be proven: the wording is the pass page's catalogue in each language (GET
// /api/site/ answers it in the call's), each change of a consent through POST /api/register/ is
// an append-only record with when, where and the version of the wording shown in the call's
// language (kept once, with its language); the same state again records nothing, and two
// registrations of one ticket at once record the change once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentText, type SiteInfo } from '@boardwalk/contract/pass';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { consentWording } from './consent-wording.ts';

let t: TestApp;
let ip = 0;
const ORDER = '83000001';
const guest = { firstName: 'Cora', lastName: 'Lind', email: 'cora.lind@example.com', phone: '2125550187' };

const register = (barcode: string, consents: { optInEmailMarketing: boolean; optInSMSMarketing: boolean }, language = 'en-US') =>
  t.app.inject({
    method: 'POST',
    url: '/api/register/',
    headers: { 'accept-language': language },
    payload: { orderId: ORDER, barcode, ...guest, ...consents },
    remoteAddress: `10.8.0.${++ip}`,
  });

const historyOf = (barcode: string) =>
  t.database.db
    .select({
      channel: schema.consentRecords.channel,
      given: schema.consentRecords.given,
      source: schema.consentRecords.source,
      text: schema.consentTexts.text,
      language: schema.consentTexts.language,
    })
    .from(schema.consentRecords)
    .innerJoin(schema.consentTexts, eq(schema.consentTexts.id, schema.consentRecords.textId))
    .where(eq(schema.consentRecords.barcode, barcode))
    .orderBy(schema.consentRecords.id);

beforeAll(async () => {
  t = await createTestApp();
  await putOrder(
    t.app,
    ORDER,
    anOrder([
      { barcode: '8300000100000001', holder: guest },
      { barcode: '8300000100000002', holder: guest },
      { barcode: '8300000100000003', holder: guest },
      { barcode: '8300000100000004', holder: guest },
    ]),
  );
});
afterAll(() => t.close());

describe('marketing consents', () => {
  it("are worded by the catalogue in the call's language: the site settings answer the form's texts", async () => {
    const site = (await t.app.inject({ url: '/api/site/' })).json<SiteInfo>();
    expect(site.consents).toEqual(consentWording(t.app.config.brandName, 'en'));
    expect(site.consents.sms.disclosure).toContain('Reply HELP for help and STOP to cancel');
    const spanish = await t.app.inject({ url: '/api/site/', headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' } });
    expect(spanish.headers.vary).toContain('Accept-Language');
    expect(spanish.json<SiteInfo>().consents).toEqual(consentWording(t.app.config.brandName, 'es'));
    expect(spanish.json<SiteInfo>().consents.sms.disclosure).toContain('Responda HELP para obtener ayuda y STOP para cancelar');
  });

  it('giving, withdrawing and giving again leaves three records, each with its wording; the same state again adds none', async () => {
    const barcode = '8300000100000001';
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: true })).statusCode).toBe(200);
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: false })).statusCode).toBe(200);
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: true })).statusCode).toBe(200);
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: true })).statusCode).toBe(200);
    const sms = consentText(consentWording(t.app.config.brandName, 'en').sms);
    const record = { source: 'registration form', text: sms, language: 'en' };
    expect(await historyOf(barcode)).toEqual([
      { channel: 'sms', given: true, ...record },
      { channel: 'sms', given: false, ...record },
      { channel: 'sms', given: true, ...record },
    ]);
    // Each version of the wording is kept once, however many records name it.
    const texts = await t.database.db.select().from(schema.consentTexts);
    expect(texts.filter((row) => row.text === sms)).toHaveLength(1);
  });

  it('records a change once when two registrations of one ticket arrive at once', async () => {
    const barcode = '8300000100000002';
    const answers = await Promise.all([
      register(barcode, { optInEmailMarketing: true, optInSMSMarketing: false }),
      register(barcode, { optInEmailMarketing: true, optInSMSMarketing: false }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(await historyOf(barcode)).toEqual([
      { channel: 'email', given: true, source: 'registration form', text: expect.any(String), language: 'en' },
    ]);
  });

  it('records the English wording of an English registration, word for word as before the catalogue', async () => {
    const barcode = '8300000100000003';
    expect((await register(barcode, { optInEmailMarketing: true, optInSMSMarketing: true })).statusCode).toBe(200);
    const brand = t.app.config.brandName;
    expect(await historyOf(barcode)).toEqual([
      {
        channel: 'email',
        given: true,
        source: 'registration form',
        text: `Yes, email me news and announcements from ${brand}.`,
        language: 'en',
      },
      {
        channel: 'sms',
        given: true,
        source: 'registration form',
        text:
          `Yes, text me news and offers from ${brand}. By checking this box, you agree to receive recurring automated marketing ` +
          `text messages from ${brand} at the phone number above. Message frequency varies. Reply HELP for help and STOP to cancel. ` +
          'Message and data rates may apply. Consent is not a condition of purchase. For help, text HELP to 36401; to stop ' +
          'receiving messages, text STOP to 36401.',
        language: 'en',
      },
    ]);
  });

  it('records the Spanish wording, with its language, of a registration made in Spanish', async () => {
    const barcode = '8300000100000004';
    const answer = await register(barcode, { optInEmailMarketing: true, optInSMSMarketing: true }, 'es-US,es;q=0.9');
    expect(answer.statusCode).toBe(200);
    const spanish = consentWording(t.app.config.brandName, 'es');
    expect(await historyOf(barcode)).toEqual([
      { channel: 'email', given: true, source: 'registration form', text: consentText(spanish.email), language: 'es' },
      { channel: 'sms', given: true, source: 'registration form', text: consentText(spanish.sms), language: 'es' },
    ]);
    const [, sms] = await historyOf(barcode);
    for (const phrase of ['La frecuencia de los mensajes varía', 'Responda HELP', 'STOP', 'tarifas por mensajes y datos', '36401']) {
      expect(sms!.text).toContain(phrase);
    }
    // Withdrawn again in English: the record carries the English wording the guest then saw.
    await register(barcode, { optInEmailMarketing: true, optInSMSMarketing: false }, 'en');
    expect((await historyOf(barcode)).at(-1)).toMatchObject({ channel: 'sms', given: false, language: 'en' });
  });

  it('refuses a bad registration with a 400 that records nothing', async () => {
    const barcode = '8300000100000002';
    const before = (await historyOf(barcode)).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register/',
      payload: { orderId: ORDER, barcode, ...guest, email: 'nope', optInEmailMarketing: false },
      remoteAddress: `10.8.0.${++ip}`,
    });
    expect(res.statusCode).toBe(400);
    expect(await historyOf(barcode)).toHaveLength(before);
  });
});
