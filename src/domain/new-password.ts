import { MIN_PASSWORD_LENGTH, passwordStrength } from './password-strength';

/** Why a new password typed twice cannot be sent, or null when it can. */
export type NewPasswordProblem = 'mismatch' | 'weak' | 'same';

/**
 * The checks the server makes on a new password (server/src/auth/password-policy.ts: the strength rule
 * of docs/product.md, Passwords), made before sending so the form says what is wrong at once, plus the
 * two copies agreeing and, for a temporary password, differing from it. Weak first: that is what the
 * user must fix whatever the second copy says.
 */
export function newPasswordProblem(
  password: string,
  confirmation: string,
  previous?: string,
): NewPasswordProblem | null {
  if ([...password].length < MIN_PASSWORD_LENGTH || passwordStrength(password) === 50) return 'weak';
  if (previous !== undefined && password === previous) return 'same';
  if (password !== confirmation) return 'mismatch';
  return null;
}
