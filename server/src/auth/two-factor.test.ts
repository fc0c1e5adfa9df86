import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';
import { totp } from './totp';
import { totpSecretCipherOf } from './totp-secrets';

/**
 * TOTP two-factor (docs/product.md, Two-factor sign-in). Enrol (secret, otpauth URI, server-made SVG QR), verify (turns it on,
 * 10 recovery codes shown once and stored hashed), login asks for the code (REST 401 two_factor_required,
 * GraphQL TWO_FACTOR_REQUIRED), codes are single-use, wrong codes are failed sign-ins (429), disable needs
 * a code, an administrator's PATCH resets, turning it on without enrolment is a 409. Every answer is
 * checked against the contract.
 */
const MAX_FAILURES = 4;
let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: { days: 2 }, config: { loginMaxFailures: MAX_FAILURES } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A fresh user per test (own throttle counters and state); back-office staff unless said. */
async function freshUser(role: 'administrador' | 'operador' = 'operador'): Promise<TestUser & { address: string }> {
  n += 1;
  const user = await createTestUser(t.db, { email: `tf-${n}@demo.local`, tenant: 'backoffice', role });
  return { ...user, address: `10.9.0.${n}` };
}

async function call(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  operationId: string,
  options: { token?: string; body?: unknown; address?: string } = {},
) {
  const response = await t.app.fastify.inject({
    method,
    url,
    remoteAddress: options.address ?? '10.9.255.1',
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  const body: unknown = response.json();
  const check = validateResponse(operationId, response.statusCode, body);
  expect(check.errors, `${operationId} ${response.statusCode} ${response.body}`).toEqual([]);
  return { status: response.statusCode, body: body as Record<string, unknown>, headers: response.headers };
}

const login = (user: { email: string; address: string }, otp?: string) =>
  call('POST', '/api/auth/login', 'authLogin', {
    address: user.address,
    body: { email: user.email, password: TEST_PASSWORD, ip: null, ...(otp === undefined ? {} : { otp }) },
  });

async function tokenOf(user: { email: string; address: string }): Promise<string> {
  const answer = await login(user);
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

/** Enrols and verifies; returns the secret, the code used to verify and the recovery codes. */
async function enable(token: string) {
  const enrolment = await call('POST', '/api/two-factor/enrol', 'twoFactorEnrol', { token });
  expect(enrolment.status).toBe(200);
  const secret = enrolment.body.secret as string;
  const code = totp(secret, Date.now());
  const verified = await call('POST', '/api/two-factor/verify', 'twoFactorVerify', { token, body: { code } });
  expect(verified.status).toBe(200);
  return { secret, code, recovery: verified.body.recovery_codes as string[] };
}

describe('enrolment', () => {
  it('hands out a secret, its otpauth URI and an SVG QR code, and keeps it pending until verified', async () => {
    const user = await freshUser();
    const token = await tokenOf(user);
    expect((await call('GET', '/api/two-factor', 'twoFactorStatus', { token })).body).toEqual({
      enabled: false,
      enrolled_at: null,
      recovery_codes_left: 0,
    });

    const { body } = await call('POST', '/api/two-factor/enrol', 'twoFactorEnrol', { token });
    const secret = body.secret as string;
    const uri = new URL(body.otpauth_uri as string);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    const svg = body.qr_svg as string;
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|on\w+=|href=/i);

    // Pending only: login asks for nothing yet, the status is still off.
    expect((await login(user)).status).toBe(200);
    expect((await call('GET', '/api/two-factor', 'twoFactorStatus', { token })).body.enabled).toBe(false);
    // Enrolling again replaces the pending secret: a code of the old one no longer verifies.
    const again = await call('POST', '/api/two-factor/enrol', 'twoFactorEnrol', { token });
    expect(again.body.secret).not.toBe(secret);
    const stale = await call('POST', '/api/two-factor/verify', 'twoFactorVerify', {
      token,
      body: { code: totp(secret, Date.now()) },
    });
    expect(stale.status).toBe(400);
  });

  it('verify turns it on and returns 10 distinct recovery codes once, stored only as hashes', async () => {
    const user = await freshUser();
    const token = await tokenOf(user);
    const { secret, recovery } = await enable(token);
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    const status = await call('GET', '/api/two-factor', 'twoFactorStatus', { token });
    expect(status.body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect(Date.parse(status.body.enrolled_at as string)).toBeGreaterThan(Date.now() - 60_000);

    const stored = await t.db
      .selectFrom('two_factor_recovery_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of recovery) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace('-', ''));
    }
    const row = await t.db
      .selectFrom('users')
      .select(['two_factor_enabled', 'two_factor_secret', 'two_factor_pending_secret'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      two_factor_enabled: true,
      two_factor_secret: expect.stringMatching(/^v1:/),
      two_factor_pending_secret: null,
    });
    // Stored encrypted (totp-secrets.test.ts has the details), and it is the secret that was handed out.
    expect(row.two_factor_secret).not.toContain(secret);
    expect(totpSecretCipherOf(t.db).decrypt(user.id, 'two_factor_secret', row.two_factor_secret ?? '')).toBe(secret);

    // Verify and enrol again: nothing pending / already on.
    expect(
      (await call('POST', '/api/two-factor/verify', 'twoFactorVerify', { token, body: { code: '000000' } })).status,
    ).toBe(409);
    expect((await call('POST', '/api/two-factor/enrol', 'twoFactorEnrol', { token })).status).toBe(409);
  });

  it('a wrong verify code is a 400 on body/code and a failed sign-in (429 after too many)', async () => {
    const user = await freshUser();
    const token = await tokenOf(user);
    const { body } = await call('POST', '/api/two-factor/enrol', 'twoFactorEnrol', { token });
    const right = totp(body.secret as string, Date.now());
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < MAX_FAILURES; i += 1) {
      const answer = await call('POST', '/api/two-factor/verify', 'twoFactorVerify', {
        token,
        address: user.address,
        body: { code: wrong },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'body/code' })]);
    }
    const throttled = await call('POST', '/api/two-factor/verify', 'twoFactorVerify', {
      token,
      address: user.address,
      body: { code: right },
    });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });
});

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
    const rows = await t.db
      .selectFrom('login_attempts')
      .select(['success'])
      .where('email', '=', user.email)
      .where('remote_address', '=', user.address)
      .execute();
    expect(rows.filter((r) => !r.success)).toHaveLength(MAX_FAILURES);
  });

  it('GraphQL logIn answers TWO_FACTOR_REQUIRED without otp and a token with it', async () => {
    const user = await freshUser();
    const { secret } = await enable(await tokenOf(user));
    const query =
      'mutation logIn($email: String!, $password: String!, $otp: String) { logIn(email: $email, password: $password, otp: $otp) { token } }';
    const gql = async (otp?: string) => {
      const response = await t.app.fastify.inject({
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

describe('turning it off', () => {
  it('disable needs a valid code; afterwards login asks for none and the secret and codes are gone', async () => {
    const user = await freshUser();
    const token = await tokenOf(user);
    const { secret } = await enable(token);
    const wrong = await call('POST', '/api/two-factor/disable', 'twoFactorDisable', {
      token,
      body: { code: 'ZZZZZ-ZZZZZ' },
    });
    expect(wrong.status).toBe(400);
    const off = await call('POST', '/api/two-factor/disable', 'twoFactorDisable', {
      token,
      body: { code: totp(secret, Date.now() + 30_000) },
    });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ enabled: false, enrolled_at: null, recovery_codes_left: 0 });
    expect((await login(user)).status).toBe(200);
    const row = await t.db
      .selectFrom('users')
      .select(['two_factor_secret'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.two_factor_secret).toBeNull();
    expect(
      await t.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    expect(
      (await call('POST', '/api/two-factor/disable', 'twoFactorDisable', { token, body: { code: '123456' } })).status,
    ).toBe(409);
  });

  it('PATCH /api/user-settings: an administrator resets another user; ON without enrolment is a 409; OFF without `users` is a 403', async () => {
    const admin = await freshUser('administrador');
    const adminToken = await tokenOf(admin);
    const user = await freshUser();
    const userToken = await tokenOf(user);

    const on = await call('PATCH', `/api/user-settings/${user.id}`, 'userSettingsUpdate', {
      token: adminToken,
      body: { two_factor_enabled: true },
    });
    expect(on.status).toBe(409);
    expect(on.body.message).toMatch(/enrol/i);

    await enable(userToken);
    // The user itself: ON when enrolled is a no-op 200; OFF without a code is not for it.
    expect(
      (
        await call('PATCH', `/api/user-settings/${user.id}`, 'userSettingsUpdate', {
          token: userToken,
          body: { two_factor_enabled: true },
        })
      ).body,
    ).toEqual({
      user_id: user.id,
      two_factor_enabled: true,
    });
    expect(
      (
        await call('PATCH', `/api/user-settings/${user.id}`, 'userSettingsUpdate', {
          token: userToken,
          body: { two_factor_enabled: false },
        })
      ).status,
    ).toBe(403);
    expect((await login(user)).body.error).toBe('two_factor_required');

    const reset = await call('PATCH', `/api/user-settings/${user.id}`, 'userSettingsUpdate', {
      token: adminToken,
      body: { two_factor_enabled: false },
    });
    expect(reset.body).toEqual({ user_id: user.id, two_factor_enabled: false });
    expect((await login(user)).status).toBe(200);
    expect(
      await t.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    // Re-enrolling works after a reset.
    await enable(userToken);
    expect((await login(user)).body.error).toBe('two_factor_required');
  });

  it('the database refuses two-factor on without an enrolled secret', async () => {
    const user = await freshUser();
    await expect(
      t.db.updateTable('users').set({ two_factor_enabled: true }).where('id', '=', user.id).execute(),
    ).rejects.toThrow(/users_two_factor_enrolled/);
  });
});
