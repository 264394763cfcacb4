// The server's own secret keys, generated once and kept in the database so that every
// instance shares them. Keyed hashes (the stored-value page's barcodeHash) and signed
// tokens (a ticket share's, a wristband activation's) derive from them; secrets kept until
// used (a queued mail's body) are sealed with AES-256-GCM under the encryption key.
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import fp from 'fastify-plugin';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { Executor } from '@boardwalk/db/client';
import { findOrCreateServerKey } from './keys.repo.ts';

/** What a token check found: its subject, or why it is refused. */
export type TokenCheck = { ok: true; subject: string } | { ok: false; reason: 'expired' | 'invalid' };

export interface Keys {
  /** HMAC-SHA256 of value under the server key, for one purpose, base64url. */
  keyedHash(purpose: string, value: string): string;
  /** A signed token (JWT, HS256) naming one subject for one purpose, valid ttlSeconds from now. */
  signToken(purpose: string, subject: string, ttlSeconds: number): string;
  /** Checks a token's signature, purpose and time (the clock is Date's, so tests can move it). */
  verifyToken(purpose: string, token: string): TokenCheck;
  /**
   * plaintext encrypted and authenticated (AES-256-GCM, a random 96-bit IV) for one purpose:
   * the purpose is the additional data, so a sealed value opens only for the purpose (and the
   * facts it names, such as a mail's recipient) it was sealed for.
   */
  seal(purpose: string, plaintext: string): string;
  /** The plaintext of seal's output, or null when it was altered, sealed for another purpose or under another key. */
  unseal(purpose: string, sealed: string): string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    keys: Keys;
  }
}

const newKey = () => randomBytes(32).toString('base64url');

/** seal's output: version, IV, ciphertext and the 128-bit tag, base64url, dot-separated. */
const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/;

function sealWith(key: KeyObject, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(purpose, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

function unsealWith(key: KeyObject, purpose: string, sealed: string): string | null {
  const parts = SEALED.exec(sealed);
  if (!parts) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[1]!, 'base64url'), { authTagLength: 16 })
      .setAAD(Buffer.from(purpose, 'utf8'))
      .setAuthTag(Buffer.from(parts[3]!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(parts[2]!, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // The tag does not match: altered, another purpose or another key.
    return null;
  }
}

/** The server's keys, from the database (created on first use, shared by every instance). */
export async function loadKeys(db: Executor): Promise<Keys> {
  const key = async (name: string) => Buffer.from(await findOrCreateServerKey(db, name, newKey), 'base64url');
  // KeyObjects, made once: node:crypto imports a raw key again at every createHmac or
  // createCipheriv (a keyed hash took 11 µs with the bytes, 1.6 µs with the KeyObject).
  const hmacKey = createSecretKey(await key('hmac'));
  const tokenKey = await key('token-signing');
  const encryptionKey = createSecretKey(await key('encryption'));
  // fast-jwt signs with node:crypto's HMAC in the calling thread: every login signs a token,
  // and WebCrypto's HMAC runs each one through the thread pool (bench/lookup).
  const sign = createSigner({ key: tokenKey, algorithm: 'HS256' });
  const verifiers = new Map<string, (token: string) => { sub?: unknown }>();
  const verifierFor = (purpose: string) => {
    let verify = verifiers.get(purpose);
    if (!verify) {
      verify = createVerifier({ key: tokenKey, algorithms: ['HS256'], allowedAud: purpose, requiredClaims: ['sub', 'exp'] });
      verifiers.set(purpose, verify);
    }
    return verify;
  };
  return {
    keyedHash: (purpose, value) => createHmac('sha256', hmacKey).update(`${purpose}\0${value}`).digest('base64url'),
    signToken: (purpose, subject, ttlSeconds) => sign({ sub: subject, aud: purpose, exp: Math.floor(Date.now() / 1000) + ttlSeconds }),
    verifyToken(purpose, token) {
      try {
        const { sub } = verifierFor(purpose)(token);
        return typeof sub === 'string' && sub ? { ok: true, subject: sub } : { ok: false, reason: 'invalid' };
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        return { ok: false, reason: error.code === TokenError.codes.expired ? 'expired' : 'invalid' };
      }
    },
    seal: (purpose, plaintext) => sealWith(encryptionKey, purpose, plaintext),
    unseal: (purpose, sealed) => unsealWith(encryptionKey, purpose, sealed),
  };
}

export const keysPlugin = fp(
  async (app) => {
    app.decorate('keys', await loadKeys(app.database.db));
  },
  { name: 'keys', dependencies: ['data'] },
);
