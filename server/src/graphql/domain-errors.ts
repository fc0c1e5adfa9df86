import type { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { DomainError } from '../base/domain-error';
import { isBroken } from '../base/broken-promises';

/**
 * The one mapping of domain errors to GraphQL execution errors (contracts/schema.graphql, "ERRORS
 * DURING EXECUTION"); REST has its own (server/src/rest/domain-errors.ts). `http` never reaches the
 * wire: it sets the response status. Built with yoga's `createGraphQLError`, so they are instances of
 * the graphql-js copy yoga checks against (under vitest, `import 'graphql'` here and inside yoga can
 * load two copies, ESM and CJS, and a foreign GraphQLError would be masked as INTERNAL_SERVER_ERROR).
 */
/** Where the errors a domain error stands for wait, on the first of them, until the result is sent. */
export const ONE_PER_FIELD = Symbol('one GraphQL error per bad field');

/**
 * A domain error as GraphQL errors: one per bad field for an `invalid` naming several (the contract's
 * "one error per bad field"), else one. A resolver can throw only one error, so the others ride on the
 * first ({@link ONE_PER_FIELD}) and ./index.ts spreads them in the result.
 */
export function graphqlErrorsOf(error: DomainError, at?: Pick<GraphQLError, 'nodes' | 'path'>): GraphQLError {
  const several = error.kind === 'invalid' ? (error.details.errors ?? []) : [];
  if (several.length < 2) return graphqlErrorOf(error, at);
  const all = several.map((e) =>
    createGraphQLError(e.message, {
      nodes: at?.nodes,
      path: at?.path,
      extensions: { code: 'BAD_USER_INPUT', field: e.field },
    }),
  );
  const [first] = all;
  return Object.assign(first ?? graphqlErrorOf(error, at), { [ONE_PER_FIELD]: all });
}

function graphqlErrorOf(error: DomainError, at?: Pick<GraphQLError, 'nodes' | 'path'>): GraphQLError {
  const place = { nodes: at?.nodes, path: at?.path };
  const field = error.details.field;
  const withField = (code: string) =>
    createGraphQLError(error.message, {
      ...place,
      extensions: isBroken('graphql-error-without-code') ? {} : field === undefined ? { code } : { code, field },
    });
  switch (error.kind) {
    case 'unauthenticated':
      return createGraphQLError('Unauthorized', {
        ...place,
        extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
      });
    case 'forbidden': {
      const required = error.details.required ?? [];
      const needs = required.length
        ? `Forbidden: needs route permission ${required.map((r) => `\`${r}\``).join(' or ')}`
        : 'Forbidden';
      // The reason, when more than a missing permission refuses it (staff only, a role above the caller's…).
      const message = error.message === 'Forbidden' ? needs : `${needs}: ${error.message}`;
      return createGraphQLError(message, { ...place, extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
    }
    case 'invalid':
    case 'conflict':
      // The contract names no conflict code: a duplicate or a refused state breaks the rule stated on
      // the argument (BAD_USER_INPUT with its name).
      return withField('BAD_USER_INPUT');
    case 'not_found':
    case 'unknown_reference':
      return withField('NOT_FOUND');
    case 'limit_reached':
      return createGraphQLError(error.message, { ...place, extensions: { code: 'USER_LIMIT_REACHED' } });
    case 'stale':
      // contracts/schema.graphql, STALE: what REST's 409 `stale` carries (docs/lists.md, Versions).
      return createGraphQLError(error.message, {
        ...place,
        extensions: {
          code: 'STALE',
          field: 'version',
          version: error.details.version,
          changes: error.details.changes ?? [],
        },
      });
    case 'throttled': {
      const retryAfter = error.details.retryAfter ?? 1;
      return createGraphQLError('Too many failed attempts', {
        ...place,
        extensions: {
          code: 'TOO_MANY_REQUESTS',
          retry_after: retryAfter,
          http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
        },
      });
    }
    case 'invalid_credentials':
      return createGraphQLError('Wrong Email or Password', { ...place, extensions: { code: 'INVALID_CREDENTIALS' } });
    case 'two_factor_required':
      return createGraphQLError(error.message, { ...place, extensions: { code: 'TWO_FACTOR_REQUIRED' } });
    case 'invalid_two_factor_code':
      return createGraphQLError(error.message, { ...place, extensions: { code: 'INVALID_TWO_FACTOR_CODE' } });
    case 'two_factor_enrolment_required':
      return createGraphQLError(error.message, {
        ...place,
        extensions: { code: 'TWO_FACTOR_ENROLMENT_REQUIRED', enrolment: error.details.enrolment },
      });
    case 'two_factor_enrolment_expired':
      return createGraphQLError(error.message, { ...place, extensions: { code: 'TWO_FACTOR_ENROLMENT_EXPIRED' } });
    case 'tenant_deleted':
      return createGraphQLError(error.message, { ...place, extensions: { code: 'TENANT_DELETED' } });
    case 'password_change_required':
      return createGraphQLError(error.message, { ...place, extensions: { code: 'PASSWORD_CHANGE_REQUIRED' } });
    // Reset links and mail are REST only (contracts/openapi.yaml, docs/support-desk.md): no GraphQL
    // operation throws these; were one to, they read as the bad input and the outage they are.
    case 'reset_link_invalid':
      return withField('BAD_USER_INPUT');
    case 'mail_disabled':
      return createGraphQLError(error.message, {
        ...place,
        extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } },
      });
  }
}
