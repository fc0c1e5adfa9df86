import { TEST_PASSWORD } from '../test-support/users';
import { totp } from './totp';
import { call, enable, freshUser, tf, tokenOf, useTwoFactorApp } from '../test-support/two-factor-app';

/**
 * Sign-in with a temporary password (docs/support-desk.md, Sign-in with a temporary password), through
 * REST `POST /api/auth/login` and GraphQL `logIn` alike: no session until a new password is given, the
 * strength rule and "differs from the temporary one" on it, then the password set, the requirement
 * cleared, every older session ended and the normal sign-in.
 */
useTwoFactorApp();

const NEW_PASSWORD = 'Nova#Senha!2026';

async function temporaryUser(role: 'administrador' | 'operador' = 'operador') {
  const user = await freshUser(role);
  const before = await tokenOf(user);
  await tf.t.db.updateTable('users').set({ must_change_password: true }).where('id', '=', user.id).execute();
  return { ...user, before };
}

const signIn = (
  user: { email: string; address: string },
  extra: { otp?: string; new_password?: string; password?: string } = {},
) =>
  call('POST', '/api/auth/login', 'authLogin', {
    address: user.address,
    body: { email: user.email, password: TEST_PASSWORD, ip: null, ...extra },
  });

const mustChange = async (id: number) =>
  (await tf.t.db.selectFrom('users').select('must_change_password').where('id', '=', id).executeTakeFirstOrThrow())
    .must_change_password;

/** The failures the throttle counts (migration 0019 `throttle_counted`). */
const failures = async (email: string) =>
  (await tf.t.db.selectFrom('login_attempts').select('throttle_counted').where('email', '=', email).execute()).filter(
    (r) => r.throttle_counted,
  ).length;

const meStatus = async (token: string) =>
  (
    await tf.t.app.fastify.inject({
      method: 'GET',
      url: '/api/auth/userInfo',
      headers: { authorization: `Bearer ${token}` },
    })
  ).statusCode;

async function gqlLogIn(
  user: { email: string; address: string },
  variables: { otp?: string; newPassword?: string } = {},
) {
  const response = await tf.t.app.fastify.inject({
    method: 'POST',
    url: '/backoffice/graphql',
    remoteAddress: user.address,
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    payload: JSON.stringify({
      query:
        'mutation logIn($email: String!, $password: String!, $otp: String, $newPassword: String) { logIn(email: $email, password: $password, otp: $otp, newPassword: $newPassword) { token } }',
      variables: { email: user.email, password: TEST_PASSWORD, ...variables },
    }),
  });
  return response.json<{
    data: { logIn: { token: string } } | null;
    errors?: { message: string; extensions: { code: string; field?: string } }[];
  }>();
}

