// The server's own secret keys, generated once and kept in the database so that every
// instance shares them. Keyed hashes (the stored-value page's barcodeHash) and signed
// tokens (a ticket share's, a wristband activation's) derive from them.
import { createHmac, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Executor } from '@boardwalk/db/client';
import { findOrCreateServerKey } from './keys.repo.ts';

/** What a token check found: its subject, or why it is refused. */
export type TokenCheck = { ok: true; subject: string } | { ok: false; reason: 'expired' | 'invalid' };

export interface Keys {
  /** HMAC-SHA256 of value under the server key, for one purpose, base64url. */
  keyedHash(purpose: string, value: string): string;
  /** A signed token (JWT, HS256) naming one subject for one purpose, valid ttlSeconds from now. */
  signToken(purpose: string, subject: string, ttlSeconds: number): Promise<string>;
  /** Checks a token's signature, purpose and time (the clock is Date's, so tests can move it). */
  verifyToken(purpose: string, token: string): Promise<TokenCheck>;
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
  const tokenKey = new Uint8Array(Buffer.from(await findOrCreateServerKey(db, 'token-signing', newKey), 'base64url'));
  return {
    keyedHash: (purpose, value) => createHmac('sha256', hmacKey).update(`${purpose}\0${value}`).digest('base64url'),
    signToken: (purpose, subject, ttlSeconds) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setAudience(purpose)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(tokenKey),
    async verifyToken(purpose, token) {
      try {
        const { payload } = await jwtVerify(token, tokenKey, { algorithms: ['HS256'], audience: purpose, currentDate: new Date() });
        return payload.sub ? { ok: true, subject: payload.sub } : { ok: false, reason: 'invalid' };
      } catch (error) {
        if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
        if (error instanceof errors.JOSEError) return { ok: false, reason: 'invalid' };
        throw error;
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
