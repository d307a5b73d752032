// Password hashing: argon2id with the OWASP minimum (m = 19 MiB, t = 2, p = 1). Hashes carry
// their parameters, so raising them later rehashes each account at its next login.
import crypto from 'node:crypto';
import argon2 from 'argon2';

export const PASSWORD_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, PASSWORD_OPTIONS);
}

/** False for a malformed stored hash as well as for a wrong password. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export function passwordNeedsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, PASSWORD_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a hash nobody knows the password of, with the current parameters: a login
 * for an unknown address (or an account without a password) then costs the same time as one
 * for a known address, so the answer's timing does not tell which addresses are registered.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(32).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
