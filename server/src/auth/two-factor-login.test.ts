import { TEST_PASSWORD } from '../test-support/users';
import { totp } from './totp';
import {
  MAX_FAILURES,
  call,
  enable,
  freshUser,
  login,
  tf,
  tokenOf,
  useTwoFactorApp,
} from '../test-support/two-factor-app';

/** Signing in with two-factor on, through REST and GraphQL (the rest of two-factor: ./two-factor.test.ts). */
useTwoFactorApp();

describe('login with two-factor on', () => {
  it('asks for the code after a right password only, and tells a wrong password apart from a missing code', async () => {
    const user = await freshUser();
    await enable(await tokenOf(user));
    const missing = await login(user);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('two_factor_required');
    // A wrong password still gets the plain answer, with or without a code.
    const wrongPassword = await call('POST', '/api/auth/login', 'authLogin', {
      address: user.address,
      body: { email: user.email, password: 'nope-nope', ip: null, otp: '123456' },
    });
    expect(wrongPassword.body).toEqual({ error: 'invalid_credentials', message: 'Email ou/e senha errado(s)' });
  });

  it('accepts each TOTP step once: the code used to verify and a code used at login are refused the second time', async () => {
    const user = await freshUser();
    const { secret, code: usedAtVerify } = await enable(await tokenOf(user));
    const reused = await login(user, usedAtVerify);
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('invalid_two_factor_code');

    // The next step is within the ±1 window and newer than the one verify used.
    const next = totp(secret, Date.now() + 30_000);
    const first = await login(user, next);
    expect(first.status).toBe(200);
    expect(typeof first.body.access_token).toBe('string');
    expect((await login(user, next)).body.error).toBe('invalid_two_factor_code');
  });

  it('two concurrent logins with one code: exactly one gets a token', async () => {
    const user = await freshUser();
    const { secret } = await enable(await tokenOf(user));
    const code = totp(secret, Date.now() + 30_000);
    const answers = await Promise.all([login(user, code), login(user, code), login(user, code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it('accepts a recovery code once (any case, dash optional) and counts it down', async () => {
    const user = await freshUser();
    const token = await tokenOf(user);
    const { recovery } = await enable(token);
    const [a, b] = recovery;
    if (!a || !b) throw new Error('no recovery codes');
    expect((await login(user, a)).status).toBe(200);
    expect((await login(user, a)).body.error).toBe('invalid_two_factor_code');
    expect((await login(user, b.replace('-', '').toLowerCase())).status).toBe(200);
    expect((await call('GET', '/api/two-factor', 'twoFactorStatus', { token })).body.recovery_codes_left).toBe(8);
  });

  it('counts wrong codes as failed sign-ins: 429 with Retry-After, even for a right code', async () => {
    const user = await freshUser();
    const { secret } = await enable(await tokenOf(user));
    for (let i = 0; i < MAX_FAILURES; i += 1)
      expect((await login(user, 'AAAAA-AAAAA')).body.error).toBe('invalid_two_factor_code');
    const throttled = await login(user, totp(secret, Date.now() + 30_000));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    const rows = await tf.t.db
      .selectFrom('login_attempts')
      .select(['success', 'reason'])
      .where('email', '=', user.email)
      .where('remote_address', '=', user.address)
      .orderBy('id')
      .execute();
    // The wrong codes, then the refused attempt (recorded for the support desk, not counted again).
    expect(rows.filter((r) => !r.success).map((r) => r.reason)).toEqual([
      ...Array<string>(MAX_FAILURES).fill('invalid_two_factor_code'),
      'throttled',
    ]);
  });

  it('GraphQL logIn answers TWO_FACTOR_REQUIRED without otp and a token with it', async () => {
    const user = await freshUser();
    const { secret } = await enable(await tokenOf(user));
    const query =
      'mutation logIn($email: String!, $password: String!, $otp: String) { logIn(email: $email, password: $password, otp: $otp) { token } }';
    const gql = async (otp?: string) => {
      const response = await tf.t.app.fastify.inject({
        method: 'POST',
        url: '/backoffice/graphql',
        remoteAddress: user.address,
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        payload: JSON.stringify({ query, variables: { email: user.email, password: TEST_PASSWORD, otp } }),
      });
      return {
        status: response.statusCode,
        body: response.json<{
          data: { logIn: { token: string } } | null;
          errors?: { extensions: { code: string } }[];
        }>(),
      };
    };
    const missing = await gql();
    expect(missing.status).toBe(200);
    expect(missing.body.errors?.map((e) => e.extensions.code)).toEqual(['TWO_FACTOR_REQUIRED']);
    const wrong = await gql('000000');
    expect(wrong.body.errors?.map((e) => e.extensions.code)).toEqual(['INVALID_TWO_FACTOR_CODE']);
    const right = await gql(totp(secret, Date.now() + 30_000));
    expect(right.body.errors).toBeUndefined();
    expect(right.body.data?.logIn.token).toEqual(expect.any(String));
  });
});
