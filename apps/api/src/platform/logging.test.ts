import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { maskBarcode, maskEmails, maskUrl } from './logging.ts';

describe('masking', () => {
  it('keeps the last 4 digits of a barcode', () => {
    expect(maskBarcode('3400000000000017')).toBe('************0017');
  });
  it('masks barcodes and long tokens in URLs', () => {
    const hashUrl = 'A'.repeat(88);
    expect(maskUrl(`/10000003/1000000000000035`)).toBe('/****0003/************0035');
    expect(maskUrl(`/${hashUrl}?x=1`)).toBe('/AAAA…[88]?x=1');
  });
  it("masks the device id of Apple's PassKit calls, whatever its length", () => {
    expect(maskUrl('/api/passkit/v1/devices/4f1c9a0b7e2d/registrations/pass.com.boardwalk.demo/SERIAL')).toBe(
      '/api/passkit/v1/devices/********7e2d/registrations/pass.com.boardwalk.demo/SERIAL',
    );
  });
  it("masks the wristband code of the gate's lookup, letters included", () => {
    expect(maskUrl('/api/integrations/wristbands/AB12CD34EF56GH78')).toBe('/api/integrations/wristbands/************GH78');
    expect(maskUrl('/api/admin/wristbands/?search=ab12cd34ef56gh78&page=1')).toBe('/api/admin/wristbands/?search=************gh78&page=1');
  });
  it("masks the member card's token of a till's look-up", () => {
    expect(maskUrl('/api/integrations/loyalty/members/4f9c2a7be0d14c6f8a3b5e2d7c1f0a96')).toBe(
      `/api/integrations/loyalty/members/${'*'.repeat(28)}0a96`,
    );
  });
});

describe('masking email addresses', () => {
  it('keeps the first character and the domain of every address in a text', () => {
    expect(maskEmails('jane.doe@example.com')).toBe('j…@example.com');
    expect(maskEmails('t@example.co')).toBe('t…@example.co');
    expect(maskEmails('to <Jane+Tag@Mail.Example.ORG>, and x_y-z@sub.example.com.')).toBe(
      'to <J…@Mail.Example.ORG>, and x…@sub.example.com.',
    );
    expect(maskEmails('Key (email)=(guest@example.com) already exists')).toBe('Key (email)=(g…@example.com) already exists');
  });
  it('masks an address URL-encoded, and leaves text without one alone', () => {
    expect(maskEmails('/api/x?email=jane.doe%40example.com&page=1')).toBe('/api/x?email=j…%40example.com&page=1');
    expect(maskEmails('jane%2Bwork%40example.com')).toBe('j…%40example.com');
    for (const text of ['no address here', '@scope/package', 'icon@2x', 'v@1.2.3']) expect(maskEmails(text)).toBe(text);
  });
  it('is part of maskUrl, and masking twice changes nothing', () => {
    expect(maskUrl('/api/loyalty/jane.doe@example.com/10000003')).toBe('/api/loyalty/j…@example.com/****0003');
    expect(maskEmails(maskEmails('jane.doe@example.com'))).toBe('j…@example.com');
  });
});

describe('log lines', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'trace' }, logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(() => t.close());

  it('never contain a barcode, a hashUrl or a key', async () => {
    const barcode = '5000000000000011';
    const hashUrl = 'Zq'.repeat(45);
    await putOrder(t.app, '50000001', anOrder([{ barcode }]));
    await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '50000001', barcode } });
    await t.app.inject({ method: 'POST', url: '/api/login/', payload: { orderId: '50000001', barcode: '5000000000000099' } });
    await t.app.inject({ method: 'POST', url: '/api/login/', payload: { hashUrl } });
    await t.app.inject({ method: 'GET', url: `/50000001/${barcode}`, headers: { accept: 'text/html' } });
    await t.app.inject({ method: 'GET', url: `/${hashUrl}`, headers: { accept: 'text/html' } });
    const log = lines.join('');
    expect(log).toContain('request completed');
    for (const secret of [barcode, '5000000000000099', hashUrl, integrationAuth.authorization.slice(7)]) expect(log).not.toContain(secret);
  });
});

describe('log lines with email addresses', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { LOG_LEVEL: 'trace' },
      logStream: { write: (line) => void lines.push(line) },
      extend: (app) => {
        // A query that fails the way a driver error does: the address in its message, detail and cause.
        app.get('/test/driver-error', async () => {
          const driverError = Object.assign(new Error('duplicate key value: Key (email)=(driver.person@example.com) already exists'), {
            code: '23505',
            detail: 'Key (email)=(driver.person@example.com) already exists.',
          });
          throw new Error('Failed query: insert into accounts for driver.person@example.com', { cause: driverError });
        });
      },
    });
  });
  afterAll(() => t.close());

  it('never contain one in clear: request URLs, mails, errors, any field or message', async () => {
    const addresses = ['path.person@example.com', 'query.person@example.com', 'mail.person@example.com', 'driver.person@example.com'];
    await t.app.inject({ method: 'GET', url: '/api/loyalty/path.person@example.com', headers: { accept: 'application/json' } });
    await t.app.inject({ method: 'GET', url: '/api/admin/loyalty-accounts/?search=query.person%40example.com' });
    await t.app.inject({ method: 'GET', url: '/api/admin/loyalty-accounts/?search=query.person@example.com' });
    await t.app.inject({ method: 'POST', url: '/api/loyalty/verify', payload: { email: 'body.person@example.com' } });
    await t.database.db.transaction((tx) => t.app.mailer.send(tx, { to: 'mail.person@example.com', subject: 'Hello', text: 'Hi' }));
    expect((await t.app.inject('/test/driver-error')).statusCode).toBe(500);
    t.app.log.warn({ email: 'field.person@example.com' }, 'about msg.person@example.com');
    t.app.log.error(new Error('thrown for err.person@example.com'));
    const log = lines.join('');
    expect(log).toContain('unhandled error');
    expect(log).toContain('mail kept in the outbox');
    for (const masked of ['p…@example.com', 'q…%40example.com', 'm…@example.com', 'd…@example.com', 'f…@example.com', 'e…@example.com'])
      expect(log).toContain(masked);
    for (const address of [
      ...addresses,
      'body.person@example.com',
      'field.person@example.com',
      'msg.person@example.com',
      'err.person@example.com',
    ])
      expect(log).not.toContain(address);
    expect(log).not.toContain('query.person%40example.com');
  });
});
