// The server's own secret keys, generated once and kept in the database so that every
// instance shares them. Keyed hashes (the stored-value page's barcodeHash) and signed
// tokens (a ticket share's, a wristband activation's) derive from them.
import { createHmac, randomBytes } from 'node:crypto';
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
}

declare module 'fastify' {
  interface FastifyInstance {
    keys: Keys;
  }
}

const newKey = () => randomBytes(32).toString('base64url');

/** The server's keys, from the database (created on first use, shared by every instance). */
export async function loadKeys(db: Executor): Promise<Keys> {
  const hmacKey = Buffer.from(await findOrCreateServerKey(db, 'hmac', newKey), 'base64url');
  const tokenKey = Buffer.from(await findOrCreateServerKey(db, 'token-signing', newKey), 'base64url');
  // fast-jwt signs with node:crypto's HMAC in the calling thread: every login signs a token,
  // and WebCrypto's HMAC (jose) runs each one through the thread pool (bench/lookup).
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
  };
}

export const keysPlugin = fp(
  async (app) => {
    app.decorate('keys', await loadKeys(app.database.db));
  },
  { name: 'keys', dependencies: ['data'] },
);
