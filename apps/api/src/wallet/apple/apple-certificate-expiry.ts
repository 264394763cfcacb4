// The Apple signer certificate's expiry, watched: a gauge on /metrics
// (boardwalk_apple_signer_certificate_expiry_timestamp_seconds), and from
// APPLE_CERT_WARNING_DAYS before it a warning in the log, once a day, which the Deliveries tab
// shows too (GET /api/admin/deliveries/certificate). A pass signed with an expired
// certificate no longer installs, and APNs refuses its pushes.
import type { AppleCertificateStatus } from '@boardwalk/contract/staff-operations-tabs';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the Deliveries tab shows of the signer certificate at `now`. */
export function certificateStatus(
  certificate: { notAfter: Date; development: boolean },
  warningDays: number,
  now = new Date(),
): AppleCertificateStatus {
  const daysLeft = Math.floor((certificate.notAfter.getTime() - now.getTime()) / DAY_MS);
  return {
    notAfter: certificate.notAfter.toISOString(),
    daysLeft,
    development: certificate.development,
    warning: daysLeft < warningDays,
  };
}

/** The log line of a certificate that expires soon (or has expired), or null. */
export function expiryWarning(status: AppleCertificateStatus): string | null {
  if (!status.warning) return null;
  return status.daysLeft < 0
    ? `Apple Wallet: the signer certificate expired on ${status.notAfter}; passes no longer install and pushes fail. Renew it (APPLE_CERT_FILE).`
    : `Apple Wallet: the signer certificate expires on ${status.notAfter} (in ${status.daysLeft} days). Renew it (APPLE_CERT_FILE).`;
}

/** Checks now and then once a day: a warning each day while it is due. Returns the stop function. */
export function watchCertificateExpiry(
  certificate: { notAfter: Date; development: boolean },
  warningDays: number,
  log: { warn(obj: object, msg: string): void },
): () => void {
  const check = () => {
    const status = certificateStatus(certificate, warningDays);
    const message = expiryWarning(status);
    if (message) log.warn({ notAfter: status.notAfter, daysLeft: status.daysLeft }, message);
  };
  check();
  const timer = setInterval(check, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
