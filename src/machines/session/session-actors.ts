import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { Execute } from '../../api/graphql-client';
import { GraphqlError } from '../../api/graphql-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { RefreshTokenDocument } from '../../generated/graphql-session';
import {
  readStoredSession,
  SESSION_KEYS,
  type Permission,
  type StorageEventSource,
  type StorageLike,
  type StoredSession,
} from './session-storage';

/**
 * The session's I/O, one named actor per call (docs/architecture.md, How to add a machine). Each gets its client through `input`, so
 * tests `provide()` fakes or hand the real clients a fake `fetch`.
 */

export type LoginResponse = components['schemas']['LoginResponse'];
export type UserInfoResponse = components['schemas']['UserInfoResponse'];

export interface LoginInput {
  rest: RestClient;
  email: string;
  password: string;
  ip: string | null;
  /** The second factor, only after the server answered `two_factor_required` (or handed out an enrolment). */
  otp?: string | null;
  /** Remember me: the long refresh window (contracts/openapi.yaml `LoginRequest.remember`). */
  remember?: boolean;
  /** The new password, only after the server answered `password_change_required` (a temporary password). */
  newPassword?: string | null;
}

/** The secret a sign-in hands out to a user required to enrol (contracts/openapi.yaml `TwoFactorEnrolment`). */
export type Enrolment = components['schemas']['TwoFactorEnrolment'];

/** Why a sign-in was refused, as the login form must tell it (the contract's 401/429 bodies). */
export type LoginFailure =
  | { kind: 'twoFactorRequired' }
  | { kind: 'enrolmentRequired'; enrolment: Enrolment }
  | { kind: 'enrolmentExpired' }
  | { kind: 'invalidCode' }
  | { kind: 'throttled'; retryAfter: number }
  /** The right password, but the provider deleted the user's company: closed until staff restore it. */
  | { kind: 'tenantDeleted' }
  /** The right password (and code), but a temporary one: a new password must be chosen to sign in. */
  | { kind: 'passwordChangeRequired' }
  /** The server refused the new password (the strength rule, or equal to the temporary one). */
  | { kind: 'newPasswordRefused' }
  | { kind: 'failed' };

/**
 * Reads a refused sign-in. The two-factor answers and a closed company (`tenant_deleted`, REST; GraphQL
 * `TENANT_DELETED`) are told apart BEFORE the generic failure (contracts/openapi.yaml, authLogin): none
 * is a wrong password, and the server sends them only after the right one. Anything else — wrong password, unknown e-mail, blocked user,
 * network — is the one generic failure, so the form never reveals which accounts exist.
 */
export function classifyLoginFailure(error: unknown): LoginFailure {
  if (error instanceof GraphqlError && error.code === 'TENANT_DELETED') return { kind: 'tenantDeleted' };
  if (error instanceof GraphqlError && error.code === 'PASSWORD_CHANGE_REQUIRED')
    return { kind: 'passwordChangeRequired' };
  if (!(error instanceof ApiError)) return { kind: 'failed' };
  const body = (error.body && typeof error.body === 'object' ? error.body : {}) as {
    error?: unknown;
    retry_after?: unknown;
    enrolment?: Enrolment;
    errors?: unknown;
  };
  if (error.status === 401 && body.error === 'two_factor_required') return { kind: 'twoFactorRequired' };
  if (error.status === 401 && body.error === 'two_factor_enrolment_required' && body.enrolment)
    return { kind: 'enrolmentRequired', enrolment: body.enrolment };
  if (error.status === 401 && body.error === 'two_factor_enrolment_expired') return { kind: 'enrolmentExpired' };
  if (error.status === 401 && body.error === 'invalid_two_factor_code') return { kind: 'invalidCode' };
  if (error.status === 401 && body.error === 'tenant_deleted') return { kind: 'tenantDeleted' };
  if (error.status === 401 && body.error === 'password_change_required') return { kind: 'passwordChangeRequired' };
  if (
    error.status === 400 &&
    Array.isArray(body.errors) &&
    body.errors.some((e) => (e as { field?: unknown } | null)?.field === 'body/new_password')
  )
    return { kind: 'newPasswordRefused' };
  if (error.status === 429) {
    const seconds = typeof body.retry_after === 'number' && body.retry_after > 0 ? body.retry_after : 900;
    return { kind: 'throttled', retryAfter: seconds };
  }
  return { kind: 'failed' };
}

