import { fromPromise, type EventObject } from 'xstate';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { inertSessionInput, loginResponse, startSession, USER } from '../test-support/session-fakes';
import { remote, remoteOtherUser } from '../test-support/session-fixtures';
import type {
  CrossTabInput,
  LoginInput,
  LoginResponse,
  LogoutInput,
  ProfileInput,
  ProfileOutput,
  RefreshInput,
  RefreshOutput,
} from './session-actors';
import { ApiError } from '../../api/api-error';
import { sessionMachine, type SessionEvent, type SessionNotice } from './session.machine';

/**
 * Refresh calls running now, on the walk's current actor: each held call counts itself in and counts
 * itself out when its actor is stopped (its state left, by its answer or anything else).
 */
const refreshCalls = { running: 0 };

/** What the walk's current actor told its owner (SessionNotice), as the root app machine keeps it. */
const owner = { signedIn: false, token: null as string | null };

const faked = sessionMachine.provide({
  actors: {
    login: heldPromise<LoginResponse, LoginInput>(),
    logout: heldPromise<void, LogoutInput>(),
    loadProfile: heldPromise<ProfileOutput, ProfileInput>(),
    refresh: fromPromise<RefreshOutput, RefreshInput>(({ signal }) => {
      refreshCalls.running += 1;
      signal.addEventListener('abort', () => (refreshCalls.running -= 1));
      return new Promise<RefreshOutput>(() => undefined);
    }),
    lookupIp: heldPromise<string | null, { lookup: () => Promise<string | null> }>(),
    crossTab: idleCallback<EventObject, CrossTabInput>(),
  },
  actions: {
    announce: (_, notice: SessionNotice | null) => {
      if (notice?.type === 'session.signedIn') Object.assign(owner, { signedIn: true, token: notice.token });
      if (notice?.type === 'session.tokenChanged') owner.token = notice.token;
      if (notice?.type === 'session.signedOut') Object.assign(owner, { signedIn: false, token: null });
    },
  },
});

const ENROLMENT = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x', qr_svg: '<svg/>' };
const expired = { error: 'Token has expired' };
const revoked = { status: 'Unauthorized' };

const events: GraphEvent<typeof sessionMachine>[] = [
  { type: 'session.login', email: USER.email, password: 'Back#Office!Demo', to: '/users' },
  { type: 'session.verifyCode', otp: '123456' },
  { type: 'session.cancelTwoFactor' },
  { type: 'session.changePassword', newPassword: 'Nova#Senha!2026' },
  { type: 'session.cancelPasswordChange' },
  { type: 'session.logout' },
  { type: 'session.ensureFresh' },
  { type: 'session.refresh', token: 'T1' },
  { type: 'session.unauthorized', token: null, body: expired, attempt: 1 },
  { type: 'session.unauthorized', token: null, body: expired, attempt: 2 },
  { type: 'session.unauthorized', token: null, body: revoked, attempt: 1 },
  { type: 'session.unauthorized', token: 'T0-stale', body: expired, attempt: 1 },
  { type: 'session.sync', stored: null },
  { type: 'session.sync', stored: remote },
  { type: 'session.sync', stored: remoteOtherUser },
  { type: 'session.reloadProfile' },
  { type: 'session.tokenRotated', token: 'T9', expiresIn: 900 },
  { type: 'session.redirected' },
  { type: 'session.dismissNotice' },
  { type: 'session.recoveryCodesSeen' },
  doneEvent('lookupIp', '203.0.113.7'),
  errorEvent('lookupIp', new Error('offline')),
  doneEvent('login', loginResponse('T1')),
  doneEvent('login', loginResponse('')),
  errorEvent('login', new Error('401')),
  errorEvent('login', new ApiError(401, { error: 'two_factor_required', message: 'code' })),
  errorEvent('login', new ApiError(401, { error: 'invalid_two_factor_code', message: 'bad code' })),
  errorEvent(
    'login',
    new ApiError(401, { error: 'two_factor_enrolment_required', message: 'enrol', enrolment: ENROLMENT }),
  ),
  errorEvent('login', new ApiError(401, { error: 'two_factor_enrolment_expired', message: 'expired' })),
  errorEvent('login', new ApiError(429, { message: 'Too many failed attempts', retry_after: 840 })),
  errorEvent('login', new ApiError(401, { error: 'tenant_deleted', message: 'closed' })),
  errorEvent('login', new ApiError(401, { error: 'password_change_required', message: 'temporary' })),
  errorEvent(
    'login',
    new ApiError(400, { message: 'Validation failed', errors: [{ field: 'body/new_password', message: 'weak' }] }),
  ),
  doneEvent('logout'),
  errorEvent('logout', new Error('500')),
  doneEvent('loadProfile', {
    info: { user: USER, has_permission_routes: ['users', 'tenants'] },
    permissions: null,
  } satisfies ProfileOutput),
  errorEvent('loadProfile', new Error('500')),
  doneEvent('refresh', { token: 'T2', expiresIn: 900 } satisfies RefreshOutput),
  errorEvent('refresh', new ApiError(401, { status: 'Unauthorized' })),
  errorEvent('refresh', new TypeError('Failed to fetch')),
];

