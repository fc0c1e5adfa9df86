import { hasPermission, type AccessSubject } from '../../domain/route-access';
import type { I18nKey } from '../../domain/i18n-key';
import { isTokenExpired, SESSION_END_KEYS, type SessionSnapshot } from './session.machine';
import type { User } from './session-storage';

/** Selectors for `useSelector(session, …)`: views never read the context's shape directly. */

export const selectIsAuthenticated = (snapshot: SessionSnapshot): boolean => snapshot.hasTag('authenticated');

/** Signed out with nothing to tell (no session end to announce, no login error): a first visit's state. */
export const selectPristineSignedOut = (snapshot: SessionSnapshot): boolean =>
  snapshot.matches({ auth: 'anonymous' }) && snapshot.context.ended === null && snapshot.context.error === null;

/**
 * The signed-in session's token while it is fresh: not expired on the session's clock (margin
 * included) and not being replaced by a refresh. Null otherwise.
 */
export const selectFreshToken = (snapshot: SessionSnapshot): string | null =>
  snapshot.hasTag('authenticated') && !snapshot.hasTag('refreshing') && !isTokenExpired(snapshot.context)
    ? snapshot.context.token
    : null;

/** A login or logout call is in flight (disable the form / the logout button). */
export const selectIsBusy = (snapshot: SessionSnapshot): boolean => snapshot.hasTag('busy');

/** The server asked for the second factor: the login form asks for the code. */
export const selectAwaitingCode = (snapshot: SessionSnapshot): boolean => snapshot.hasTag('twoFactor');

/** The password was right but temporary: the login form asks for a new one. */
export const selectAwaitingNewPassword = (snapshot: SessionSnapshot): boolean => snapshot.hasTag('passwordChange');

/** The temporary password the sign-in holds while a new one is asked for (the new one must differ). */
export const selectTemporaryPassword = (snapshot: SessionSnapshot): string | null =>
  snapshot.hasTag('passwordChange') ? (snapshot.context.credentials?.password ?? null) : null;

export const selectUser = (snapshot: SessionSnapshot): User | null => snapshot.context.user;

/** The secret to enrol while the code step is an enrolment at sign-in, else null. */
export const selectEnrolment = (snapshot: SessionSnapshot) =>
  snapshot.hasTag('twoFactor') ? snapshot.context.enrolment : null;

/** Recovery codes the sign-in that enrolled the user handed out, until `session.recoveryCodesSeen`. */
export const selectRecoveryCodes = (snapshot: SessionSnapshot): string[] | null => snapshot.context.recoveryCodes;

/**
 * The tenant a signed-in user who is not back-office staff acts in (docs/product.md, Tenants in the
 * address): the address must name it. Null for staff, or while the user is not known.
 */
export const selectOwnTenant = (snapshot: SessionSnapshot): string | null =>
  snapshot.hasTag('authenticated') && !snapshot.context.originBackoffice
    ? (snapshot.context.user?.tenantName ?? null)
    : null;

/**
 * Back-office staff (`origin_backoffice`): only they change plans, limits, features and billing flags,
 * and only they open the support desk. The one place the SPA decides it: the route guard and the menu
 * read it through {@link selectAccessSubject}, the screens directly (re-exported by access-selectors.ts).
 */
export const selectIsStaff = (snapshot: SessionSnapshot): boolean =>
  snapshot.hasTag('authenticated') && snapshot.context.originBackoffice;

/** The login failure message key, or null. */
export const selectLoginError = (snapshot: SessionSnapshot): I18nKey | null => snapshot.context.error;

/** The success notice to toast once; send `session.dismissNotice` after showing it. */
export const selectNotice = (snapshot: SessionSnapshot) => snapshot.context.notice;

/** Where to navigate after login; send `session.redirected` once there. */
export const selectRedirectTo = (snapshot: SessionSnapshot): string | null => snapshot.context.redirectTo;

/** Why the last session ended, as a notice key for the login page (null after a deliberate logout). */
export const selectEndedNotice = (snapshot: SessionSnapshot): I18nKey | null => {
  const ended = snapshot.context.ended;
  return ended === null || ended === 'logout' ? null : SESSION_END_KEYS[ended];
};

/**
 * What the route rules need (src/domain/route-access.ts). The role comes from the stored user info;
 * it is null (not the legacy default 'administrador') until user info exists, because
 * defaulting an unknown user to the administrator role would open every admin route.
 */
export const selectAccessSubject = (snapshot: SessionSnapshot): AccessSubject => ({
  authenticated: snapshot.hasTag('authenticated'),
  role: snapshot.context.user?.role.name ?? null,
  permittedRoutes: snapshot.context.permittedRoutes,
  staff: selectIsStaff(snapshot),
  loggedOut:
    !snapshot.hasTag('authenticated') &&
    (snapshot.matches({ auth: 'loggingOut' }) || snapshot.context.ended === 'logout'),
});

/** The second check (docs/product.md, Roles and route permissions): whether a permission with this route name exists for the signed-in user. */
export const selectHasPermission = (snapshot: SessionSnapshot, routeName: string): boolean =>
  snapshot.hasTag('authenticated') && hasPermission(snapshot.context.permissions, routeName);
