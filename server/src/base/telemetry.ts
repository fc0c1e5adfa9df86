/**
 * What the domain tells the metrics (server/src/plugins/metrics.ts) besides what HTTP shows: how sign-ins
 * and refreshes ended, and reuse of a rotated-out token. The services call it whichever protocol
 * asked; without metrics it does nothing.
 */
export type SignInResult =
  | 'success'
  | 'invalid'
  | 'throttled'
  | 'two_factor_required'
  | 'invalid_two_factor_code'
  | 'two_factor_enrolment_required'
  | 'two_factor_enrolment_expired'
  | 'tenant_deleted'
  | 'password_change_required'
  | 'new_password_invalid';

export interface Telemetry {
  signIn(result: SignInResult): void;
  refresh(result: 'rotated' | 'refused'): void;
  /** A superseded token was used after its grace window: its family was revoked (server/src/auth/tokens.ts). */
  reuseDetected(): void;
}

export const noTelemetry: Telemetry = {
  signIn() {},
  refresh() {},
  reuseDetected() {},
};
