import { SimulatedClock, waitFor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-client';
import { classifyLoginFailure } from './session-actors';
import { fakeApi, flush, json, loginResponse, NOW, startSession, USER } from '../test-support/session-fakes';
import { loggedIn } from '../test-support/session-fixtures';
import { IP_WAIT_MS } from './session.machine';
import { memoryStorage, readStoredSession } from './session-storage';
import { selectAwaitingNewPassword, selectEnrolment, selectRecoveryCodes } from './session-selectors';

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
      body: { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7', remember: false },
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
      { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7', remember: false },
      { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7', remember: false, otp: '111111' },
      { email: USER.email, password: 'Back#Office!Demo', ip: '203.0.113.7', remember: false, otp: '654321' },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ credentials: null, redirectTo: '/tenants', error: null });
  });

  it('sends remember me with every step of the sign-in', async () => {
    const api = twoFactorApi('654321');
    const { actor } = startSession({ api });
    await flush();
    actor.send({ ...credentials, remember: true });
    await waitFor(actor, (s) => s.hasTag('twoFactor'));
    actor.send({ type: 'session.verifyCode', otp: '654321' });
    await loggedIn(actor);
    expect(api.calls('POST /api/auth/login').map((c) => (c.body as { remember?: unknown }).remember)).toEqual([
      true,
      true,
    ]);
  });

  describe('enrolment at sign-in', () => {
    const enrolment = {
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      otpauth_uri: 'otpauth://totp/x',
      qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    };
    const codes = Array.from({ length: 10 }, (_, i) => `AAAAA-BBBB${'ABCDEFGHIJ'[i]}`);
    const enrolmentApi = (answer: (otp: string) => Response) =>
      fakeApi({
        'POST /api/auth/login': (_request, body) => {
          const otp = (body as { otp?: string }).otp;
          if (otp === undefined)
            return json(401, { error: 'two_factor_enrolment_required', message: 'Ative', enrolment });
          return answer(otp);
        },
      });

    it('shows the secret to enrol, keeps it through a wrong code, then signs in and holds the recovery codes until seen', async () => {
      const api = enrolmentApi((otp) =>
        otp === '654321'
          ? json(200, { ...loginResponse('T1'), recovery_codes: codes })
          : json(401, { error: 'invalid_two_factor_code', message: 'Código inválido' }),
      );
      const { actor } = startSession({ api });
      await flush();
      actor.send(credentials);
      await waitFor(actor, (s) => s.hasTag('twoFactor'));
      expect(selectEnrolment(actor.getSnapshot())).toEqual(enrolment);

      actor.send({ type: 'session.verifyCode', otp: '111111' });
      await waitFor(actor, (s) => s.hasTag('twoFactor') && s.context.error !== null);
      expect(actor.getSnapshot().context.error).toBe('auth.twoFactor.invalidCode');
      expect(selectEnrolment(actor.getSnapshot())).toEqual(enrolment);

      actor.send({ type: 'session.verifyCode', otp: '654321' });
      await loggedIn(actor);
      expect(selectEnrolment(actor.getSnapshot())).toBeNull();
      expect(selectRecoveryCodes(actor.getSnapshot())).toEqual(codes);
      actor.send({ type: 'session.recoveryCodesSeen' });
      expect(selectRecoveryCodes(actor.getSnapshot())).toBeNull();
    });

    it('an expired enrolment goes back to the e-mail and password with a message, holding nothing', async () => {
      const api = enrolmentApi(() => json(401, { error: 'two_factor_enrolment_expired', message: 'expirou' }));
      const { actor } = startSession({ api });
      await flush();
      actor.send(credentials);
      await waitFor(actor, (s) => s.hasTag('twoFactor'));
      actor.send({ type: 'session.verifyCode', otp: '654321' });
      await waitFor(actor, (s) => s.context.error !== null);
      expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({
        error: 'auth.twoFactor.enrolmentExpired',
        credentials: null,
        enrolment: null,
        token: null,
      });
    });
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

  it("says a closed company is closed, not a wrong password, and counts it as no session's 401", async () => {
    const storage = memoryStorage();
    const api = fakeApi({
      'POST /api/auth/login': () =>
        json(401, { error: 'tenant_deleted', message: 'O acesso desta empresa foi encerrado.' }),
    });
    const { actor } = startSession({ api, storage });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      error: 'auth.login.tenantDeleted',
      credentials: null,
      // No session ended (the login page shows no "session ended" notice), nothing refreshed or stored.
      ended: null,
      token: null,
    });
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    expect(api.seen.map((s) => s.route)).toEqual(['POST /api/auth/login']);
    expect(api.calls('POST /api/auth/login')[0]?.authorization).toBeNull();
    expect(readStoredSession(storage, 'http://api.test')).toBeNull();
    // The form works as before: the next sign-in goes through.
    api.handlers['POST /api/auth/login'] = () => json(200, loginResponse('T1'));
    actor.send(credentials);
    await loggedIn(actor);
    expect(actor.getSnapshot().context.error).toBeNull();
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

describe('classifyLoginFailure: a closed company', () => {
  it('is told apart on REST (401 tenant_deleted) and GraphQL (TENANT_DELETED), and nothing else reads as one', () => {
    expect(classifyLoginFailure(new ApiError(401, { error: 'tenant_deleted', message: 'x' }))).toEqual({
      kind: 'tenantDeleted',
    });
    expect(
      classifyLoginFailure(new GraphqlError(200, [{ message: 'x', extensions: { code: 'TENANT_DELETED' } }])),
    ).toEqual({ kind: 'tenantDeleted' });
    expect(classifyLoginFailure(new ApiError(403, { error: 'tenant_deleted' }))).toEqual({ kind: 'failed' });
    expect(classifyLoginFailure(new ApiError(401, { status: 'Unauthorized' }))).toEqual({ kind: 'failed' });
    expect(classifyLoginFailure(new Error('tenant_deleted'))).toEqual({ kind: 'failed' });
  });
});

describe('session machine: a temporary password', () => {
  const credentials = { type: 'session.login', email: USER.email, password: 'Temp#Senha!2026', to: '/users' } as const;
  const NEW = 'Nova#Senha!2026';
  /** A server whose user has a temporary password (and, with `code`, two-factor on). */
  const temporaryApi = (code?: string) => {
    let accepted = code;
    return fakeApi({
      'POST /api/auth/login': (_request, body) => {
        const { otp, new_password: next } = body as { otp?: string; new_password?: string };
        if (code !== undefined && otp === undefined)
          return json(401, { error: 'two_factor_required', message: 'code' });
        if (code !== undefined && otp !== accepted)
          return json(401, { error: 'invalid_two_factor_code', message: 'bad' });
        if (next === undefined) return json(401, { error: 'password_change_required', message: 'temporary' });
        if (next === 'Weak#Pass') {
          return json(400, { message: 'Validation failed', errors: [{ field: 'body/new_password', message: 'weak' }] });
        }
        // The code a change went out with is used: the next one must be newer (the server's rule).
        accepted = undefined;
        return json(200, loginResponse('T1'));
      },
    });
  };

  it('asks for a new password, sends it with the same credentials, signs in and says the password changed', async () => {
    const api = temporaryApi();
    const { actor } = startSession({ api });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.hasTag('passwordChange'));
    expect(selectAwaitingNewPassword(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ error: null, credentials: { newPassword: null } });
    actor.send({ type: 'session.changePassword', newPassword: 'Weak#Pass' });
    await waitFor(actor, (s) => s.hasTag('passwordChange') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('auth.passwordChange.refused');
    actor.send({ type: 'session.changePassword', newPassword: NEW });
    await loggedIn(actor);
    const bodies = api.calls('POST /api/auth/login').map((c) => c.body);
    expect(bodies).toEqual([
      { email: USER.email, password: 'Temp#Senha!2026', ip: '203.0.113.7', remember: false },
      { email: USER.email, password: 'Temp#Senha!2026', ip: '203.0.113.7', remember: false, new_password: 'Weak#Pass' },
      { email: USER.email, password: 'Temp#Senha!2026', ip: '203.0.113.7', remember: false, new_password: NEW },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({
      credentials: null,
      redirectTo: '/users',
      notice: { titleKey: 'auth.passwordChange.doneTitle', bodyKey: 'auth.passwordChange.doneBody' },
    });
  });

  it('with two-factor on: the code that passed goes out again with the new password', async () => {
    const api = temporaryApi('654321');
    const { actor } = startSession({ api });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.hasTag('twoFactor'));
    actor.send({ type: 'session.verifyCode', otp: '654321' });
    await waitFor(actor, (s) => s.hasTag('passwordChange'));
    actor.send({ type: 'session.changePassword', newPassword: NEW });
    await loggedIn(actor);
    expect(api.calls('POST /api/auth/login').at(-1)?.body).toEqual({
      email: USER.email,
      password: 'Temp#Senha!2026',
      ip: '203.0.113.7',
      remember: false,
      otp: '654321',
      new_password: NEW,
    });
  });

  it('keeps the new password when the code must be typed again, so it is typed once', async () => {
    const answers = [
      json(401, { error: 'password_change_required', message: 'temporary' }),
      json(401, { error: 'invalid_two_factor_code', message: 'expired meanwhile' }),
      json(200, loginResponse('T1')),
    ];
    const api = fakeApi({ 'POST /api/auth/login': () => answers.shift() ?? json(500, {}) });
    const { actor } = startSession({ api });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.hasTag('passwordChange'));
    actor.send({ type: 'session.changePassword', newPassword: NEW });
    await waitFor(actor, (s) => s.hasTag('twoFactor'));
    expect(actor.getSnapshot().context.error).toBe('auth.twoFactor.invalidCode');
    actor.send({ type: 'session.verifyCode', otp: '123456' });
    await loggedIn(actor);
    expect(api.calls('POST /api/auth/login').at(-1)?.body).toMatchObject({ otp: '123456', new_password: NEW });
  });

  it('goes back to the form, dropping what it held', async () => {
    const { actor } = startSession({ api: temporaryApi() });
    await flush();
    actor.send(credentials);
    await waitFor(actor, (s) => s.hasTag('passwordChange'));
    actor.send({ type: 'session.cancelPasswordChange' });
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ credentials: null, error: null });
  });

  it('is told apart on REST and GraphQL, and a refused new password only by its field', () => {
    expect(classifyLoginFailure(new ApiError(401, { error: 'password_change_required', message: 'x' }))).toEqual({
      kind: 'passwordChangeRequired',
    });
    expect(
      classifyLoginFailure(new GraphqlError(200, [{ message: 'x', extensions: { code: 'PASSWORD_CHANGE_REQUIRED' } }])),
    ).toEqual({ kind: 'passwordChangeRequired' });
    expect(
      classifyLoginFailure(
        new ApiError(400, { message: 'Validation failed', errors: [{ field: 'body/new_password', message: 'weak' }] }),
      ),
    ).toEqual({ kind: 'newPasswordRefused' });
    expect(
      classifyLoginFailure(
        new ApiError(400, { message: 'Validation failed', errors: [{ field: 'body/email', message: 'x' }] }),
      ),
    ).toEqual({ kind: 'failed' });
  });
});
