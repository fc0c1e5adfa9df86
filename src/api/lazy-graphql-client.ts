import type { Execute } from './graphql-client';

export interface LazyGraphqlClient {
  /**
   * Usable at once. A call made before the client is in waits for it (and loads it); once it is in,
   * a call is the client's own, in the caller's task (as src/api/lazy-rest-client.ts does).
   */
  execute: Execute;
  /** Loads the client once; a failed load is forgotten, so the next call or load asks again. */
  load(): Promise<{ execute: Execute }>;
}

/**
 * A GraphQL client whose code arrives on demand: `create` loads and builds the real one
 * (src/app/app-services.ts imports graphql-client.ts as a chunk of its own, so the login page carries
 * no client before a sign-in). A call while the load fails rejects with the load's error, as a
 * request that found no network would.
 */
export function lazyGraphqlClient(create: () => Promise<{ execute: Execute }>): LazyGraphqlClient {
  let loaded: { execute: Execute } | null = null;
  let loading: Promise<{ execute: Execute }> | null = null;
  const load = (): Promise<{ execute: Execute }> => {
    if (loaded) return Promise.resolve(loaded);
    if (loading) return loading;
    const attempt = create().then((client) => (loaded = client));
    attempt.catch(() => {
      if (loading === attempt) loading = null;
    });
    loading = attempt;
    return attempt;
  };
  const execute = ((...args: Parameters<Execute>) =>
    loaded ? loaded.execute(...args) : load().then((client) => client.execute(...args))) as Execute;
  return { execute, load };
}
