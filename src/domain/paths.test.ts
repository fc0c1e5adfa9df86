import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import pt from '../i18n/pt.json';
import ptBR from '../i18n/pt-BR.json';
import {
  getHref,
  getRoute,
  isRouteName,
  matchPath,
  requiresSession,
  routes,
  splitTenantPath,
  tenantFromPathname,
  withTenant,
  type RouteName,
} from './paths';

const RUNS = { numRuns: 1000 };

// The route table of docs/product.md (Routes), transcribed by hand: [name, path, rule, layout]; `page`: the
// shell when signed in, the blank layout otherwise (docs/panel.md).
const EXPECTED: readonly [string, string, string, string][] = [
  ['home', '/', 'all', 'main'],
  ['user-settings', '/user-settings', 'all', 'main'],
  ['users', '/users', 'check', 'main'],
  ['two-factor', '/two-factor', 'all', 'main'],
  ['tenants', '/tenants', 'check', 'main'],
  ['roles-list', '/roles/list', 'check', 'main'],
  ['roles-edit', '/roles/edit/:id', 'check', 'main'],
  ['departments', '/departments', 'check', 'main'],
  ['audit', '/audit', 'check', 'main'],
  ['webhooks', '/webhooks', 'check', 'main'],
  ['support', '/support', 'check', 'main'],
  ['support-person', '/support/users/:id', 'check', 'main'],
  ['dashboard-analytics', '/dashboard/analytics', 'check', 'main'],
  ['dashboard-control-panel', '/dashboard/control-panel', 'check', 'main'],
  ['dashboard-maria-panel', '/dashboard/maria-panel', 'check', 'main'],
  ['dashboard-produtivity-report', '/dashboard/produtivity-report', 'check', 'main'],
  ['dashboard-report', '/dashboard/report', 'check', 'main'],
  ['dashboard-report-smart', '/dashboard/report-smart', 'check', 'main'],
  ['login', '/login', 'all', 'blank'],
  ['reset-password', '/reset-password', 'all', 'blank'],
  ['comingsoon', '/pages/comingsoon', 'all', 'page'],
  ['error-404', '/pages/error-404', 'all', 'page'],
  ['error-500', '/pages/error-500', 'all', 'page'],
  ['not-authorized', '/pages/not-authorized', 'all', 'page'],
];

const routeName = fc.constantFrom(...routes.map((r) => r.name));
const paramValue = fc.oneof(fc.string({ unit: 'binary', minLength: 1 }), fc.nat());

