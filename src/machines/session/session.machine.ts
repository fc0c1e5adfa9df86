import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import {
  type Enrolment,
  type SessionSyncEvent,
  classifyLoginFailure,
  crossTabActor,
  ipLookupActor,
  loadProfileActor,
  loginActor,
  logoutActor,
  refreshActor,
  refreshRefused,
  type LoginResponse,
  type ProfileOutput,
  type RefreshOutput,
} from './session-actors';
import {
  readStoredSession,
  type Permission,
  type StorageEventSource,
  type StorageLike,
  type StoredSession,
  type User,
  clearStoredSession,
  writeStoredSession,
} from './session-storage';
import { classifyUnauthorized } from '../../domain/auth-errors';
import { safeRedirectTarget } from '../../domain/route-access';

// The session machine's input, context and events.

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
  credentials: {
    email: string;
    password: string;
    to: string | null;
    otp: string | null;
    remember: boolean;
    /**
     * The new password of a user whose password is temporary, once chosen: sent with every later step of
     * the sign-in (a code asked again, an enrolment), so it is typed once.
     */
    newPassword: string | null;
  } | null;
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
  /**
   * Counts the sign-ins (each entry into `authenticated`: a login, a stored or adopted session). A request
   * is replayed after a 401 only within the sign-in it was sent in (session-seam.ts).
   */
  signIns: number;
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
  /** The new password after the server said the password is temporary (`passwordChange` tag). */
  | { type: 'session.changePassword'; newPassword: string }
  /** Back from the new-password step to the e-mail and password form; the held credentials are dropped. */
  | { type: 'session.cancelPasswordChange' }
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
    signIns: 0,
  };
}

/** True when `token` is the one in use (null: the caller does not know which token it sent). */
export const isCurrentToken = (context: SessionContext, token: string | null) =>
  token === null || token === context.token;

/**
 * What the session tells its owner through the `announce` action (the root app machine,
 * src/machines/app/app.machine.ts, gives it `sendParent` and links the socket by them):
 *
 * - `session.signedIn`: signed in with a known user, at the sign-in (a login, a stored session, another
 *   tab's) or, for a session restored without its user, when the profile brings it;
 * - `session.tokenChanged`: a new token after that (a refresh, a rotation, another tab's token);
 * - `session.signedOut`: the signed-in state is left (logout, expiry, another tab's logout).
 */
export type SessionNotice =
  | { type: 'session.signedIn'; userId: number; token: string }
  | { type: 'session.tokenChanged'; token: string }
  | { type: 'session.signedOut' };

/** The notice a signed-in session about to hold `next` gives, or null when its owner already knows. */
export function identityNotice(
  context: Pick<SessionContext, 'token' | 'user'>,
  next: { token: string | null; user: User | null },
): SessionNotice | null {
  if (next.token === null || next.user === null) return null;
  if (context.user === null) return { type: 'session.signedIn', userId: next.user.id, token: next.token };
  return next.token === context.token ? null : { type: 'session.tokenChanged', token: next.token };
}

/**
 * The session's types, actors, guards, actions and delays; session.machine.ts draws the chart over
 * them. Guards and actions that read an event assert its type, so one wired to the wrong event throws.
 */
