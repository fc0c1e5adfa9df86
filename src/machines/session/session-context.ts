import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import type { Enrolment, SessionSyncEvent } from './session-actors';
import {
  readStoredSession,
  type Permission,
  type StorageEventSource,
  type StorageLike,
  type StoredSession,
  type User,
} from './session-storage';

/** The session machine's input, context and events (kept apart so the machine file stays readable). */

/** How long login waits for the IP lookup at most (docs/product.md, Sessions: about 1.5 s). */
export const IP_WAIT_MS = 1500;
/** A token this close to its expiry counts as expired, so it never dies in flight. */
export const EXPIRY_SKEW_MS = 5000;

/**
 * The margin for a token of `lifetimeMs` (null: not known, e.g. restored from storage): at most
 * {@link EXPIRY_SKEW_MS}, and never more than a quarter of its life — a margin as long as the token
 * itself (ACCESS_TOKEN_TTL=3) made every fresh token count as expired, so each request refreshed again.
 */
export const expirySkew = (lifetimeMs: number | null): number =>
  lifetimeMs === null ? EXPIRY_SKEW_MS : Math.min(EXPIRY_SKEW_MS, lifetimeMs / 4);
/** Whether the session's token counts as expired on its own clock (margin included): it is refreshed before use. */
export const isTokenExpired = (context: Pick<SessionContext, 'expiresAt' | 'lifetimeMs' | 'deps'>): boolean =>
  context.expiresAt !== null && context.deps.now() >= context.expiresAt - expirySkew(context.lifetimeMs);
/** How long logout waits for `beforeLogout`. */
export const BEFORE_LOGOUT_MS = 1500;

export interface SessionInput {
  /** REST client over `createAuthFetch(sessionSeam(...))` (see session-seam.ts). */
  rest: RestClient;
  /** GraphQL client over a plain fetch, used only for `refreshToken`. */
  refreshGraphql: { execute: Execute };
  /** Public-IP lookup, e.g. `() => lookupPublicIp({ url })`; must resolve null on failure. */
  lookupIp: () => Promise<string | null>;
  /**
   * Runs just before the REST logout, while the token still works (e.g. GraphQL `disconnected`,
   * docs/product.md, Presence). Waited for at most {@link BEFORE_LOGOUT_MS}; its failure never blocks the logout.
   */
  beforeLogout?: () => Promise<unknown>;
  storage: StorageLike;
  /** Other tabs' storage writes, e.g. `windowStorageEvents(window)`. */
  storageEvents: StorageEventSource;
  /** Wall clock for token expiry; default `Date.now`. */
  now?: () => number;
  /** API base the token belongs to (stored as `baseUrl`); default '' (same origin). */
  baseUrl?: string;
}

/** Why the last session ended: shown on the login page as a notice key. */
export type SessionEnd = 'logout' | 'expired' | 'remote';

export interface SessionContext {
  deps: Required<SessionInput>;
  token: string | null;
  expiresAt: number | null;
  /** How long the current token lives from issue to expiry (from the login/refresh answer, or the token's own claims): sets its expiry margin. */
  lifetimeMs: number | null;
  email: string | null;
  originBackoffice: boolean;
  user: User | null;
  permittedRoutes: string[];
  permissions: Permission[];
  /** The user and permitted routes came from a sign-in answer just now: the profile load skips userInfo. */
  profileFromLogin: boolean;
  ip: string | null;
  ipSettled: boolean;
  /** Held only while a login is in flight. */
  credentials: { email: string; password: string; to: string | null; otp: string | null; remember: boolean } | null;
  /** The secret to enrol, while a sign-in required of the user walks through enrolment (`twoFactor` tag). */
  enrolment: Enrolment | null;
  /** Recovery codes a sign-in that enrolled the user handed out: shown once, cleared by `session.recoveryCodesSeen`. */
  recoveryCodes: string[] | null;
  /** Login failure message key ('auth.login.failed', 'auth.login.noToken', 'auth.login.throttled', 'auth.login.tenantDeleted', 'auth.twoFactor.invalidCode'). */
  error: I18nKey | null;
  /** Seconds the server asks to wait after too many failed sign-ins (429 `retry_after`), for the message. */
  retryAfter: number | null;
  /** Success toast after login, cleared by `session.dismissNotice`. */
  notice: { titleKey: I18nKey; bodyKey: I18nKey } | null;
  /** Where to go after login (the safe `to` parameter or the tenant home), cleared by `session.redirected`. */
  redirectTo: string | null;
  /** Why the last session ended; the login page may show {@link SESSION_END_KEYS}. */
  ended: SessionEnd | null;
}

