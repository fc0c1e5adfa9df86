/**
 * Route guards (docs/product.md, Routes and Roles and route permissions). The router and the menu both
 * ask these functions, so they never disagree; the server applies the same rule to every operation's
 * declared permissions (server/src/plugins/auth.ts `allows`), so a hidden button is never the only guard.
 */
import { getHref, getRoute, matchPath, type AppRoute, type RouteDefinition } from './paths';

/** The role that passes every rule (docs/product.md, Roles and route permissions). */
export const ADMIN_ROLE = 'administrador';

/** Who is asking: enough of the session to decide access. */
export type AccessSubject = {
  authenticated: boolean;
  role: string | null;
  /** Route names from `has_permission_routes`. */
  permittedRoutes: readonly string[];
  /** Signed out on purpose (logout): the login page then opens plain, without a `to` to come back to. */
  loggedOut?: boolean;
};

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
  if (subject.role === ADMIN_ROLE) return true;
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
  if (!canAccess(route, subject)) return { kind: 'redirect', to: getRoute('not-authorized').path };
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
