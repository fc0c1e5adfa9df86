import type { RestClient } from './rest-client';

/** The client's calls that send a request (openapi-fetch's `Client`). */
const REQUEST_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE', 'request'] as const;

type RequestMethod = (typeof REQUEST_METHODS)[number];
type AnyCall = (...args: unknown[]) => Promise<unknown>;

export interface LazyRestClient {
  /**
   * Usable at once. A call made before the client is in waits for it (and loads it); once it is in,
   * a call is the client's own, in the caller's task, so a request still leaves before the re-render
   * its sender causes (src/machines/session/session-seam.ts, `peekToken`).
   */
  client: RestClient;
  /** Loads the client once; a failed load is forgotten, so the next call or load asks again. */
  load(): Promise<RestClient>;
}

/**
 * A REST client whose code arrives on demand: `create` loads and builds the real one (src/app/app-services.ts
 * imports create-rest-client.ts as a chunk of its own, so the login page carries no openapi-fetch
 * before a sign-in). A call while the load fails rejects with the load's error, as a request that
 * found no network would.
 */
export function lazyRestClient(create: () => Promise<RestClient>): LazyRestClient {
  let loaded: RestClient | null = null;
  let loading: Promise<RestClient> | null = null;
  // Middleware registered before the client is in, applied in order before its first request.
  const registrations: ((client: RestClient) => void)[] = [];

  const load = (): Promise<RestClient> => {
    if (loaded) return Promise.resolve(loaded);
    if (loading) return loading;
    const attempt = create().then((client) => {
      for (const register of registrations.splice(0)) register(client);
      loaded = client;
      return client;
    });
    attempt.catch(() => {
      if (loading === attempt) loading = null;
    });
    loading = attempt;
    return attempt;
  };

  const call =
    (method: RequestMethod): AnyCall =>
    (...args) => {
      if (loaded) return (loaded[method] as AnyCall)(...args);
      return load().then((client) => (client[method] as AnyCall)(...args));
    };

  const methods = Object.fromEntries(REQUEST_METHODS.map((method) => [method, call(method)]));
  const client = {
    ...methods,
    use(...middleware) {
      if (loaded) loaded.use(...middleware);
      else registrations.push((real) => real.use(...middleware));
    },
    eject(...middleware) {
      if (loaded) loaded.eject(...middleware);
      else registrations.push((real) => real.eject(...middleware));
    },
  } as Pick<RestClient, 'use' | 'eject'> & Record<RequestMethod, AnyCall>;
  // The request methods are openapi-fetch's generic signatures; each forwards its arguments unchanged.
  return { client: client as unknown as RestClient, load };
}
