import { createGraphQLError } from 'graphql-yoga';

/**
 * Execution errors of contracts/schema.graphql ("ERRORS DURING EXECUTION"); `http` never reaches the wire.
 * Built with yoga's `createGraphQLError`, so they are instances of the graphql-js copy yoga checks
 * against (under vitest, `import 'graphql'` here and inside yoga can load two copies: ESM and CJS, and a
 * foreign GraphQLError would be masked as INTERNAL_SERVER_ERROR).
 */

export const forbidden = (message = 'Forbidden') => createGraphQLError(message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });

export const badInput = (field: string, message: string) => createGraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', field } });

export const notFound = (field: string, message = 'Not found') => createGraphQLError(message, { extensions: { code: 'NOT_FOUND', field } });

export const invalidCredentials = () => createGraphQLError('Wrong Email or Password', { extensions: { code: 'INVALID_CREDENTIALS' } });

/** `logIn` of a user with two-factor on, right password, no `otp` (contract: Extension, issue #9). */
export const twoFactorRequired = () =>
  createGraphQLError('Informe o código de verificação do seu aplicativo autenticador.', { extensions: { code: 'TWO_FACTOR_REQUIRED' } });

/** `logIn` with a wrong or reused `otp`. */
export const invalidTwoFactorCode = () =>
  createGraphQLError('Código de verificação inválido ou já usado.', { extensions: { code: 'INVALID_TWO_FACTOR_CODE' } });

export const userLimitReached = (limit: number) =>
  createGraphQLError(`The tenant already has its limit of ${limit} users`, { extensions: { code: 'USER_LIMIT_REACHED' } });

/** Throttled `logIn` (REST answers 429 with Retry-After; GraphQL does the same at the HTTP level). */
export const tooManyAttempts = (retryAfter: number) =>
  createGraphQLError('Too many failed attempts', {
    extensions: { code: 'TOO_MANY_REQUESTS', retry_after: retryAfter, http: { status: 429, headers: { 'Retry-After': String(retryAfter) } } },
  });

/**
 * A lost or reused refresh, or a caller that vanished mid-request. The route handler turns any 401
 * result into the plain `{"status":"Unauthorized"}` body of the contract's 401 table.
 */
export const unauthenticated = () => createGraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
