/**
 * Route guards (docs/product.md, Routes and Roles and route permissions). The router and the menu both
 * ask these functions, so they never disagree; the server applies the same rule to every operation's
 * declared permissions (server/src/plugins/auth.ts `allows`), so a hidden button is never the only guard.
 */
import { getHref, getRoute, matchPath, routes, type AppRoute, type RouteDefinition } from './paths';

/**
 * The role that holds every route (docs/product.md, Roles and route permissions): it passes every
 * rule, its permissions are never edited, and its stored rows are not what it holds. Written once,
 * here: the guard and menu ({@link canAccess}), the role screens (src/machines/roles/role-access.ts,
 * roles.machine.ts) and the server (server/src/access/permissions.ts, server/src/db/catalog.ts,
 * server/src/db/user-dto.ts) all ask {@link holdsEveryRoute} and {@link routesHeld}.
 */
export const ADMIN_ROLE = 'administrador';

/**
 * Route names that carry a permission: every route whose rule is not 'all' and that names no other
 * route's permission (`departments` needs `users`).
 */
export type PermissionRoute = Exclude<(typeof routes)[number], { rule: 'all' } | { permission: string }>['name'];

/** Every permission route, in the route table's order (server/src/db/catalog.ts labels each). */
export const PERMISSION_ROUTES: readonly PermissionRoute[] = routes
  .filter((route) => route.rule !== 'all' && !('permission' in route))
  .map((route) => route.name as PermissionRoute);

/** Whether a role of this name holds every route, whatever its stored permissions say. */
export function holdsEveryRoute(roleName: string | null | undefined): boolean {
  return roleName === ADMIN_ROLE;
}

/**
 * The routes a role holds: every permission route for the administrador, else the ones its rows grant.
 *
 * @param roleName - the role's machine name
 * @param granted - the route names its stored permissions grant
 */
export function routesHeld(roleName: string, granted: readonly string[]): string[] {
  return holdsEveryRoute(roleName) ? [...PERMISSION_ROUTES] : [...granted];
}

/** Who is asking: enough of the session to decide access. */
export type AccessSubject = {
  authenticated: boolean;
  role: string | null;
  /** Route names from `has_permission_routes`. */
  permittedRoutes: readonly string[];
  /** Back-office staff (`origin_backoffice`): only they open `staff` routes. Absent: not staff. */
  staff?: boolean;
  /** Signed out on purpose (logout): the login page then opens plain, without a `to` to come back to. */
  loggedOut?: boolean;
};

/** Whether two subjects decide every route alike (same session state, role, staff or not, and permitted routes, in order). */
export function sameAccessSubject(a: AccessSubject, b: AccessSubject): boolean {
  return (
    a.authenticated === b.authenticated &&
    a.role === b.role &&
    (a.staff ?? false) === (b.staff ?? false) &&
    (a.loggedOut ?? false) === (b.loggedOut ?? false) &&
    a.permittedRoutes.length === b.permittedRoutes.length &&
    a.permittedRoutes.every((route, index) => route === b.permittedRoutes[index])
  );
}

/** The outcome of a navigation: render the route, or go elsewhere (a tenant-relative href). */
export type NavigationDecision =
  { kind: 'allow'; route: AppRoute; params: Readonly<Record<string, string>> } | { kind: 'redirect'; to: string };

/**
 * Whether a subject passes a route's rule.
 *
 * - `all`: anyone.
 * - `check`: role `administrador`, or the route's permission (its `permission`, else its name) is among
 *   the permitted routes.
 * - `admin`: role `administrador` only.
 *
 * A `staff` route asks, before any of that, that the subject be back-office staff: an administrador
 * of a customer tenant holds every permission but is not staff (docs/support-desk.md, Who may use it).
 *
 * Permissions belong to a session, so an unauthenticated subject never passes
 * `check` or `admin`, whatever stale role or list it carries. Whether the
 * route needs a session at all is {@link resolveNavigation}'s concern.
 *
 * @param route - a route row (or any {@link RouteDefinition})
 * @param subject - the current session's view
 */
export function canAccess(route: RouteDefinition, subject: AccessSubject): boolean {
  if (route.rule === 'all') return true;
  if (!subject.authenticated) return false;
  if (route.staff === true && subject.staff !== true) return false;
  if (holdsEveryRoute(subject.role)) return true;
  if (route.rule === 'admin') return false;
  return subject.permittedRoutes.includes(route.permission ?? route.name);
}

/**
 * The "second check" (docs/product.md, Roles and route permissions): whether a permission with this route name exists.
 *
 * @param permissions - permission records as the API returns them
 * @param routeName - the route name to look for
 */
export function hasPermission(permissions: readonly { route_name: string }[], routeName: string): boolean {
  return permissions.some((permission) => permission.route_name === routeName);
}

function normaliseSearch(search: string | undefined): string {
  if (search === undefined || search === '' || search === '?') return '';
  return search.startsWith('?') ? search : `?${search}`;
}

/**
 * Decides what a navigation to a tenant-relative path does.
 *
 * Order matters: an unknown path is a 404 before anything else (so probing
 * reveals nothing about sessions); a main-layout route without a session goes
 * to login, remembering where it was headed; a route the subject may not see
 * goes to not-authorized. Every redirect target is an open blank route, so
 * resolving it again always allows and redirects cannot loop.
 *
 * @param pathnameWithinTenant - e.g. `/roles/edit/7`
 * @param subject - the current session's view
 * @param search - the query string, with or without its leading `?`
 */
export function resolveNavigation(
  pathnameWithinTenant: string,
  subject: AccessSubject,
  search?: string,
): NavigationDecision {
  const match = matchPath(pathnameWithinTenant);
  if (match === null) return { kind: 'redirect', to: getRoute('error-404').path };
  const { route, params } = match;
  if (route.layout === 'main' && !subject.authenticated) {
    if (subject.loggedOut) return { kind: 'redirect', to: getRoute('login').path };
    const to = `${pathnameWithinTenant}${normaliseSearch(search)}`;
    return { kind: 'redirect', to: getHref('login', {}, { to }) };
  }
  // `?page=` lets the not-authorized page name the permission this route needs (docs/panel.md).
  if (!canAccess(route, subject)) return { kind: 'redirect', to: getHref('not-authorized', {}, { page: route.name }) };
  return { kind: 'allow', route, params };
}

// Browsers strip tabs and newlines from URLs, so `/\t/evil.com` would become
// `//evil.com`; any control character is therefore refused.
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The post-login destination from the `to` query parameter (docs/product.md, Routes), made
 * safe against open redirects.
 *
 * Accepts only a same-app path starting with a single `/`; rejects
 * protocol-relative (`//host`), absolute (`http:`), backslash and
 * control-character tricks, and `/login` itself (which would loop).
 *
 * @param to - the raw `to` parameter
 * @returns `to` when safe, otherwise `/` (the tenant home)
 */
export function safeRedirectTarget(to: string | null | undefined): string {
  const home = getRoute('home').path;
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//')) return home;
  if (to.includes('\\') || hasControlCharacter(to)) return home;
  const pathname = to.split(/[?#]/, 1)[0] ?? '';
  if (matchPath(pathname)?.route.name === 'login') return home;
  return to;
}
