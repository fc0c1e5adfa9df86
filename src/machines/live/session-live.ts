import type { Actor, EventObject } from 'xstate';
import { createRestClient } from '../../api/create-rest-client';
import { createGraphqlClient } from '../../api/graphql-client';
import { sessionFetch } from '../session/session-seam';
import { memoryStorage } from '../session/session-storage';
import { sessionMachine, type SessionInput } from '../session/session.machine';
import type { GraphEvent } from '../test-support/graph-paths';
import type { LiveModel } from './live-walk';
import { call, timedFetch, type LiveTarget } from './live-target';

type Session = typeof sessionMachine;

const done = (id: string, output?: unknown) => ({ type: `xstate.done.actor.${id}` as const, output });
/** The body of a 401 for an expired token (contracts/openapi.yaml, the 401 table): refreshable. */
const EXPIRED = { error: 'Token has expired' };

/**
 * The session machine against a live server: each path signs the given administrator in for real
 * (`POST /api/auth/login`), loads the profile, refreshes (GraphQL `refreshToken`) when asked or after a
 * refreshable 401, and signs out (`POST /api/auth/logout`). Live properties:
 * - one refresh in flight: a step that starts a refresh is followed at once by the same asks again (a
 *   refresh, a 401 of the same token, an `ensureFresh`), and exactly ONE refresh reaches the server;
 * - the refreshed token is new and works (`GET /api/auth/userInfo`);
 * - sign-out revokes: the token the session held answers 401 afterwards;
 * - requests that find the token expired (the session's clock set ahead) share one refresh through the
 *   seam (session-seam.ts), once per path when the profile first loads.
 * Wrong passwords are left out on purpose: they count against the sign-in throttle of the kit's own
 * address (docs/security.md, Throttling), and the run must stay able to sign in.
 */
