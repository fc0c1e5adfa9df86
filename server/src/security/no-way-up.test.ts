import type { Kysely } from 'kysely';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import type { Database } from '../db/schema';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser, TEST_PASSWORD } from '../test-support/users';

/**
 * No way up, and the provider's decisions stay the provider's (docs/security.md, Who may do what): the
 * requests an attacker sent against `npm start`, each refused with the contract's status and a reason,
 * changing nothing, through REST and GraphQL alike, on PGlite and PostgreSQL.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let db: Kysely<Database>;
  type Person = 'manager' | 'peer' | 'operador' | 'admin' | 'editor' | 'customer' | 'clerk';
  const role = {} as Record<'administrador' | 'operador' | 'usersOnly' | 'editor' | 'target', number>;
  const user = {} as Record<Person, number>;
  const bearer = {} as Record<Person, { authorization: string }>;

  async function signIn(email: string): Promise<{ authorization: string }> {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD, ip: null },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
  }

  /** The contract's whole-object form of `PUT /api/users/{id}` (UserUpdate): the user as stored, with `change`. */
  async function whole(id: number, change: Record<string, unknown>) {
    const row = await db
      .selectFrom('users')
      .select(['username', 'name', 'email', 'role_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { ...row, ...change };
  }

  const roleOf = async (id: number) =>
    (await db.selectFrom('users').select('role_id').where('id', '=', id).executeTakeFirstOrThrow()).role_id;

  const rest = (
    who: Person,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => t.app.fastify.inject({ method, url, headers: bearer[who], ...(payload ? { payload } : {}) });

  const graphql = (who: Person, query: string, tenant = 'backoffice') =>
    t.app.fastify.inject({ method: 'POST', url: `/${tenant}/graphql`, headers: bearer[who], payload: { query } });

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({
      seed: { days: 1 },
      config: { loginMaxFailures: 1_000_000 },
      ...(cluster ? { databaseUrl: cluster.url } : {}),
    });
    db = t.db;
    for (const name of [ADMIN_ROLE, OPERATOR_ROLE] as const)
      role[name] = (await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    role.usersOnly = await createTestRole(db, 'gestor_usuarios', ['users']);
    role.editor = await createTestRole(db, 'editor_perfis', ['roles-list', 'roles-edit']);
    role.target = await createTestRole(db, 'perfil_alvo', ['dashboard-analytics']);
    await db
      .insertInto('tenants')
      .values({
        name: 'farmacia-fechada',
        cnpj: '11.444.777/0001-61',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 10,
      })
      .execute();
    const people: [Person, string, string][] = [
      ['manager', 'backoffice', 'gestor_usuarios'],
      ['peer', 'backoffice', 'gestor_usuarios'],
      ['operador', 'backoffice', OPERATOR_ROLE],
      ['admin', 'backoffice', ADMIN_ROLE],
      ['editor', 'backoffice', 'editor_perfis'],
      ['customer', 'farmacia-fechada', ADMIN_ROLE],
      ['clerk', 'farmacia-fechada', OPERATOR_ROLE],
    ];
    for (const [key, tenant, roleName] of people) {
      user[key] = (await createTestUser(db, { email: `nwu-${key}@demo.local`, tenant, role: roleName })).id;
      bearer[key] = await signIn(`nwu-${key}@demo.local`);
    }
  });

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  describe('a user holding only `users`', () => {
    it('cannot make itself administrador (REST), nor through GraphQL: 403, nothing changes', async () => {
      const own = await rest(
        'manager',
        'PUT',
        `/api/users/${user.manager}`,
        await whole(user.manager, { role_id: role[ADMIN_ROLE] }),
      );
      expect(own.statusCode, own.body).toBe(403);
      expect(own.json()).toMatchObject({ message: 'Forbidden', reason: expect.stringMatching(/own role/) });
      const viaGraphql = await graphql(
        'manager',
        `mutation { updateUser(id: ${user.manager}, role_id: ${role[ADMIN_ROLE]}) { id } }`,
      );
      expect(viaGraphql.statusCode, viaGraphql.body).toBe(403);
      expect(viaGraphql.json().errors[0].extensions.code).toBe('FORBIDDEN');
      expect(await roleOf(user.manager)).toBe(role.usersOnly);
      const info = await rest('manager', 'GET', '/api/auth/userInfo');
      expect(info.json<{ has_permission_routes: string[] }>().has_permission_routes).toEqual(['users']);
    });

    it('16 attempts at once to promote itself: all 403, no 5xx, its role unchanged', async () => {
      const body = await whole(user.manager, { role_id: role[ADMIN_ROLE] });
      const answers = await Promise.all(
        Array.from({ length: 16 }, () => rest('manager', 'PUT', `/api/users/${user.manager}`, body)),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual(Array(16).fill(403));
      expect(await roleOf(user.manager)).toBe(role.usersOnly);
    });

    it('cannot give administrador, nor a role holding a permission it lacks, to anyone', async () => {
      const promote = await rest(
        'manager',
        'PUT',
        `/api/users/${user.peer}`,
        await whole(user.peer, { role_id: role[ADMIN_ROLE] }),
      );
      expect(promote.statusCode, promote.body).toBe(403);
      expect(promote.json().reason).toMatch(/only an administrador/);
      const wider = await rest(
        'manager',
        'PUT',
        `/api/users/${user.peer}`,
        await whole(user.peer, { role_id: role.target }),
      );
      expect(wider.statusCode, wider.body).toBe(403);
      expect(wider.json().reason).toBe('the role grants permissions you do not hold: dashboard-analytics');
      expect(await roleOf(user.peer)).toBe(role.usersOnly);
      const created = await rest('manager', 'POST', '/api/users', {
        username: 'nwu-made-admin',
        name: 'Made Admin',
        email: 'nwu-made-admin@demo.local',
        password: 'Made#Admin-Pass9',
        role_id: role[ADMIN_ROLE],
      });
      expect(created.statusCode, created.body).toBe(403);
      const viaGraphql = await graphql(
        'manager',
        `mutation { newUser(username: "nwu.gql", name: "G", email: "nwu-gql@demo.local", password: "Made#Admin-Pass9", role_id: ${role.operador}) { id } }`,
      );
      expect(viaGraphql.statusCode, viaGraphql.body).toBe(403);
      expect(viaGraphql.json().errors[0]).toMatchObject({
        message: expect.stringMatching(/permissions you do not hold: dashboard-analytics/),
        extensions: { code: 'FORBIDDEN' },
      });
      expect(await db.selectFrom('users').select('id').where('email', 'like', 'nwu-made-admin%').execute()).toEqual([]);
      expect(await db.selectFrom('users').select('id').where('email', '=', 'nwu-gql@demo.local').execute()).toEqual([]);
      // A role within its own permissions it may give.
      const peerish = await rest('manager', 'POST', '/api/users', {
        username: 'nwu-peerish',
        name: 'Peerish',
        email: 'nwu-peerish@demo.local',
        password: 'Made#Admin-Pass9',
        role_id: role.usersOnly,
      });
      expect(peerish.statusCode, peerish.body).toBe(201);
    });

    it('cannot reset the password, two-factor, block, delete or disconnect a more privileged user', async () => {
      const attempts = [
        await rest(
          'manager',
          'PUT',
          `/api/users/${user.admin}`,
          await whole(user.admin, { password: 'Reset#By-Manager9' }),
        ),
        await rest('manager', 'PATCH', `/api/user-settings/${user.admin}`, { two_factor_enabled: false }),
        await rest('manager', 'PATCH', `/api/user-settings/${user.operador}`, { two_factor_enrolment_required: true }),
        await rest('manager', 'PATCH', `/api/users/${user.admin}`, { blocked: true }),
        await rest('manager', 'DELETE', `/api/users/${user.operador}`),
        await rest('manager', 'PUT', `/api/users/${user.admin}`, { email: 'taken-over@demo.local' }),
        await rest(
          'manager',
          'PUT',
          `/api/users/${user.operador}`,
          await whole(user.operador, { password: 'Reset#By-Manager9' }),
        ),
      ];
      for (const answer of attempts) expect(answer.statusCode, answer.body).toBe(403);
      const viaGraphql = await graphql('manager', `mutation { disconnectUser(user_id: ${user.admin}) }`);
      expect(viaGraphql.json().errors[0].extensions.code).toBe('FORBIDDEN');
      const admin = await db
        .selectFrom('users')
        .select(['email', 'blocked', 'deleted_at', 'token_version'])
        .where('id', '=', user.admin)
        .executeTakeFirstOrThrow();
      expect(admin).toMatchObject({
        email: 'nwu-admin@demo.local',
        blocked: false,
        deleted_at: null,
        token_version: 0,
      });
      // The admin's session still works: nothing was revoked.
      expect((await rest('admin', 'GET', '/api/auth/userInfo')).statusCode).toBe(200);
      // A user holding no more than it holds, it may act on.
      const peer = await rest('manager', 'PATCH', `/api/users/${user.peer}`, { blocked: true });
      expect(peer.statusCode, peer.body).toBe(200);
      await rest('admin', 'PATCH', `/api/users/${user.peer}`, { blocked: false });
    });
  });

  describe('a role editor (`roles-edit`)', () => {
    it("cannot change its own role, nor add or remove on another's a permission it lacks", async () => {
      const own = await rest('editor', 'POST', '/api/permission/update', {
        roleId: role.editor,
        permissions: ['roles-list', 'roles-edit', 'users', 'tenants'],
      });
      expect(own.statusCode, own.body).toBe(403);
      expect(own.json().reason).toMatch(/own role/);
      const lacking = await rest('editor', 'POST', '/api/permission/update', {
        roleId: role.target,
        permissions: ['dashboard-analytics', 'users'],
      });
      expect(lacking.statusCode, lacking.body).toBe(403);
      expect(lacking.json()).toMatchObject({
        reason: 'you cannot give or take away permissions you do not hold: users',
      });
      const info = await rest('editor', 'GET', '/api/auth/userInfo');
      expect(info.json<{ has_permission_routes: string[] }>().has_permission_routes).toEqual([
        'roles-edit',
        'roles-list',
      ]);
      // What it holds it may add and take away; what it lacks stays as it is.
      const held = await rest('editor', 'POST', '/api/permission/update', {
        roleId: role.target,
        permissions: ['dashboard-analytics', 'roles-list'],
      });
      expect(held.statusCode, held.body).toBe(200);
      const removedHeld = await rest('editor', 'POST', '/api/permission/update', {
        roleId: role.target,
        permissions: ['dashboard-analytics'],
      });
      expect(removedHeld.statusCode, removedHeld.body).toBe(200);
      // Stripping what it lacks would bring the role's holders within its reach (actOnRefusal).
      const stripped = await rest('editor', 'POST', '/api/permission/update', { roleId: role.target, permissions: [] });
      expect(stripped.statusCode, stripped.body).toBe(403);
      expect(stripped.json()).toMatchObject({
        reason: 'you cannot give or take away permissions you do not hold: dashboard-analytics',
      });
      const after = await rest('admin', 'GET', `/api/roles/${role.target}`);
      expect(after.json<{ has_permission_routes: string[] }>().has_permission_routes).toEqual(['dashboard-analytics']);
    });
  });

  describe("the provider's decisions are staff-only; customers keep reading them", () => {
    it("a customer's administrador cannot raise its own plan, switch its features or make an instance official", async () => {
      const tenant = await db
        .selectFrom('tenants')
        .select(['id', 'plan', 'user_limit'])
        .where('name', '=', 'farmacia-fechada')
        .executeTakeFirstOrThrow();
      const plan = await rest('customer', 'POST', '/api/tenant/set-plan', {
        id: tenant.id,
        plan: 'enterprise',
        user: 100_000,
        ticket: 1000,
      });
      expect(plan.statusCode, plan.body).toBe(403);
      expect(plan.json().reason).toMatch(/staff/);
      const feature = await rest('customer', 'POST', '/api/tenant/feature', {
        option: 'chatbot',
        enabled: true,
        tenantName: 'farmacia-fechada',
      });
      expect(feature.statusCode, feature.body).toBe(403);
      const official = await rest('customer', 'POST', '/api/instance', {
        name: 'Oficial',
        tenantName: 'farmacia-fechada',
        isOfficial: true,
        isUnlimited: false,
      });
      expect(official.statusCode, official.body).toBe(403);
      const after = await db
        .selectFrom('tenants')
        .select(['plan', 'user_limit'])
        .where('id', '=', tenant.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ plan: tenant.plan, user_limit: tenant.user_limit });
      // Reading stays open to them.
      expect((await rest('customer', 'GET', '/api/tenant/feature?tenantName=farmacia-fechada')).statusCode).toBe(200);
      // An instance of its own, neither official nor unlimited, it may still make; sending the flags
      // unchanged when editing it is fine, flipping one is not.
      const own = await rest('customer', 'POST', '/api/instance', {
        name: 'Loja',
        tenantName: 'farmacia-fechada',
        isOfficial: false,
        isUnlimited: false,
      });
      expect(own.statusCode, own.body).toBe(201);
      const id = own.json<{ id: number }>().id;
      const same = await rest('customer', 'POST', '/api/instance/update', {
        id,
        tenantName: 'farmacia-fechada',
        name: 'Loja 1',
        isOfficial: false,
      });
      expect(same.statusCode, same.body).toBe(200);
      const flip = await rest('customer', 'POST', '/api/instance/update', {
        id,
        tenantName: 'farmacia-fechada',
        isUnlimited: true,
      });
      expect(flip.statusCode, flip.body).toBe(403);
    });
  });

  describe('a deleted tenant is closed', () => {
    it('its users are signed out everywhere, cannot sign in or restore it; staff restore it and access comes back', async () => {
      const tenant = await db
        .selectFrom('tenants')
        .select('id')
        .where('name', '=', 'farmacia-fechada')
        .executeTakeFirstOrThrow();
      const gone = await rest('admin', 'POST', '/api/tenant/delete', { id: tenant.id });
      expect(gone.statusCode, gone.body).toBe(200);
      // Old tokens: refused on REST and GraphQL alike.
      for (const who of ['customer', 'clerk'] as const) {
        const info = await rest(who, 'GET', '/api/auth/userInfo');
        expect(info.statusCode, info.body).toBe(401);
        expect(info.json()).toEqual({ status: 'Unauthorized' });
        const gql = await graphql(who, '{ userInfos { id } }');
        expect(gql.statusCode).toBe(401);
      }
      // Restoring its own tenant: no session left to ask with.
      expect((await rest('customer', 'POST', '/api/tenant/restore', { id: tenant.id })).statusCode).toBe(401);
      // Signing in: refused, and said plainly (after the right password only).
      const login = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'nwu-customer@demo.local', password: TEST_PASSWORD, ip: null },
      });
      expect(login.statusCode, login.body).toBe(401);
      expect(login.json()).toMatchObject({ error: 'tenant_deleted', message: expect.stringMatching(/encerrado/) });
      const wrong = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'nwu-customer@demo.local', password: 'Wrong#Pass-000', ip: null },
      });
      expect(wrong.json()).toMatchObject({ error: 'invalid_credentials' });
      const gqlLogin = await t.app.fastify.inject({
        method: 'POST',
        url: '/backoffice/graphql',
        payload: {
          query: `mutation { logIn(email: "nwu-customer@demo.local", password: "${TEST_PASSWORD}") { token } }`,
        },
      });
      expect(gqlLogin.json().errors[0].extensions.code).not.toBe(undefined);
      expect(gqlLogin.json().data).toBeNull();

      const back = await rest('admin', 'POST', '/api/tenant/restore', { id: tenant.id });
      expect(back.statusCode, back.body).toBe(200);
      bearer.customer = await signIn('nwu-customer@demo.local');
      expect((await rest('customer', 'GET', '/api/auth/userInfo')).statusCode).toBe(200);
    });
  });
});
