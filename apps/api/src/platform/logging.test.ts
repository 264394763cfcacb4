import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOrder, putOrder } from '../../test-support/fixtures.ts';
import { createTestApp, integrationAuth, type TestApp } from '../../test-support/test-app.ts';
import { maskBarcode, maskUrl } from './logging.ts';

describe('masking', () => {
  it('keeps the last 4 digits of a barcode', () => {
    expect(maskBarcode('3400000000000017')).toBe('************0017');
  });
  it('masks barcodes and long tokens in URLs', () => {
    const hashUrl = 'A'.repeat(88);
    expect(maskUrl(`/10000003/1000000000000035`)).toBe('/****0003/************0035');
    expect(maskUrl(`/${hashUrl}?x=1`)).toBe('/AAAA…[88]?x=1');
  });
  it("masks the wristband code of the gate's lookup, letters included", () => {
    expect(maskUrl('/api/integrations/wristbands/AB12CD34EF56GH78')).toBe('/api/integrations/wristbands/************GH78');
    expect(maskUrl('/api/admin/wristbands/?search=ab12cd34ef56gh78&page=1')).toBe('/api/admin/wristbands/?search=************gh78&page=1');
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
