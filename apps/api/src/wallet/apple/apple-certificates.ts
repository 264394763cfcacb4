// The Apple Wallet signing material: the pass type certificate and key, the Apple WWDR
// intermediate, and the NFC encryption key. From configuration (PEM files) when set; otherwise
// a development chain generated once in DATA_DIR/certs and reused on later starts, so
// `npm start` works with nothing configured. Such passes verify against
// DATA_DIR/certs/apple-dev-root.pem; real devices need the operator's Apple-issued certificate.
import { createPrivateKey, createPublicKey, randomUUID, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile, link, unlink, rename } from 'node:fs/promises';
import { join } from 'node:path';
// @peculiar/x509 needs a Reflect metadata polyfill loaded before it (its README).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { Config } from '../../platform/config.ts';

/** Apple's OIDs in pass type certificates and the WWDR intermediate. */
export const APPLE_OID = {
  passTypeId: '1.2.840.113635.100.6.1.16',
  passTypeIdSigning: '1.2.840.113635.100.4.14',
  wwdrIntermediate: '1.2.840.113635.100.6.2.1',
} as const;
const UID_OID = '0.9.2342.19200300.100.1.1';

export interface AppleCredentials {
  /** DER of the signer (pass type) certificate and of the WWDR intermediate. */
  signerCertDer: Buffer;
  wwdrCertDer: Buffer;
  signerKey: KeyObject;
  /** PEM forms for TLS client authentication with APNs. */
  signerCertPem: string;
  signerKeyPem: string;
  /** The NFC key's public half: base64 of its DER SubjectPublicKeyInfo, as pass.json wants it. */
  nfcPublicKey: string;
  /** True when the development chain is in use (no Apple-issued certificate configured). */
  development: boolean;
  /** When the signer (pass type) certificate expires: passes signed after it do not install. */
  signerNotAfter: Date;
}

export interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

type AppleConfig = Pick<Config, 'dataDir' | 'brandName'> & { apple: Config['apple'] };

export const devFiles = (dataDir: string) => {
  const dir = join(dataDir, 'certs');
  return {
    dir,
    /** Signer key, signer certificate, WWDR stand-in and root, in that order. */
    chain: join(dir, 'apple-dev-chain.pem'),
    root: join(dir, 'apple-dev-root.pem'),
    nfcKey: join(dir, 'apple-dev-nfc-key.pem'),
  };
};

/** Loads the configured certificates, or the development chain (created on first start). */
export async function loadAppleCredentials(config: AppleConfig, log: Logger): Promise<AppleCredentials> {
  const { apple } = config;
  const files = devFiles(config.dataDir);
  let signerCertPem: string;
  let wwdrCertPem: string;
  let signerKey: KeyObject;
  let development = false;
  if (apple.certFile && apple.keyFile && apple.wwdrFile) {
    [signerCertPem, wwdrCertPem] = await Promise.all([readFile(apple.certFile, 'utf8'), readFile(apple.wwdrFile, 'utf8')]);
    const keyPem = await readFile(apple.keyFile, 'utf8');
    signerKey = createPrivateKey(apple.keyPassphrase ? { key: keyPem, passphrase: apple.keyPassphrase } : keyPem);
  } else {
    development = true;
    const chain = await readOrCreate(files.chain, () => createDevelopmentChain(config));
    const blocks = pemBlocks(chain);
    const key = blocks.find((b) => b.includes('PRIVATE KEY'));
    const certs = blocks.filter((b) => b.includes('CERTIFICATE'));
    if (!key || certs.length !== 3) throw new Error(`${files.chain} is not a development chain: delete it to have it generated again`);
    signerKey = createPrivateKey(key);
    [signerCertPem, wwdrCertPem] = certs as [string, string, string];
    await writeAtomically(files.root, `${certs[2]}\n`);
    log.warn(
      { root: files.root },
      'Apple Wallet: development certificates in use (APPLE_CERT_FILE, APPLE_KEY_FILE, APPLE_WWDR_FILE unset); passes verify against the development root, not on real devices',
    );
  }
  const nfcPem = apple.nfcKeyFile ? await readFile(apple.nfcKeyFile, 'utf8') : await readOrCreate(files.nfcKey, createNfcKey);
  if (!apple.nfcKeyFile) log.warn({ file: files.nfcKey }, 'Apple Wallet: development NFC key in use (APPLE_NFC_KEY_FILE unset)');
  const nfcPublicKey = createPublicKey(nfcPem).export({ type: 'spki', format: 'der' }).toString('base64');

  const signer = new X509Certificate(signerCertPem);
  if (!signer.checkPrivateKey(signerKey)) throw new Error('Apple Wallet: the signer key does not belong to the signer certificate');
  return {
    signerCertDer: signer.raw,
    wwdrCertDer: new X509Certificate(wwdrCertPem).raw,
    signerKey,
    signerCertPem: signer.toString(),
    signerKeyPem: signerKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    nfcPublicKey,
    development,
    signerNotAfter: new Date(signer.validTo),
  };
}