export const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    login: loginActor,
    logout: logoutActor,
    loadProfile: loadProfileActor,
    refresh: refreshActor,
    lookupIp: ipLookupActor,
    crossTab: crossTabActor,
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    ipSettled: ({ context }) => context.ipSettled,
    loginNeedsCode: (_, params: { error: unknown }) =>
      ['twoFactorRequired', 'enrolmentRequired'].includes(classifyLoginFailure(params.error).kind),
    loginEnrolmentExpired: (_, params: { error: unknown }) =>
      classifyLoginFailure(params.error).kind === 'enrolmentExpired',
    loginBadCode: (_, params: { error: unknown }) => classifyLoginFailure(params.error).kind === 'invalidCode',
    loginThrottled: (_, params: { error: unknown }) => classifyLoginFailure(params.error).kind === 'throttled',
    loginTenantDeleted: (_, params: { error: unknown }) => classifyLoginFailure(params.error).kind === 'tenantDeleted',
    loginPasswordChange: (_, params: { error: unknown }) =>
      classifyLoginFailure(params.error).kind === 'passwordChangeRequired',
    loginNewPasswordRefused: (_, params: { error: unknown }) =>
      classifyLoginFailure(params.error).kind === 'newPasswordRefused',
    refreshRefused: (_, params: { error: unknown }) => refreshRefused(params.error),
    responseHasToken: (_, params: { response: LoginResponse }) =>
      typeof params.response.access_token === 'string' && params.response.access_token !== '',
    tokenExpired: ({ context }) => isTokenExpired(context),
    refreshRequested: ({ context, event }) => {
      assertEvent(event, 'session.refresh');
      return event.token !== null && event.token === context.token;
    },
    staleUnauthorized: ({ context, event }) => {
      assertEvent(event, 'session.unauthorized');
      return !isCurrentToken(context, event.token);
    },
    refreshableUnauthorized: ({ event }) => {
      assertEvent(event, 'session.unauthorized');
      return event.attempt === 1 && classifyUnauthorized(event.body) === 'refresh';
    },
    terminalUnauthorized: ({ context, event }) => {
      assertEvent(event, 'session.unauthorized');
      return (
        isCurrentToken(context, event.token) && (event.attempt === 2 || classifyUnauthorized(event.body) === 'logout')
      );
    },
    rotatedToken: ({ event }) => {
      assertEvent(event, 'session.tokenRotated');
      return event.token !== '';
    },
    remoteSignedOut: ({ event }) => {
      assertEvent(event, 'session.sync');
      return event.stored === null;
    },
    remoteNewToken: ({ context, event }) => {
      assertEvent(event, 'session.sync');
      return event.stored !== null && event.stored.token !== context.token;
    },
    /**
     * Another tab holds a session of another user: a browser reads storage when it handles the
     * `storage` event, so a tab that was frozen or busy while another signed out and in again as
     * someone else sees one change, from one user straight to the other.
     */
    remoteOtherUser: ({ context, event }) => {
      assertEvent(event, 'session.sync');
      const next = event.stored?.user ?? null;
      return next !== null && context.user !== null && next.id !== context.user.id;
    },
  },
  actions: {
    persist: ({ context }) => {
      if (context.token === null) return;
      const { token, expiresAt, email, originBackoffice, user, permittedRoutes, permissions } = context;
      writeStoredSession(context.deps.storage, {
        token,
        expiresAt,
        email,
        originBackoffice,
        user,
        permittedRoutes,
        permissions,
        baseUrl: context.deps.baseUrl,
      });
    },
    clearStorage: ({ context }) => clearStoredSession(context.deps.storage),
    /** Tells the owner a {@link SessionNotice} (null: nothing to tell); nobody unless the owner provides it. */
    announce: (_, _notice: SessionNotice | null) => undefined,
    signOut: assign((_, params: { reason: SessionEnd }) => ({ ...signedOut, ended: params.reason })),
    /** Only after `remoteNewToken`, which saw a stored session. */
    adoptStored: assign(({ event }) => {
      assertEvent(event, 'session.sync');
      return event.stored ? { ...fromStored(event.stored), ended: null } : {};
    }),
    startLogin: assign(({ event }) => {
      assertEvent(event, 'session.login');
      return {
        error: null,
        retryAfter: null,
        ended: null,
        enrolment: null,
        credentials: {
          email: event.email,
          password: event.password,
          to: event.to ?? null,
          otp: null,
          remember: event.remember === true,
          newPassword: null,
        },
      };
    }),
    /** The new password goes out with the credentials (and code) held since the first steps. */
    sendNewPassword: assign(({ context, event }) => {
      assertEvent(event, 'session.changePassword');
      return context.credentials
        ? { error: null, credentials: { ...context.credentials, newPassword: event.newPassword } }
        : {};
    }),
    /** The server asks for a new password: the code that passed is kept, to go out again with it. */
    askForNewPassword: assign(({ context }) => ({
      error: null,
      credentials: context.credentials ? { ...context.credentials, newPassword: null } : null,
    })),
    refuseNewPassword: assign(({ context }) => ({
      error: 'auth.passwordChange.refused' as const,
      credentials: context.credentials ? { ...context.credentials, newPassword: null } : null,
    })),
    /** The code goes out with the credentials held since the first step. */
    sendCode: assign(({ context, event }) => {
      assertEvent(event, 'session.verifyCode');
      return context.credentials ? { error: null, credentials: { ...context.credentials, otp: event.otp.trim() } } : {};
    }),
    askForCode: assign(({ context }, params: { error: unknown }) => {
      const failure = classifyLoginFailure(params.error);
      return {
        error: null,
        enrolment: failure.kind === 'enrolmentRequired' ? failure.enrolment : null,
        credentials: context.credentials ? { ...context.credentials, otp: null } : null,
      };
    }),
    refuseCode: assign(({ context }) => ({
      error: 'auth.twoFactor.invalidCode' as const,
      credentials: context.credentials ? { ...context.credentials, otp: null } : null,
    })),
    throttleLogin: assign((_, params: { error: unknown }) => {
      const failure = classifyLoginFailure(params.error);
      return {
        error: 'auth.login.throttled' as const,
        retryAfter: failure.kind === 'throttled' ? failure.retryAfter : null,
        credentials: null,
      };
    }),
    dropCredentials: assign({ credentials: null, error: null, enrolment: null }),
    clearRecoveryCodes: assign({ recoveryCodes: null }),
    storeIp: assign((_, params: { ip: string | null }) => ({ ip: params.ip, ipSettled: true })),
    storeLogin: assign(({ context }, params: { response: LoginResponse }) => {
      const { response } = params;
      return {
        token: response.access_token,
        expiresAt: Number.isFinite(response.expires_in) ? context.deps.now() + response.expires_in * 1000 : null,
        lifetimeMs: Number.isFinite(response.expires_in) ? response.expires_in * 1000 : null,
        email: response.user?.email ?? context.credentials?.email ?? null,
        originBackoffice: response.origin_backoffice === true,
        permittedRoutes: [...(response.has_permission_routes ?? [])],
        user: response.user ?? null,
        notice: context.credentials?.newPassword
          ? { titleKey: 'auth.passwordChange.doneTitle', bodyKey: 'auth.passwordChange.doneBody' }
          : { titleKey: 'auth.login.successTitle', bodyKey: 'auth.login.successBody' },
        redirectTo: safeRedirectTarget(context.credentials?.to),
        credentials: null,
        enrolment: null,
        recoveryCodes: response.recovery_codes ?? null,
        profileFromLogin: true,
      } satisfies Partial<SessionContext>;
    }),
    failLogin: assign((_, params: { error: I18nKey }) => ({
      error: params.error,
      retryAfter: null,
      credentials: null,
      enrolment: null,
    })),
    storeRefreshed: assign(({ context }, params: RefreshOutput) => ({
      token: params.token,
      expiresAt: context.deps.now() + params.expiresIn * 1000,
      lifetimeMs: params.expiresIn * 1000,
    })),
    storeProfile: assign(({ context }, params: ProfileOutput) => ({
      ...(params.info
        ? {
            user: params.info.user,
            // The user may have changed their own email (user settings); logout and the permission lookup send it.
            email: params.info.user.email,
            permittedRoutes: [...params.info.has_permission_routes],
          }
        : {}),
      permissions: params.permissions ?? context.permissions,
      profileFromLogin: false,
    })),
    settleProfile: assign({ profileFromLogin: false }),
    clearRedirect: assign({ redirectTo: null }),
    clearNotice: assign({ notice: null }),
  },
  delays: { ipWait: IP_WAIT_MS },
});

