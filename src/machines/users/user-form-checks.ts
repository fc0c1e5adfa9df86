import { isValidEmail } from '../../domain/email';
import type { I18nKey } from '../../domain/i18n-key';
import { MIN_PASSWORD_LENGTH, passwordStrength } from '../../domain/password-strength';
import type { UserFormContext } from './user-form.machine';
import { roleProblem } from './user-form-role';
import type { UserFormValues } from './users-actors';

/** The user form's local checks, run before anything is sent; the server's refusals arrive by field the same way. */

const USERNAME = /^[A-Za-z0-9._-]{3,40}$/;

/** Why a password is refused (weak is refused: docs/product.md, Passwords), or null when it scores medium or strong. */
export function passwordProblem(password: string): I18nKey | null {
  if (passwordStrength(password) !== 50) return null;
  return Array.from(password).length < MIN_PASSWORD_LENGTH ? 'users.form.passwordTooShort' : 'users.form.passwordWeak';
}

/** Local checks before anything is sent; the server's own refusals arrive per field the same way. */
export function validateUserForm(
  values: UserFormValues,
  mode: 'create' | 'edit',
): Partial<Record<keyof UserFormValues, I18nKey>> {
  const invalid: Partial<Record<keyof UserFormValues, I18nKey>> = {};
  if (!values.username.trim()) invalid.username = 'users.form.required';
  else if (!USERNAME.test(values.username.trim())) invalid.username = 'users.form.usernameInvalid';
  if (!values.name.trim()) invalid.name = 'users.form.required';
  else if (Array.from(values.name.trim()).length > 120) invalid.name = 'users.form.nameTooLong';
  if (!values.email.trim()) invalid.email = 'users.form.required';
  else if (!isValidEmail(values.email.trim())) invalid.email = 'users.form.emailInvalid';
  if (mode === 'create') {
    const problem = values.password ? passwordProblem(values.password) : 'users.form.required';
    if (problem) invalid.password = problem;
  }
  if (values.role_id === null) invalid.role_id = 'users.form.required';
  return invalid;
}

/** Every local refusal: the fields' checks and the role rule. */
export function problemsOf(context: UserFormContext): Partial<Record<string, I18nKey>> {
  const invalid: Partial<Record<string, I18nKey>> = validateUserForm(context.values, context.mode);
  const role = roleProblem(context);
  if (role && !invalid.role_id) invalid.role_id = role;
  return invalid;
}
