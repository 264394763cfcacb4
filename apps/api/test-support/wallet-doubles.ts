// Test support: the APNs double and the Google double started side by side, with the
// environment that points an app at them (a pass type, the APNs URL and CA, a Google issuer,
// a service-account key file whose token endpoint is the double's).
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { startApnsDouble } from './apns-double.ts';
import { GoogleDouble, writeServiceAccountKey } from './google-double.ts';

export const WALLET_PASS_TYPE = 'pass.com.example.seabreeze';
export const GOOGLE_ISSUER_ID = '3388000000022123456';
export const GOOGLE_CLIENT_EMAIL = 'wallet@boardwalk-test.iam.gserviceaccount.com';

/** The Google double, a service-account key file in `dir` naming its token endpoint, and the environment that points an app at it. */
export async function startGoogleDouble(dir: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const google = new GoogleDouble(publicKey, GOOGLE_CLIENT_EMAIL);
  await google.start();
  const keyFile = join(dir, 'service-account.json');
  await writeServiceAccountKey(keyFile, privateKey, GOOGLE_CLIENT_EMAIL, `${google.baseUrl}/token`);
  const env = {
    GOOGLE_WALLET_ISSUER_ID: GOOGLE_ISSUER_ID,
    GOOGLE_WALLET_KEY_FILE: keyFile,
    GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
  };
  return { google, env };
}

export async function startWalletDoubles(dir: string, apnsAnswer?: Parameters<typeof startApnsDouble>[1]) {
  const apns = await startApnsDouble(dir, apnsAnswer);
  const { google, env } = await startGoogleDouble(dir);
  return {
    pushes: apns.pushes,
    google,
    env: { APPLE_PASS_TYPE_ID: WALLET_PASS_TYPE, APNS_URL: apns.url, APNS_CA_FILE: apns.caFile, ...env },
    async close() {
      apns.server.close();
      await google.close();
    },
  };
}