describe('REST sign-in with a temporary password', () => {
  it('answers password_change_required after a right password only, with no session and no failure counted', async () => {
    const user = await temporaryUser();
    const asked = await signIn(user);
    expect(asked.status).toBe(401);
    expect(asked.body).toEqual({ error: 'password_change_required', message: expect.any(String) });
    expect((await signIn(user, { password: 'wrong-password-1' })).body.error).toBe('invalid_credentials');
    // The wrong password is the only failure: the change asked for is recorded (the desk shows it) but
    // not counted.
    expect(await failures(user.email)).toBe(1);
    const reasons = await tf.t.db
      .selectFrom('login_attempts')
      .select('reason')
      .where('email', '=', user.email)
      .where('success', '=', false)
      .orderBy('id')
      .execute();
    expect(reasons.map((r) => r.reason)).toEqual(['password_change_required', 'wrong_password']);
    expect(await meStatus(user.before)).toBe(200);
  });

  it('refuses a weak new password and one equal to the temporary one, changing nothing', async () => {
    const user = await temporaryUser();
    const weak = await signIn(user, { new_password: 'abc12345' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors).toEqual([{ field: 'body/new_password', message: expect.stringMatching(/weak/) }]);
    const same = await signIn(user, { new_password: TEST_PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual([{ field: 'body/new_password', message: expect.stringMatching(/differ/) }]);
    expect(await mustChange(user.id)).toBe(true);
    expect((await signIn(user)).body.error).toBe('password_change_required');
    expect(await meStatus(user.before)).toBe(200);
  });

  it('sets the new password, clears the requirement, ends older sessions and signs in', async () => {
    const user = await temporaryUser();
    const done = await signIn(user, { new_password: NEW_PASSWORD, remember: true } as never);
    expect(done.status).toBe(200);
    const token = done.body.access_token as string;
    expect(await meStatus(token)).toBe(200);
    expect(await meStatus(user.before)).toBe(401);
    expect(await mustChange(user.id)).toBe(false);
    expect((await signIn(user)).body.error).toBe('invalid_credentials');
    expect((await signIn(user, { password: NEW_PASSWORD })).status).toBe(200);
    const records = await tf.t.db
      .selectFrom('audit_log')
      .select(['operation', 'actor_user_id', 'changes'])
      .where('target_id', '=', user.id)
      .where('operation', '=', 'user.password')
      .execute();
    expect(records).toHaveLength(1);
    expect(records[0]?.actor_user_id).toBe(user.id);
    expect(records[0]?.changes).toEqual([{ field: 'temporary', before: 'true', after: 'false' }]);
  });

  it('ignores new_password when no change is required', async () => {
    const user = await freshUser();
    expect((await signIn(user, { new_password: NEW_PASSWORD })).status).toBe(200);
    expect((await signIn(user)).status).toBe(200);
  });

  it('with two-factor on: the code first, then the change; the same code goes with the new password', async () => {
    const user = await freshUser();
    const { secret } = await enable(await tokenOf(user));
    await tf.t.db.updateTable('users').set({ must_change_password: true }).where('id', '=', user.id).execute();
    expect((await signIn(user)).body.error).toBe('two_factor_required');
    expect((await signIn(user, { otp: '000000' })).body.error).toBe('invalid_two_factor_code');
    const code = totp(secret, Date.now() + 30_000);
    expect((await signIn(user, { otp: code })).body.error).toBe('password_change_required');
    // A weak password does not use the code up either.
    expect((await signIn(user, { otp: code, new_password: 'aaa' })).status).toBe(400);
    const done = await signIn(user, { otp: code, new_password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    // Now used: the code is refused the next time.
    expect((await signIn(user, { otp: code, password: NEW_PASSWORD })).body.error).toBe('invalid_two_factor_code');
  });

  it('with enrolment required: the new password first, kept through the enrolment', async () => {
    const user = await freshUser();
    await tf.t.db
      .updateTable('users')
      .set({ must_change_password: true, two_factor_enrolment_required: true })
      .where('id', '=', user.id)
      .execute();
    expect((await signIn(user)).body.error).toBe('password_change_required');
    const enrolment = await signIn(user, { new_password: NEW_PASSWORD });
    expect(enrolment.body.error).toBe('two_factor_enrolment_required');
    expect(await mustChange(user.id)).toBe(true);
    const secret = (enrolment.body.enrolment as { secret: string }).secret;
    const done = await signIn(user, { new_password: NEW_PASSWORD, otp: totp(secret, Date.now()) });
    expect(done.status).toBe(200);
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(await mustChange(user.id)).toBe(false);
  });
});

describe('GraphQL logIn with a temporary password', () => {
  it('answers PASSWORD_CHANGE_REQUIRED, BAD_USER_INPUT on newPassword, then a token', async () => {
    const user = await temporaryUser();
    expect((await gqlLogIn(user)).errors?.map((e) => e.extensions.code)).toEqual(['PASSWORD_CHANGE_REQUIRED']);
    const weak = await gqlLogIn(user, { newPassword: '11111111' });
    expect(weak.errors?.map((e) => [e.extensions.code, e.extensions.field])).toEqual([
      ['BAD_USER_INPUT', 'newPassword'],
    ]);
    const same = await gqlLogIn(user, { newPassword: TEST_PASSWORD });
    expect(same.errors?.map((e) => [e.extensions.code, e.extensions.field])).toEqual([
      ['BAD_USER_INPUT', 'newPassword'],
    ]);
    expect(await mustChange(user.id)).toBe(true);
    const done = await gqlLogIn(user, { newPassword: NEW_PASSWORD });
    expect(done.errors).toBeUndefined();
    expect(await meStatus(done.data?.logIn.token ?? '')).toBe(200);
    expect(await meStatus(user.before)).toBe(401);
    expect(await mustChange(user.id)).toBe(false);
  });
});
