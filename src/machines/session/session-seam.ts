import { createAuthFetch, type AuthSeam, type FetchLike, type UnauthorizedEvent } from '../../api/auth-middleware';
import type { Subscription } from 'xstate';
import type { SessionActor, SessionSnapshot } from './session.machine';
import { selectFreshToken } from './session-selectors';

/**
 * The running session as the HTTP clients' {@link AuthSeam} (src/api/auth-middleware.ts): the seam
 * only translates, the session machine decides (docs/product.md, Sessions).
 *
 * Wiring (the UI does this once; the getter breaks the cycle "client needs seam, session needs client"):
 *
 * ```ts
 * let session: SessionActor;
 * const rest = createRestClient({ fetch: sessionFetch(() => session) });
 * session = createActor(sessionMachine, { input: { rest, refreshGraphql, lookupIp, storage, storageEvents } }).start();
 * ```
 */
export interface SessionSeam extends AuthSeam {
  /**
   * Wraps the network fetch so every answer is remembered with the token it was sent with. Then a
   * 401 that comes back after the token was already replaced (a request that overlapped a refresh)
   * is retried with the new token instead of starting a second refresh.
   */
  track(baseFetch: FetchLike): FetchLike;
}

type SessionSource = SessionActor | (() => SessionActor);

/** Resolves with the first snapshot that is no longer refreshing (or the last one, if the actor stops). */
function afterRefresh(actor: SessionActor): Promise<SessionSnapshot> {
  return new Promise((resolve) => {
    // Filled right after the first check; `done` may run before (current snapshot) or after.
    const listening: { subscription?: Subscription } = {};
    const done = (snapshot: SessionSnapshot) => {
      if (snapshot.hasTag('refreshing') && snapshot.status === 'active') return false;
      listening.subscription?.unsubscribe();
      resolve(snapshot);
      return true;
    };
    if (done(actor.getSnapshot())) return;
    listening.subscription = actor.subscribe({
      next: done,
      error: () => resolve(actor.getSnapshot()),
      complete: () => resolve(actor.getSnapshot()),
    });
  });
}

/**
 * Waits one microtask. An event sent while the actor is still busy (a request made by an actor the
 * session itself just started) is queued and processed when that work ends, which is synchronous;
 * reading the snapshot before it would miss the event's effect.
 */
const sent = () => Promise.resolve();

function bearer(request: Request): string | null {
  const header = request.headers.get('Authorization');
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

/** Builds the {@link SessionSeam} of a session actor (or of a getter, for late binding). */
export function sessionSeam(source: SessionSource): SessionSeam {
  const actorOf = typeof source === 'function' ? source : () => source;
  // The token each answer's request carried, and the sign-in it left in (SessionContext.signIns).
  const sentWith = new WeakMap<Response, { token: string | null; signIn: number }>();

  return {
    async getToken() {
      const actor = actorOf();
      if (!actor.getSnapshot().hasTag('token')) return null;
      // A locally expired token is refreshed before the request leaves (the machine decides "expired").
      actor.send({ type: 'session.ensureFresh' });
      await sent();
      let snapshot = actor.getSnapshot();
      if (snapshot.hasTag('refreshing')) snapshot = await afterRefresh(actor);
      return snapshot.hasTag('token') ? snapshot.context.token : null;
    },

    peekToken() {
      return selectFreshToken(actorOf().getSnapshot()) ?? undefined;
    },

    async onUnauthorized(event: UnauthorizedEvent) {
      const actor = actorOf();
      const before = actor.getSnapshot().context.token;
      const origin = sentWith.get(event.response);
      const tracked = origin !== undefined;
      const token = origin?.token ?? null;
      actor.send({ type: 'session.unauthorized', token, body: event.body, attempt: event.attempt });
      if (event.attempt === 2) return false;
      await sent();
      let snapshot = actor.getSnapshot();
      if (snapshot.hasTag('refreshing')) snapshot = await afterRefresh(actor);
      // Retry only when a token other than the refused one is now in use: one retry, never a loop. And only
      // within the sign-in the request was sent in: one answered after a sign-out and a new sign-in (here
      // or in another tab, another user's maybe) is not replayed as the new sign-in's.
      const refused = tracked ? token : before;
      const replayable = (now: SessionSnapshot) =>
        now.hasTag('authenticated') &&
        now.context.token !== null &&
        now.context.token !== refused &&
        (!origin || origin.signIn === now.context.signIns);
      if (!replayable(snapshot)) return false;
      // The replay leaves with getToken's token, which refreshes a locally expired one first (another
      // tab's, adopted already expired). The sign-in may change hands during that refresh, so it is done
      // here, before the check, and the replay's getToken finds the token fresh.
      actor.send({ type: 'session.ensureFresh' });
      await sent();
      snapshot = actor.getSnapshot();
      if (snapshot.hasTag('refreshing')) snapshot = await afterRefresh(actor);
      return replayable(snapshot);
    },

    track(baseFetch) {
      return async (request) => {
        const token = bearer(request);
        const signIn = actorOf().getSnapshot().context.signIns;
        const response = await baseFetch(request);
        sentWith.set(response, { token, signIn });
        return response;
      };
    },
  };
}

/**
 * `createAuthFetch` over a tracked network fetch: what the REST client (and any GraphQL client
 * other than the refresh one) should use as its `fetch`.
 */
export function sessionFetch(source: SessionSource, baseFetch: FetchLike = (request) => fetch(request)): FetchLike {
  const seam = sessionSeam(source);
  return createAuthFetch(seam, seam.track(baseFetch));
}

/**
 * A fetch for requests sent while the page is being left (presence's `disconnected` on page hide):
 * it carries the session's token only while that token is fresh ({@link selectFreshToken}) and
 * otherwise sends nothing (the promise rejects). It never starts a refresh and never hands a 401 to
 * the session. A refresh started while leaving is cut off by the navigation, possibly after the server
 * rotated the token, and would leave the next page holding a superseded one; a 401 here is no reason
 * to end the session that the next page continues.
 */
export function freshTokenFetch(source: SessionSource, baseFetch: FetchLike = (request) => fetch(request)): FetchLike {
  const actorOf = typeof source === 'function' ? source : () => source;
  return async (request) => {
    const token = selectFreshToken(actorOf().getSnapshot());
    if (token === null) throw new Error('no fresh session token: request not sent');
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return baseFetch(new Request(request, { headers }));
  };
}
