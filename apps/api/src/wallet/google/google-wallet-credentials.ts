// The Google Wallet signing identity: the operator's service-account key (JSON, as the
// Google Cloud console downloads it) and issuer id from configuration, or, when none is
// configured, a development key generated once in DATA_DIR/certs/ and reused afterwards,
// so `npm start` works with nothing configured. Links signed with it have the right
// shape and verify with its public key, but Google only accepts the operator's key.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../platform/config.ts';

/** The issuer id of development links (numeric like Google's; no real issuer). */
export const DEVELOPMENT_ISSUER_ID = '3388000000000000001';
export const DEVELOPMENT_KEY_FILE = 'google-wallet-dev-key.json';
export const DEVELOPMENT_PUBLIC_KEY_FILE = 'google-wallet-dev-public.pem';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** The fields of a service-account key file that signing and the REST API use. */
const serviceAccountKey = z.object({
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY', { message: 'not a PEM private key' }),
  private_key_id: z.string().optional(),
  token_uri: z.url().default(GOOGLE_TOKEN_URI),
});
export type ServiceAccountKey = z.infer<typeof serviceAccountKey>;

export interface GoogleWalletCredentials {
  issuerId: string;
  key: ServiceAccountKey;
  /** True for the generated key: no REST calls, links only verify locally. */
  development: boolean;
}

export interface CredentialsConfig {
  dataDir: string;
  google: { issuerId?: string | undefined; keyFile?: string | undefined };
}

/** A configured key file that cannot be used: the server does not start (like a bad variable). */
export class GoogleWalletKeyError extends ConfigError {}

async function readKeyFile(path: string, source: string): Promise<ServiceAccountKey> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new GoogleWalletKeyError(`${source}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GoogleWalletKeyError(`${source}: ${path} is not JSON (a service-account key file is expected)`);
  }
  const parsed = serviceAccountKey.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new GoogleWalletKeyError(`${source}: ${path}: ${problems}`);
  }
  try {
    const key = createPrivateKey(parsed.data.private_key);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    throw new GoogleWalletKeyError(`${source}: ${path}: private_key is not an RSA private key`);
  }
  return parsed.data;
}

/**
 * Writes a file only if it does not exist yet, atomically: the content goes to a private
 * temporary file that is then hard-linked into place, so a server starting at the same
 * time either wins or reads the complete file the other one wrote.
 */
async function writeOnce(path: string, content: string): Promise<boolean> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  try {
    await link(temporary, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function developmentKey(dataDir: string, log: (message: string) => void): Promise<ServiceAccountKey> {
  const dir = join(dataDir, 'certs');
  const path = join(dir, DEVELOPMENT_KEY_FILE);
  await mkdir(dir, { recursive: true });
  const existing = await readFile(path, 'utf8').then(
    () => true,
    () => false,
  );
  if (!existing) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    // The shape of a Google service-account key file, so one loader serves both.
    const file = {
      type: 'service_account',
      project_id: 'boardwalk-development',
      private_key_id: 'boardwalk-development',
      private_key: privateKey,
      client_email: 'boardwalk-development@boardwalk-development.iam.gserviceaccount.com',
      token_uri: GOOGLE_TOKEN_URI,
    };
    if (await writeOnce(path, `${JSON.stringify(file, null, 2)}\n`)) {
      await writeFile(join(dir, DEVELOPMENT_PUBLIC_KEY_FILE), publicKey);
      log(`generated a development Google Wallet key in ${path}`);
    }
  }
  return readKeyFile(path, 'development Google Wallet key');
}

/** The configured key and issuer id, or the development ones (logged as such). */
export async function loadGoogleWalletCredentials(
  config: CredentialsConfig,
  log: (message: string) => void,
): Promise<GoogleWalletCredentials> {
  const { issuerId, keyFile } = config.google;
  if (issuerId && keyFile) {
    return { issuerId, key: await readKeyFile(keyFile, 'GOOGLE_WALLET_KEY_FILE'), development: false };
  }
  const key = await developmentKey(config.dataDir, log);
  log(
    'Google Wallet: a development key is in use (GOOGLE_WALLET_ISSUER_ID and GOOGLE_WALLET_KEY_FILE unset); ' +
      'links verify locally but Google will not accept them, and wallet objects are not updated',
  );
  return { issuerId: DEVELOPMENT_ISSUER_ID, key, development: true };
}
