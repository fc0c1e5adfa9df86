import { sql } from 'kysely';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { SEARCH_WALK_ROWS } from './repository';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';
import { totp } from '../auth/totp';

/**
 * The support desk's REST operations (contracts/openapi.yaml tag `support`, docs/support-desk.md) on
 * PGlite and PostgreSQL: who may use it (staff with `users`; who may act on whom; never one's own
 * account), the search across tenants without case or accents, the person's view, and each action with
 * its refusals (409 with the contract's `Conflict.error`, 404), its audit record and its effect on
 * sign-in. Every answer is checked against the contract. Racing identical actions on PostgreSQL: one
 * wins, the others are refused, never a 5xx.
 */
type Json = Record<string, unknown>;
type Person = {
  user: Json & { id: number; blocked: boolean; deletedAt: string | null };
  throttle: { throttled: boolean; retryAfter: number | null; failures: number };
  attempts: { reason: string | null; success: boolean | null }[];
  sessions: { id: string; device: string | null; address: string | null; remember: boolean }[];
  audit: { operation: string; target_id: number | null; changes: { field: string }[] }[];
  mustChangePassword: boolean;
  resetLinks: { enabled: boolean };
};

const MAX = 3;

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: the support desk', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let adminId = 0;
  let helper: { authorization: string };
  let customerAdmin: { authorization: string };
  let n = 0;
  const engine = postgres ? 'pg' : 'lite';

  /** A bearer header for a user, issued directly (this file is about the desk, not signing in). */
  const bearer = (user: { id: number }) => issuedBearer(t, user.id);

  beforeAll(async () => {
    cluster = postgres ? await startThrowawayPostgres() : undefined;
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { loginMaxFailures: MAX, loginWindowSeconds: 600 },
    });
    const adminUser = await createTestUser(t.db, {
      email: `desk-admin-${engine}@demo.local`,
      tenant: 'backoffice',
      role: ADMIN_ROLE,
    });
    adminId = adminUser.id;
    admin = await bearer(adminUser);
    // Staff holding `users` and nothing else: may use the desk, but not on a user holding more.
    await createTestRole(t.db, `desk-helper-${engine}`, ['users']);
    helper = await bearer(
      await createTestUser(t.db, {
        email: `desk-helper-${engine}@demo.local`,
        tenant: 'backoffice',
        role: `desk-helper-${engine}`,
      }),
    );
    // Users made straight in the database pass the tenant's limit, which a restore respects.
    await t.db.updateTable('tenants').set({ user_limit: 100_000 }).where('name', '=', 'farmacia-central').execute();
    await createTestRole(t.db, `desk-plain-${engine}`, []);
    customerAdmin = await bearer(
      await createTestUser(t.db, {
        email: `desk-customer-${engine}@demo.local`,
        tenant: 'farmacia-central',
        role: ADMIN_ROLE,
        originBackoffice: false,
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const fresh = async (options: { tenant?: string; name?: string; role?: string } = {}): Promise<TestUser> => {
    n += 1;
    return createTestUser(t.db, {
      email: `desk-${engine}-${n}@demo.local`,
      tenant: options.tenant ?? 'farmacia-central',
      role: options.role ?? OPERATOR_ROLE,
      ...(options.name ? { name: options.name } : {}),
    });
  };

  async function call(
    operationId: string,
    method: 'GET' | 'POST',
    url: string,
    options: { headers?: { authorization: string }; body?: unknown } = {},
  ) {
    const response = await t.app.fastify.inject({
      method,
      url,
      headers: options.headers ?? admin,
      ...(options.body === undefined ? {} : { payload: options.body as Json }),
    });
    const body = response.json<Json>();
    const check = validateResponse(operationId, response.statusCode, body);
    expect(check.errors, `${operationId} ${response.statusCode} ${response.body}`).toEqual([]);
    return { status: response.statusCode, body };
  }
  const search = (q: string, extra = '', headers = admin) =>
    call('supportSearch', 'GET', `/api/support/users?q=${encodeURIComponent(q)}${extra}`, { headers });
  const person = (id: number, headers = admin) => call('supportPerson', 'GET', `/api/support/users/${id}`, { headers });
  const act = (operationId: string, id: number, path: string, body: unknown = {}, headers = admin) =>
    call(operationId, 'POST', `/api/support/users/${id}/${path}`, { headers, body });
  const signIn = (email: string, password = TEST_PASSWORD, address = '10.70.0.1', userAgent = 'curl/8.11.0') =>
    t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: address,
      headers: { 'user-agent': userAgent },
      payload: { email, password, ip: null },
    });
  const viewOf = async (id: number) => {
    const answer = await person(id);
    expect(answer.status).toBe(200);
    return answer.body as unknown as Person;
  };

  describe('who may use it', () => {
    it('is for back-office staff with `users`: 401 without a token, 403 for a customer’s administrador', async () => {
      const target = await fresh();
      const anonymous = await t.app.fastify.inject({ method: 'GET', url: `/api/support/users?q=x` });
      expect(anonymous.statusCode).toBe(401);
      expect((await search('desk', '', customerAdmin)).status).toBe(403);
      expect((await person(target.id, customerAdmin)).status).toBe(403);
      expect((await act('supportBlock', target.id, 'block', { blocked: true }, customerAdmin)).status).toBe(403);
      expect((await search('desk', '', helper)).status).toBe(200);
    });

    it('follows who may act on whom (403 with a reason), never the caller’s own account (409 own_account), 404 for no user', async () => {
      const administrator = await fresh({ role: ADMIN_ROLE });
      const refused = await person(administrator.id, helper);
      expect(refused.status).toBe(403);
      expect(refused.body['reason']).toMatch(/administrador/);
      expect((await act('supportBlock', administrator.id, 'block', { blocked: true }, helper)).status).toBe(403);
      // A user holding what the helper holds is within its reach; one holding more is not.
      const plain = await fresh({ role: `desk-plain-${engine}` });
      expect((await person(plain.id, helper)).status).toBe(200);
      const operator = await fresh();
      expect((await person(operator.id, helper)).body['reason']).toMatch(/permissions you do not hold/);

      const own = await person(adminId);
      expect(own.status).toBe(409);
      expect(own.body).toMatchObject({ error: 'own_account' });
      expect((await act('supportLiftThrottle', adminId, 'lift-throttle')).body).toMatchObject({ error: 'own_account' });
      expect((await person(2_000_000_000)).status).toBe(404);
      expect((await act('supportRestore', 2_000_000_000, 'restore')).status).toBe(404);
    });

    it('validates input before state: a bad id, action or body is 400', async () => {
      const target = await fresh();
      expect((await person(0)).status).toBe(400);
      expect((await act('supportTwoFactor', target.id, 'two-factor', { action: 'disable' })).status).toBe(400);
      expect((await act('supportBlock', target.id, 'block', { blocked: 'yes' })).status).toBe(400);
      expect((await act('supportLiftThrottle', target.id, 'lift-throttle', { extra: 1 })).status).toBe(400);
      expect((await search('   ')).status).toBe(400);
      expect((await search('x', '&limit=51')).status).toBe(400);
    });
  });

  describe('search', () => {
    it('finds users of every tenant by part of e-mail, name or username, without case or accents', async () => {
      const tag = `${engine}${Date.now() % 100000}`;
      const jose = await fresh({ name: `José Ávila Conceição ${tag}` });
      const other = await fresh({ tenant: 'backoffice', name: `Maria Joséfa ${tag}` });
      const ids = async (q: string) => ((await search(q)).body['data'] as { id: number }[]).map((u) => u.id);
      expect(await ids(`jose avila conceicao ${tag}`)).toEqual([jose.id]);
      expect(await ids(`ÁVILA CONCEIÇÃO ${tag}`)).toEqual([jose.id]);
      expect(await ids(`${tag}`)).toEqual([jose.id, other.id]);
      expect(await ids(jose.email.slice(0, -4).toUpperCase())).toEqual([jose.id]);
      const username = (
        await t.db.selectFrom('users').select('username').where('id', '=', other.id).executeTakeFirstOrThrow()
      ).username;
      expect(await ids(username)).toEqual([other.id]);
      // LIKE's wildcards are plain characters here.
      expect(await ids(`${tag}%`)).toEqual([]);
      expect(await ids(`jos_ ${tag}`)).toEqual([]);
      expect(await ids(`nothing-like-this-${tag}`)).toEqual([]);
    });

    it(`a common text is found by walking users in the answer's order, a rarer one by the index: the same page as sorting every match`, async () => {
      const tag = `walk${engine}${Date.now() % 100000}`;
      const tenant = await t.db
        .selectFrom('tenants')
        .select('id')
        .where('name', '=', 'farmacia-central')
        .executeTakeFirstOrThrow();
      const role = await t.db
        .selectFrom('roles')
        .select('id')
        .where('name', '=', OPERATOR_ROLE)
        .executeTakeFirstOrThrow();
      // Names out of id order, one in seven deleted: the page is live users first, then by name.
      await t.db
        .insertInto('users')
        .values(
          Array.from({ length: SEARCH_WALK_ROWS + 50 }, (_, i) => ({
            tenant_id: tenant.id,
            role_id: role.id,
            name: `Walk ${tag} ${String((i * 7919) % 10007).padStart(5, '0')}`,
            username: `${tag}.${i}`,
            email: `${tag}.${i}@${i % 7 === 0 ? `gone-${tag}` : 'walk'}.local`,
            password_hash: 'not-a-hash',
            deleted_at: i % 7 === 0 ? new Date() : null,
            email_reserved: i % 7 === 0,
          })),
        )
        .execute();
      const expected = await t.db
        .selectFrom('users')
        .select('id')
        .where('username', 'like', `${tag}.%`)
        .orderBy(sql`deleted_at is not null`)
        .orderBy('name')
        .orderBy('id')
        .limit(20)
        .execute();
      const data = (await search(tag.toUpperCase())).body['data'] as { id: number }[];
      expect(data.map((u) => u.id)).toEqual(expected.map((r) => r.id));
      // Only deleted ones match: none among the first users in the answer's order, so the index finds them.
      const gone = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', 'like', `%@gone-${tag}.local`)
        .orderBy('name')
        .orderBy('id')
        .limit(20)
        .execute();
      const found = (await search(`@GONE-${tag}`)).body['data'] as { id: number; deletedAt: string | null }[];
      expect(found.map((u) => u.id)).toEqual(gone.map((r) => r.id));
      expect(found.every((u) => u.deletedAt !== null)).toBe(true);
    });

    it('lists live users first, then by name, with what the desk needs; deleted ones too; `limit` caps it', async () => {
      const tag = `order${engine}${Date.now() % 100000}`;
      const zeca = await fresh({ name: `Zeca ${tag}` });
      const ana = await fresh({ name: `Ana ${tag}` });
      const bia = await fresh({ name: `Bia ${tag}` });
      await t.db
        .updateTable('users')
        .set({ deleted_at: new Date(), email_reserved: true })
        .where('id', '=', ana.id)
        .execute();
      const answer = await search(tag);
      const data = answer.body['data'] as { id: number; deletedAt: string | null; tenantName: string }[];
      expect(data.map((u) => u.id)).toEqual([bia.id, zeca.id, ana.id]);
      expect(data[2]?.deletedAt).not.toBeNull();
      expect(data[0]).toMatchObject({ tenantName: 'farmacia-central', tenantDeleted: false, lastSignInAt: null });
      expect(answer.body['limit']).toBe(20);
      const capped = await search(tag, '&limit=2');
      expect((capped.body['data'] as unknown[]).length).toBe(2);
      expect(capped.body['limit']).toBe(2);
    });
  });

  describe('the person and its actions', () => {
    it('shows why sign-ins fail and lifts the throttle once (409 not_throttled after), recorded', async () => {
      const target = await fresh();
      for (let i = 0; i < MAX; i += 1) expect((await signIn(target.email, `wrong-${i}`)).statusCode).toBe(401);
      expect((await signIn(target.email)).statusCode).toBe(429);
      const before = await viewOf(target.id);
      expect(before.throttle).toMatchObject({ throttled: true, failures: MAX });
      expect(before.throttle.retryAfter).toBeGreaterThan(0);
      expect(before.attempts.map((a) => a.reason)).toEqual(['throttled', ...Array(MAX).fill('wrong_password')]);
      expect(before.mustChangePassword).toBe(false);
      // Development without SMTP_URL: the local mailbox takes the mail (server/src/mail/mailer.ts).
      expect(before.resetLinks).toEqual({ enabled: true });

      const lifted = await act('supportLiftThrottle', target.id, 'lift-throttle');
      expect(lifted.status).toBe(200);
      const after = lifted.body as unknown as Person;
      expect(after.throttle).toEqual({ throttled: false, retryAfter: null, failures: 0 });
      expect(after.audit[0]).toMatchObject({ operation: 'user.throttle-lift', target_id: target.id });
      expect((await act('supportLiftThrottle', target.id, 'lift-throttle')).body).toMatchObject({
        error: 'not_throttled',
      });
      expect((await signIn(target.email)).statusCode).toBe(200);
    });

    it('lists live sessions with a device label, ends one (404 for one not live), then all (409 already after)', async () => {
      const target = await fresh();
      const chrome =
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
      const first = await signIn(target.email, TEST_PASSWORD, '10.70.1.1', chrome);
      const second = await signIn(target.email, TEST_PASSWORD, '10.70.1.2');
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      const sessions = (await viewOf(target.id)).sessions;
      expect(sessions.map((s) => [s.device, s.address]).sort()).toEqual([
        ['Chrome 131 · Windows', '10.70.1.1'],
        ['curl/8.11.0', '10.70.1.2'],
      ]);
      const chromeSession = sessions.find((s) => s.address === '10.70.1.1');
      const ended = await act('supportEndSessions', target.id, 'sessions/end', { session_id: chromeSession?.id });
      expect(ended.status).toBe(200);
      expect((ended.body as unknown as Person).sessions.map((s) => s.address)).toEqual(['10.70.1.2']);
      expect((ended.body as unknown as Person).audit[0]).toMatchObject({ operation: 'user.session-end' });
      const userInfo = (token: string) =>
        t.app.fastify.inject({
          method: 'GET',
          url: '/api/auth/userInfo',
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await userInfo(first.json<{ access_token: string }>().access_token)).statusCode).toBe(401);
      expect((await userInfo(second.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
      const again = await act('supportEndSessions', target.id, 'sessions/end', { session_id: chromeSession?.id });
      expect(again.status).toBe(404);
      const all = await act('supportEndSessions', target.id, 'sessions/end', {});
      expect(all.status).toBe(200);
      expect((all.body as unknown as Person).sessions).toEqual([]);
      expect((all.body as unknown as Person).audit[0]).toMatchObject({ operation: 'user.disconnect' });
      expect((await userInfo(second.json<{ access_token: string }>().access_token)).statusCode).toBe(401);
      expect((await act('supportEndSessions', target.id, 'sessions/end', {})).body).toMatchObject({ error: 'already' });
    });

    it('requires, withdraws and resets two-factor; 409 already when nothing would change', async () => {
      const target = await fresh();
      const required = await act('supportTwoFactor', target.id, 'two-factor', { action: 'require' });
      expect(required.status).toBe(200);
      expect((required.body as unknown as Person).user).toMatchObject({ twoFactorEnrolmentRequired: true });
      expect((await act('supportTwoFactor', target.id, 'two-factor', { action: 'require' })).body).toMatchObject({
        error: 'already',
      });
      const withdrawn = await act('supportTwoFactor', target.id, 'two-factor', { action: 'unrequire' });
      expect((withdrawn.body as unknown as Person).user).toMatchObject({ twoFactorEnrolmentRequired: false });
      expect((await act('supportTwoFactor', target.id, 'two-factor', { action: 'unrequire' })).body).toMatchObject({
        error: 'already',
      });
      expect((await act('supportTwoFactor', target.id, 'two-factor', { action: 'reset' })).body).toMatchObject({
        error: 'already',
      });
      // Enrolled through the sign-in's enrolment, then reset: signing in asks for no code again.
      await act('supportTwoFactor', target.id, 'two-factor', { action: 'require' });
      const enrol = await signIn(target.email, TEST_PASSWORD, '10.70.2.1');
      const secret = enrol.json<{ enrolment: { secret: string } }>().enrolment.secret;
      const enrolled = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.70.2.1',
        payload: { email: target.email, password: TEST_PASSWORD, ip: null, otp: totp(secret, Date.now()) },
      });
      expect(enrolled.statusCode, enrolled.body).toBe(200);
      expect((await act('supportTwoFactor', target.id, 'two-factor', { action: 'require' })).body).toMatchObject({
        error: 'already',
      });
      const reset = await act('supportTwoFactor', target.id, 'two-factor', { action: 'reset' });
      expect((reset.body as unknown as Person).user).toMatchObject({ twoFactorEnabled: false });
      expect((reset.body as unknown as Person).sessions).toEqual([]);
      expect((reset.body as unknown as Person).audit[0]).toMatchObject({ operation: 'user.two-factor' });
      expect((await signIn(target.email, TEST_PASSWORD, '10.70.2.1')).statusCode).toBe(200);
    });

    it('blocks (ending every session) and unblocks; 409 already when so', async () => {
      const target = await fresh();
      expect((await signIn(target.email, TEST_PASSWORD, '10.70.3.1')).statusCode).toBe(200);
      const blocked = await act('supportBlock', target.id, 'block', { blocked: true });
      expect(blocked.status).toBe(200);
      const view = blocked.body as unknown as Person;
      expect(view.user.blocked).toBe(true);
      expect(view.sessions).toEqual([]);
      expect(view.audit[0]).toMatchObject({ operation: 'user.block' });
      expect((await act('supportBlock', target.id, 'block', { blocked: true })).body).toMatchObject({
        error: 'already',
      });
      expect((await signIn(target.email, TEST_PASSWORD, '10.70.3.1')).statusCode).toBe(401);
      expect((await viewOf(target.id)).attempts[0]?.reason).toBe('blocked');
      const unblocked = await act('supportBlock', target.id, 'block', { blocked: false });
      expect((unblocked.body as unknown as Person).audit[0]).toMatchObject({ operation: 'user.unblock' });
      expect((await signIn(target.email, TEST_PASSWORD, '10.70.3.1')).statusCode).toBe(200);
    });

    it('restores a deleted user, refusing while deleted for every other action and each conflict of the doc', async () => {
      const target = await fresh();
      expect(
        (await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${target.id}`, headers: admin })).statusCode,
      ).toBe(200);
      const deleted = await viewOf(target.id);
      expect(deleted.user.deletedAt).not.toBeNull();
      for (const [operationId, path, body] of [
        ['supportBlock', 'block', { blocked: true }],
        ['supportTwoFactor', 'two-factor', { action: 'require' }],
        ['supportEndSessions', 'sessions/end', {}],
        ['supportLiftThrottle', 'lift-throttle', {}],
      ] as const)
        expect((await act(operationId, target.id, path, body)).body, operationId).toMatchObject({ error: 'deleted' });

      const restored = await act('supportRestore', target.id, 'restore');
      expect(restored.status).toBe(200);
      expect((restored.body as unknown as Person).user.deletedAt).toBeNull();
      expect((restored.body as unknown as Person).audit[0]).toMatchObject({ operation: 'user.restore' });
      expect((await signIn(target.email, TEST_PASSWORD, '10.70.4.1')).statusCode).toBe(200);
      expect((await act('supportRestore', target.id, 'restore')).body).toMatchObject({ error: 'not_deleted' });

      // A legacy deleted user (not reserved) whose e-mail another user now holds.
      const legacy = await fresh();
      await t.db
        .updateTable('users')
        .set({ deleted_at: new Date(), email_reserved: false })
        .where('id', '=', legacy.id)
        .execute();
      await createTestUser(t.db, { email: legacy.email, tenant: 'backoffice' });
      expect((await act('supportRestore', legacy.id, 'restore')).body).toMatchObject({
        error: 'email_taken',
        field: 'email',
      });

      // Its username given to another user of the tenant meanwhile.
      const renamed = await fresh();
      const { username } = await t.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', renamed.id)
        .executeTakeFirstOrThrow();
      await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${renamed.id}`, headers: admin });
      await t.db
        .updateTable('users')
        .set({ username: username.toUpperCase() })
        .where('id', '=', (await fresh()).id)
        .execute();
      expect((await act('supportRestore', renamed.id, 'restore')).body).toMatchObject({
        error: 'username_taken',
        field: 'username',
      });

      // A user of a deleted tenant.
      const deletedTenant = (
        await t.db.selectFrom('tenants').select('name').where('deleted_at', 'is not', null).executeTakeFirstOrThrow()
      ).name;
      const closed = await fresh({ tenant: deletedTenant });
      await t.db
        .updateTable('users')
        .set({ deleted_at: new Date(), email_reserved: true })
        .where('id', '=', closed.id)
        .execute();
      expect((await act('supportRestore', closed.id, 'restore')).body).toMatchObject({ error: 'tenant_deleted' });
    });

    it('restores only within the tenant’s user limit (409 user_limit_reached)', async () => {
      const target = await fresh();
      await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${target.id}`, headers: admin });
      const tenant = await t.db
        .selectFrom('tenants')
        .select(['id', 'user_limit'])
        .where('name', '=', 'farmacia-central')
        .executeTakeFirstOrThrow();
      const live = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenant.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable('tenants')
        .set({ user_limit: Number(live.n) })
        .where('id', '=', tenant.id)
        .execute();
      try {
        expect((await act('supportRestore', target.id, 'restore')).body).toMatchObject({ error: 'user_limit_reached' });
      } finally {
        await t.db.updateTable('tenants').set({ user_limit: tenant.user_limit }).where('id', '=', tenant.id).execute();
      }
      expect((await act('supportRestore', target.id, 'restore')).status).toBe(200);
    });
  });

  // Concurrency on PostgreSQL only: PGlite has one connection, so nothing there runs at once.
  if (postgres)
    describe('racing identical actions (PostgreSQL, a real pool)', () => {
      const N = 8;
      const tally = (statuses: number[]) =>
        statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

      it.each([
        ['restores', 'supportRestore', 'restore', {}, true],
        ['blocks', 'supportBlock', 'block', { blocked: true }, false],
        ['lifts of the throttle', 'supportLiftThrottle', 'lift-throttle', {}, false],
        ['ends of every session', 'supportEndSessions', 'sessions/end', {}, false],
        ['two-factor requirements', 'supportTwoFactor', 'two-factor', { action: 'require' }, false],
      ] as const)(
        `${N} identical %s at once: one wins, the others are 409, never a 5xx`,
        async (_n, operationId, path, body, deleted) => {
          const target = await fresh();
          if (deleted) await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${target.id}`, headers: admin });
          if (operationId === 'supportLiftThrottle')
            for (let i = 0; i < MAX; i += 1) await signIn(target.email, `wrong-${i}`, '10.70.9.1');
          if (operationId === 'supportEndSessions') await signIn(target.email, TEST_PASSWORD, '10.70.9.2');
          const answers = await Promise.all(Array.from({ length: N }, () => act(operationId, target.id, path, body)));
          expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 409: N - 1 });
          const records = await t.db
            .selectFrom('audit_log')
            .select('operation')
            .where('target_type', '=', 'user')
            .where('target_id', '=', target.id)
            .where('operation', '!=', 'user.delete')
            .execute();
          expect(records).toHaveLength(1);
        },
      );
    });
});
