// The photo reset request, end to end, against a real SMTP server on loopback.
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as schema from '@boardwalk/db/schema';
import { photoMessages } from '@boardwalk/contract/photo';
import { startSmtpServer, type TestSmtpServer } from '../../../test-support/smtp.fixtures.ts';
import { anOrder, putOrder } from '../../../test-support/fixtures.ts';
import { createTestApp, settleDeliveries, type TestApp } from '../../../test-support/test-app.ts';
import { aJpeg, dataUrl } from '../../../test-support/photo.fixtures.ts';

let t: TestApp;
let smtp: TestSmtpServer;
const PASS = { orderId: '31000001', barcode: '3100000000000011' };

beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'boardwalk', password: 'smtp-pass-Kd93' });
  t = await createTestApp({
    env: { SMTP_URL: smtp.url, TEAM_EMAIL: 'photo-team@example.com', SUPPORT_EMAIL: 'help@example.com', BRAND_NAME: 'Pier Park' },
  });
  await putOrder(
    t.app,
    PASS.orderId,
    anOrder([
      {
        barcode: PASS.barcode,
        product: '2027 Season Pass',
        isPassholder: true,
        isPassActivated: true,
        holder: { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com' },
      },
    ]),
  );
  const jpeg = await aJpeg(640, 480);
  const preview = await t.app.inject({
    method: 'POST',
    url: '/api/preview/',
    payload: {
      filename: 'a.jpg',
      filesize: jpeg.length,
      filetype: 'image/jpeg',
      data: dataUrl('image/jpeg', jpeg),
      crop: { x: 0, y: 0, width: 640, height: 480 },
      ...PASS,
    },
  });
  const upload = await t.app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: { filename: 'a.bmp', filesize: 1, filetype: 'image/bmp', data: preview.json().base64, ...PASS },
  });
  expect(upload.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

it('emails TEAM_EMAIL with the order id and barcode, and records the request', async () => {
  const res = await t.app.inject({ method: 'GET', url: `/api/reset-photo/${PASS.orderId}/${PASS.barcode}` });
  expect(res.statusCode).toBe(200);
  expect(res.body).toBe(photoMessages.resetRequested);

  const [message] = await smtp.waitFor(1);
  expect(message!.to).toEqual(['photo-team@example.com']);
  expect(message!.from).toBe('help@example.com');
  expect(message!.raw).toMatch(/^From: Pier Park <help@example\.com>/m);
  expect(message!.raw).toContain(`Subject: Photo reset request for order ${PASS.orderId}`);
  expect(message!.raw).toContain(`Order ID: ${PASS.orderId}`);
  expect(message!.raw).toContain(`Barcode: ${PASS.barcode}`);
  expect(message!.raw).toContain('Ana Lopez');
  expect(message!.raw).toContain('ana@example.com');

  // Sent by the mail job, after the request was answered.
  await settleDeliveries(t.app);
  const [outboxRow] = await t.database.db.select().from(schema.outbox);
  expect(outboxRow!.sentAt).toBeInstanceOf(Date);
  expect(await t.database.db.select().from(schema.photoResetRequests)).toMatchObject([{ orderId: PASS.orderId, barcode: PASS.barcode }]);
});
