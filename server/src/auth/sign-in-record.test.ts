import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';
import { loginFailuresQuery } from '../reports/sheets';
import { totp } from './totp';
import { loadConfig } from '../base/config';

/**
 * What a sign-in leaves for the support desk (docs/support-desk.md, Data), through REST and GraphQL
 * alike, on PGlite and PostgreSQL: every attempt's reason, the last sign-in of the user, the session's
 * user agent, address, remember-me and refresh window; the throttle counts only failures of the
 * credentials that were not lifted, records its own refusals without counting them, and the
 * login-failure report shows what it showed before reasons were recorded.
 */
const MAX = 3;
const WINDOW = 600;

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: what a sign-in records', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let n = 0;
  const engine = postgres ? 'pg' : 'lite';
  let otherTenant = '';
  let deletedTenant = '';

  beforeAll(async () => {
    cluster = postgres ? await startThrowawayPostgres() : undefined;
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { loginMaxFailures: MAX, loginWindowSeconds: WINDOW },
    });
    const tenants = await t.db
      .selectFrom('tenants')
      .select(['name', 'deleted_at'])
      .where('name', '!=', 'backoffice')
      .orderBy('id')
      .execute();
    otherTenant = tenants.find((x) => x.deleted_at === null && x.name !== 'farmacia-central')?.name ?? '';
    deletedTenant = tenants.find((x) => x.deleted_at !== null)?.name ?? '';
    expect(otherTenant).not.toBe('');
    expect(deletedTenant).not.toBe('');
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const fresh = async (tenant = 'farmacia-central'): Promise<TestUser & { address: string }> => {
    n += 1;
    const user = await createTestUser(t.db, { email: `record-${engine}-${n}@demo.local`, tenant });
    return { ...user, address: `10.61.${postgres ? 1 : 0}.${n}` };
  };

  type Sent = { email: string; password?: string; otp?: string; remember?: boolean; address: string };
  const rest = (s: Sent, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0') =>
    t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: s.address,
      headers: { 'user-agent': userAgent },
      payload: {
        email: s.email,
        password: s.password ?? TEST_PASSWORD,
        ip: null,
        ...(s.otp ? { otp: s.otp } : {}),
        ...(s.remember ? { remember: true } : {}),
      },
    });
  const graphql = (tenant: string, s: Sent, userAgent = 'Mozilla/5.0 (Macintosh) Safari/605.1.15') =>
    t.app.fastify.inject({
      method: 'POST',
      url: `/${tenant}/graphql`,
      remoteAddress: s.address,
      headers: { 'user-agent': userAgent, 'content-type': 'application/json' },
      payload: {
        query:
          'mutation($email: String!, $password: String!, $otp: String, $remember: Boolean) { logIn(email: $email, password: $password, otp: $otp, remember: $remember) { token } }',
        variables: {
          email: s.email,
          password: s.password ?? TEST_PASSWORD,
          otp: s.otp ?? null,
          remember: s.remember === true,
        },
      },
    });
  const attemptsOf = (email: string) =>
    t.db
      .selectFrom('login_attempts')
      .select(['id', 'success', 'reason', 'remote_address', 'user_id', 'throttle_counted'])
      .where('email', '=', email)
      .orderBy('id')
      .execute();
  const lastReason = async (email: string) => (await attemptsOf(email)).at(-1)?.reason;

  it('records why each attempt failed, the same through REST and GraphQL', async () => {
    const user = await fresh();
    const nobody = `nobody-${engine}@demo.local`;
    for (const send of [rest, (s: Sent) => graphql('farmacia-central', s)]) {
      await send({ email: nobody, address: user.address });
      expect(await lastReason(nobody)).toBe('unknown_account');
      await send({ email: user.email, password: 'wrong-Pass#1', address: user.address });
      expect(await lastReason(user.email)).toBe('wrong_password');
    }
    // Reset the counts so the rest of the test is not throttled.
    await t.db.deleteFrom('login_attempts').where('email', '=', user.email).execute();

    await t.db.updateTable('users').set({ blocked: true }).where('id', '=', user.id).execute();
    for (const send of [rest, (s: Sent) => graphql('farmacia-central', s)]) {
      await send({ email: user.email, address: user.address });
      expect(await lastReason(user.email)).toBe('blocked');
      // A wrong password of a blocked user is a wrong password: the record tells nothing a guess could not.
      await send({ email: user.email, password: 'wrong-Pass#2', address: user.address });
      expect(await lastReason(user.email)).toBe('wrong_password');
      await t.db.deleteFrom('login_attempts').where('email', '=', user.email).execute();
    }
    await t.db.updateTable('users').set({ blocked: false }).where('id', '=', user.id).execute();

    // The right password on another tenant's path (GraphQL only: REST has no tenant path).
    expect((await graphql(otherTenant, { email: user.email, address: user.address })).statusCode).toBe(200);
    expect(await lastReason(user.email)).toBe('other_tenant');
  });

  it('records a closed tenant and the steps of two-factor, none of them counted by the throttle', async () => {
    const closed = await fresh(deletedTenant);
    for (let i = 0; i <= MAX; i += 1) {
      expect((await rest({ email: closed.email, address: closed.address })).json()).toMatchObject({
        error: 'tenant_deleted',
      });
    }
    const rows = await attemptsOf(closed.email);
    expect(rows.map((r) => [r.reason, r.throttle_counted])).toEqual(
      Array.from({ length: MAX + 1 }, () => ['tenant_deleted', false]),
    );

    const enrolling = await fresh();
    await t.db
      .updateTable('users')
      .set({ two_factor_enrolment_required: true })
      .where('id', '=', enrolling.id)
      .execute();
    const first = await rest({ email: enrolling.email, address: enrolling.address });
    expect(first.json()).toMatchObject({ error: 'two_factor_enrolment_required' });
    expect(await lastReason(enrolling.email)).toBe('two_factor_enrolment_required');
    const secret = (first.json() as { enrolment: { secret: string } }).enrolment.secret;
    expect(
      (await rest({ email: enrolling.email, otp: totp(secret, Date.now()), address: enrolling.address })).statusCode,
    ).toBe(200);
    for (let i = 0; i <= MAX; i += 1) {
      expect(
        (await graphql('farmacia-central', { email: enrolling.email, address: enrolling.address })).json(),
      ).toMatchObject({
        errors: [{ extensions: { code: 'TWO_FACTOR_REQUIRED' } }],
      });
    }
    expect(await lastReason(enrolling.email)).toBe('two_factor_required');
    await rest({ email: enrolling.email, otp: '000000', address: enrolling.address });
    expect(await lastReason(enrolling.email)).toBe('invalid_two_factor_code');
    const enrolled = await attemptsOf(enrolling.email);
    expect(enrolled.filter((r) => r.throttle_counted).map((r) => r.reason)).toEqual(['invalid_two_factor_code']);
    expect(
      (await rest({ email: enrolling.email, otp: totp(secret, Date.now() + 30_000), address: enrolling.address }))
        .statusCode,
    ).toBe(200);
  });

  it('records a refused sign-in as throttled without counting it; lifted failures no longer count', async () => {
    const user = await fresh();
    for (let i = 0; i < MAX; i += 1)
      expect((await rest({ email: user.email, password: `wrong-${i}`, address: user.address })).statusCode).toBe(401);
    for (let i = 0; i < 3; i += 1) {
      expect((await rest({ email: user.email, address: user.address })).statusCode).toBe(429);
      expect((await graphql('farmacia-central', { email: user.email, address: user.address })).json()).toMatchObject({
        errors: [{ extensions: { code: 'TOO_MANY_REQUESTS' } }],
      });
    }
    const rows = await attemptsOf(user.email);
    expect(rows.map((r) => [r.reason, r.throttle_counted, r.success])).toEqual([
      ...Array.from({ length: MAX }, () => ['wrong_password', true, false]),
      ...Array.from({ length: 6 }, () => ['throttled', false, false]),
    ]);
    await t.db
      .updateTable('login_attempts')
      .set({ lifted_at: sql<Date>`now()` })
      .where('email', '=', user.email)
      .where('throttle_counted', '=', true)
      .execute();
    expect((await rest({ email: user.email, address: user.address })).statusCode).toBe(200);
    const last = (await attemptsOf(user.email)).at(-1);
    expect(last).toMatchObject({ success: true, reason: null, user_id: user.id });
  });

  it('stamps the last sign-in and keeps what the sign-in said with its session', async () => {
    const user = await fresh();
    const before = await t.db
      .selectFrom('users')
      .select('last_sign_in_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(before.last_sign_in_at).toBeNull();
    const started = Date.now();
    expect((await rest({ email: user.email, address: user.address, remember: true }, 'Agent/REST')).statusCode).toBe(
      200,
    );
    expect(
      (await graphql('farmacia-central', { email: user.email, address: '10.62.0.9' }, 'Agent/GraphQL')).statusCode,
    ).toBe(200);
    const after = await t.db
      .selectFrom('users')
      .select('last_sign_in_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.last_sign_in_at?.getTime()).toBeGreaterThanOrEqual(started - 1000);
    const sessions = await t.db
      .selectFrom('token_families')
      .select(['user_agent', 'address', 'remember', 'refresh_until', 'created_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    expect(sessions.map((s) => [s.user_agent, s.address, s.remember])).toEqual([
      ['Agent/REST', user.address, true],
      ['Agent/GraphQL', '10.62.0.9', false],
    ]);
    const [remembered, short] = sessions;
    const config = loadConfig({ databaseUrl: 'pglite://memory' });
    const span = (s: typeof remembered) => ((s?.refresh_until?.getTime() ?? 0) - (s?.created_at.getTime() ?? 0)) / 1000;
    expect(Math.abs(span(remembered) - config.refreshWindow)).toBeLessThanOrEqual(2);
    expect(Math.abs(span(short) - Math.min(config.refreshWindowShort, config.refreshWindow))).toBeLessThanOrEqual(2);
  });

  it('keeps the login-failure report as it was: sign-in steps and refusals are not failed sign-ins', async () => {
    const user = await fresh();
    await t.db.updateTable('users').set({ two_factor_enrolment_required: true }).where('id', '=', user.id).execute();
    await rest({ email: user.email, address: user.address });
    await rest({ email: user.email, password: 'wrong-Pass#1', address: user.address });
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
    const reported = await loginFailuresQuery(t.db, null, { start: today, finish: today, days: 1 }, [
      user.id,
    ]).execute();
    const recorded = await attemptsOf(user.email);
    expect(recorded.map((r) => r.reason)).toEqual(['two_factor_enrolment_required', 'wrong_password']);
    expect(reported.map((r) => r.id)).toEqual([recorded[1]?.id]);
  });
});
