import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { ApiError, fromAnswer } from './api-error';
import type { FetchLike } from './auth-middleware';
import { GraphqlError, type GraphqlErrorItem } from './graphql-error';

// The error type lives in graphql-error.ts, so code that only tells errors apart (the session on the
// login page) carries no client: src/app/app-services.ts loads this module as a chunk of its own.
export { GraphqlError, type GraphqlErrorItem } from './graphql-error';

export interface ExecuteOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Let the request outlive the page (e.g. `disconnected` on page unload). */
  keepalive?: boolean;
}

/**
 * A generated operation: its text with the fragments it spreads (codegen `documentMode: 'string'`, so no
 * GraphQL parser or printer ships to the browser) typed with its result and variables.
 */
export type GraphqlDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & { toString(): string };

export type Execute = <TResult, TVariables>(
  document: GraphqlDocument<TResult, TVariables>,
  ...rest: TVariables extends Record<string, never>
    ? [variables?: TVariables, options?: ExecuteOptions]
    : [variables: TVariables, options?: ExecuteOptions]
) => Promise<TResult>;

export interface GraphqlClientOptions {
  /** The endpoint, read on every call because the tenant (first path segment) can change. */
  url: () => string;
  /** Usually `createAuthFetch(...)`; the refresh call uses a plain fetch so it cannot recurse. */
  fetch?: FetchLike;
}

/** The name of the document's first definition, its operation: codegen appends the fragments after it. */
const OPERATION_NAME = /^(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/**
 * The query text and its operation name: one named operation (one file of contracts/operations) followed by
 * the fragments it spreads (the `.fragment.graphql` files), so the server receives a complete document.
 */
function serialise(document: { toString(): string }) {
  const query = document.toString().trim();
  return { query, operationName: OPERATION_NAME.exec(query)?.[1] };
}

/** Creates `execute(doc, vars)`: typed by the generated TypedDocumentNodes, over fetch. */
export function createGraphqlClient(options: GraphqlClientOptions): { execute: Execute } {
  const send = options.fetch ?? ((r: Request) => fetch(r));

  const execute = async <TResult, TVariables>(
    document: GraphqlDocument<TResult, TVariables>,
    variables?: TVariables,
    init: ExecuteOptions = {},
  ): Promise<TResult> => {
    const { query, operationName } = serialise(document);
    const request = new Request(options.url(), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/graphql-response+json, application/json',
        ...init.headers,
      },
      body: JSON.stringify({ query, variables: variables ?? {}, operationName }),
      ...(init.signal ? { signal: init.signal } : {}),
      ...(init.keepalive ? { keepalive: true } : {}),
    });
    const response = await send(request);
    type Payload = { data?: TResult | null; errors?: GraphqlErrorItem[] };
    const payload = await response.json().then(
      (json: unknown) => (json && typeof json === 'object' ? (json as Payload) : null),
      () => null,
    );
    if (payload?.errors?.length) {
      const httpStatus = payload.errors[0]?.extensions?.['http'] as { status?: number } | undefined;
      throw fromAnswer(
        new GraphqlError(httpStatus?.status ?? (response.ok ? 200 : response.status), payload.errors),
        response,
      );
    }
    if (!response.ok) throw fromAnswer(new ApiError(response.status, payload), response);
    if (!payload || payload.data === undefined || payload.data === null)
      throw fromAnswer(new ApiError(response.status, payload, 'Empty GraphQL answer'), response);
    return payload.data;
  };

  return { execute: execute as Execute };
}
