import { totp } from './totp';
import { totpSecretCipherOf } from './totp-secrets';
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

/**
 * TOTP two-factor (docs/product.md, Two-factor sign-in). Enrol (secret, otpauth URI, server-made SVG QR), verify (turns it on,
 * 10 recovery codes shown once and stored hashed), login asks for the code (REST 401 two_factor_required,
 * GraphQL TWO_FACTOR_REQUIRED), codes are single-use, wrong codes are failed sign-ins (429), disable needs
 * a code, an administrator's PATCH resets, turning it on without enrolment is a 409. Every answer is
 * checked against the contract.
 */
useTwoFactorApp();

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

    const stored = await tf.t.db
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
    const row = await tf.t.db
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
    expect(totpSecretCipherOf(tf.t.db).decrypt(user.id, 'two_factor_secret', row.two_factor_secret ?? '')).toBe(secret);

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
    const row = await tf.t.db
      .selectFrom('users')
      .select(['two_factor_secret'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.two_factor_secret).toBeNull();
    expect(
      await tf.t.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
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
      two_factor_enrolment_required: false,
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
    expect(reset.body).toEqual({ user_id: user.id, two_factor_enabled: false, two_factor_enrolment_required: false });
    // Reset by someone else: every session of the user ended (docs/security.md, Credentials and sessions).
    expect((await call('GET', '/api/two-factor', 'twoFactorStatus', { token: userToken })).body).toEqual({
      status: 'Unauthorized',
    });
    const signedIn = await login(user);
    expect(signedIn.status).toBe(200);
    expect(
      await tf.t.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    // Re-enrolling works after a reset, in the session it signed in with since.
    await enable(signedIn.body.access_token as string);
    expect((await login(user)).body.error).toBe('two_factor_required');
  });

  it('the database refuses two-factor on without an enrolled secret', async () => {
    const user = await freshUser();
    await expect(
      tf.t.db.updateTable('users').set({ two_factor_enabled: true }).where('id', '=', user.id).execute(),
    ).rejects.toThrow(/users_two_factor_enrolled/);
  });
});
