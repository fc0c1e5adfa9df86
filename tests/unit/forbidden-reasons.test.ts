import type { Kysely } from 'kysely';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../../server/src/db/catalog';
import type { Database } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from '../../server/src/test-support/app';
import { createTestRole, createTestUser, TEST_PASSWORD } from '../../server/src/test-support/users';
import { ApiError } from '../../src/api/api-error';
import { GraphqlError, type GraphqlErrorItem } from '../../src/api/graphql-client';
import type { I18nKey } from '../../src/domain/i18n-key';
import { reasonKeyOf } from '../../src/machines/shared/request-error';

/**
 * The SPA reads a 403 by the reason the server gives (src/machines/shared/request-error.ts
 * `FORBIDDEN_REASONS`). This holds that table to the real server: each refusal a screen can meet,
 * asked of the reference server in-process, must read as its own translated reason on REST and on
 * GraphQL, never as the generic refusal (which would mean the server's wording moved away from the
 * table) and never as the server's English text.
 */
describe('403 reasons: the server refuses, the SPA says why', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  type Person = 'manager' | 'admin' | 'editor' | 'customer';
  const bearer = {} as Record<Person, { authorization: string }>;
  const user = {} as Record<Person | 'operador', number>;
  const role = {} as Record<'administrador' | 'operador' | 'usersOnly' | 'editor', number>;

  async function signIn(email: string) {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD, ip: null },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
  }

  /** The SPA's reading of a REST answer, as its client would hand it over (src/api/rest-client.ts `unwrap`). */
  async function restReason(
    who: Person,
    method: 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload: Record<string, unknown>,
  ) {
    const answer = await t.app.fastify.inject({ method, url, headers: bearer[who], payload });
    expect(answer.statusCode, answer.body).toBe(403);
    return reasonKeyOf(new ApiError(answer.statusCode, answer.json()));
  }

  /** The SPA's reading of a GraphQL answer (src/api/graphql-client.ts throws a GraphqlError on `errors`). */
  async function graphqlReason(who: Person, query: string) {
    const answer = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: bearer[who],
      payload: { query },
    });
    const errors = answer.json<{ errors: GraphqlErrorItem[] }>().errors;
    expect(errors[0]?.extensions?.['code'], answer.body).toBe('FORBIDDEN');
    return reasonKeyOf(new GraphqlError(answer.statusCode, errors));
  }

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 }, config: { loginMaxFailures: 1_000_000 } });
    db = t.db;
    for (const name of [ADMIN_ROLE, OPERATOR_ROLE] as const)
      role[name] = (await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    role.usersOnly = await createTestRole(db, 'fr_gestor', ['users']);
    role.editor = await createTestRole(db, 'fr_editor', ['roles-list', 'roles-edit']);
    await db
      .insertInto('tenants')
      .values({
        name: 'fr-farmacia',
        cnpj: '11.444.777/0001-61',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 10,
      })
      .execute();
    const people: [Person | 'operador', string, string][] = [
      ['manager', 'backoffice', 'fr_gestor'],
      ['admin', 'backoffice', ADMIN_ROLE],
      ['editor', 'backoffice', 'fr_editor'],
      ['customer', 'fr-farmacia', ADMIN_ROLE],
      ['operador', 'backoffice', OPERATOR_ROLE],
    ];
    for (const [key, tenant, roleName] of people) {
      user[key] = (await createTestUser(db, { email: `fr-${key}@demo.local`, tenant, role: roleName })).id;
      if (key !== 'operador') bearer[key] = await signIn(`fr-${key}@demo.local`);
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('staff only: plan and limits, and an instance made official, refused to a customer administrador', async () => {
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'fr-farmacia')
      .executeTakeFirstOrThrow();
    expect(
      await restReason('customer', 'POST', '/api/tenant/set-plan', {
        id: tenant.id,
        plan: 'enterprise',
        user: 9,
        ticket: 9,
      }),
    ).toBe<I18nKey>('access.staffOnly');
    expect(
      await restReason('customer', 'POST', '/api/instance', {
        name: 'Oficial',
        tenantName: 'fr-farmacia',
        isOfficial: true,
        isUnlimited: false,
      }),
    ).toBe<I18nKey>('access.staffBillingFlags');
  });

  it('no way up on users: giving administrador or a wider role, acting on an administrador or a wider user', async () => {
    const newUser = (roleId: number) => ({
      username: `fr${roleId}`,
      name: 'Fr',
      email: `fr-new-${roleId}@demo.local`,
      password: 'Made#Admin-Pass9',
      role_id: roleId,
    });
    expect(await restReason('manager', 'POST', '/api/users', newUser(role.administrador))).toBe<I18nKey>(
      'access.grantAdministrador',
    );
    expect(await restReason('manager', 'POST', '/api/users', newUser(role.operador))).toBe<I18nKey>(
      'access.grantLacks',
    );
    expect(await graphqlReason('manager', `mutation { deleteUser(id: ${user.admin}) }`)).toBe<I18nKey>(
      'access.actOnAdministrador',
    );
    expect(await graphqlReason('manager', `mutation { disconnectUser(user_id: ${user.operador}) }`)).toBe<I18nKey>(
      'access.actOnLacks',
    );
    expect(
      await graphqlReason('admin', `mutation { updateUser(id: ${user.admin}, role_id: ${role.operador}) { id } }`),
    ).toBe<I18nKey>('access.ownRole');
  });

  it("no way up on roles: the editor's own role, a permission the editor lacks (on or off), the administrador's name", async () => {
    expect(
      await restReason('editor', 'POST', '/api/permission/update', {
        roleId: role.editor,
        permissions: ['roles-list'],
      }),
    ).toBe<I18nKey>('access.ownRolePermissions');
    expect(
      await restReason('editor', 'POST', '/api/permission/update', {
        roleId: role.usersOnly,
        permissions: ['users', 'tenants'],
      }),
    ).toBe<I18nKey>('access.permissionLacks');
    // Taking away is no freer than giving: the editor lacks `users`, so it cannot strip it from a role.
    expect(
      await restReason('editor', 'POST', '/api/permission/update', { roleId: role.usersOnly, permissions: [] }),
    ).toBe<I18nKey>('access.permissionLacks');
    expect(
      await restReason('editor', 'PUT', `/api/roles/${role.administrador}`, { display_name: 'Chefe' }),
    ).toBe<I18nKey>('access.renameAdministrador');
  });

  it("one's own two-factor: not turned off nor its enrolment changed through the settings, even by an administrador", async () => {
    expect(
      await restReason('admin', 'PATCH', `/api/user-settings/${user.admin}`, { two_factor_enabled: false }),
    ).toBe<I18nKey>('access.ownTwoFactor');
    expect(
      await restReason('manager', 'PATCH', `/api/user-settings/${user.manager}`, {
        two_factor_enrolment_required: true,
      }),
    ).toBe<I18nKey>('access.ownTwoFactor');
    expect(
      await graphqlReason(
        'admin',
        `mutation { updateUserSettings(user_id: ${user.admin}, two_factor_enabled: false) { user_id } }`,
      ),
    ).toBe<I18nKey>('access.ownTwoFactor');
    expect(
      await graphqlReason(
        'admin',
        `mutation { updateUserSettings(user_id: ${user.admin}, two_factor_enrolment_required: false) { user_id } }`,
      ),
    ).toBe<I18nKey>('access.ownTwoFactor');
  });
});
