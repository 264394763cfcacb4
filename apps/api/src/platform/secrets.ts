import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a high-entropy secret (hashUrl, token): what the database keeps instead of it. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** A new URL-safe random secret; 66 bytes give an 88-character hashUrl (over the 80 rule). */
export function newSecret(bytes = 66): string {
  return randomBytes(bytes).toString('base64url');
}

/** Two secrets (or their hashes) compared in a time that does not tell how much of them matched. */
export const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
