/**
 * The one route table (docs/product.md, Routes). Router, links, menu and guards all
 * read it, so a route's rule can never disagree between the menu and the guard.
 *
 * Paths are wouter-style patterns relative to the tenant base `/{tenant}`.
 * A route's `name` is what the server's permission `route_name` holds, unless the row names another
 * permission (`permission`): the departments screen is guarded by `users`, the permission of the
 * operations it calls (contracts/openapi.yaml `departmentCreate`). A `staff` route is for back-office
 * staff only (the support desk, docs/support-desk.md).
 */

/** Access rule (docs/product.md, Roles and route permissions): anyone, per-route permission, or administrators only. */
export type RouteRule = 'all' | 'check' | 'admin';

/**
 * Page chrome: `main` routes need a session, `blank` routes are open, `page` routes (404, 500,
 * not-authorized, coming soon) are open too and render inside the signed-in shell when there is a
 * session, in the blank layout otherwise (docs/panel.md, Navigation and pages inside the shell).
 */
export type RouteLayout = 'main' | 'blank' | 'page';

/** Shape every row of {@link routes} satisfies. */
export interface RouteDefinition {
  readonly name: string;
  readonly path: string;
  readonly rule: RouteRule;
  readonly layout: RouteLayout;
  /** i18n key of the page title and menu label. */
  readonly titleKey: string;
  /** The permission `route_name` a `check` route needs when it is not the route's own name. */
  readonly permission?: string;
  /**
   * Only back-office staff (`origin_backoffice`) may open it, whatever their role: the support desk
   * works across tenants (docs/support-desk.md, Who may use it).
   */
  readonly staff?: boolean;
}

/** Tenant used when the address names none (docs/product.md, Tenants in the address; `BACKOFFICE_TENANT`'s default). */
export const DEFAULT_TENANT = 'backoffice';

/** Every route of the product, in menu order. */
export const routes = [
  { name: 'home', path: '/', rule: 'all', layout: 'main', titleKey: 'routes.home' },
  { name: 'user-settings', path: '/user-settings', rule: 'all', layout: 'main', titleKey: 'routes.user-settings' },
  { name: 'users', path: '/users', rule: 'check', layout: 'main', titleKey: 'routes.users' },
  { name: 'two-factor', path: '/two-factor', rule: 'all', layout: 'main', titleKey: 'routes.two-factor' },
  { name: 'tenants', path: '/tenants', rule: 'check', layout: 'main', titleKey: 'routes.tenants' },
  { name: 'roles-list', path: '/roles/list', rule: 'check', layout: 'main', titleKey: 'routes.roles-list' },
  { name: 'roles-edit', path: '/roles/edit/:id', rule: 'check', layout: 'main', titleKey: 'routes.roles-edit' },
  {
    name: 'departments',
    path: '/departments',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.departments',
    permission: 'users',
  },
  { name: 'audit', path: '/audit', rule: 'check', layout: 'main', titleKey: 'routes.audit' },
  // A tenant's webhook history (docs/webhooks.md): reached from the tenant panel, guarded as its operations are.
  {
    name: 'webhooks',
    path: '/webhooks',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.webhooks',
    permission: 'tenants',
  },
  // The support desk (docs/support-desk.md): the `users` permission, as its operations declare, and staff only.
  {
    name: 'support',
    path: '/support',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.support',
    permission: 'users',
    staff: true,
  },
  {
    name: 'support-person',
    path: '/support/users/:id',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.support-person',
    permission: 'users',
    staff: true,
  },
  {
    name: 'dashboard-analytics',
    path: '/dashboard/analytics',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.dashboard-analytics',
  },
  {
    name: 'dashboard-control-panel',
    path: '/dashboard/control-panel',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.dashboard-control-panel',
  },
  {
    name: 'dashboard-maria-panel',
    path: '/dashboard/maria-panel',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.dashboard-maria-panel',
  },
  {
    name: 'dashboard-produtivity-report',
    path: '/dashboard/produtivity-report',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.dashboard-produtivity-report',
  },
  {
    name: 'dashboard-report',
    path: '/dashboard/report',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.dashboard-report',
  },
  {
    name: 'dashboard-report-smart',
    path: '/dashboard/report-smart',
    rule: 'check',
    layout: 'main',
    titleKey: 'routes.dashboard-report-smart',
  },
  { name: 'login', path: '/login', rule: 'all', layout: 'blank', titleKey: 'routes.login' },
  // The page a reset link opens (docs/support-desk.md, Forgot password): open to anyone, like the login.
  {
    name: 'reset-password',
    path: '/reset-password',
    rule: 'all',
    layout: 'blank',
    titleKey: 'routes.reset-password',
  },
  { name: 'comingsoon', path: '/pages/comingsoon', rule: 'all', layout: 'page', titleKey: 'routes.comingsoon' },
  { name: 'error-404', path: '/pages/error-404', rule: 'all', layout: 'page', titleKey: 'routes.error-404' },
  { name: 'error-500', path: '/pages/error-500', rule: 'all', layout: 'page', titleKey: 'routes.error-500' },
  {
    name: 'not-authorized',
    path: '/pages/not-authorized',
    rule: 'all',
    layout: 'page',
    titleKey: 'routes.not-authorized',
  },
] as const satisfies readonly RouteDefinition[];