const pick = (...types: string[]) => events.filter((e) => types.includes(e.type));
const ipDone = doneEvent('lookupIp', '203.0.113.7');
const login = events[0]!;

/** Simple paths per concern: the whole graph is too dense to enumerate every simple path of it. */
const simpleScenarios = [
  {
    events: pick(
      'session.login',
      'xstate.done.actor.lookupIp',
      'xstate.error.actor.lookupIp',
      'xstate.done.actor.login',
      'xstate.error.actor.login',
    ),
  },
  {
    prefix: [ipDone],
    events: pick(
      'session.login',
      'session.verifyCode',
      'session.cancelTwoFactor',
      'xstate.error.actor.login',
      'session.sync',
    ),
  },
  {
    // A temporary password: the new one, the code asked again meanwhile, back to the form.
    prefix: [ipDone],
    events: pick(
      'session.login',
      'session.changePassword',
      'session.cancelPasswordChange',
      'session.verifyCode',
      'xstate.error.actor.login',
      'session.sync',
    ),
  },
  {
    prefix: [ipDone, login, doneEvent('login', loginResponse('T1'))],
    events: pick(
      'session.unauthorized',
      'session.refresh',
      'session.ensureFresh',
      'session.tokenRotated',
      'xstate.done.actor.refresh',
      'xstate.error.actor.refresh',
      'xstate.done.actor.loadProfile',
    ),
  },
  {
    prefix: [ipDone, login, doneEvent('login', loginResponse('T1'))],
    events: pick(
      'session.sync',
      'session.logout',
      'xstate.done.actor.logout',
      'xstate.error.actor.logout',
      'session.redirected',
      'session.dismissNotice',
    ),
  },
];

describe('session machine: model coverage', () => {
  it('reaches every state and transition along @xstate/graph paths', async () => {
    const report = await exploreCoverage({
      machine: faked,
      input: () => {
        // Each path's actor starts with none (the last path's actor was stopped, its calls with it).
        refreshCalls.running = 0;
        Object.assign(owner, { signedIn: false, token: null });
        return inertSessionInput();
      },
      events,
      serializeContext: (context) => context.token,
      simpleScenarios,
      // One refresh in flight at most (src/machines/session/session-seam.ts): exactly one while refreshing, whatever asks
      // again meanwhile (a second refresh, an ensureFresh, a 401), and none otherwise. The owner (the root
      // app machine, whose socket follows it) knows the session signed in exactly while it is, with its token.
      onStep: ({ actor }) => {
        const snapshot = actor.getSnapshot();
        expect(refreshCalls.running).toBe(snapshot.hasTag('refreshing') ? 1 : 0);
        const signedIn = snapshot.hasTag('authenticated') && snapshot.context.user !== null;
        expect(owner).toEqual({ signedIn, token: signedIn ? snapshot.context.token : null });
      },
    });
    console.info(`session: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

describe('session machine: guards read only their own event', () => {
  it('answers for the event it was written for, and throws on any other instead of answering false', () => {
    const { actor } = startSession();
    const { context } = actor.getSnapshot();
    actor.stop();
    const { remoteNewToken, terminalUnauthorized } = sessionMachine.implementations.guards;
    const ask = (guard: unknown, event: SessionEvent) => () =>
      (guard as (args: { context: unknown; event: SessionEvent }) => boolean)({ context, event });
    expect(ask(remoteNewToken, { type: 'session.sync', stored: null })()).toBe(false);
    expect(ask(remoteNewToken, { type: 'session.logout' })).toThrow('"session.sync"');
    expect(ask(terminalUnauthorized, { type: 'session.sync', stored: null })).toThrow('"session.unauthorized"');
  });
});
