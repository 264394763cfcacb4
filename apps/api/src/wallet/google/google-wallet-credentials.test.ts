import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_ISSUER_ID, GoogleWalletKeyError, loadGoogleWalletCredentials } from './google-wallet-credentials.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bw-google-creds-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const configured = (keyFile: string) => ({ dataDir: dir, google: { issuerId: '3388000000022123456', keyFile } });

describe('loadGoogleWalletCredentials', () => {
  it('generates one development key even when several servers start at once, and says so', async () => {
    const dataDir = join(dir, 'data');
    const messages: string[] = [];
    const loaded = await Promise.all(
      [1, 2, 3].map(() => loadGoogleWalletCredentials({ dataDir, google: {} }, (m) => void messages.push(m))),
    );
    expect(new Set(loaded.map((c) => c.key.private_key)).size).toBe(1);
    expect(loaded[0]).toMatchObject({ issuerId: DEVELOPMENT_ISSUER_ID, development: true });
    expect(messages.filter((m) => m.startsWith('generated a development Google Wallet key'))).toHaveLength(1);
    expect(messages.filter((m) => m.includes('development key is in use'))).toHaveLength(3);
    // No temporary files are left behind.
    expect((await readdir(join(dataDir, 'certs'))).sort()).toEqual(['google-wallet-dev-key.json', 'google-wallet-dev-public.pem']);
  });

  it('reads a configured service-account key and issuer id', async () => {
    const path = join(dir, 'key.json');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(
      path,
      JSON.stringify({
        type: 'service_account',
        client_email: 'a@b.iam.gserviceaccount.com',
        private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }),
      }),
    );
    const credentials = await loadGoogleWalletCredentials(configured(path), () => undefined);
    expect(credentials).toMatchObject({
      issuerId: '3388000000022123456',
      development: false,
      key: { client_email: 'a@b.iam.gserviceaccount.com', token_uri: 'https://oauth2.googleapis.com/token' },
    });
  });

  it('refuses a missing, unparseable or incomplete key file, naming GOOGLE_WALLET_KEY_FILE', async () => {
    const notJson = join(dir, 'not-json.json');
    const incomplete = join(dir, 'incomplete.json');
    const badKey = join(dir, 'bad-key.json');
    await writeFile(notJson, 'nope');
    await writeFile(
      badKey,
      JSON.stringify({ client_email: 'a@b.c', private_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' }),
    );
    await writeFile(incomplete, JSON.stringify({ private_key: 'x' }));
    for (const [path, text] of [
      [join(dir, 'missing.json'), /cannot read/],
      [notJson, /is not JSON/],
      [incomplete, /client_email/],
      [badKey, /not an RSA private key/],
    ] as const) {
      const error = await loadGoogleWalletCredentials(configured(path), () => undefined).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GoogleWalletKeyError);
      expect((error as Error).message).toMatch(/^GOOGLE_WALLET_KEY_FILE: /);
      expect((error as Error).message).toMatch(text);
    }
  });
});
