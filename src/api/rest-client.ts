import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi';
import { ApiError, fromAnswer } from './api-error';
import type { FetchLike } from './auth-middleware';

/**
 * The REST client typed by `contracts/openapi.yaml`; the app holds one instance. Made by
 * `createRestClient` (create-rest-client.ts, openapi-fetch); this module has no runtime part of
 * openapi-fetch, so the login page, which only reads results with `unwrap`, does not carry it.
 */
export type RestClient = Client<paths>;

export interface RestClientOptions {
  /** API host; empty for same-origin (the reference server serves SPA and API on one port). */
  baseUrl?: string;
  /** Usually `createAuthFetch(...)`, so every call goes through the session seam. */
  fetch?: FetchLike;
}

/**
 * Turns an openapi-fetch result into its data or an {@link ApiError}, so callers write
 * `unwrap(await rest.GET(...))` and get the 2xx body type.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  if (result.response.ok) return undefined as T;
  throw fromAnswer(new ApiError(result.response.status, result.error ?? null), result.response);
}
