import { createActor } from 'xstate';
import type { AccessSubject } from '../../domain/route-access';
import { routeGuardMachine, selectAllowedRoute, selectGuardRedirect } from './route-guard.machine';
import { assertFullCoverage, exploreCoverage, formatCoverage, type GraphEvent } from '../test-support/graph-coverage';

const anonymous: AccessSubject = { authenticated: false, role: null, permittedRoutes: [] };
const operator: AccessSubject = { authenticated: true, role: 'operador', permittedRoutes: ['users'] };
const admin: AccessSubject = { authenticated: true, role: 'administrador', permittedRoutes: [] };

describe('route guard: model coverage', () => {
  it('reaches every state and transition along @xstate/graph paths', async () => {
    const events: GraphEvent<typeof routeGuardMachine>[] = [
      { type: 'route.navigate', pathname: '/users' },
      { type: 'route.navigate', pathname: '/tenants' },
      { type: 'route.navigate', pathname: '/no-such-page' },
      { type: 'route.navigate', pathname: '/login', search: '?to=%2Fusers' },
      { type: 'route.session', subject: anonymous },
      { type: 'route.session', subject: operator },
      { type: 'route.session', subject: admin },
    ];
    const report = await exploreCoverage({
      machine: routeGuardMachine,
      input: () => ({}),
      events,
      serializeContext: (context) => [context.pathname, context.subject.role, context.subject.authenticated],
      // Every event reaches every state here, so simple paths are enumerated per concern.
      simpleScenarios: [
        { events: events.slice(0, 4) },
        { prefix: [{ type: 'route.session', subject: operator }], events: events.slice(0, 4) },
        { prefix: [events[0]!], events: events.slice(4) },
        { prefix: [{ type: 'route.session', subject: admin }, events[1]!], events: [events[0]!, events[4]!] },
      ],
    });
    console.info(`route guard: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

function guard(subject?: AccessSubject) {
  return createActor(routeGuardMachine, { input: subject ? { subject } : {} }).start();
}

describe('route guard: decisions after every navigation', () => {
  it.each([
    ['an unknown path', anonymous, '/nope', '', '/pages/error-404'],
    ['an unknown path, signed in', admin, '/users/extra', '', '/pages/error-404'],
    [
      'a protected route while signed out',
      anonymous,
      '/roles/edit/7',
      '?tab=perms',
      '/login?to=%2Froles%2Fedit%2F7%3Ftab%3Dperms',
    ],
    ['an "all" main route while signed out', anonymous, '/user-settings', '', '/login?to=%2Fuser-settings'],
    ['a checked route without its permission', operator, '/tenants', '', '/pages/not-authorized?page=tenants'],
  ])('redirects for %s', (_, subject, pathname, search, to) => {
    const actor = guard(subject);
    actor.send({ type: 'route.navigate', pathname, search });
    expect(actor.getSnapshot().hasTag('redirect')).toBe(true);
    expect(selectGuardRedirect(actor.getSnapshot())).toBe(to);
    expect(selectAllowedRoute(actor.getSnapshot())).toBeNull();
  });

  it.each([
    ['a checked route with its permission', operator, '/users', 'users'],
    ['any checked route for the administrator', admin, '/tenants', 'tenants'],
    ['an open blank route while signed out', anonymous, '/login', 'login'],
    ['the not-authorized page itself', operator, '/pages/not-authorized', 'not-authorized'],
  ])('allows %s', (_, subject, pathname, name) => {
    const actor = guard(subject);
    actor.send({ type: 'route.navigate', pathname });
    expect(selectGuardRedirect(actor.getSnapshot())).toBeNull();
    expect(selectAllowedRoute(actor.getSnapshot())?.route.name).toBe(name);
  });

  it('re-decides when the session changes: a logout on a protected page goes to login with `to`', () => {
    const actor = guard(operator);
    actor.send({ type: 'route.navigate', pathname: '/users' });
    expect(actor.getSnapshot().hasTag('allowed')).toBe(true);
    actor.send({ type: 'route.session', subject: anonymous });
    expect(selectGuardRedirect(actor.getSnapshot())).toBe('/login?to=%2Fusers');
    actor.send({ type: 'route.navigate', pathname: '/login', search: 'to=%2Fusers' });
    expect(actor.getSnapshot().hasTag('allowed')).toBe(true);
  });

  it('only records the subject before the first navigation', () => {
    const actor = guard();
    actor.send({ type: 'route.session', subject: admin });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'route.navigate', pathname: '/roles/list' });
    expect(actor.getSnapshot().hasTag('allowed')).toBe(true);
  });
});
