import { ApiError, fieldErrors } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-error';
import type { I18nKey } from '../../domain/i18n-key';

/**
 * A failed action as the view shows it: what failed (`key`, e.g. `users.errors.delete`) and why
 * (`reason`, e.g. `apiErrors.conflict`), so a failure is never only a silent empty list or `false`.
 */
export interface ActionError {
  key: I18nKey;
  reason: I18nKey;
}

const STATUS_REASONS: Readonly<Record<number, I18nKey>> = {
  400: 'apiErrors.validation',
  401: 'apiErrors.unauthorized',
  403: 'apiErrors.forbidden',
  404: 'apiErrors.notFound',
  409: 'apiErrors.conflict',
  429: 'apiErrors.tooManyRequests',
  503: 'apiErrors.unavailable',
};

const GRAPHQL_REASONS: Readonly<Record<string, I18nKey>> = {
  BAD_USER_INPUT: 'apiErrors.validation',
  NOT_FOUND: 'apiErrors.notFound',
  USER_LIMIT_REACHED: 'apiErrors.userLimit',
};

/**
 * The reasons the server gives a 403 (contracts/openapi.yaml `Forbidden.reason`; GraphQL puts it in the
 * FORBIDDEN message), by what each says: the staff-only policies (server/src/access/guard.ts), the
 * no-way-up rules (server/src/access/escalation.ts), a customer's billing flags
 * (server/src/instances/service.ts), the administrador role's name (server/src/roles/service.ts), one's own
 * password (server/src/users/service.ts) and two-factor (server/src/access/self-service.ts). The contract asks
 * not to parse a reason: this only recognises the whole phrase, and any other 403 reads as the generic
 * refusal, never as the server's English text. tests/unit/forbidden-reasons.test.ts holds it to the server.
 */
export const FORBIDDEN_REASONS: readonly (readonly [phrase: string, key: I18nKey])[] = [
  ['only back-office staff may make an instance official or unlimited', 'access.staffBillingFlags'],
  ['only back-office staff may do this', 'access.staffOnly'],
  ['this tenant is not yours', 'access.otherTenant'],
  ['only an administrador may make another user administrador', 'access.grantAdministrador'],
  ['the role grants permissions you do not hold', 'access.grantLacks'],
  ['only an administrador may change an administrador', 'access.actOnAdministrador'],
  ['this user holds permissions you do not hold', 'access.actOnLacks'],
  ['you cannot change your own role; another administrator must', 'access.ownRole'],
  ["you cannot change your own role's permissions", 'access.ownRolePermissions'],
  ['you cannot give or take away permissions you do not hold', 'access.permissionLacks'],
  ['only an administrador may rename the administrador role', 'access.renameAdministrador'],
  ['only an administrador may do this', 'access.administradorOnly'],
  ['change your own password on your account screen, with your current password', 'access.ownPassword'],
  ['turn your own two-factor off on the two-factor screen, with a code', 'access.ownTwoFactor'],
];

/** The key of a 403's reason text (REST `reason`, or a GraphQL FORBIDDEN message), or the generic refusal. */
export function forbiddenReasonKey(text: unknown): I18nKey {
  if (typeof text !== 'string') return 'apiErrors.forbidden';
  return FORBIDDEN_REASONS.find(([phrase]) => text.includes(phrase))?.[1] ?? 'apiErrors.forbidden';
}

/**
 * The 409 refusals whose `error` code says what to do next (contracts/openapi.yaml, tag `webhooks`): each
 * has its own words instead of the generic conflict.
 */
const CONFLICT_REASONS: Readonly<Record<string, I18nKey>> = {
  webhook_endpoint_taken: 'webhooks.refusals.endpointTaken',
  webhook_endpoint_limit: 'webhooks.refusals.endpointLimit',
  webhook_endpoint_paused: 'webhooks.refusals.endpointPaused',
  webhook_endpoint_deleted: 'webhooks.refusals.endpointDeleted',
  webhook_no_endpoint: 'webhooks.refusals.noEndpoint',
  webhook_delivery_in_progress: 'webhooks.refusals.deliveryInProgress',
};

/** A REST 409's `error` code (contracts/openapi.yaml `Conflict.error`), or null. */
export function conflictCodeOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { error?: unknown } | null;
  return body !== null && typeof body === 'object' && typeof body.error === 'string' ? body.error : null;
}

function restReason(body: unknown): unknown {
  return body !== null && typeof body === 'object' ? (body as { reason?: unknown }).reason : undefined;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Why a request failed, as an i18n key: by GraphQL code, HTTP status, or network/abort. */
export function reasonKeyOf(error: unknown): I18nKey {
  if (isAbort(error)) return 'apiErrors.cancelled';
  if (error instanceof GraphqlError) {
    if (error.code === 'FORBIDDEN') return forbiddenReasonKey(error.errors[0]?.message);
    const byCode = error.code === undefined ? undefined : GRAPHQL_REASONS[error.code];
    if (byCode) return byCode;
  }
  if (error instanceof ApiError && error.status === 403 && !(error instanceof GraphqlError))
    return forbiddenReasonKey(restReason(error.body));
  if (error instanceof ApiError && error.status === 409) {
    const code = conflictCodeOf(error);
    const byCode = code === null ? undefined : CONFLICT_REASONS[code];
    if (byCode) return byCode;
  }
  if (error instanceof ApiError)
    return STATUS_REASONS[error.status] ?? (error.status >= 500 ? 'apiErrors.server' : 'apiErrors.unknown');
  // fetch rejects with a TypeError when the network is down or the host unreachable.
  if (error instanceof TypeError) return 'apiErrors.network';
  return 'apiErrors.unknown';
}

/** Builds the {@link ActionError} of an action that failed with `error`. */
export function actionError(key: I18nKey, error: unknown): ActionError {
  return { key, reason: reasonKeyOf(error) };
}

/**
 * The form fields the server refused, each with an i18n key: REST 400 `errors[].field`, REST 409
 * `field` (a duplicate) and GraphQL `extensions.field` (BAD_USER_INPUT / NOT_FOUND).
 */
export function refusedFields(error: unknown): Record<string, I18nKey> {
  const out: Record<string, I18nKey> = {};
  if (error instanceof GraphqlError) {
    for (const item of error.errors) {
      const field = item.extensions?.['field'];
      const code = item.extensions?.['code'];
      if (typeof field !== 'string') continue;
      out[field] ??= code === 'NOT_FOUND' ? 'apiErrors.fieldNotFound' : 'apiErrors.fieldInvalid';
    }
    return out;
  }
  if (error instanceof ApiError && error.status === 409) {
    const body = error.body as { field?: unknown } | null;
    if (body && typeof body.field === 'string') out[body.field] = 'apiErrors.fieldTaken';
    return out;
  }
  for (const field of Object.keys(fieldErrors(error))) out[field] = 'apiErrors.fieldInvalid';
  return out;
}