export interface LogoutInput {
  rest: RestClient;
  email: string | null;
  ip: string | null;
  /** See `SessionInput.beforeLogout`; bounded by `waitMs`, errors ignored. */
  beforeLogout?: () => Promise<unknown>;
  waitMs?: number;
}

export interface ProfileInput {
  rest: RestClient;
  email: string | null;
  /**
   * Whether to ask userInfo too. Right after a sign-in it is not asked: the sign-in answer carries
   * the same user and permitted routes (contracts/openapi.yaml, LoginResponse).
   */
  userInfo: boolean;
}

/** userInfo (when asked) is required; the permission list is kept from before when its call fails. */
export interface ProfileOutput {
  info: UserInfoResponse | null;
  permissions: Permission[] | null;
}

export interface RefreshInput {
  /** A GraphQL client over a PLAIN fetch: the refresh carries the expired token itself and must not recurse into the seam. */
  graphql: { execute: Execute };
  token: string;
}

export interface RefreshOutput {
  token: string;
  /** Seconds. */
  expiresIn: number;
}

export interface CrossTabInput {
  events: StorageEventSource;
  storage: StorageLike;
  baseUrl: string;
}

/** POST /api/auth/login. A 200 without a token resolves too: the machine tells the two failures apart. */
export const loginActor = fromPromise<LoginResponse, LoginInput>(async ({ input, signal }) =>
  unwrap(
    await input.rest.POST('/api/auth/login', {
      body: {
        email: input.email,
        password: input.password,
        ip: input.ip,
        remember: input.remember === true,
        ...(input.otp ? { otp: input.otp } : {}),
        ...(input.newPassword ? { new_password: input.newPassword } : {}),
      },
      signal,
    }),
  ),
);

/** POST /api/auth/logout with the ip; the machine ends the session whatever this answers. */
export const logoutActor = fromPromise<void, LogoutInput>(async ({ input, signal }) => {
  if (input.beforeLogout) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, input.waitMs ?? 1500)));
    await Promise.race([input.beforeLogout().catch(() => undefined), cap]);
    clearTimeout(timer);
  }
  unwrap(
    await input.rest.POST('/api/auth/logout', {
      body: { data: input.email ? { email: input.email } : null, ip: input.ip },
      signal,
    }),
  );
});

/** GET /api/auth/userInfo (unless just signed in), and the user's permissions (the second check of docs/security.md) when the email is known. */
export const loadProfileActor = fromPromise<ProfileOutput, ProfileInput>(async ({ input, signal }) => {
  const { email } = input;
  const [info, permissions] = await Promise.all([
    input.userInfo ? input.rest.GET('/api/auth/userInfo', { signal }).then(unwrap) : Promise.resolve(null),
    email
      ? input.rest
          .GET('/api/permission/email', { params: { query: { email } }, signal })
          .then(unwrap)
          .catch(() => null)
      : Promise.resolve(null),
  ]);
  return { info, permissions };
});

/**
 * Whether a failed refresh was the server refusing the token (a 401 answer, REST body or GraphQL
 * `extensions.http.status`), which ends the session. Anything else (no answer at all: the network
 * dropped it or the page being left cut it off; or a server failure) says nothing about the token.
 */
export function refreshRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** GraphQL `refreshToken`, sent with the (possibly expired) token it replaces. */
export const refreshActor = fromPromise<RefreshOutput, RefreshInput>(async ({ input, signal }) => {
  const { refreshToken } = await input.graphql.execute(
    RefreshTokenDocument,
    {},
    { headers: { Authorization: `Bearer ${input.token}` }, signal },
  );
  if (!refreshToken.token) throw new Error('refreshToken answered without a token');
  return { token: refreshToken.token, expiresIn: refreshToken.expires_in };
});

/** The public-IP lookup (src/api/ip-lookup.ts, which never throws and caps its own time). */
export const ipLookupActor = fromPromise<string | null, { lookup: () => Promise<string | null> }>(({ input }) =>
  input.lookup(),
);

/** Another tab changed the token key: report what storage now holds. */
export type SessionSyncEvent = { type: 'session.sync'; stored: StoredSession | null };

/** Listens for other tabs' session writes (logout, refreshed or new token). */
export const crossTabActor = fromCallback<EventObject, CrossTabInput>(({ input, sendBack }) =>
  input.events((change) => {
    if (change.key === SESSION_KEYS.token || change.key === null) {
      const sync: SessionSyncEvent = { type: 'session.sync', stored: readStoredSession(input.storage, input.baseUrl) };
      sendBack(sync);
    }
  }),
);
