import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi';
import { ApiError } from './api-error';
import type { FetchLike } from './auth-middleware';

/** The REST client typed by `contracts/openapi.yaml`; the app holds one instance. */
export type RestClient = Client<paths>;

export interface RestClientOptions {
  /** API host; empty for same-origin (the reference server serves SPA and API on one port). */
  baseUrl?: string;
  /** Usually `createAuthFetch(...)`, so every call goes through the session seam. */
  fetch?: FetchLike;
}

/** Creates the typed REST client. */
export function createRestClient(options: RestClientOptions = {}): RestClient {
  return createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * Turns an openapi-fetch result into its data or an {@link ApiError}, so callers write
 * `unwrap(await rest.GET(...))` and get the 2xx body type.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  if (result.response.ok) return undefined as T;
  throw new ApiError(result.response.status, result.error ?? null);
}
