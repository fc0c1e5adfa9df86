import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { getRoute, matchPath } from '../../domain/paths';
import { resolveNavigation, type AccessSubject, type NavigationDecision } from '../../domain/route-access';

/**
 * The route guard (docs/product.md, Routes): runs the route table's all/check/admin rules
 * (src/domain/route-access.ts) after every navigation and every session change.
 *
 * Views send `route.navigate` with each tenant-relative location (wouter's `useLocation` +
 * search) and `route.session` with `selectAccessSubject(session)` whenever it changes; they render
 * when the `allowed` tag is on and otherwise navigate (replace) to {@link selectGuardRedirect}.
 * Every redirect target is an open route, so guarding it again allows it: no redirect loops.
 */

export interface RouteGuardInput {
  /** Who is navigating; default: signed out. */
  subject?: AccessSubject;
}

export interface RouteGuardContext {
  subject: AccessSubject;
  pathname: string | null;
  search: string;
  decision: NavigationDecision | null;
}

export type RouteGuardEvent =
  { type: 'route.navigate'; pathname: string; search?: string } | { type: 'route.session'; subject: AccessSubject };

const SIGNED_OUT: AccessSubject = { authenticated: false, role: null, permittedRoutes: [] };

/** The route a redirect decision sends to, by name (the decision carries only the href). */
function redirectRoute(decision: NavigationDecision | null): string | null {
  if (decision?.kind !== 'redirect') return null;
  return matchPath(decision.to.split('?')[0] ?? '')?.route.name ?? null;
}

/**
 * Decides each navigation with `resolveNavigation` (never re-deriving a rule). States: `idle` (no
 * navigation yet), `allowed`, and the redirects `notFound`, `loginRequired`, `notAuthorized`;
 * tags `allowed` / `redirect`. Read with {@link selectGuardRedirect} and {@link selectAllowedRoute}.
 */
export const routeGuardMachine = setup({
  types: {
    context: {} as RouteGuardContext,
    events: {} as RouteGuardEvent,
    input: {} as RouteGuardInput,
  },
  guards: {
    unknownPath: ({ context }) => redirectRoute(context.decision) === getRoute('error-404').name,
    needsLogin: ({ context }) => redirectRoute(context.decision) === getRoute('login').name,
    notPermitted: ({ context }) => redirectRoute(context.decision) === getRoute('not-authorized').name,
  },
  actions: {
    takeLocation: assign(({ event }) => {
      assertEvent(event, 'route.navigate');
      return { pathname: event.pathname, search: event.search ?? '' };
    }),
    takeSubject: assign(({ event }) => {
      assertEvent(event, 'route.session');
      return { subject: event.subject };
    }),
    decide: assign(({ context }) => ({
      decision: context.pathname === null ? null : resolveNavigation(context.pathname, context.subject, context.search),
    })),
  },
}).createMachine({
  id: 'routeGuard',
  initial: 'idle',
  context: ({ input }) => ({ subject: input.subject ?? SIGNED_OUT, pathname: null, search: '', decision: null }),
  on: {
    'route.navigate': { target: '.deciding', actions: 'takeLocation' },
    'route.session': { target: '.deciding', actions: 'takeSubject' },
  },
  states: {
    /** No navigation seen yet: a session change only updates the subject. */
    idle: {
      on: { 'route.session': { actions: 'takeSubject' } },
    },
    deciding: {
      entry: 'decide',
      always: [
        { guard: 'unknownPath', target: 'notFound' },
        { guard: 'needsLogin', target: 'loginRequired' },
        { guard: 'notPermitted', target: 'notAuthorized' },
        { target: 'allowed' },
      ],
    },
    allowed: { tags: ['allowed'] },
    notFound: { tags: ['redirect'] },
    loginRequired: { tags: ['redirect'] },
    notAuthorized: { tags: ['redirect'] },
  },
});

export type RouteGuardActor = ActorRefFrom<typeof routeGuardMachine>;
export type RouteGuardSnapshot = SnapshotFrom<typeof routeGuardMachine>;

/** Where to go instead of the current location (`/pages/error-404`, `/login?to=…`, `/pages/not-authorized`), or null. */
export const selectGuardRedirect = (snapshot: RouteGuardSnapshot): string | null =>
  snapshot.hasTag('redirect') && snapshot.context.decision?.kind === 'redirect' ? snapshot.context.decision.to : null;

/** The allowed route and its params, or null while redirecting. */
export const selectAllowedRoute = (snapshot: RouteGuardSnapshot) =>
  snapshot.hasTag('allowed') && snapshot.context.decision?.kind === 'allow'
    ? { route: snapshot.context.decision.route, params: snapshot.context.decision.params }
    : null;
