import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('are argon2id PHC strings with the OWASP parameters and a fresh salt each time', async () => {
    const a = await hashPassword('s3cret pass');
    const b = await hashPassword('s3cret pass');
    const [, kind, version, params, salt, digest] = a.split('$');
    expect(kind).toBe('argon2id');
    expect(version).toBe('v=19');
    expect(params).toBe('m=19456,t=2,p=1');
    expect(salt).toMatch(/^[A-Za-z0-9+/]{22}$/);
    expect(digest).toMatch(/^[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret');
  });

  it('verify the right password only', async () => {
    const stored = await hashPassword('s3cret pass');
    expect(await verifyPassword(stored, 's3cret pass')).toBe(true);
    expect(await verifyPassword(stored, 's3cret pass ')).toBe(false);
    expect(await verifyPassword(stored, 'S3cret pass')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('answer false, not an error, for a hash that is not one', async () => {
    expect(await verifyPassword('', 'x')).toBe(false);
    expect(await verifyPassword('$argon2id$nonsense', 'x')).toBe(false);
  });

  it('keep one dummy hash with the same parameters for unknown usernames', async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy.split('$').slice(1, 4)).toEqual((await hashPassword('x')).split('$').slice(1, 4));
    expect(await dummyPasswordHash()).toBe(dummy);
  });
});
