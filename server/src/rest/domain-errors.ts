import type { FastifyRequest } from 'fastify';
import type { DomainError } from '../base/domain-error';

/** A REST answer: status, the contract's body (contracts/openapi.yaml components/responses), headers. */
export interface RestAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

function hasKey(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);
}

/**
 * Where a domain field lives in this request, as the contract's `ValidationError` names it:
 * `body/email`, `query/finishAt`, `path/id`. A field already so named is kept.
 */
export function restField(request: FastifyRequest, field: string): string {
  if (/^(body|query|path)(\/|$)/.test(field)) return field;
  const top = field.split('.')[0] ?? field;
  if (hasKey(request.body, top)) return `body/${field}`;
  if (hasKey(request.query, top)) return `query/${field}`;
  if (hasKey(request.params, top)) return `path/${field}`;
  // A field the request leaves out (required by a rule, e.g. auditNames's `targetType`): a GET has no body.
  return request.method === 'GET' ? `query/${field}` : `body/${field}`;
}

/**
 * The one mapping of domain errors to REST answers. GraphQL has its own
 * (server/src/graphql/domain-errors.ts); both read the same {@link DomainError}.
 */
export function restAnswerOf(error: DomainError, request: FastifyRequest): RestAnswer {
  const { field } = error.details;
  switch (error.kind) {
    case 'unauthenticated':
      return { status: 401, body: error.details.unauthorized ?? { status: 'Unauthorized' }, headers: {} };
    case 'forbidden':
      return {
        status: 403,
        // `reason` when more than a missing permission refuses it (staff only, a role above the caller's…).
        body: {
          message: 'Forbidden',
          required_permission: [...(error.details.required ?? [])],
          ...(error.message === 'Forbidden' ? {} : { reason: error.message }),
        },
        headers: {},
      };
    case 'invalid':
    case 'unknown_reference': {
      // A reference in a body that names nothing is a bad value of that field, like any other.
      const bad = error.details.errors ?? [{ field: field ?? 'body', message: error.message }];
      return {
        status: 400,
        body: {
          message: 'Validation failed',
          errors: bad.map((e) => ({ field: restField(request, e.field), message: e.message })),
        },
        headers: {},
      };
    }
    case 'not_found':
      return { status: 404, body: { message: error.message }, headers: {} };
    case 'conflict':
    case 'limit_reached':
      return {
        status: 409,
        body: {
          message: error.message,
          ...(field === undefined ? {} : { field }),
          ...(error.details.code === undefined ? {} : { error: error.details.code }),
          ...(error.details.undoConflicts === undefined ? {} : { conflicts: error.details.undoConflicts }),
        },
        headers: {},
      };
    case 'stale':
      // contracts/openapi.yaml `Conflict` with `error: stale` (docs/lists.md, Versions).
      return {
        status: 409,
        body: {
          message: error.message,
          field: 'version',
          error: 'stale',
          version: error.details.version,
          changes: error.details.changes ?? [],
        },
        headers: {},
      };
    case 'throttled': {
      const retryAfter = error.details.retryAfter ?? 1;
      return {
        status: 429,
        body: { message: 'Too many failed attempts', retry_after: retryAfter },
        headers: { 'Retry-After': String(retryAfter) },
      };
    }
    case 'invalid_credentials':
      return {
        status: 401,
        body: { error: 'invalid_credentials', message: 'Email ou/e senha errado(s)' },
        headers: {},
      };
    case 'two_factor_required':
      return { status: 401, body: { error: 'two_factor_required', message: error.message }, headers: {} };
    case 'invalid_two_factor_code':
      return { status: 401, body: { error: 'invalid_two_factor_code', message: error.message }, headers: {} };
    case 'two_factor_enrolment_required':
      return {
        status: 401,
        body: { error: 'two_factor_enrolment_required', message: error.message, enrolment: error.details.enrolment },
        headers: {},
      };
    case 'two_factor_enrolment_expired':
      return { status: 401, body: { error: 'two_factor_enrolment_expired', message: error.message }, headers: {} };
    case 'tenant_deleted':
      return { status: 401, body: { error: 'tenant_deleted', message: error.message }, headers: {} };
    case 'password_change_required':
      return { status: 401, body: { error: 'password_change_required', message: error.message }, headers: {} };
    case 'reset_link_invalid':
      return {
        status: 400,
        body: {
          message: 'Validation failed',
          error: 'reset_link_invalid',
          errors: [{ field: restField(request, field ?? 'token'), message: error.message }],
        },
        headers: {},
      };
    case 'mail_disabled':
      // Not an outage: no Retry-After, as nothing changes by waiting.
      return {
        status: 503,
        body: { status: 'mail_disabled', error: 'mail_disabled', message: error.message },
        headers: {},
      };
  }
}