/**
 * The session (docs/product.md, Sessions): restore, login, logout, the 401 policy and cross-tab sync.
 *
 * Read with tags: `authenticated` (signed in), `refreshing`, `busy` (login or logout in flight),
 * `token` (a token exists, so requests carry it), and the selectors of session-selectors.ts. Write
 * with the {@link SessionEvent}s. The HTTP clients reach it through `sessionSeam` (session-seam.ts).
 */
export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  type: 'parallel',
  context: ({ input }) => initialContext(input),
  invoke: {
    id: 'crossTab',
    src: 'crossTab',
    input: ({ context }) => ({
      events: context.deps.storageEvents,
      storage: context.deps.storage,
      baseUrl: context.deps.baseUrl,
    }),
  },
  states: {
    ip: {
      initial: 'lookingUp',
      states: {
        lookingUp: {
          invoke: {
            id: 'lookupIp',
            src: 'lookupIp',
            input: ({ context }) => ({ lookup: context.deps.lookupIp }),
            onDone: { target: 'settled', actions: { type: 'storeIp', params: ({ event }) => ({ ip: event.output }) } },
            onError: { target: 'settled', actions: { type: 'storeIp', params: { ip: null } } },
          },
        },
        settled: {},
      },
    },
    auth: {
      initial: 'restoring',
      states: {
        restoring: {
          always: [{ guard: 'hasToken', target: 'authenticated' }, { target: 'anonymous' }],
        },
        anonymous: {
          on: {
            'session.login': { target: 'loggingIn', actions: 'startLogin' },
            'session.sync': { guard: 'remoteNewToken', target: 'restoring', actions: 'adoptStored' },
          },
        },
        /** The server asked for the second factor; the e-mail and password are held (memory only) until it is sent. */
        awaitingCode: {
          tags: ['twoFactor'],
          on: {
            'session.verifyCode': { target: 'loggingIn', actions: 'sendCode' },
            'session.cancelTwoFactor': { target: 'anonymous', actions: 'dropCredentials' },
            'session.login': { target: 'loggingIn', actions: 'startLogin' },
            'session.sync': {
              guard: 'remoteNewToken',
              target: 'restoring',
              actions: ['dropCredentials', 'adoptStored'],
            },
          },
        },
        /**
         * The password was right but temporary (set by support staff): the server asks for a new one. The
         * credentials (and a code that passed) are held until it is sent with them.
         */
        awaitingNewPassword: {
          tags: ['passwordChange'],
          on: {
            'session.changePassword': { target: 'loggingIn', actions: 'sendNewPassword' },
            'session.cancelPasswordChange': { target: 'anonymous', actions: 'dropCredentials' },
            'session.login': { target: 'loggingIn', actions: 'startLogin' },
            'session.sync': {
              guard: 'remoteNewToken',
              target: 'restoring',
              actions: ['dropCredentials', 'adoptStored'],
            },
          },
        },
        loggingIn: {
          tags: ['busy'],
          initial: 'waitingForIp',
          states: {
            waitingForIp: {
              always: { guard: 'ipSettled', target: 'submitting' },
              after: { ipWait: 'submitting' },
            },
            submitting: {
              invoke: {
                id: 'login',
                src: 'login',
                input: ({ context }) => ({
                  rest: context.deps.rest,
                  email: context.credentials?.email ?? '',
                  password: context.credentials?.password ?? '',
                  ip: context.ip,
                  otp: context.credentials?.otp ?? null,
                  remember: context.credentials?.remember ?? false,
                  newPassword: context.credentials?.newPassword ?? null,
                }),
                onDone: [
                  {
                    guard: { type: 'responseHasToken', params: ({ event }) => ({ response: event.output }) },
                    target: '#session.auth.authenticated',
                    actions: [{ type: 'storeLogin', params: ({ event }) => ({ response: event.output }) }, 'persist'],
                  },
                  {
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.login.noToken' } },
                  },
                ],
                onError: [
                  {
                    guard: { type: 'loginNeedsCode', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.awaitingCode',
                    actions: { type: 'askForCode', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    guard: { type: 'loginEnrolmentExpired', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.twoFactor.enrolmentExpired' } },
                  },
                  {
                    guard: { type: 'loginBadCode', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.awaitingCode',
                    actions: 'refuseCode',
                  },
                  {
                    // A closed company says so, never "wrong e-mail or password"; the form stays a sign-in form.
                    guard: { type: 'loginTenantDeleted', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.login.tenantDeleted' } },
                  },
                  {
                    guard: { type: 'loginPasswordChange', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.awaitingNewPassword',
                    actions: 'askForNewPassword',
                  },
                  {
                    guard: { type: 'loginNewPasswordRefused', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.awaitingNewPassword',
                    actions: 'refuseNewPassword',
                  },
                  {
                    guard: { type: 'loginThrottled', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.anonymous',
                    actions: { type: 'throttleLogin', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.login.failed' } },
                  },
                ],
              },
            },
          },
        },
        authenticated: {
          tags: ['authenticated', 'token'],
          type: 'parallel',
          // The owner hears of the sign-in once the user is known, and of every way out (SessionNotice).
          entry: [
            assign({ signIns: ({ context }) => context.signIns + 1 }),
            { type: 'announce', params: ({ context }) => identityNotice(signedOut, context) },
          ],
          exit: { type: 'announce', params: { type: 'session.signedOut' } },
          on: {
            'session.logout': { target: 'loggingOut' },
            'session.sync': {
              guard: 'remoteSignedOut',
              target: 'anonymous',
              actions: { type: 'signOut', params: { reason: 'remote' } },
            },
            'session.redirected': { actions: 'clearRedirect' },
            'session.dismissNotice': { actions: 'clearNotice' },
            'session.recoveryCodesSeen': { actions: 'clearRecoveryCodes' },
          },
          states: {
            token: {
              initial: 'valid',
              // Valid or refreshing alike. While refreshing (single flight) a refreshable 401 waits for
              // the refresh; a terminal one for the current token ends the session. A newer token from
              // another tab, or a rotated one (the old token is revoked, so a refresh with it can only
              // fail), is taken at once instead of spending a refresh.
              on: {
                'session.unauthorized': {
                  guard: 'terminalUnauthorized',
                  target: '#session.auth.anonymous',
                  actions: ['clearStorage', { type: 'signOut', params: { reason: 'expired' } }],
                },
                'session.sync': [
                  // Another user's session is a sign-out and a sign-in: the owner restarts the socket for
                  // that user (src/machines/realtime/realtime.ts) and the profile is asked again.
                  { guard: 'remoteOtherUser', target: '#session.auth.restoring', actions: 'adoptStored' },
                  {
                    guard: 'remoteNewToken',
                    target: '.valid',
                    actions: [
                      {
                        type: 'announce',
                        params: ({ context, event }) => identityNotice(context, event.stored ?? signedOut),
                      },
                      'adoptStored',
                    ],
                  },
                ],
                'session.tokenRotated': {
                  guard: 'rotatedToken',
                  target: '.valid',
                  actions: [
                    {
                      type: 'announce',
                      params: ({ context, event }) =>
                        identityNotice(context, { token: event.token, user: context.user }),
                    },
                    {
                      type: 'storeRefreshed',
                      params: ({ event }) => ({ token: event.token, expiresIn: event.expiresIn }),
                    },
                    'persist',
                  ],
                },
              },
              states: {
                valid: {
                  on: {
                    'session.ensureFresh': { guard: 'tokenExpired', target: 'refreshing' },
                    'session.refresh': { guard: 'refreshRequested', target: 'refreshing' },
                    // A stale 401 (an older token's) changes nothing; a terminal one falls to the parent.
                    'session.unauthorized': [
                      { guard: 'staleUnauthorized' },
                      { guard: 'refreshableUnauthorized', target: 'refreshing' },
                    ],
                  },
                },
                refreshing: {
                  tags: ['refreshing'],
                  invoke: {
                    id: 'refresh',
                    src: 'refresh',
                    input: ({ context }) => ({ graphql: context.deps.refreshGraphql, token: context.token ?? '' }),
                    onDone: {
                      target: 'valid',
                      actions: [
                        {
                          type: 'announce',
                          params: ({ context, event }) =>
                            identityNotice(context, { token: event.output.token, user: context.user }),
                        },
                        { type: 'storeRefreshed', params: ({ event }) => event.output },
                        'persist',
                      ],
                    },
                    onError: [
                      {
                        guard: { type: 'refreshRefused', params: ({ event }) => ({ error: event.error }) },
                        target: '#session.auth.anonymous',
                        actions: ['clearStorage', { type: 'signOut', params: { reason: 'expired' } }],
                      },
                      // Not refused, e.g. the answer was lost: the server may have rotated the token all the
                      // same, and refreshing it again within the grace window gets the new one (docs/security.md).
                      // Keeping it, in storage too, keeps the session of this page and of the next one.
                      { target: 'valid' },
                    ],
                  },
                },
              },
            },
            profile: {
              initial: 'loading',
              states: {
                loading: {
                  // A reload asked for while one runs starts it again: the last answer reflects the last
                  // change (contracts/socket.md §4.6), and a reload right after sign-in asks userInfo too.
                  on: { 'session.reloadProfile': { target: 'loading', reenter: true, actions: 'settleProfile' } },
                  invoke: {
                    id: 'loadProfile',
                    src: 'loadProfile',
                    input: ({ context }) => ({
                      rest: context.deps.rest,
                      email: context.email,
                      userInfo: !context.profileFromLogin,
                    }),
                    onDone: {
                      target: 'ready',
                      actions: [
                        // A session restored without its user is signed in for its owner only now.
                        {
                          type: 'announce',
                          params: ({ context, event }) =>
                            identityNotice(context, {
                              token: context.token,
                              user: event.output.info?.user ?? context.user,
                            }),
                        },
                        { type: 'storeProfile', params: ({ event }) => event.output },
                        'persist',
                      ],
                    },
                    // A 401 is the seam's business; any other failure keeps what the session already knows.
                    onError: { target: 'ready', actions: 'settleProfile' },
                  },
                },
                ready: { on: { 'session.reloadProfile': { target: 'loading' } } },
              },
            },
          },
        },
        loggingOut: {
          tags: ['busy', 'token'],
          entry: 'clearStorage',
          invoke: {
            id: 'logout',
            src: 'logout',
            input: ({ context }) => ({
              rest: context.deps.rest,
              email: context.email,
              ip: context.ip,
              beforeLogout: context.deps.beforeLogout,
              waitMs: BEFORE_LOGOUT_MS,
            }),
            onDone: { target: 'anonymous', actions: { type: 'signOut', params: { reason: 'logout' } } },
            onError: { target: 'anonymous', actions: { type: 'signOut', params: { reason: 'logout' } } },
          },
        },
      },
    },
  },
});

/** A running session. */
export type SessionActor = ActorRefFrom<typeof sessionMachine>;
/** A session snapshot, for selectors. */
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