/** A row of {@link routes}. */
export type AppRoute = (typeof routes)[number];

/** Name of a route; also the permission `route_name` the server checks. */
export type RouteName = AppRoute['name'];

/** The route row with the given name. */
export type RouteByName<N extends RouteName> = Extract<AppRoute, { name: N }>;

/** `:param` names in a path pattern, e.g. `'id'` for `/roles/edit/:id`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Param}`
    ? Param
    : never;

/** Parameter values for a route's pattern. */
export type RouteParams<N extends RouteName> = Readonly<
  Record<PathParamNames<RouteByName<N>['path']>, string | number>
>;

/** Query-string values; `null`/`undefined` entries are left out. */
export type QueryParams = Readonly<Record<string, string | number | boolean | null | undefined>>;

const byName = new Map<string, AppRoute>(routes.map((route) => [route.name, route]));

/** True when `name` is one of the route names. */
export function isRouteName(name: string): name is RouteName {
  return byName.has(name);
}

/**
 * Looks a route up by name.
 *
 * @param name - a {@link RouteName}
 * @returns the route row, typed to that name
 */
export function getRoute<N extends RouteName>(name: N): RouteByName<N> {
  // The map is built from `routes`, so every RouteName is present.
  return byName.get(name) as RouteByName<N>;
}

/** True for routes that only a signed-in user may open (the main layout). */
export function requiresSession(route: RouteDefinition): boolean {
  return route.layout === 'main';
}

/**
 * Builds a tenant-relative link to a route.
 *
 * @param name - the route
 * @param params - values for `:param` segments, URI-encoded into the path
 * @param query - appended as a query string; `null`/`undefined` values skipped
 * @returns a path such as `/roles/edit/7?tab=perms`
 * @throws Error when a `:param` has no value or an empty one
 * @throws URIError when a value holds a lone surrogate (cannot be encoded)
 */
export function getHref<N extends RouteName>(name: N, params?: RouteParams<N>, query?: QueryParams): string {
  const values: Readonly<Record<string, string | number>> = params ?? {};
  const path = getRoute(name)
    .path.split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const key = segment.slice(1);
      const value = values[key];
      if (value === undefined || String(value) === '') {
        throw new Error(`getHref(${name}): missing path parameter "${key}"`);
      }
      return encodeURIComponent(String(value));
    })
    .join('/');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) search.append(key, String(value));
  }
  const qs = search.toString();
  return qs === '' ? path : `${path}?${qs}`;
}

/** A route matched against a pathname, with its decoded `:param` values. */
export interface PathMatch {
  readonly route: AppRoute;
  readonly params: Readonly<Record<string, string>>;
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function matchRoute(route: AppRoute, segments: readonly string[]): PathMatch | null {
  const pattern = route.path.split('/');
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] ?? '';
    if (part.startsWith(':')) {
      const decoded = segment === '' ? null : safeDecode(segment);
      if (decoded === null) return null;
      params[part.slice(1)] = decoded;
    } else if (part !== segment) {
      return null;
    }
  }
  return { route, params };
}

/**
 * Finds the route for a tenant-relative pathname. Matching is exact and
 * case-sensitive; one trailing slash is tolerated and `''` means `/`.
 *
 * @param pathname - e.g. `/roles/edit/7` (no query string, no tenant)
 * @returns the route and decoded params, or null for an unknown path
 */
export function matchPath(pathname: string): PathMatch | null {
  let path = pathname === '' ? '/' : pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (!path.startsWith('/')) return null;
  const segments = path.split('/');
  for (const route of routes) {
    const match = matchRoute(route, segments);
    if (match !== null) return match;
  }
  return null;
}

/**
 * Splits a full browser pathname into its tenant (first segment, kept raw so
 * `/${tenant}${rest}` rebuilds the address) and the tenant-relative rest.
 *
 * @param pathname - e.g. `/acme/users`
 * @returns `{ tenant: 'acme', rest: '/users' }`; `{ tenant: null, rest: '/' }` for `/`
 */
export function splitTenantPath(pathname: string): { tenant: string | null; rest: string } {
  const path = pathname.startsWith('/') ? pathname.slice(1) : pathname;
  const slash = path.indexOf('/');
  const tenant = slash === -1 ? path : path.slice(0, slash);
  const rest = slash === -1 ? '/' : path.slice(slash);
  return tenant === ''
    ? { tenant: null, rest: pathname.startsWith('/') ? pathname : `/${pathname}` }
    : { tenant, rest };
}

/**
 * The tenant named by the first segment of a full pathname.
 *
 * @param pathname - e.g. `/acme/users`
 * @returns `'acme'`, or null when the address has no first segment
 */
export function tenantFromPathname(pathname: string): string | null {
  return splitTenantPath(pathname).tenant;
}

/**
 * Prefixes a tenant-relative path with its tenant, for navigation outside the
 * router (e.g. the 401 handler sending the user to `/login`).
 *
 * @param tenant - the raw tenant segment, as {@link tenantFromPathname} returns it
 * @param path - a tenant-relative path starting with `/`
 */
export function withTenant(tenant: string, path: string): string {
  return `/${tenant}${path.startsWith('/') ? path : `/${path}`}`;
}