export function sessionLive(target: LiveTarget): LiveModel<Session> {
  const base = target.baseUrl.replace(/\/+$/, '');
  const network = timedFetch(target);
  /** Refresh calls of the current path, and the IP lookup the walk answers. */
  let refreshCalls = 0;
  /** Refresh calls when the last step was checked, and when the refresh being checked started. */
  let refreshesChecked = 0;
  let refreshesAtStart = 0;
  let releaseIp: (ip: string | null) => void = () => undefined;
  /** The path's REST client (through the seam) and how far its session's clock runs ahead. */
  const path = { rest: createRestClient({ baseUrl: base, fetch: network }), ahead: 0, expiredOnce: false };

  const graphInput = (): SessionInput => ({
    rest: createRestClient({ baseUrl: base, fetch: network }),
    refreshGraphql: createGraphqlClient({ url: () => `${base}/${target.tenant}/graphql`, fetch: network }),
    lookupIp: () => Promise.resolve(null),
    storage: memoryStorage(),
    storageEvents: () => () => undefined,
    baseUrl: base,
  });

  const events = (snapshot: ReturnType<Actor<Session>['getSnapshot']>): GraphEvent<Session>[] => {
    if (snapshot.matches({ ip: 'lookingUp' })) return [done('lookupIp', null)];
    const { context } = snapshot;
    if (snapshot.matches({ auth: 'anonymous' }))
      return [{ type: 'session.login', email: target.email, password: target.password, to: '/users' }];
    if (snapshot.matches({ auth: 'loggingIn' }))
      return [
        done('login', {
          access_token: 'live',
          token_type: 'Bearer',
          expires_in: 900,
          origin_backoffice: true,
          has_permission_routes: [],
          user: null,
        }),
      ];
    if (snapshot.matches({ auth: 'loggingOut' })) return [done('logout')];
    if (snapshot.matches({ auth: { authenticated: { profile: 'loading' } } }))
      return [done('loadProfile', { info: null, permissions: null })];
    if (snapshot.matches({ auth: { authenticated: { token: 'refreshing' } } }))
      return [done('refresh', { token: `${context.token ?? ''}+`, expiresIn: 900 })];
    return [
      { type: 'session.refresh', token: context.token },
      { type: 'session.unauthorized', token: context.token, body: EXPIRED, attempt: 1 },
      { type: 'session.reloadProfile' },
      { type: 'session.redirected' },
      { type: 'session.dismissNotice' },
      { type: 'session.logout' },
    ];
  };

  /**
   * Three requests through the seam while the session's clock says its token has expired (the clock
   * runs an hour ahead): they share ONE refresh, which reaches the server before any of them leaves,
   * and all three are answered with the new token. The session is back in the state it was in.
   */
  async function expiredTokenRequests(actor: Actor<Session>): Promise<string[]> {
    const problems: string[] = [];
    const before = actor.getSnapshot();
    const calls = refreshCalls;
    path.ahead = 3_600_000;
    try {
      const answers = await Promise.all(
        [0, 1, 2].map(() => path.rest.GET('/api/auth/userInfo').then(({ response }) => response.status)),
      );
      if (answers.some((status) => status !== 200))
        problems.push(`requests with a locally expired token answered ${answers.join(', ')}`);
    } finally {
      path.ahead = 0;
    }
    const after = actor.getSnapshot();
    if (refreshCalls - calls !== 1)
      problems.push(`${refreshCalls - calls} refresh calls for three requests with an expired token (one expected)`);
    if (after.context.token === before.context.token) problems.push('the expired token was not replaced');
    if (JSON.stringify(after.value) !== JSON.stringify(before.value))
      problems.push(`the session went from ${JSON.stringify(before.value)} to ${JSON.stringify(after.value)}`);
    return problems;
  }

  return {
    name: 'session',
    paths: {
      machine: sessionMachine,
      input: graphInput,
      events,
      // What guards and the graph's choices read: signed in or not, a redirect and a notice pending.
      serializeContext: (context) => [context.token !== null, context.redirectTo !== null, context.notice !== null],
      strategies: ['shortest', 'simple', 'transitions'],
    },
    awaited: (event) => event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.'),
    cause: (event) => {
      if (event.type === 'xstate.done.actor.lookupIp') releaseIp(null);
    },
    // The graph's token is its own; the live one is the session's.
    rewrite: (event, actor) =>
      'token' in event ? { ...event, token: actor.getSnapshot().context.token } : (event as EventObject),
    start: () => {
      refreshCalls = 0;
      refreshesChecked = 0;
      let actor: Actor<Session> | undefined;
      const ip = new Promise<string | null>((resolve) => (releaseIp = resolve));
      const refreshFetch = (request: Request) => {
        refreshCalls += 1;
        return network(request);
      };
      path.ahead = 0;
      path.expiredOnce = false;
      const input: SessionInput = {
        ...graphInput(),
        now: () => Date.now() + path.ahead,
        // The app's wiring (src/app/app-services.ts): REST through the session seam, the refresh over plain fetch.
        rest: createRestClient({
          baseUrl: base,
          fetch: sessionFetch(() => {
            if (!actor) throw new Error('the session is not running yet');
            return actor;
          }, network),
        }),
        refreshGraphql: createGraphqlClient({ url: () => `${base}/${target.tenant}/graphql`, fetch: refreshFetch }),
        lookupIp: () => ip,
      };
      path.rest = input.rest;
      return Promise.resolve({
        input,
        cleanup: async (running: Actor<Session>) => {
          const { token } = running.getSnapshot().context;
          // A path that ends signed in signs out, so no session of the walk outlives it.
          if (token !== null) await call(target, 'POST', '/api/auth/logout', { token, body: { email: target.email } });
        },
        bind: (running: Actor<Session>) => (actor = running),
      });
    },
    check: async ({ actor, event, before }) => {
      const problems: string[] = [];
      const snapshot = actor.getSnapshot();
      const enteredRefresh =
        snapshot.hasTag('refreshing') && !before.hasTag('refreshing') && !event.type.startsWith('xstate.');
      if (enteredRefresh) {
        // The refresh's request left as the step entered `refreshing` (before this check).
        refreshesAtStart = refreshesChecked;
        const { token } = snapshot.context;
        // Asked again while the refresh is in flight: the machine must not start a second one.
        actor.send({ type: 'session.refresh', token });
        actor.send({ type: 'session.unauthorized', token, body: EXPIRED, attempt: 1 });
        actor.send({ type: 'session.ensureFresh' });
      }
      if (event.type === 'xstate.done.actor.refresh') {
        const calls = refreshCalls - refreshesAtStart;
        if (calls !== 1)
          problems.push(`${calls} refresh calls reached the server for one refresh (one in flight at most)`);
        const token = snapshot.context.token;
        if (token === null || token === before.context.token) problems.push('the refresh did not replace the token');
        else {
          const me = await call(target, 'GET', '/api/auth/userInfo', { token });
          if (me.status !== 200) problems.push(`the refreshed token is refused: HTTP ${me.status}`);
        }
      }
      // Once a path: the refreshed token's expiry is then counted on the clock that ran ahead.
      if (event.type === 'xstate.done.actor.loadProfile' && !path.expiredOnce) {
        path.expiredOnce = true;
        problems.push(...(await expiredTokenRequests(actor)));
      }
      if (event.type === 'xstate.done.actor.logout') {
        const token = before.context.token;
        if (token !== null) {
          const me = await call(target, 'GET', '/api/auth/userInfo', { token });
          if (me.status !== 401) problems.push(`the signed-out session's token still answers HTTP ${me.status}`);
        }
      }
      refreshesChecked = refreshCalls;
      return problems;
    },
  };
}
