import { loadConfig } from '../base/config';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';
import { totp } from './totp';
import { call, freshUser, login, tf, tokenOf, useTwoFactorApp } from '../test-support/two-factor-app';

/**
 * An administrator resets and requires two-factor (REST `PATCH /api/user-settings/{id}`, GraphQL
 * `updateUserSettings`), and a required user enrols at sign-in before any session starts
 * (contracts/openapi.yaml `authLogin`, docs/product.md, Two-factor sign-in).
 */
useTwoFactorApp();

const settings = (token: string, id: number, body: Record<string, unknown>) =>
  call('PATCH', `/api/user-settings/${id}`, 'userSettingsUpdate', { token, body });

async function stateOf(id: number) {
  return tf.t.db
    .selectFrom('users')
    .select(['two_factor_enabled', 'two_factor_enrolment_required', 'two_factor_pending_secret'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function familiesOf(id: number): Promise<number> {
  const rows = await tf.t.db.selectFrom('token_families').select('id').where('user_id', '=', id).execute();
  return rows.length;
}

async function gql(address: string, token: string | null, query: string, variables: Record<string, unknown>) {
  const response = await tf.t.app.fastify.inject({
    method: 'POST',
    url: '/backoffice/graphql',
    remoteAddress: address,
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: JSON.stringify({ query, variables }),
  });
  return response.json<{
    data: Record<string, unknown> | null;
    errors?: { message: string; extensions: { code: string; field?: string; enrolment?: { secret: string } } }[];
  }>();
}

/** The seconds a token may refresh for: `rxp − iat` of its payload. */
function refreshWindowOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    rxp: number;
    iat: number;
  };
  return payload.rxp - payload.iat;
}

const update = `mutation updateUserSettings($user_id: Int!, $two_factor_enabled: Boolean, $two_factor_enrolment_required: Boolean) {
  updateUserSettings(user_id: $user_id, two_factor_enabled: $two_factor_enabled, two_factor_enrolment_required: $two_factor_enrolment_required) {
    user_id two_factor_enabled two_factor_enrolment_required
  }
}`;
const logIn = `mutation logIn($email: String!, $password: String!, $otp: String, $remember: Boolean) {
  logIn(email: $email, password: $password, otp: $otp, remember: $remember) { token recovery_codes user { twoFactorEnabled twoFactorEnrolmentRequired } }
}`;

describe('an administrator requires enrolment', () => {
  it('the next sign-in hands out a secret and no session; a wrong code changes nothing; a right one signs in with recovery codes', async () => {
    const admin = await freshUser('administrador');
    const adminToken = await tokenOf(admin);
    const user = await freshUser();
    const required = await settings(adminToken, user.id, { two_factor_enrolment_required: true });
    expect(required.status).toBe(200);
    expect(required.body).toEqual({ user_id: user.id, two_factor_enabled: false, two_factor_enrolment_required: true });

    const asked = await login(user);
    expect(asked.status).toBe(401);
    expect(asked.body.error).toBe('two_factor_enrolment_required');
    const enrolment = asked.body.enrolment as { secret: string; otpauth_uri: string; qr_svg: string };
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.qr_svg).toMatch(/^<svg/);
    expect(await familiesOf(user.id)).toBe(0);

    const wrong = await login(user, totp(enrolment.secret, Date.now() - 10 * 60_000));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_two_factor_code');
    expect(await familiesOf(user.id)).toBe(0);
    const afterWrong = await stateOf(user.id);
    expect(afterWrong).toMatchObject({ two_factor_enabled: false, two_factor_enrolment_required: true });
    expect(afterWrong.two_factor_pending_secret).not.toBeNull();

    const right = await login(user, totp(enrolment.secret, Date.now()));
    expect(right.status).toBe(200);
    expect(right.body.recovery_codes).toHaveLength(10);
    expect(
      (right.body.user as { twoFactorEnabled: boolean; twoFactorEnrolmentRequired: boolean }).twoFactorEnabled,
    ).toBe(true);
    expect(await stateOf(user.id)).toMatchObject({ two_factor_enabled: true, two_factor_enrolment_required: false });
    // From now on the enrolled secret is asked like any user's.
    expect((await login(user)).body.error).toBe('two_factor_required');
    const next = await login(user, totp(enrolment.secret, Date.now() + 30_000));
    expect(next.status).toBe(200);
    expect(next.body.recovery_codes).toBeUndefined();
  });

  it('an expired enrolment answers two_factor_enrolment_expired and changes nothing; signing in again gives a new secret', async () => {
    const admin = await freshUser('administrador');
    const user = await freshUser();
    await settings(await tokenOf(admin), user.id, { two_factor_enrolment_required: true });
    const first = (await login(user)).body.enrolment as { secret: string };
    await tf.t.db
      .updateTable('users')
      .set({ two_factor_pending_at: new Date(Date.now() - 11 * 60_000) })
      .where('id', '=', user.id)
      .execute();
    const before = await stateOf(user.id);
    const late = await login(user, totp(first.secret, Date.now()));
    expect(late.status).toBe(401);
    expect(late.body.error).toBe('two_factor_enrolment_expired');
    expect(await stateOf(user.id)).toEqual(before);
    expect(await familiesOf(user.id)).toBe(0);

    const again = (await login(user)).body.enrolment as { secret: string };
    expect(again.secret).not.toBe(first.secret);
    expect((await login(user, totp(again.secret, Date.now()))).status).toBe(200);
  });

  it('refuses to require enrolment of a user whose two-factor is on (409), and resets it so it can be required', async () => {
    const admin = await freshUser('administrador');
    const adminToken = await tokenOf(admin);
    const user = await freshUser();
    await settings(adminToken, user.id, { two_factor_enrolment_required: true });
    const { secret } = (await login(user)).body.enrolment as { secret: string };
    expect((await login(user, totp(secret, Date.now()))).status).toBe(200);

    const refused = await settings(adminToken, user.id, { two_factor_enrolment_required: true });
    expect(refused.status).toBe(409);
    expect(refused.body.field).toBe('two_factor_enrolment_required');
    expect(await stateOf(user.id)).toMatchObject({ two_factor_enabled: true, two_factor_enrolment_required: false });

    const both = await settings(adminToken, user.id, {
      two_factor_enabled: false,
      two_factor_enrolment_required: true,
    });
    expect(both.body).toEqual({ user_id: user.id, two_factor_enabled: false, two_factor_enrolment_required: true });
    expect((await login(user)).body.error).toBe('two_factor_enrolment_required');

    const lifted = await settings(adminToken, user.id, { two_factor_enrolment_required: false });
    expect(lifted.body.two_factor_enrolment_required).toBe(false);
    expect((await login(user)).status).toBe(200);
  });

  it('an unknown user is 404, another tenant’s user (for a tenant administrator) is 404, and nothing changes', async () => {
    const admin = await freshUser('administrador');
    const adminToken = await tokenOf(admin);
    expect((await settings(adminToken, 987_654, { two_factor_enrolment_required: true })).status).toBe(404);
    expect((await settings(adminToken, 987_654, { two_factor_enabled: false })).status).toBe(404);

    const tenant = (
      await tf.t.db
        .selectFrom('tenants')
        .select('name')
        .where('name', '<>', 'backoffice')
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).name;
    const tenantAdmin = await createTestUser(tf.t.db, {
      email: 'tf-tenant-admin@demo.local',
      tenant,
      role: 'administrador',
    });
    const tenantAdminToken = await tokenOf({ ...tenantAdmin, address: '10.9.1.1' });
    const other = await freshUser();
    const refused = await settings(tenantAdminToken, other.id, { two_factor_enrolment_required: true });
    expect(refused.status).toBe(404);
    expect(await stateOf(other.id)).toMatchObject({ two_factor_enabled: false, two_factor_enrolment_required: false });
  });

  it('only the users permission requires or lifts it, also of one’s own account (403)', async () => {
    const user = await freshUser();
    const token = await tokenOf(user);
    expect((await settings(token, user.id, { two_factor_enrolment_required: true })).status).toBe(403);
    expect((await settings(token, user.id, { two_factor_enrolment_required: false })).status).toBe(403);
    expect(await stateOf(user.id)).toMatchObject({ two_factor_enrolment_required: false });
  });
});

