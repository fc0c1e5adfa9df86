import { MIN_PASSWORD_LENGTH, passwordStrength } from '../../../src/domain/password-strength';

/** Longest password accepted (argon2 hashes any length; this bounds the work per login). */
export const MAX_PASSWORD_LENGTH = 128;

/**
 * Why a new password is refused, or null when it is acceptable: the server applies the same rule the
 * panel shows (docs/product.md, Passwords; src/domain/password-strength.ts), so a weak password cannot be set by calling
 * the API directly. Weak = shorter than 8, a run of 3 identical characters, or an ascending run of 3
 * letters or digits (012, abc).
 */
export function passwordRefusal(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `password must have at least ${String(MIN_PASSWORD_LENGTH)} characters`;
  if ([...password].length > MAX_PASSWORD_LENGTH)
    return `password must have at most ${String(MAX_PASSWORD_LENGTH)} characters`;
  if (passwordStrength(password) === 50)
    return 'password is too weak: avoid runs of 3 identical characters and sequences such as 123 or abc';
  return null;
}
