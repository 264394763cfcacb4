// The Apple signer certificate's expiry: a gauge on /metrics, and from APPLE_CERT_WARNING_DAYS
// before it a warning in the log (at start, then once a day) and in the Deliveries tab. Here
// with a certificate chain made by openssl whose signer expires in 10 days, and with the
// development chain (2 years: no warning).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAs } from '../../../test-support/staff.ts';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { certificateStatus, watchCertificateExpiry } from '../../wallet/apple/apple-certificate-expiry.ts';

const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });

let dir: string;
let soon: TestApp;
let later: TestApp;
const soonLog: string[] = [];

/** A root standing for Apple's WWDR, and a signer it issued that expires in `days` days. */
function makeChain(days: number) {
  const file = (name: string) => join(dir, name);
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '30',
    '-subj',
    '/CN=Test WWDR',
    '-keyout',
    file('wwdr-key.pem'),
    '-out',
    file('wwdr.pem'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=Pass Type ID: pass.com.example.seabreeze',
    '-keyout',
    file('signer-key.pem'),
    '-out',
    file('signer.csr'),
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('signer.csr'),
    '-CA',
    file('wwdr.pem'),
    '-CAkey',
    file('wwdr-key.pem'),
    '-CAcreateserial',
    '-days',
    String(days),
    '-out',
    file('signer.pem'),
  );
  return { APPLE_CERT_FILE: file('signer.pem'), APPLE_KEY_FILE: file('signer-key.pem'), APPLE_WWDR_FILE: file('wwdr.pem') };
}

const gauge = (text: string) => Number(/^boardwalk_apple_signer_certificate_expiry_timestamp_seconds (\d+)$/m.exec(text)?.[1]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-cert-expiry-'));
  soon = await createTestApp({
    env: { DATA_DIR: join(dir, 'soon'), ...makeChain(10), APNS_URL: 'https://127.0.0.1:9', LOG_LEVEL: 'warn' },
    logStream: { write: (line) => void soonLog.push(line) },
  });
  later = await createTestApp({ env: { DATA_DIR: join(dir, 'later') } });
});
afterAll(async () => {
  await soon?.close();
  await later?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the Apple signer certificate expiry', () => {
  it('is a gauge on /metrics: the certificate’s notAfter in Unix seconds', async () => {
    const seconds = gauge((await soon.app.inject('/metrics')).body);
    const days = (seconds * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9);
    expect(days).toBeLessThanOrEqual(10);
  });

  it('warns in the log at start when it expires within 30 days, without the certificate itself', () => {
    const warnings = soonLog
      .map((l) => JSON.parse(l) as { msg: string; daysLeft?: number })
      .filter((l) => l.msg.includes('signer certificate expires'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.daysLeft).toBe(9);
    expect(soonLog.join('\n')).not.toContain('BEGIN CERTIFICATE');
  });

  it('shows the warning in the Deliveries tab, and none for a certificate far from expiry', async () => {
    const staff = await loginAs(soon.app, { accessLevel: 1000 });
    const res = await soon.app.inject({ method: 'GET', url: '/api/admin/deliveries/certificate', headers: staff.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ daysLeft: 9, development: false, warning: true });

    const laterStaff = await loginAs(later.app, { accessLevel: 1000 });
    const dev = await later.app.inject({ method: 'GET', url: '/api/admin/deliveries/certificate', headers: laterStaff.headers });
    expect(dev.json()).toMatchObject({ development: true, warning: false });
    expect(dev.json<{ daysLeft: number }>().daysLeft).toBeGreaterThan(700);
  });

  it('needs the Deliveries list permission', async () => {
    const res = await soon.app.inject({ method: 'GET', url: '/api/admin/deliveries/certificate' });
    expect(res.statusCode).toBe(401);
    const clerk = await loginAs(soon.app, { accessLevel: 1 });
    expect((await soon.app.inject({ method: 'GET', url: '/api/admin/deliveries/certificate', headers: clerk.headers })).statusCode).toBe(
      403,
    );
  });

  it('warns once a day while it is due, and only from the configured days before', () => {
    vi.useFakeTimers({ now: new Date('2027-01-01T12:00:00Z') });
    try {
      const warn = vi.fn();
      const stop = watchCertificateExpiry({ notAfter: new Date('2027-01-20T12:00:00Z'), development: false }, 10, { warn });
      expect(warn).not.toHaveBeenCalled(); // 19 days left
      vi.advanceTimersByTime(9 * 86_400_000); // 10 days left: not yet
      expect(warn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(86_400_000); // 9 days left
      expect(warn).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(12 * 3_600_000);
      expect(warn).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(12 * 3_600_000);
      expect(warn).toHaveBeenCalledTimes(2);
      stop();
      vi.advanceTimersByTime(5 * 86_400_000);
      expect(warn).toHaveBeenCalledTimes(2);
      const expired = certificateStatus(
        { notAfter: new Date('2026-12-31T12:00:00Z'), development: false },
        30,
        new Date('2027-01-02T00:00:00Z'),
      );
      expect(expired).toMatchObject({ daysLeft: -2, warning: true });
    } finally {
      vi.useRealTimers();
    }
  });
});
