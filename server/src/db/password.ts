import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * argon2id parameters (OWASP's minimum: m = 19 MiB, t = 2, p = 1). Verification reads the
 * parameters from the stored hash, so raising these later only affects new hashes.
 */
export const ARGON2_PARAMS = {
  // `Algorithm` is an ambient const enum, unusable under isolatedModules; 2 is Argon2id.
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Hashes a password with {@link ARGON2_PARAMS}; the result is a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

/**
 * Checks a password against a stored hash. A malformed hash counts as a mismatch, never an error,
 * so a corrupt row cannot turn a login into a 500.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
