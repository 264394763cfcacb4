// Consent that can be proven: the server owns the wording (GET /api/site/ answers it), each
// change of a consent through POST /api/register/ is an append-only record with when, where
// and the version of the wording shown (kept once); the same state again records nothing, and
// two registrations of one ticket at once record the change once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentText, consentWording, type SiteInfo } from '@boardwalk/contract/pass';
import * as schema from '@boardwalk/db/schema';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';

let t: TestApp;
let ip = 0;
const ORDER = '83000001';
const guest = { firstName: 'Cora', lastName: 'Lind', email: 'cora.lind@example.com', phone: '2125550187' };

const register = (barcode: string, consents: { optInEmailMarketing: boolean; optInSMSMarketing: boolean }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/register/',
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
    ]),
  );
});
afterAll(() => t.close());

describe('marketing consents', () => {
  it("are worded by the server: the site settings answer the form's texts", async () => {
    const site = (await t.app.inject({ url: '/api/site/' })).json<SiteInfo>();
    expect(site.consents).toEqual(consentWording(t.app.config.brandName));
    expect(site.consents.sms.disclosure).toContain('Reply HELP for help and STOP to cancel');
  });

  it('giving, withdrawing and giving again leaves three records, each with its wording; the same state again adds none', async () => {
    const barcode = '8300000100000001';
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: true })).statusCode).toBe(200);
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: false })).statusCode).toBe(200);
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: true })).statusCode).toBe(200);
    expect((await register(barcode, { optInEmailMarketing: false, optInSMSMarketing: true })).statusCode).toBe(200);
    const sms = consentText(consentWording(t.app.config.brandName).sms);
    expect(await historyOf(barcode)).toEqual([
      { channel: 'sms', given: true, source: 'registration form', text: sms },
      { channel: 'sms', given: false, source: 'registration form', text: sms },
      { channel: 'sms', given: true, source: 'registration form', text: sms },
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
    expect(await historyOf(barcode)).toEqual([{ channel: 'email', given: true, source: 'registration form', text: expect.any(String) }]);
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
