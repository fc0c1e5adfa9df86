import type { FetchLike } from '../../api/auth-middleware';
import { createPrefetchingFetch } from '../../api/prefetch';
import type { RestClient } from '../../api/rest-client';
import { matchPath } from '../../domain/paths';
import { canAccess, type AccessSubject } from '../../domain/route-access';
import { selectAccessSubject } from '../session/session-selectors';
import type { SessionActor } from '../session/session.machine';
import { parseTenantsQuery, toPageRequest } from '../../domain/tenants-query';

export interface RoutePrefetch {
  /** The fetch under the app's clients: an equal request takes a prefetched answer (src/api/prefetch.ts). */
  fetch: FetchLike;
  stop(): void;
}

/**
 * Right after each sign-in, for the screen the user is about to land on (the session's
 * `redirectTo`: path and search inside the tenant): sends the first request that screen's machine
 * will send, with the same body. Its answer is then on its way while the main layout renders, and
 * the machine's own request takes it. Only for routes the user may open; a failure is the screen's
 * to meet when it asks. Built once the login page has preloaded this module (app-services.ts
 * `preloadSignIn`), so none of it is in the login page's own code. `createRest` gives a typed client
 * over a fetch.
 */
export function createRoutePrefetch(
  session: SessionActor,
  inner: FetchLike,
  createRest: (fetch: FetchLike) => RestClient,
): RoutePrefetch {
  const prefetching = createPrefetchingFetch(inner);
  const rest = createRest(prefetching.prefetch);
  let prefetchedFor: string | null = null;
  // Whose sign-in the waiting answers were asked with: they carry that user's data and were sent with
  // that token, so they never serve the requests of a later sign-in (another user's, or the same one's
  // after a sign-out).
  let prefetchedBy: { userId: number | null } | null = null;
  const prefetchRoute = (target: string, subject: AccessSubject) => {
    const at = target.indexOf('?');
    const path = at < 0 ? target : target.slice(0, at);
    const search = at < 0 ? '' : target.slice(at + 1);
    const match = matchPath(path);
    if (!match || !canAccess(match.route, subject)) return;
    if (match.route.name === 'tenants') {
      // tenants-list.machine.ts's first fetch: toPageRequest(parseTenantsQuery(search)).
      rest.POST('/api/tenant/paginated', { body: toPageRequest(parseTenantsQuery(search)) }).catch(() => undefined);
    }
  };
  const subscription = session.subscribe((snapshot) => {
    const { token, redirectTo, profileFromLogin, user } = snapshot.context;
    const signedIn = snapshot.hasTag('authenticated');
    // A user learnt only now (a sign-in answer without one, then the profile) is the same sign-in.
    const otherUser = prefetchedBy?.userId != null && user?.id !== prefetchedBy.userId;
    if (prefetchedBy !== null && (!signedIn || otherUser)) {
      prefetching.clear();
      prefetchedBy = null;
    }
    if (!signedIn || !profileFromLogin || redirectTo === null || token === null || prefetchedFor === token) return;
    prefetchedFor = token;
    prefetchedBy = { userId: user?.id ?? null };
    prefetchRoute(redirectTo, selectAccessSubject(snapshot));
  });
  return { fetch: prefetching.fetch, stop: () => subscription.unsubscribe() };
}
