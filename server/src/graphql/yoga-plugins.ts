// Only instance-free parts of graphql-js here (the GraphQLError type): yoga may load another copy of the
// module (ESM vs CJS under vitest), and errors must come from that copy (createGraphQLError).
import type { GraphQLError } from 'graphql';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { createGraphQLError, maskError, type Plugin } from 'graphql-yoga';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable';
import { asDomainError } from '../base/domain-error';
import { graphqlErrorsOf, ONE_PER_FIELD } from './domain-errors';
import { limitedParse, queryLimits } from './limits';
import { anyBroken } from '../base/broken-promises';
import { breakGraphqlResult } from '../plugins/broken-answers';

/**
 * Statuses of the contract's error table: parse/validation failures are 400 whatever the `Accept`
 * (yoga would answer 200 to `application/json` per GraphQL over HTTP), unexpected failures 500.
 */
export const contractStatuses: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    for (const error of result.errors ?? []) {
      const http = error.extensions.http;
      if (http?.spec) http.spec = false;
    }
    // One error per bad field (./domain-errors.ts): spread the ones that rode on the first.
    const errors = result.errors?.flatMap(
      (error) => (error as GraphQLError & { [ONE_PER_FIELD]?: GraphQLError[] })[ONE_PER_FIELD] ?? [error],
    );
    if (errors && errors.length !== result.errors?.length) setResult({ ...result, errors });
    if (anyBroken()) breakGraphqlResult(result);
  },
};

/** Every limit of contracts/schema.graphql (LIMITS) on every document yoga parses and validates (./limits.ts). */
export const limits: Plugin = {
  onParse({ parseFn, setParseFn }) {
    setParseFn(limitedParse(parseFn));
  },
  onValidate({ addValidationRule }) {
    addValidationRule(queryLimits);
  },
};

/** yoga's own plugin (graphql-js's NoSchemaIntrospectionCustomRule): in production no `__schema` or `__type`. */
export const noIntrospection = (): Plugin => useDisableIntrospection();

const isGraphQLError = (error: Error): error is GraphQLError => 'extensions' in error && 'path' in error;

/**
 * A refusal of a domain service (or a unique index that caught a race) becomes the contract's error
 * (./domain-errors.ts); the rest is yoga's masking, plus HTTP 500 for the masked (unexpected) errors,
 * as the contract's table says.
 */
export function maskUnexpected(error: unknown, message: string): Error {
  const located = error instanceof Error && isGraphQLError(error) ? error : undefined;
  const domain = asDomainError(located?.originalError ?? error);
  if (domain) return graphqlErrorsOf(domain, located);
  if (isDatabaseUnavailable(error)) {
    // The contract's SERVICE_UNAVAILABLE (503, Retry-After), not a 500: the database will be back.
    const graphqlError = isGraphQLError(error as Error) ? (error as GraphQLError) : undefined;
    return createGraphQLError('Database unavailable: retry shortly', {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: {
        code: 'SERVICE_UNAVAILABLE',
        http: { status: 503, headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } },
      },
    });
  }
  const masked = maskError(error, message, false);
  if (masked === error || !isGraphQLError(masked)) return masked;
  return createGraphQLError(masked.message, {
    nodes: masked.nodes,
    source: masked.source,
    positions: masked.positions,
    path: masked.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true, http: { status: 500 } },
  });
}
