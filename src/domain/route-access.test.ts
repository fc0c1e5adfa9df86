import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getHref, getRoute, matchPath, routes, type RouteDefinition } from './paths';
import {
  ADMIN_ROLE,
  canAccess,
  hasPermission,
  resolveNavigation,
  safeRedirectTarget,
  type AccessSubject,
} from './route-access';

const RUNS = { numRuns: 1000 };

const anonymous: AccessSubject = { authenticated: false, role: null, permittedRoutes: [] };
const admin: AccessSubject = { authenticated: true, role: 'administrador', permittedRoutes: [], staff: true };
/** An administrador of a customer tenant: every permission, but not back-office staff. */
const customerAdmin: AccessSubject = { authenticated: true, role: 'administrador', permittedRoutes: [] };
const agent: AccessSubject = { authenticated: true, role: 'atendente', permittedRoutes: ['users', 'roles-edit'] };
const staleAdmin: AccessSubject = { authenticated: false, role: 'administrador', permittedRoutes: ['users'] };

const adminOnly: RouteDefinition = {
  name: 'secret',
  path: '/secret',
  rule: 'admin',
  layout: 'main',
  titleKey: 'routes.secret',
};

const subject = fc.record({
  authenticated: fc.boolean(),
  role: fc.option(fc.constantFrom('administrador', 'Administrador', 'atendente', 'gerente', '')),
  permittedRoutes: fc.subarray([...routes.map((r) => r.name), 'not-a-route']),
  staff: fc.boolean(),
});

// First segments of every route, written out so "unknown" is independent of the matcher.
const KNOWN_FIRST_SEGMENTS = [
  '',
  'user-settings',
  'users',
  'two-factor',
  'tenants',
  'roles',
  'dashboard',
  'login',
  'pages',
  'support',
];

describe('canAccess', () => {
  it('exports the administrator role name', () => {
    expect(ADMIN_ROLE).toBe('administrador');
  });

  it.each<[string, RouteDefinition, AccessSubject, boolean]>([
    ['anyone on an open main route', getRoute('home'), anonymous, true],
    ['anyone on login', getRoute('login'), anonymous, true],
    ['admin on a checked route', getRoute('tenants'), admin, true],
    ['admin on an admin route', adminOnly, admin, true],
    ['agent with permission', getRoute('users'), agent, true],
    ['agent with permission on a param route', getRoute('roles-edit'), agent, true],
    ['agent without permission', getRoute('tenants'), agent, false],
    ['a route guarded by another route’s permission', getRoute('departments'), agent, true],
    [
      'a route guarded by another permission, not by its name',
      getRoute('departments'),
      { ...agent, permittedRoutes: ['departments'] },
      false,
    ],
    ['agent on an admin route', adminOnly, { ...agent, permittedRoutes: ['secret'] }, false],
    ['anonymous on a checked route', getRoute('users'), anonymous, false],
    ['stale admin role without a session', getRoute('users'), staleAdmin, false],
    ['role name is case-sensitive', getRoute('users'), { ...admin, role: 'Administrador' }, false],
    ['staff administrador on the support desk', getRoute('support'), admin, true],
    ['staff with `users` on the support desk', getRoute('support'), { ...agent, staff: true }, true],
    ['staff with `users` on a person page', getRoute('support-person'), { ...agent, staff: true }, true],
    [
      'staff without `users` on the support desk',
      getRoute('support'),
      { ...agent, staff: true, permittedRoutes: [] },
      false,
    ],
    [
      'staff holding a `support` row but not `users`',
      getRoute('support'),
      { ...agent, staff: true, permittedRoutes: ['support'] },
      false,
    ],
    ['a customer administrador on the support desk', getRoute('support'), customerAdmin, false],
    ['a customer administrador on a person page', getRoute('support-person'), customerAdmin, false],
    ['a customer agent with `users` on the support desk', getRoute('support'), agent, false],
    ['a customer administrador elsewhere', getRoute('tenants'), customerAdmin, true],
    ['staff flag without a session', getRoute('support'), { ...staleAdmin, staff: true }, false],
  ])('%s → %s', (_label, route, who, expected) => {
    expect(canAccess(route, who)).toBe(expected);
  });
});

describe('hasPermission', () => {
  it.each<[readonly { route_name: string }[], string, boolean]>([
    [[], 'users', false],
    [[{ route_name: 'users' }], 'users', true],
    [[{ route_name: 'tenants' }, { route_name: 'users' }], 'users', true],
    [[{ route_name: 'Users' }], 'users', false],
    [[{ route_name: 'users-list' }], 'users', false],
  ])('%j has %s → %s', (permissions, name, expected) => {
    expect(hasPermission(permissions, name)).toBe(expected);
  });
});

