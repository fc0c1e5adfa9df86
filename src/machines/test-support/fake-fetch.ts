/**
 * A scripted HTTP server for machine tests that run the REAL actors (the typed REST client over a
 * fake `fetch`), so a test sees the exact method, path, query and body a machine sends. Separate
 * from graph-coverage.ts, which drives machines with held fakes instead.
 *
 * `respond` answers each request; return a `Response` (see {@link json}) or a promise of one, so a
 * test can hold a request open and settle requests in any order. An aborted request rejects with
 * an `AbortError`, as the platform fetch does.
 */
import { createGraphqlClient, type Execute } from '../../api/graphql-client';
import { createRestClient } from '../../api/create-rest-client';
import type { RestClient } from '../../api/rest-client';
import type { FetchLike } from '../../api/auth-middleware';

/** One request as the fake server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** Parsed JSON body, or null. */
  body: unknown;
  signal: AbortSignal;
}

export type Responder = (request: SeenRequest) => Response | Promise<Response>;

export const BASE_URL = 'http://api.test';
/** Where the fake's GraphQL client posts (the tenant is the first path segment). */
export const GRAPHQL_URL = `${BASE_URL}/backoffice/graphql`;

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** A promise with its settle functions outside, to hold a request open. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function abortError(): Error {
  const error = new Error('The operation was aborted.');
  error.name = 'AbortError';
  return error;
}

/** The operation name and variables of a GraphQL request, or null for any other request. */
export function operationOf(request: SeenRequest): { name: string; variables: Record<string, unknown> } | null {
  if (request.path !== new URL(GRAPHQL_URL).pathname) return null;
  const body = request.body as { operationName?: string; variables?: Record<string, unknown> } | null;
  return { name: body?.operationName ?? '', variables: body?.variables ?? {} };
}

/** A GraphQL success answer. */
export function gqlData(data: unknown): Response {
  return json(200, { data });
}

/** A GraphQL error answer as the contract shapes it (`extensions.code`, optional `field`). */
export function gqlError(code: string, field?: string, status = 200): Response {
  return json(status, {
    data: null,
    errors: [{ message: code, extensions: { code, ...(field ? { field } : {}), http: { status } } }],
  });
}

/** The fake server: its `fetch`, REST and GraphQL clients over it, and every request seen, in order. */
export function fakeServer(respond: Responder): {
  fetch: FetchLike;
  rest: RestClient;
  execute: Execute;
  seen: SeenRequest[];
} {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (request) => {
    const url = new URL(request.url);
    const text = request.body ? await request.text() : '';
    const entry: SeenRequest = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: text ? (JSON.parse(text) as unknown) : null,
      signal: request.signal,
    };
    seen.push(entry);
    if (request.signal.aborted) throw abortError();
    return new Promise<Response>((resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(abortError()), { once: true });
      Promise.resolve()
        .then(() => respond(entry))
        .then(resolve, reject);
    });
  };
  return {
    fetch,
    rest: createRestClient({ baseUrl: BASE_URL, fetch }),
    execute: createGraphqlClient({ url: () => GRAPHQL_URL, fetch }).execute,
    seen,
  };
}

/** Resolves after pending promise reactions have run (one `setImmediate` turn, no 1 ms timer clamp). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
