import { matchPath, splitTenantPath } from '../domain/paths';
import { selectPristineSignedOut } from '../machines/session/session-selectors';
import type { AppServices } from './app-services';

/**
 * The build renders the login page ahead of time (src/app/prerender.tsx) for the state a visit is in:
 * signed out, nothing to tell, in each language and theme, with or without reset mail
 * ({@link LoginMailVariant}). The server sends one for `/{tenant}/login` (server/src/plugins/static.ts):
 * the language and theme its look cookie names (src/domain/look-cookie.ts; none: pt-BR, light), with this
 * key on `#root`; the SPA hydrates it only when its own state gives the same key, and otherwise renders
 * from scratch (a cookie that disagrees with the stored preferences, a stored session, another route).
 *
 * @param services - the app services, before the first render
 * @param pathname - the full browser pathname (`/{tenant}/login`)
 * @returns the key of the page the app would render now, or null when it is not the prerendered one
 */
export function prerenderKey(
  services: Pick<AppServices, 'session' | 'preferences' | 'settings'>,
  pathname: string,
): string | null {
  if (matchPath(splitTenantPath(pathname).rest)?.route.name !== 'login') return null;
  if (!selectPristineSignedOut(services.session.getSnapshot())) return null;
  const { locale, theme } = services.preferences.getSnapshot().context;
  return `login ${locale} ${theme} ${loginMailVariant(services.settings)}`;
}

/**
 * The two prerendered login pages: with the "Esqueci minha senha" link (`mail`), and with it disabled and
 * its reason under it (`no-mail`), for a server that cannot send reset links; the server sends the one
 * its settings match (server/src/plugins/static.ts). A page that does not say is the link's.
 */
export type LoginMailVariant = 'mail' | 'no-mail';
export const loginMailVariant = (settings: Pick<AppServices['settings'], 'passwordResetMail'>): LoginMailVariant =>
  settings.passwordResetMail === false ? 'no-mail' : 'mail';

/**
 * Tells the route guard where the app is before the first render, so that render already shows
 * the route (the router otherwise shows the page fallback first and tells the guard in a layout
 * effect): the prerendered markup is the route, and hydration must produce the same.
 */
export function decideFirstRoute(
  services: Pick<AppServices, 'guard'>,
  location: Pick<Location, 'pathname' | 'search'>,
): void {
  const { tenant, rest } = splitTenantPath(location.pathname);
  if (tenant === null) return;
  // As wouter gives it to the router (no leading "?"); the router's own report follows and agrees.
  services.guard.send({ type: 'route.navigate', pathname: rest, search: location.search.replace(/^\?/, '') });
}
