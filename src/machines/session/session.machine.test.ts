import { SimulatedClock, waitFor, type EventObject } from 'xstate';
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
import {
  fakeApi,
  flush,
  inertSessionInput,
  json,
  loginResponse,
  NOW,
  startSession,
  USER,
} from '../test-support/session-fakes';
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
import { IP_WAIT_MS, sessionMachine, type SessionActor, type SessionEvent } from './session.machine';
import { memoryStorage, readStoredSession, writeStoredSession, type StoredSession } from './session-storage';

const faked = sessionMachine.provide({
  actors: {
    login: heldPromise<LoginResponse, LoginInput>(),
    logout: heldPromise<void, LogoutInput>(),
    loadProfile: heldPromise<ProfileOutput, ProfileInput>(),
    refresh: heldPromise<RefreshOutput, RefreshInput>(),
    lookupIp: heldPromise<string | null, { lookup: () => Promise<string | null> }>(),
    crossTab: idleCallback<EventObject, CrossTabInput>(),
  },
});

/** Another tab's session: token T3, already expired locally (so `session.ensureFresh` refreshes it). */
const remote: StoredSession = {
  token: 'T3',
  expiresAt: NOW - 1000,
  email: USER.email,
  originBackoffice: false,
  user: USER,
  permittedRoutes: ['users'],
  permissions: [],
  baseUrl: 'http://api.test',
};

const expired = { error: 'Token has expired' };
const revoked = { status: 'Unauthorized' };

