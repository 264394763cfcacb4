// The server's own secret key, generated once and kept in the database so that every
// instance shares it. Keyed hashes (the stored-value page's barcodeHash) derive from it.
import { createHmac, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { findOrCreateServerKey } from './keys.repo.ts';

export interface Keys {
  /** HMAC-SHA256 of value under the server key, for one purpose, base64url. */
  keyedHash(purpose: string, value: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    keys: Keys;
  }
}

export const keysPlugin = fp(
  async (app) => {
    const stored = await findOrCreateServerKey(app.database.db, 'hmac', () => randomBytes(32).toString('base64url'));
    const key = Buffer.from(stored, 'base64url');
    app.decorate('keys', {
      keyedHash: (purpose, value) => createHmac('sha256', key).update(`${purpose}\0${value}`).digest('base64url'),
    } satisfies Keys);
  },
  { name: 'keys', dependencies: ['data'] },
);
