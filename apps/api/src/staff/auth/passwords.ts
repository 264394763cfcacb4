// Team member passwords: argon2id through @node-rs/argon2 (the Rust argon2 crate, shipped
// prebuilt per platform as an npm optional dependency: nothing to compile or download at
// install), with OWASP's Password Storage Cheat Sheet parameters: 19 MiB of memory, 2
// iterations, 1 lane. The PHC string it answers ($argon2id$v=19$m=19456,t=2,p=1$salt$hash)
// carries its salt and parameters.
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id; the package's enum is a const enum, which isolated modules cannot read. */
const ARGON2ID: Algorithm.Argon2id = 2;
export const PASSWORD_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, PASSWORD_OPTIONS);
}

/** True when plain matches; false for a mismatch or a hash that is not a valid PHC string. */
export async function verifyPassword(passwordHash: string, plain: string): Promise<boolean> {
  try {
    return await verify(passwordHash, plain);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * A hash of a random password with today's parameters: an unknown or inactive username is
 * verified against it so a failed login costs the same time whatever the reason.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomUUID());
  return dummy;
}