/** Notice keys for an ended session (a user-initiated logout shows nothing). */
export const SESSION_END_KEYS = {
  expired: 'session.ended.expired',
  remote: 'session.ended.remote',
} as const satisfies Record<Exclude<SessionEnd, 'logout'>, I18nKey>;

export type SessionEvent =
  | { type: 'session.login'; email: string; password: string; to?: string | null; remember?: boolean }
  /** The second factor (a TOTP or recovery code) after the server asked for it (`twoFactor` tag). */
  | { type: 'session.verifyCode'; otp: string }
  /** Back from the code step to the e-mail and password form; the held credentials are dropped. */
  | { type: 'session.cancelTwoFactor' }
  | { type: 'session.logout' }
  /** Sent before a request leaves: refreshes first when the token is locally expired. */
  | { type: 'session.ensureFresh' }
  /** Refresh because `token` was refused (e.g. socket close 4401); ignored when `token` is already replaced. */
  | { type: 'session.refresh'; token: string | null }
  /** A 401 of a request sent with `token` (null: unknown); see session-seam.ts. */
  | { type: 'session.unauthorized'; token: string | null; body: unknown; attempt: 1 | 2 }
  | SessionSyncEvent
  | { type: 'session.reloadProfile' }
  /**
   * The server issued this session a new token outside a refresh: GraphQL `updateUserPassword`
   * revokes every earlier token (the one in use too) and answers a fresh one, which must replace it.
   */
  | { type: 'session.tokenRotated'; token: string; expiresIn: number }
  | { type: 'session.redirected' }
  | { type: 'session.dismissNotice' }
  | { type: 'session.recoveryCodesSeen' };

export const signedOut = {
  token: null,
  expiresAt: null,
  lifetimeMs: null,
  email: null,
  originBackoffice: false,
  user: null,
  permittedRoutes: [],
  permissions: [],
  profileFromLogin: false,
  credentials: null,
  enrolment: null,
  recoveryCodes: null,
  retryAfter: null,
  notice: null,
  redirectTo: null,
} satisfies Partial<SessionContext>;

/**
 * A JWT's lifetime (`exp − iat`) read from its payload, or null when the token says nothing usable.
 * Only sizes the expiry margin of a token restored from storage or adopted from another tab; the
 * token is never trusted for anything else here (the server checks it).
 */
export function tokenLifetimeMs(token: string | null): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: unknown; exp?: unknown };
    const { iat, exp } = claims;
    return typeof iat === 'number' && typeof exp === 'number' && exp > iat ? (exp - iat) * 1000 : null;
  } catch {
    return null;
  }
}

export function fromStored(stored: StoredSession): Partial<SessionContext> {
  const { token, expiresAt, email, originBackoffice, user, permittedRoutes, permissions } = stored;
  return {
    token,
    expiresAt,
    lifetimeMs: tokenLifetimeMs(token),
    email,
    originBackoffice,
    user,
    permittedRoutes,
    permissions,
  };
}

export function initialContext(input: SessionInput): SessionContext {
  const deps: Required<SessionInput> = {
    now: () => Date.now(),
    baseUrl: '',
    beforeLogout: () => Promise.resolve(),
    ...input,
  };
  const stored = readStoredSession(deps.storage, deps.baseUrl);
  return {
    deps,
    ...signedOut,
    ...(stored ? fromStored(stored) : {}),
    ip: null,
    ipSettled: false,
    error: null,
    ended: null,
  };
}

/** True when `token` is the one in use (null: the caller does not know which token it sent). */
export const isCurrentToken = (context: SessionContext, token: string | null) =>
  token === null || token === context.token;
