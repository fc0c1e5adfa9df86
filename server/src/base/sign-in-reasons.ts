/**
 * Why a sign-in attempt failed (`login_attempts.reason`, migration 0019; contracts/openapi.yaml
 * `SignInFailureReason`), and which of them the throttle and the login-failure report count.
 */
export const SIGN_IN_FAILURE_REASONS = [
  'unknown_account',
  'wrong_password',
  'blocked',
  'throttled',
  'invalid_two_factor_code',
  'two_factor_enrolment_expired',
  'two_factor_required',
  'two_factor_enrolment_required',
  'tenant_deleted',
  'password_change_required',
  'other_tenant',
] as const;

export type SignInFailureReason = (typeof SIGN_IN_FAILURE_REASONS)[number];

/**
 * The failures the throttle counts (migration 0019 `throttle_counted`, written out there the same):
 * wrong credentials and a blocked account. The others follow a right password (a sign-in step, a
 * closed tenant, another tenant's path) or are the throttle's own refusal, recorded but not counted again.
 */
export const THROTTLE_COUNTED_REASONS = [
  'unknown_account',
  'wrong_password',
  'blocked',
  'invalid_two_factor_code',
] as const satisfies readonly SignInFailureReason[];

/**
 * Attempts recorded only since migration 0019 (before, none of them was written): sign-in steps and
 * the throttle's refusals. The login-failure report (server/src/reports/sheets.ts) leaves them out, so
 * it shows what it always showed.
 */
export const NOT_REPORTED_REASONS = [
  'throttled',
  'two_factor_required',
  'two_factor_enrolment_required',
  'two_factor_enrolment_expired',
  'password_change_required',
] as const satisfies readonly SignInFailureReason[];