describe('routes table', () => {
  it('has exactly the product routes', () => {
    expect(routes.map((r) => [r.name, r.path, r.rule, r.layout])).toEqual(EXPECTED);
  });

  it.each(EXPECTED)('%s: getRoute, session need and title key', (name, path, rule, layout) => {
    expect(isRouteName(name)).toBe(true);
    const route = getRoute(name as RouteName);
    expect(route).toMatchObject({ name, path, rule, layout });
    expect(requiresSession(route)).toBe(layout === 'main');
    // The title must resolve in every locale (keys are looked up, not merely well-formed).
    for (const resources of [ptBR, pt, en]) {
      const title = route.titleKey
        .split('.')
        .reduce<unknown>(
          (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
          resources,
        );
      expect(typeof title, route.titleKey).toBe('string');
    }
  });

  it('has unique names, paths and title keys', () => {
    for (const key of ['name', 'path', 'titleKey'] as const) {
      expect(new Set(routes.map((r) => r[key])).size).toBe(routes.length);
    }
  });

  it('rejects unknown names', () => {
    expect(isRouteName('admin')).toBe(false);
    expect(isRouteName('Users')).toBe(false);
  });
});

describe('getHref', () => {
  it.each<[string, () => string, string]>([
    ['home', () => getHref('home'), '/'],
    ['users', () => getHref('users'), '/users'],
    ['role 7', () => getHref('roles-edit', { id: 7 }), '/roles/edit/7'],
    ['encoded id', () => getHref('roles-edit', { id: 'a b/c?' }), '/roles/edit/a%20b%2Fc%3F'],
    ['login to', () => getHref('login', {}, { to: '/users?x=1' }), '/login?to=%2Fusers%3Fx%3D1'],
    ['skips null', () => getHref('users', {}, { a: null, b: undefined, c: 1, d: true }), '/users?c=1&d=true'],
    ['empty query', () => getHref('tenants', {}, {}), '/tenants'],
  ])('%s', (_label, build, expected) => {
    expect(build()).toBe(expected);
  });

  it('throws on a missing or empty parameter', () => {
    expect(() => getHref('roles-edit')).toThrow(/id/);
    expect(() => getHref('roles-edit', {} as { id: string })).toThrow(/id/);
    expect(() => getHref('roles-edit', { id: '' })).toThrow(/id/);
  });

  it('round-trips through matchPath for every route and any parameter value', () => {
    fc.assert(
      fc.property(routeName, paramValue, (name, id) => {
        const href = getHref(name, { id });
        const match = matchPath(href);
        expect(match?.route.name).toBe(name);
        if (getRoute(name).path.includes(':id')) expect(match?.params).toEqual({ id: String(id) });
        else expect(match?.params).toEqual({});
      }),
      RUNS,
    );
  });

  it('appends a query string that parses back to the given values', () => {
    fc.assert(
      fc.property(
        routeName,
        fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1 }), fc.string({ unit: 'grapheme' })),
        (name, query) => {
          const href = getHref(name, { id: 1 }, query);
          const q = href.indexOf('?');
          const parsed = q === -1 ? {} : Object.fromEntries(new URLSearchParams(href.slice(q + 1)));
          expect(parsed).toEqual(query);
        },
      ),
      RUNS,
    );
  });
});

describe('matchPath', () => {
  it.each<[string, string | null, Record<string, string>?]>([
    ['/', 'home'],
    ['', 'home'],
    ['/users', 'users'],
    ['/users/', 'users'],
    ['/roles/list', 'roles-list'],
    ['/roles/edit/7', 'roles-edit', { id: '7' }],
    ['/roles/edit/7/', 'roles-edit', { id: '7' }],
    ['/roles/edit/a%20b', 'roles-edit', { id: 'a b' }],
    ['/dashboard/report-smart', 'dashboard-report-smart'],
    ['/pages/not-authorized', 'not-authorized'],
    ['/roles/edit/%E0%A4%A', null], // malformed escape
    ['/roles/edit', null],
    ['/roles/edit/', null],
    ['/roles/edit/1/2', null],
    ['/Users', null],
    ['/users//', null],
    ['users', null],
    ['//users', null],
    ['/dashboard', null],
    ['/login?to=/users', null], // pathname only
  ])('%j → %s', (pathname, name, params) => {
    const match = matchPath(pathname);
    expect(match?.route.name ?? null).toBe(name);
    if (name !== null) expect(match?.params).toEqual(params ?? {});
  });
});

describe('tenant paths', () => {
  it.each<[string, string | null, string]>([
    ['/acme/users', 'acme', '/users'],
    ['/acme/roles/edit/3', 'acme', '/roles/edit/3'],
    ['/acme', 'acme', '/'],
    ['/acme/', 'acme', '/'],
    ['/', null, '/'],
    ['', null, '/'],
    ['backoffice/login', 'backoffice', '/login'],
  ])('%j → tenant %j, rest %j', (pathname, tenant, rest) => {
    expect(splitTenantPath(pathname)).toEqual({ tenant, rest });
    expect(tenantFromPathname(pathname)).toBe(tenant);
  });

  it('splits what withTenant joins', () => {
    const segment = fc.string({ minLength: 1 }).filter((s) => !s.includes('/'));
    const rest = fc.array(fc.string().filter((s) => !s.includes('/'))).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(segment, rest, (tenant, path) => {
        const full = withTenant(tenant, path);
        expect(full).toBe(`/${tenant}${path}`);
        expect(splitTenantPath(full)).toEqual({ tenant, rest: path });
        expect(tenantFromPathname(full)).toBe(tenant);
      }),
      RUNS,
    );
  });
});