describe('GraphQL updateUserSettings and logIn', () => {
  it('requires enrolment, and logIn walks through it like REST', async () => {
    const admin = await freshUser('administrador');
    const adminToken = await tokenOf(admin);
    const user = await freshUser();
    const set = await gql(admin.address, adminToken, update, { user_id: user.id, two_factor_enrolment_required: true });
    expect(set.data?.updateUserSettings).toEqual({
      user_id: user.id,
      two_factor_enabled: false,
      two_factor_enrolment_required: true,
    });
    expect(
      (await gql(admin.address, adminToken, update, { user_id: 987_654, two_factor_enabled: false })).errors,
    ).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND', field: 'user_id' }) }),
    ]);

    const asked = await gql(user.address, null, logIn, { email: user.email, password: TEST_PASSWORD });
    expect(asked.errors?.[0]?.extensions.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    const secret = asked.errors?.[0]?.extensions.enrolment?.secret ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = await gql(user.address, null, logIn, { email: user.email, password: TEST_PASSWORD, otp: '000000' });
    expect(wrong.errors?.[0]?.extensions.code).toBe('INVALID_TWO_FACTOR_CODE');
    expect(await familiesOf(user.id)).toBe(0);
    const right = await gql(user.address, null, logIn, {
      email: user.email,
      password: TEST_PASSWORD,
      otp: totp(secret, Date.now()),
    });
    const payload = right.data?.logIn as { recovery_codes: string[]; user: Record<string, boolean> };
    expect(payload.recovery_codes).toHaveLength(10);
    expect(payload.user).toEqual({ twoFactorEnabled: true, twoFactorEnrolmentRequired: false });
  });

  it('refuses a user without the users permission (FORBIDDEN) and changes nothing', async () => {
    const user = await freshUser();
    const other = await freshUser();
    const token = await tokenOf(user);
    const answer = await gql(user.address, token, update, { user_id: other.id, two_factor_enrolment_required: true });
    expect(answer.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
    expect(await stateOf(other.id)).toMatchObject({ two_factor_enrolment_required: false });
  });
});

