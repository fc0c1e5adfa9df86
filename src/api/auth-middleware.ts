/**
 * The seam between the HTTP clients and the session: it attaches the bearer token, hands every 401
 * (with its parsed body) to the session, and replays the original request at most once when the
 * session says it refreshed the token. The session owns the policy (docs/product.md, Sessions); this file only moves
 * requests, so both the REST and the GraphQL client share one behaviour.
 */

export type FetchLike = (request: Request) => Promise<Response>;

/** What the session sees of a 401. */
export interface UnauthorizedEvent {
  /** The parsed JSON body, or null when it was not JSON. */
  body: unknown;
  request: Request;
  response: Response;
  /** 1 for the first answer, 2 when the single retry was refused too (never retried again). */
  attempt: 1 | 2;
}

export interface AuthSeam {
  /**
   * The token to send, or null when signed out. The session may refresh first when its stored token
   * is locally expired, so a request never leaves with a token known to be dead.
   */
  getToken(): Promise<string | null>;
  /**
   * The token when it is known at once (present and fresh), else undefined and `getToken()` decides.
   * A request then leaves in the caller's task: one sent as a state change is announced goes out
   * before the re-render that change causes, instead of after it.
   */
  peekToken?(): string | undefined;
  /**
   * Called for every 401 of a request that carried a token. Resolve `true` to replay the request once
   * with a fresh `getToken()`; the answer to an `attempt: 2` event is ignored.
   */
  onUnauthorized(event: UnauthorizedEvent): Promise<boolean>;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.clone().json()) as unknown;
  } catch {
    return null;
  }
}

function withToken(request: Request, token: string | null): Request {
  const headers = new Headers(request.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  else headers.delete('Authorization');
  return new Request(request, { headers });
}

/**
 * Wraps `baseFetch` with the session seam. A request sent without a token (login, public calls) gets
 * its 401 back untouched: there is nothing to refresh and nobody to log out.
 */
export function createAuthFetch(seam: AuthSeam, baseFetch: FetchLike = (r) => fetch(r)): FetchLike {
  return async (request) => {
    // Kept before the first send: a body can be read only once.
    const replay = request.clone();
    const token = seam.peekToken?.() ?? (await seam.getToken());
    const response = await baseFetch(withToken(request, token));
    if (response.status !== 401 || !token) return response;

    const retry = await seam.onUnauthorized({ body: await readJson(response), request, response, attempt: 1 });
    if (!retry) return response;

    const fresh = await seam.getToken();
    const second = await baseFetch(withToken(replay, fresh));
    if (second.status === 401) {
      await seam.onUnauthorized({ body: await readJson(second), request: replay, response: second, attempt: 2 });
    }
    return second;
  };
}