function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
}

/**
 * Reads a file, or creates it once: several processes starting on one DATA_DIR at the same
 * time each write a temporary file and hard-link it into place, and link() refuses to
 * replace an existing file, so all of them end up with the one that was linked first.
 */
async function readOrCreate(path: string, create: () => Promise<string>): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomUUID()}.tmp`;
  await writeFile(temp, await create(), { mode: 0o600 });
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temp);
  }
  return readFile(path, 'utf8');
}

async function writeAtomically(path: string, content: string) {
  const temp = `${path}.${randomUUID()}.tmp`;
  await writeFile(temp, content);
  await rename(temp, path);
}

const subtle = webcrypto.subtle;
const rsa = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const toPem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----`;

/**
 * A root CA, an intermediate standing for Apple WWDR and a pass type certificate shaped like
 * Apple's (UID = pass type id, OU = team id, the pass type OIDs), all RSA 2048 like Apple's.
 */
async function createDevelopmentChain(config: AppleConfig): Promise<string> {
  const { passTypeId, teamId } = config.apple;
  const [rootKeys, wwdrKeys, signerKeys] = await Promise.all(
    [0, 1, 2].map(() => subtle.generateKey(rsa, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>),
  );
  const now = Date.now();
  const notBefore = new Date(now - 60 * 60 * 1000);
  const years = (n: number) => new Date(now + n * 365 * 24 * 60 * 60 * 1000);
  const rootName = `CN=${config.brandName} Development Root CA, O=${config.brandName} (development), C=US`;
  const wwdrName = `CN=${config.brandName} Development WWDR Certification Authority, OU=G4, O=${config.brandName} (development), C=US`;

  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: rootName,
    keys: rootKeys!,
    notBefore,
    notAfter: years(20),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys!.publicKey),
    ],
  });
  const wwdr = await x509.X509CertificateGenerator.create({
    subject: wwdrName,
    issuer: root.subject,
    publicKey: wwdrKeys!.publicKey,
    signingKey: rootKeys!.privateKey,
    notBefore,
    notAfter: years(10),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(wwdrKeys!.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(rootKeys!.publicKey),
      new x509.Extension(APPLE_OID.wwdrIntermediate, false, derNull()),
    ],
  });
  const signer = await x509.X509CertificateGenerator.create({
    subject: [
      { [UID_OID]: [passTypeId] },
      { CN: [`Pass Type ID: ${passTypeId}`] },
      { OU: [teamId] },
      { O: [`${config.brandName} (development)`] },
      { C: ['US'] },
    ],
    issuer: wwdr.subject,
    publicKey: signerKeys!.publicKey,
    signingKey: wwdrKeys!.privateKey,
    notBefore,
    notAfter: years(2),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      // Pass type id signing, and client authentication for APNs.
      new x509.ExtendedKeyUsageExtension([APPLE_OID.passTypeIdSigning, x509.ExtendedKeyUsage.clientAuth], false),
      await x509.SubjectKeyIdentifierExtension.create(signerKeys!.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(wwdrKeys!.publicKey),
      new x509.Extension(APPLE_OID.passTypeId, false, derUtf8String(passTypeId)),
    ],
  });
  const signerKeyDer = await subtle.exportKey('pkcs8', signerKeys!.privateKey);
  return [toPem('PRIVATE KEY', signerKeyDer), signer.toString('pem'), wwdr.toString('pem'), root.toString('pem'), ''].join('\n');
}

/** The P-256 key whose public half NFC passes carry (Apple's Value Added Services). */
async function createNfcKey(): Promise<string> {
  const keys = (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  return `${toPem('PRIVATE KEY', await subtle.exportKey('pkcs8', keys.privateKey))}\n`;
}

const derNull = () => new Uint8Array([0x05, 0x00]);
/** A short DER UTF8String (the pass type id extension's value, as in Apple's certificates). */
function derUtf8String(text: string) {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 127) throw new Error('pass type id too long');
  return new Uint8Array([0x0c, bytes.length, ...bytes]);
}
