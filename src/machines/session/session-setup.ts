import { assertEvent, assign, setup } from 'xstate';
import { classifyUnauthorized } from '../../domain/auth-errors';
import { safeRedirectTarget } from '../../domain/route-access';
import type { I18nKey } from '../../domain/i18n-key';
import {
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
  fromStored,
  IP_WAIT_MS,
  isCurrentToken,
  isTokenExpired,
  signedOut,
  type SessionContext,
  type SessionEnd,
  type SessionEvent,
  type SessionInput,
} from './session-context';
import { clearStoredSession, writeStoredSession } from './session-storage';

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
        },
      };
    }),
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
        notice: { titleKey: 'auth.login.successTitle', bodyKey: 'auth.login.successBody' },
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