describe('remember me', () => {
  it('REST login and GraphQL logIn give the long refresh window only when remembered', async () => {
    const user = await freshUser();
    const { refreshWindow, refreshWindowShort } = loadConfig();
    expect(refreshWindowShort).toBeLessThan(refreshWindow);
    const rest = async (remember?: boolean) =>
      (
        await call('POST', '/api/auth/login', 'authLogin', {
          address: user.address,
          body: {
            email: user.email,
            password: TEST_PASSWORD,
            ip: null,
            ...(remember === undefined ? {} : { remember }),
          },
        })
      ).body.access_token as string;
    expect(refreshWindowOf(await rest(true))).toBe(refreshWindow);
    expect(refreshWindowOf(await rest(false))).toBe(refreshWindowShort);
    expect(refreshWindowOf(await rest())).toBe(refreshWindowShort);

    const graphql = async (remember?: boolean) =>
      (
        (await gql(user.address, null, logIn, { email: user.email, password: TEST_PASSWORD, remember })).data
          ?.logIn as {
          token: string;
        }
      ).token;
    expect(refreshWindowOf(await graphql(true))).toBe(refreshWindow);
    expect(refreshWindowOf(await graphql(false))).toBe(refreshWindowShort);
    expect(refreshWindowOf(await graphql())).toBe(refreshWindowShort);
  });
});