describe('resolveNavigation — examples', () => {
  it.each<[string, string, AccessSubject, string | undefined, string]>([
    ['unknown path', '/nope', admin, undefined, 'redirect:/pages/error-404'],
    ['unknown path, anonymous', '/nope', anonymous, undefined, 'redirect:/pages/error-404'],
    ['anonymous on home', '/', anonymous, undefined, 'redirect:/login?to=%2F'],
    [
      'anonymous on users with search',
      '/users',
      anonymous,
      '?page=2&q=a b',
      'redirect:/login?to=%2Fusers%3Fpage%3D2%26q%3Da+b',
    ],
    ['search without ?', '/tenants', anonymous, 'x=1', 'redirect:/login?to=%2Ftenants%3Fx%3D1'],
    ['bare ? dropped', '/tenants', anonymous, '?', 'redirect:/login?to=%2Ftenants'],
    [
      'just logged out: plain login, no way back',
      '/users',
      { ...anonymous, loggedOut: true },
      undefined,
      'redirect:/login',
    ],
    ['anonymous on login', '/login', anonymous, undefined, 'allow:login'],
    ['anonymous on 500', '/pages/error-500', anonymous, undefined, 'allow:error-500'],
    ['agent without permission', '/tenants', agent, undefined, 'redirect:/pages/not-authorized?page=tenants'],
    ['agent with permission', '/users/', agent, undefined, 'allow:users'],
    ['agent on open route', '/two-factor', agent, undefined, 'allow:two-factor'],
    ['admin on role edit', '/roles/edit/9', admin, undefined, 'allow:roles-edit'],
  ])('%s', (_label, path, who, search, expected) => {
    const decision = resolveNavigation(path, who, search);
    expect(decision.kind === 'allow' ? `allow:${decision.route.name}` : `redirect:${decision.to}`).toBe(expected);
  });

  it('passes decoded params through', () => {
    expect(resolveNavigation('/roles/edit/a%2Fb', admin)).toMatchObject({ kind: 'allow', params: { id: 'a/b' } });
  });
});

describe('resolveNavigation — properties', () => {
  const anyPath = fc.oneof(
    fc.constantFrom(...routes.map((r) => getHref(r.name, { id: 42 }))),
    fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  );

  it('never redirects to a route the subject cannot access, and redirects never chain', () => {
    fc.assert(
      fc.property(anyPath, subject, fc.string(), (path, who, search) => {
        const decision = resolveNavigation(path, who, search);
        if (decision.kind === 'allow') {
          expect(canAccess(decision.route, who)).toBe(true);
          return;
        }
        const target = new URL(decision.to, 'http://app.test');
        const match = matchPath(target.pathname);
        expect(match).not.toBeNull();
        if (match !== null) expect(canAccess(match.route, who)).toBe(true);
        expect(resolveNavigation(target.pathname, who, target.search).kind).toBe('allow');
      }),
      RUNS,
    );
  });

  it('sends unknown paths to the 404 page, whoever asks', () => {
    const unknownFirst = fc
      .string({ minLength: 1 })
      .filter((s) => !s.includes('/') && !KNOWN_FIRST_SEGMENTS.includes(s));
    const deep = fc.array(
      fc.string({ minLength: 1 }).filter((s) => !s.includes('/')),
      { minLength: 4, maxLength: 6 },
    );
    const unknown = fc.oneof(
      fc.tuple(unknownFirst, fc.array(fc.string())).map(([first, rest]) => [`/${first}`, ...rest].join('/')),
      deep.map((parts) => `/${parts.join('/')}`),
    );
    fc.assert(
      fc.property(unknown, subject, (path, who) => {
        expect(resolveNavigation(path, who)).toEqual({ kind: 'redirect', to: '/pages/error-404' });
      }),
      RUNS,
    );
  });

  it('allows an authenticated back-office administrador on every route', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.subarray(['users', 'x']),
        (route, id, permitted) => {
          const who = { authenticated: true, role: ADMIN_ROLE, permittedRoutes: permitted, staff: true };
          const decision = resolveNavigation(getHref(route.name, { id }), who);
          expect(decision).toMatchObject({ kind: 'allow', route: { name: route.name } });
        },
      ),
      RUNS,
    );
  });

  it('sends anyone who is not back-office staff away from every staff route, whatever the role', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...routes.filter((r) => 'staff' in r && r.staff)),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        subject,
        (route, id, who) => {
          const decision = resolveNavigation(getHref(route.name, { id }), { ...who, staff: false });
          expect(decision.kind).toBe('redirect');
        },
      ),
      RUNS,
    );
  });

  it('sends anonymous visitors of main routes to login with a `to` that leads back', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...routes.filter((r) => r.layout === 'main')),
        fc.string({ unit: 'grapheme' }),
        (route, query) => {
          const path = getHref(route.name, { id: 5 });
          const search = query === '' ? '' : `?q=${encodeURIComponent(query)}`;
          const decision = resolveNavigation(path, anonymous, search);
          expect(decision.kind).toBe('redirect');
          if (decision.kind !== 'redirect') return;
          const to = new URL(decision.to, 'http://app.test').searchParams.get('to');
          expect(to).toBe(`${path}${search}`);
          expect(safeRedirectTarget(to)).toBe(to);
        },
      ),
      RUNS,
    );
  });
});

describe('safeRedirectTarget', () => {
  it.each<[string | null | undefined, string]>([
    [undefined, '/'],
    [null, '/'],
    ['', '/'],
    ['/users', '/users'],
    ['/roles/edit/3?tab=x#top', '/roles/edit/3?tab=x#top'],
    ['/', '/'],
    ['//evil.com', '/'],
    ['//evil.com/users', '/'],
    ['/\\evil.com', '/'],
    ['\\\\evil.com', '/'],
    ['/\t/evil.com', '/'],
    ['/\n/evil.com', '/'],
    ['http://evil.com', '/'],
    ['https:/users', '/'],
    ['javascript:alert(1)', '/'],
    ['users', '/'],
    [' /users', '/'],
    ['/login', '/'],
    ['/login/', '/'],
    ['/login?to=/users', '/'],
    ['/pages/error-404', '/pages/error-404'],
  ])('%j → %j', (to, expected) => {
    expect(safeRedirectTarget(to)).toBe(expected);
  });

  it('only ever returns a path the browser resolves to this origin', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
        ),
        (to) => {
          const out = safeRedirectTarget(to);
          expect(out === '/' || out === to).toBe(true);
          expect(new URL(out, 'http://app.test/base/').origin).toBe('http://app.test');
          expect(out.startsWith('/')).toBe(true);
          expect(out.startsWith('//')).toBe(false);
        },
      ),
      RUNS,
    );
  });
});