const events: GraphEvent<typeof sessionMachine>[] = [
  { type: 'session.login', email: USER.email, password: 'Back#Office!Demo', to: '/users' },
  { type: 'session.verifyCode', otp: '123456' },
  { type: 'session.cancelTwoFactor' },
  { type: 'session.logout' },
  { type: 'session.ensureFresh' },
  { type: 'session.refresh', token: 'T1' },
  { type: 'session.unauthorized', token: null, body: expired, attempt: 1 },
  { type: 'session.unauthorized', token: null, body: expired, attempt: 2 },
  { type: 'session.unauthorized', token: null, body: revoked, attempt: 1 },
  { type: 'session.unauthorized', token: 'T0-stale', body: expired, attempt: 1 },
  { type: 'session.sync', stored: null },
  { type: 'session.sync', stored: remote },
  { type: 'session.reloadProfile' },
  { type: 'session.tokenRotated', token: 'T9', expiresIn: 900 },
  { type: 'session.redirected' },
  { type: 'session.dismissNotice' },
  doneEvent('lookupIp', '203.0.113.7'),
  errorEvent('lookupIp', new Error('offline')),
  doneEvent('login', loginResponse('T1')),
  doneEvent('login', loginResponse('')),
  errorEvent('login', new Error('401')),
  errorEvent('login', new ApiError(401, { error: 'two_factor_required', message: 'code' })),
  errorEvent('login', new ApiError(401, { error: 'invalid_two_factor_code', message: 'bad code' })),
  errorEvent('login', new ApiError(429, { message: 'Too many failed attempts', retry_after: 840 })),
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
      input: () => inertSessionInput(),
      events,
      serializeContext: (context) => context.token,
      simpleScenarios,
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

const loggedIn = (actor: SessionActor) =>
  waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
const stored = (session: StoredSession) => {
  const storage = memoryStorage();
  writeStoredSession(storage, session);
  return storage;
};

describe('session machine: restore', () => {
  it('restores a stored session as authenticated and refreshes userInfo', async () => {
    const { actor, api } = startSession({ storage: stored({ ...remote, expiresAt: NOW + 60_000 }) });
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('T3');
    await loggedIn(actor);
    expect(api.calls('GET /api/auth/userInfo')[0]?.authorization).toBe('Bearer T3');
    expect(actor.getSnapshot().context.permittedRoutes).toEqual(['users', 'tenants']);
  });

  it('refreshes a locally expired stored token before its first request leaves', async () => {
    const { actor, api } = startSession({ storage: stored(remote) });
    await loggedIn(actor);
    expect(api.seen.map((s) => [s.route, s.authorization])).toEqual([
      ['GRAPHQL refreshToken', 'Bearer T3'],
      ['GET /api/auth/userInfo', 'Bearer T2'],
      ['GET /api/permission/email', 'Bearer T2'],
    ]);
  });

  it('starts anonymous without a token, or with a token issued by another API base', () => {
    expect(startSession().actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    const other = startSession({ storage: stored({ ...remote, baseUrl: 'http://other.test' }) });
    expect(other.actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
  });
});

describe('session machine: login', () => {
  const credentials = { type: 'session.login', email: USER.email, password: 'Back#Office!Demo' } as const;

  it('logs in with the ip, stores the session, greets, targets `to`, and asks the permissions but not userInfo again', async () => {
    const storage = memoryStorage();
    const { actor, api } = startSession({ storage });
    await flush();
    actor.send({ ...credentials, to: '/roles/edit/7?tab=perms' });
    await loggedIn(actor);
    expect(api.calls('POST /api/auth/login')[0]).toEqual({
      route: 'POST /api/auth/login',
      authorization: null,
      body: { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7' },
    });
    const { context } = actor.getSnapshot();
    expect(context.notice).toEqual({ titleKey: 'auth.login.successTitle', bodyKey: 'auth.login.successBody' });
    expect(context.redirectTo).toBe('/roles/edit/7?tab=perms');
    expect(context.credentials).toBeNull();
    // The routes are the sign-in answer's.
    expect(readStoredSession(storage, 'http://api.test')).toMatchObject({
      token: 'T1',
      email: USER.email,
      expiresAt: NOW + 900_000,
      permittedRoutes: ['users'],
    });
    // The sign-in answer carried the user and routes: only the permission list is asked.
    expect(api.calls('GET /api/auth/userInfo')).toEqual([]);
    expect(api.calls('GET /api/permission/email')[0]?.authorization).toBe('Bearer T1');
    // A later reload of the profile (e.g. after the user changed their own e-mail) asks userInfo.
    actor.send({ type: 'session.reloadProfile' });
    await waitFor(actor, () => api.calls('GET /api/auth/userInfo').length === 1);
    expect(api.calls('GET /api/auth/userInfo')[0]?.authorization).toBe('Bearer T1');
    await waitFor(actor, (s) => s.context.permittedRoutes.length === 2);
    expect(readStoredSession(storage, 'http://api.test')?.permittedRoutes).toEqual(['users', 'tenants']);
    actor.send({ type: 'session.redirected' });
    actor.send({ type: 'session.dismissNotice' });
    expect(actor.getSnapshot().context).toMatchObject({ redirectTo: null, notice: null });
  });

  it('targets the tenant home without `to` or with an unsafe one', async () => {
    for (const to of [undefined, '//evil.example', '/login']) {
      const { actor } = startSession();
      actor.send({ ...credentials, to });
      await loggedIn(actor);
      expect(actor.getSnapshot().context.redirectTo).toBe('/');
    }
  });

  it('never waits more than 1.5 s for the ip lookup', async () => {
    const clock = new SimulatedClock();
    const { actor, api } = startSession({ clock, lookupIp: () => new Promise(() => undefined) });
    actor.send(credentials);
    clock.increment(IP_WAIT_MS - 1);
    await flush();
    expect(api.calls('POST /api/auth/login')).toHaveLength(0);
    clock.increment(1);
    await loggedIn(actor);
    expect(api.calls('POST /api/auth/login')[0]?.body).toMatchObject({ ip: null });
  });

  it.each([
    [
      'a 401',
      () => json(401, { error: 'invalid_credentials', message: 'Email ou/e senha errado(s)' }),
      'auth.login.failed',
    ],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed')), 'auth.login.failed'],
    ['a 200 without token', () => json(200, loginResponse('')), 'auth.login.noToken'],
  ] as const)('ends anonymous with the message key after %s, storing nothing', async (_, answer, key) => {
    const storage = memoryStorage();
    const { actor } = startSession({ storage, api: fakeApi({ 'POST /api/auth/login': answer }) });
    actor.send(credentials);
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(key);
    expect(storage.dump()).toEqual({});
  });
});

describe('session machine: logout', () => {
  it.each([
    ['succeeds', () => json(200, { message: 'Logged out' })],
    ['fails', () => json(500, { message: 'boom' })],
    ['cannot reach the server', () => Promise.reject(new TypeError('fetch failed'))],
  ] as const)(
    'sends the logout with the ip and the token, clears storage and ends logged out when the call %s',
    async (_, answer) => {
      const storage = stored({ ...remote, expiresAt: NOW + 60_000 });
      const { actor, api } = startSession({ storage, api: fakeApi({ 'POST /api/auth/logout': answer }) });
      await loggedIn(actor);
      actor.send({ type: 'session.logout' });
      expect(storage.dump()).toEqual({});
      await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
      expect(api.calls('POST /api/auth/logout')[0]).toMatchObject({
        authorization: 'Bearer T3',
        body: { data: { email: USER.email }, ip: '203.0.113.7' },
      });
      expect(actor.getSnapshot().context).toMatchObject({
        token: null,
        user: null,
        permittedRoutes: [],
        ended: 'logout',
      });
    },
  );
});

describe('session machine: two-factor sign-in and throttling', () => {
  const credentials = {
    type: 'session.login',
    email: USER.email,
    password: 'Back#Office!Demo',
    to: '/tenants',
  } as const;
  const twoFactorApi = (accept: string) =>
    fakeApi({
      'POST /api/auth/login': (_request, body) => {
        const otp = (body as { otp?: string }).otp;
        if (otp === undefined) return json(401, { error: 'two_factor_required', message: 'Informe o código' });
        if (otp !== accept) return json(401, { error: 'invalid_two_factor_code', message: 'Código inválido' });
        return json(200, loginResponse('T1'));
      },
    });

  it('asks for the code, refuses a wrong one, then signs in with the right one, holding the password only meanwhile', async () => {
    const api = twoFactorApi('654321');
    const { actor } = startSession({ api });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.hasTag('twoFactor'));
    expect(actor.getSnapshot().context).toMatchObject({ error: null, credentials: { email: USER.email, otp: null } });

    actor.send({ type: 'session.verifyCode', otp: ' 111111 ' });
    await waitFor(actor, (s) => s.hasTag('twoFactor') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('auth.twoFactor.invalidCode');

    actor.send({ type: 'session.verifyCode', otp: '654321' });
    await loggedIn(actor);
    const bodies = api.calls('POST /api/auth/login').map((c) => c.body);
    expect(bodies).toEqual([
      { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7' },
      { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7', otp: '111111' },
      { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7', otp: '654321' },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ credentials: null, redirectTo: '/tenants', error: null });
  });

  it('drops the held credentials when the user goes back from the code step', async () => {
    const { actor } = startSession({ api: twoFactorApi('654321') });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.hasTag('twoFactor'));
    actor.send({ type: 'session.cancelTwoFactor' });
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    expect(actor.getSnapshot().context.credentials).toBeNull();
  });

  it('tells a throttled sign-in apart from a wrong password, with the wait the server gives', async () => {
    const api = fakeApi({
      'POST /api/auth/login': () => json(429, { message: 'Too many failed attempts', retry_after: 840 }),
    });
    const { actor } = startSession({ api });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      error: 'auth.login.throttled',
      retryAfter: 840,
      credentials: null,
    });
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
  });

  it('keeps the one message for every other refusal (unknown e-mail, wrong password, blocked user)', async () => {
    for (const body of [
      { error: 'invalid_credentials', message: 'x' },
      { error: 'user_blocked', message: 'x' },
    ]) {
      const { actor } = startSession({ api: fakeApi({ 'POST /api/auth/login': () => json(401, body) }) });
      await flush();
      actor.send(credentials);
      await waitFor(actor, (s) => s.context.error !== null);
      expect(actor.getSnapshot().context).toMatchObject({ error: 'auth.login.failed', retryAfter: null });
    }
  });
});

describe('session machine: what happens just before logout', () => {
  it('runs beforeLogout first, and logs out even when it fails or never answers', async () => {
    for (const beforeLogout of [
      () => Promise.resolve('said'),
      () => Promise.reject(new Error('offline')),
      () => new Promise(() => undefined),
    ]) {
      const order: string[] = [];
      const api = fakeApi({
        'POST /api/auth/logout': () => {
          order.push('logout');
          return json(200, { message: 'Logged out' });
        },
      });
      const { actor } = startSession({
        api,
        storage: stored({ ...remote, expiresAt: NOW + 60_000 }),
        beforeLogout: () => (order.push('before'), beforeLogout()),
      });
      await loggedIn(actor);
      actor.send({ type: 'session.logout' });
      // The never-answering one is cut off after BEFORE_LOGOUT_MS (a real timer inside the actor).
      await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }), { timeout: 5000 });
      expect(order).toEqual(['before', 'logout']);
    }
  });
});
