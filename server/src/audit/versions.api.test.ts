import type { LightMyRequestResponse } from 'fastify';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { instanceIdsOf, roleId } from '../test-support/lookups';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';

/**
 * Versions: no lost update (docs/lists.md, Versions). For every versioned record and its saves, on
 * PGlite and PostgreSQL: a save with the current version is accepted and raises it by one; a save with
 * an older one is refused with 409 `stale`, the current version and the audited change made since,
 * nothing written; a save without one goes on as before (last write wins). The tenant and its feature
 * set count apart. Every other path that changes a record raises its version too, and the audit log's
 * `target_version` of a record's changes runs 1, 2, 3… up to its version. GraphQL answers STALE with
 * the same version and changes. Attackers: another tenant's record stays not found whatever version is
 * sent, a caller without the permission is refused before any version is read, hostile versions are bad
 * input, and a stale answer shows a customer no name of the provider's staff. Concurrency (PostgreSQL):
 * of N identical saves with one version exactly one wins.
 */

const OK = { valid: true, errors: [] };
const N = 10;

type Answer = { status: number; body: Record<string, unknown> };

function answerOf(response: LightMyRequestResponse): Answer {
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

interface StaleBody {
  error: string;
  message: string;
  field: string;
  version: number;
  changes: {
    id: number;
    at: string;
    actor_name: string | null;
    actor_staff: boolean;
    operation: string;
    version: number;
    changes: { field: string; before: string | null; after: string | null }[];
  }[];
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let customer: { id: number; name: string };
  let other: { id: number; name: string };
  let customerAdmin: { authorization: string };

  const inject = (
    headers: Record<string, string>,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => t.app.fastify.inject({ method, url, headers, ...(payload ? { payload } : {}) }).then(answerOf);
  const as = (headers = staff) => ({
    get: (url: string) => inject(headers, 'GET', url),
    post: (url: string, body: Record<string, unknown>) => inject(headers, 'POST', url, body),
    put: (url: string, body: Record<string, unknown>) => inject(headers, 'PUT', url, body),
    patch: (url: string, body: Record<string, unknown>) => inject(headers, 'PATCH', url, body),
  });
  const graphql = (tenant: string, query: string, variables: Record<string, unknown>, headers = staff) =>
    t.app.fastify
      .inject({ method: 'POST', url: `/${tenant}/graphql`, payload: { query, variables }, headers })
      .then(answerOf);

  /** The audit log's `target_version`s of a record's changes, oldest first (operations as the record counts them). */
  async function recordedVersions(type: string, id: number, features?: boolean): Promise<(number | null)[]> {
    let query = t.db
      .selectFrom('audit_log')
      .select(['target_version', 'operation'])
      .where('target_type', '=', type)
      .where('target_id', '=', id);
    if (type === 'tenant') query = query.where('operation', features ? '=' : '!=', 'tenant.feature');
    return (await query.orderBy('id').execute()).map((r) => r.target_version);
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    staff = await t.auth('admin@demo.local');
    const customers = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '!=', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(2)
      .execute();
    [customer, other] = customers as [{ id: number; name: string }, { id: number; name: string }];
    const admin = await createTestUser(t.db, {
      email: 'versions-admin@customer.test',
      tenant: customer.name,
      role: 'administrador',
      originBackoffice: false,
    });
    customerAdmin = await issuedBearer(t, admin.id);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  /**
   * One versioned record and one of its saves: how to read its version, how to save a value with or
   * without a version, the operation and field the audit log names.
   */
  interface Case {
    name: string;
    operationId: string;
    operation: string;
    field: string;
    target: () => Promise<{ type: string; id: number; features?: boolean }>;
    read: () => Promise<number>;
    /** The save's request; `version` undefined: none sent. */
    request: (value: string, version?: unknown) => Promise<Request> | Request;
    /** The stored value, to show a refused save wrote nothing. */
    value: () => Promise<unknown>;
  }

  type Request = { method: 'POST' | 'PUT' | 'PATCH'; url: string; payload: Record<string, unknown> };
  const post = (url: string, payload: Record<string, unknown>): Request => ({ method: 'POST', url, payload });
  const put = (url: string, payload: Record<string, unknown>): Request => ({ method: 'PUT', url, payload });
  const patch = (url: string, payload: Record<string, unknown>): Request => ({ method: 'PATCH', url, payload });
  const sent = (version: unknown) => (version === undefined ? {} : { version });
  const save = async (c: Case, value: string, version?: unknown, headers = staff) => {
    const r = await c.request(value, version);
    return inject(headers, r.method, r.url, r.payload);
  };

  let userId = 0;
  let roleIdOf = 0;
  let department = 0;
  let instance = 0;
  let connection = 0;
  const feature = () => 'chatbot';

  const cases: Case[] = [
    {
      name: 'user (REST userUpdate, name only)',
      operationId: 'userUpdate',
      operation: 'user.update',
      field: 'name',
      target: async () => {
        userId ||= (await createTestUser(t.db, { email: 'versions-user@demo.local', tenant: 'backoffice' })).id;
        return { type: 'user', id: userId };
      },
      read: async () => {
        const users = (await as().get('/api/users')).body as unknown as { id: number; version: number }[];
        return users.find((u) => u.id === userId)?.version ?? -1;
      },
      request: (name, version) => put(`/api/users/${userId}`, { name, ...sent(version) }),
      value: async () =>
        (await t.db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirstOrThrow()).name,
    },
    {
      name: 'role (REST roleRename)',
      operationId: 'roleRename',
      operation: 'role.rename',
      field: 'display_name',
      target: async () => {
        roleIdOf ||= await createTestRole(t.db, 'versions-role', ['dashboard-analytics']);
        return { type: 'role', id: roleIdOf };
      },
      read: async () => (await as().get(`/api/roles/${roleIdOf}`)).body.version as number,
      request: (value, version) => put(`/api/roles/${roleIdOf}`, { display_name: value, ...sent(version) }),
      value: async () => (await as().get(`/api/roles/${roleIdOf}`)).body.display_name,
    },
    {
      name: 'role permissions (REST permissionUpdate)',
      operationId: 'permissionUpdate',
      operation: 'role.permissions',
      field: 'permissions',
      target: async () => {
        roleIdOf ||= await createTestRole(t.db, 'versions-role', ['dashboard-analytics']);
        return { type: 'role', id: roleIdOf };
      },
      read: async () => (await as().get(`/api/roles/${roleIdOf}`)).body.version as number,
      // The value picks the permissions: a different set per save.
      request: (value, version) =>
        post('/api/permission/update', {
          roleId: roleIdOf,
          permissions: value.length % 2 ? ['dashboard-report'] : ['dashboard-analytics', 'users'],
          ...sent(version),
        }),
      value: async () => (await as().get(`/api/roles/${roleIdOf}`)).body.has_permission_routes,
    },
    {
      name: 'tenant (REST tenantUpdate)',
      operationId: 'tenantUpdate',
      operation: 'tenant.update',
      field: 'template',
      target: async () => ({ type: 'tenant', id: customer.id }),
      read: async () => tenantRow().then((r) => r.version),
      request: async (value, version) => {
        const row = await tenantRow();
        return post('/api/tenant/update', {
          id: customer.id,
          name: row.name,
          cnpj: row.cnpj,
          pool: row.pool,
          template: slug(value),
          ...sent(version),
        });
      },
      value: async () => (await tenantRow()).template,
    },
    {
      name: 'tenant plan (REST tenantSetPlan)',
      operationId: 'tenantSetPlan',
      operation: 'tenant.plan',
      field: 'ticket_limit',
      target: async () => ({ type: 'tenant', id: customer.id }),
      read: async () => tenantRow().then((r) => r.version),
      request: (value, version) =>
        post('/api/tenant/set-plan', {
          id: customer.id,
          plan: 'enterprise',
          user: 500,
          ticket: 1000 + value.length,
          ...sent(version),
        }),
      value: async () => (await tenantRow()).ticketLimit,
    },
    {
      name: 'features (REST featureUpdate)',
      operationId: 'featureUpdate',
      operation: 'tenant.feature',
      field: 'chatbot',
      target: async () => ({ type: 'tenant', id: customer.id, features: true }),
      read: async () => {
        const list = (await as().get(`/api/tenant/feature?tenantName=${customer.name}`)).body as unknown as {
          version: number;
        }[];
        return list[0]?.version ?? -1;
      },
      // Each save turns the feature the other way, so each one changes it.
      request: async (_value, version) =>
        post('/api/tenant/feature', {
          option: feature(),
          enabled: !(await featureOn()),
          tenantName: customer.name,
          ...sent(version),
        }),
      value: () => featureOn(),
    },
    {
      name: 'department (REST departmentUpdate)',
      operationId: 'departmentUpdate',
      operation: 'department.update',
      field: 'name',
      target: async () => {
        department ||= (await as().post(`/api/departments?tenantName=${customer.name}`, { name: 'Versões' })).body
          .id as number;
        return { type: 'department', id: department };
      },
      read: async () => departmentRow().then((d) => d.version),
      request: (name, version) =>
        patch(`/api/departments/${department}?tenantName=${customer.name}`, { name, ...sent(version) }),
      value: async () => (await departmentRow()).name,
    },
    {
      name: 'instance (REST instanceUpdate)',
      operationId: 'instanceUpdate',
      operation: 'instance.update',
      field: 'name',
      target: async () => {
        instance ||= (
          await as().post('/api/instance', {
            name: 'Versões',
            tenantName: customer.name,
            isOfficial: false,
            isUnlimited: false,
          })
        ).body.id as number;
        return { type: 'instance', id: instance };
      },
      read: async () => instanceRow().then((i) => i.version),
      request: (name, version) =>
        post('/api/instance/update', { id: instance, tenantName: customer.name, name, ...sent(version) }),
      value: async () => (await instanceRow()).name,
    },
    {
      name: 'connection (REST connectionUpdate)',
      operationId: 'connectionUpdate',
      operation: 'connection.update',
      field: 'name',
      target: async () => {
        const [first] = await instanceIdsOf(t.db, customer.id);
        connection ||= (
          await as().post('/api/connection', { tenantName: customer.name, instance_id: first, name: 'Versões' })
        ).body.id as number;
        return { type: 'connection', id: connection };
      },
      read: async () => connectionRow().then((c) => c.version),
      request: (name, version) =>
        post('/api/connection/update', { id: connection, tenantName: customer.name, name, ...sent(version) }),
      value: async () => (await connectionRow()).name,
    },
  ];

  const slug = (value: string) => value.toLowerCase().replace(/[^a-z0-9_-]/g, '-');

  async function tenantRow() {
    const page = (await as().post('/api/tenant/paginated', { search: customer.name, pagination_limit: 100 })).body as {
      data: {
        id: number;
        name: string;
        cnpj: string;
        pool: string;
        template: string;
        ticketLimit: number;
        version: number;
        features_version: number;
      }[];
    };
    const row = page.data.find((r) => r.id === customer.id);
    if (!row) throw new Error(`tenant ${customer.name} not listed`);
    return row;
  }
  async function featureOn(option = feature()) {
    const list = (await as().get(`/api/tenant/feature?tenantName=${customer.name}`)).body as unknown as {
      option: string;
      enabled: boolean;
    }[];
    return list.find((f) => f.option === option)?.enabled ?? false;
  }
  async function departmentRow() {
    const list = (await as().get(`/api/departments?tenantName=${customer.name}`)).body as unknown as {
      id: number;
      name: string;
      version: number;
    }[];
    const row = list.find((d) => d.id === department);
    if (!row) throw new Error('department not listed');
    return row;
  }
  async function instanceRow() {
    const list = (await as().get(`/api/instance?tenantName=${customer.name}`)).body as unknown as {
      id: number;
      name: string;
      version: number;
    }[];
    const row = list.find((i) => i.id === instance);
    if (!row) throw new Error('instance not listed');
    return row;
  }
  async function connectionRow() {
    const list = (await as().get(`/api/connection?tenantName=${customer.name}`)).body as unknown as {
      id: number;
      name: string;
      version: number;
    }[];
    const row = list.find((c) => c.id === connection);
    if (!row) throw new Error('connection not listed');
    return row;
  }

  it('counts the tenant form and the features editor apart: a change of one leaves the other’s version', async () => {
    const tenant = await tenantRow();
    const features = (await as().get(`/api/tenant/feature?tenantName=${customer.name}`)).body as unknown as {
      version: number;
    }[];
    expect(new Set(features.map((f) => f.version))).toEqual(new Set([tenant.features_version]));
    const turned = await as().post('/api/tenant/feature', {
      option: 'campaigns',
      enabled: !(await featureOn('campaigns')),
      tenantName: customer.name,
      version: tenant.features_version,
    });
    expect(turned.status, JSON.stringify(turned.body)).toBe(200);
    expect(turned.body.version).toBe(tenant.features_version + 1);
    // The tenant's own version did not move, so the tenant form's save still goes through with it.
    const edited = await as().post('/api/tenant/update', {
      id: tenant.id,
      name: tenant.name,
      cnpj: tenant.cnpj,
      pool: tenant.pool,
      template: 'apart',
      version: tenant.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ version: tenant.version + 1, features_version: tenant.features_version + 1 });
    // And the features editor's version did not move with the tenant's change.
    const again = await as().post('/api/tenant/feature', {
      option: 'campaigns',
      enabled: !(await featureOn('campaigns')),
      tenantName: customer.name,
      version: tenant.features_version + 1,
    });
    expect(again.status).toBe(200);
  });

  it('GraphQL answers STALE with the version and the changes REST answers, and writes nothing', async () => {
    const user = (
      await as().post('/api/users', {
        username: 'versions.gql',
        name: 'Versões GraphQL',
        email: 'versions-gql@demo.local',
        password: 'Outra#Senha!forte-7',
        role_id: await roleId(t.db, 'operador'),
      })
    ).body as { id: number; version: number };
    expect(user.version).toBe(1);
    const UPDATE_USER = `mutation u($id: Int!, $name: String, $version: Int) {
      updateUser(id: $id, name: $name, version: $version) { id name version }
    }`;
    const saved = await graphql('backoffice', UPDATE_USER, { id: user.id, name: 'Primeira', version: 1 });
    expect(saved.body).toEqual({
      data: { updateUser: { id: user.id, name: 'Primeira', version: 2 } },
      // The change's audit record (server/src/graphql/audit-records.ts).
      extensions: { auditRecords: { updateUser: expect.any(Number) } },
    });
    const refused = await graphql('backoffice', UPDATE_USER, { id: user.id, name: 'Segunda', version: 1 });
    const errors = refused.body.errors as { extensions: Record<string, unknown> }[];
    expect(errors[0]?.extensions).toMatchObject({ code: 'STALE', field: 'version', version: 2 });
    const restRefused = await as().put(`/api/users/${user.id}`, { name: 'Segunda', version: 1 });
    expect(restRefused.status).toBe(409);
    expect(errors[0]?.extensions.changes).toEqual(restRefused.body.changes);
    expect((restRefused.body as unknown as StaleBody).changes[0]?.changes).toEqual([
      { field: 'name', before: JSON.stringify('Versões GraphQL'), after: JSON.stringify('Primeira') },
    ]);
    const read = await graphql('backoffice', 'query { users { id name version } }', {});
    expect((read.body.data as { users: { id: number }[] }).users.find((u) => u.id === user.id)).toEqual({
      id: user.id,
      name: 'Primeira',
      version: 2,
    });
    // A version GraphQL's Int allows but no record has is bad input, as REST's 400.
    const hostile = await graphql('backoffice', UPDATE_USER, { id: user.id, name: 'X', version: 0 });
    expect((hostile.body.errors as { extensions: unknown }[])[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'version',
    });

    const created = (await as().post(`/api/departments?tenantName=${customer.name}`, { name: 'Versões GQL' })).body as {
      id: number;
    };
    const UPDATE_DEPARTMENT = `mutation d($id: Int!, $name: String, $version: Int) {
      updateDepartment(id: $id, name: $name, version: $version) { id name version }
    }`;
    expect(
      (await graphql(customer.name, UPDATE_DEPARTMENT, { id: created.id, name: 'Um', version: 1 })).body.data,
    ).toEqual({ updateDepartment: { id: created.id, name: 'Um', version: 2 } });
    const staleDepartment = await graphql(customer.name, UPDATE_DEPARTMENT, {
      id: created.id,
      name: 'Dois',
      version: 1,
    });
    expect((staleDepartment.body.errors as { extensions: unknown }[])[0]?.extensions).toMatchObject({
      code: 'STALE',
      version: 2,
      changes: [{ operation: 'department.update', version: 2 }],
    });

    const [first] = await instanceIdsOf(t.db, customer.id);
    const createdConnection = (
      await as().post('/api/connection', { tenantName: customer.name, instance_id: first, name: 'Versões GQL' })
    ).body as { id: number };
    const UPDATE_CONNECTION = `mutation c($id: Int!, $activated: Boolean, $version: Int) {
      updateConnection(id: $id, activated: $activated, version: $version) { id activated version }
    }`;
    expect(
      (await graphql(customer.name, UPDATE_CONNECTION, { id: createdConnection.id, activated: false, version: 1 })).body
        .data,
    ).toEqual({ updateConnection: { id: createdConnection.id, activated: false, version: 2 } });
    const staleConnection = await graphql(customer.name, UPDATE_CONNECTION, {
      id: createdConnection.id,
      activated: true,
      version: 1,
    });
    expect((staleConnection.body.errors as { extensions: unknown }[])[0]?.extensions).toMatchObject({
      code: 'STALE',
      version: 2,
      changes: [{ operation: 'connection.update', changes: [{ field: 'activated', before: 'true', after: 'false' }] }],
    });
  });

  it('every path that changes a record raises its version by one, and the audit log carries 1, 2, 3…', async () => {
    const created = (
      await as().post('/api/users', {
        username: 'versions.paths',
        name: 'Versões Caminhos',
        email: 'versions-paths@demo.local',
        password: 'Outra#Senha!forte-7',
        role_id: await roleId(t.db, 'operador'),
      })
    ).body as { id: number; version: number };
    const id = created.id;
    const version = async () =>
      ((await as().get('/api/users')).body as unknown as { id: number; version: number }[]).find((u) => u.id === id)
        ?.version;
    const steps: [string, () => Promise<Answer>, number][] = [
      ['block', () => as().patch(`/api/users/${id}`, { blocked: true }), 1],
      ['unblock', () => as().patch(`/api/users/${id}`, { blocked: false }), 1],
      ['require two-factor', () => as().patch(`/api/user-settings/${id}`, { two_factor_enrolment_required: true }), 1],
      [
        'desk: lift the requirement',
        () => as().post(`/api/support/users/${id}/two-factor`, { action: 'unrequire' }),
        1,
      ],
      ['desk: block', () => as().post(`/api/support/users/${id}/block`, { blocked: true }), 1],
      ['desk: unblock', () => as().post(`/api/support/users/${id}/block`, { blocked: false }), 1],
      // Disconnecting ends sessions and presence, nothing the user's form shows: no new version.
      ['disconnect', () => graphql('backoffice', 'mutation d($id: Int!) { disconnectUser(user_id: $id) }', { id }), 0],
      ['whole update', () => as().put(`/api/users/${id}`, { name: 'Versões Caminhos 2' }), 1],
    ];
    let expected = 1;
    expect(created.version).toBe(1);
    for (const [name, step, raises] of steps) {
      const answer = await step();
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      expected += raises;
      expect(await version(), name).toBe(expected);
    }
    const deleted = await inject(staff, 'DELETE', `/api/users/${id}`);
    expect(deleted.status).toBe(200);
    const restored = await as().post(`/api/support/users/${id}/restore`, {});
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expected += 2;
    expect(await version()).toBe(expected);
    const versions = (await recordedVersions('user', id)).filter((v) => v !== null);
    expect(versions).toEqual(Array.from({ length: expected }, (_, i) => i + 1));

    // A tenant: created at 1, deleted and restored (+1 each); its plan (+1).
    const tenant = (
      await as().post('/api/tenant', {
        name: `versoes-${postgres ? 'pg' : 'pglite'}`,
        cnpj: '11.222.333/0001-81',
        features: [],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      })
    ).body as { id: number; version: number; features_version: number };
    expect(tenant).toMatchObject({ version: 1, features_version: 1 });
    expect((await as().post('/api/tenant/delete', { id: tenant.id })).body.version).toBe(2);
    expect((await as().post('/api/tenant/restore', { id: tenant.id })).body.version).toBe(3);
    const plan = await as().post('/api/tenant/set-plan', { id: tenant.id, plan: 'enterprise', user: 9, ticket: 9 });
    expect(plan.body).toMatchObject({ version: 4, features_version: 1 });
    expect(await recordedVersions('tenant', tenant.id)).toEqual([1, 2, 3, 4]);
  });

  it('attackers: another tenant’s record is not found, no permission is refused, whatever version is sent', async () => {
    const theirs = (await as().post(`/api/departments?tenantName=${other.name}`, { name: 'Deles' })).body as {
      id: number;
    };
    for (const version of [1, 2, 99]) {
      const answer = await inject(customerAdmin, 'PATCH', `/api/departments/${theirs.id}`, { name: 'Meu', version });
      expect(answer.status).toBe(404);
      expect(answer.body).not.toHaveProperty('version');
      expect(answer.body).not.toHaveProperty('changes');
    }
    // A customer's administrador may not touch shared roles or tenants, stale or not.
    const role = await createTestRole(t.db, `versions-attack-${postgres ? 'pg' : 'pglite'}`, []);
    expect((await inject(customerAdmin, 'PUT', `/api/roles/${role}`, { display_name: 'X', version: 1 })).status).toBe(
      403,
    );
    expect(
      (await inject(customerAdmin, 'POST', '/api/permission/update', { roleId: role, permissions: [], version: 1 }))
        .status,
    ).toBe(403);
    // An operador without `users` changing someone else: 403 before any version is compared.
    const operador = await createTestUser(t.db, {
      email: `versions-operador-${postgres ? 'pg' : 'pglite'}@customer.test`,
      tenant: customer.name,
      originBackoffice: false,
    });
    const headers = await issuedBearer(t, operador.id);
    const victim = await createTestUser(t.db, {
      email: `versions-victim-${postgres ? 'pg' : 'pglite'}@customer.test`,
      tenant: customer.name,
      originBackoffice: false,
    });
    for (const version of [1, 2]) {
      const answer = await inject(headers, 'PUT', `/api/users/${victim.id}`, { name: 'Tomado', version });
      expect(answer.status).toBe(403);
    }
  });

  it('a stale role permissions save is stale before no way up: the editor sees the change it would undo', async () => {
    const suffix = postgres ? 'pg' : 'pglite';
    // A staff role editor who lacks `users`; an administrador gives the target role `users` meanwhile.
    await createTestRole(t.db, `versions-editor-${suffix}`, ['roles-list', 'roles-edit']);
    const editor = await createTestUser(t.db, {
      email: `versions-editor-${suffix}@backoffice.test`,
      tenant: 'backoffice',
      role: `versions-editor-${suffix}`,
      originBackoffice: true,
    });
    const headers = await issuedBearer(t, editor.id);
    const target = await createTestRole(t.db, `versions-target-${suffix}`, ['dashboard-analytics']);
    const loaded = (await inject(headers, 'GET', `/api/roles/${target}`)).body as { version: number };
    const given = await as().post('/api/permission/update', {
      roleId: target,
      permissions: ['dashboard-analytics', 'users'],
      version: loaded.version,
    });
    expect(given.status).toBe(200);
    // The editor's checklist as loaded would take `users` away: stale, with the administrador's change.
    const stale = await inject(headers, 'POST', '/api/permission/update', {
      roleId: target,
      permissions: ['dashboard-analytics'],
      version: loaded.version,
    });
    expect(stale.status).toBe(409);
    expect(validateResponse('permissionUpdate', 409, stale.body)).toEqual(OK);
    const body = stale.body as unknown as StaleBody;
    expect(body.error).toBe('stale');
    expect(body.version).toBe(loaded.version + 1);
    expect(body.changes).toEqual([
      expect.objectContaining({
        operation: 'role.permissions',
        version: loaded.version + 1,
        changes: [
          {
            field: 'permissions',
            before: JSON.stringify(['dashboard-analytics']),
            after: JSON.stringify(['dashboard-analytics', 'users']),
          },
        ],
      }),
    ]);
    // With the current version the same removal is still no way up (403), and nothing was written.
    const current = await inject(headers, 'POST', '/api/permission/update', {
      roleId: target,
      permissions: ['dashboard-analytics'],
      version: body.version,
    });
    expect(current.status).toBe(403);
    const now = (await as().get(`/api/roles/${target}`)).body as { version: number; has_permission_routes: string[] };
    expect(now).toMatchObject({ version: loaded.version + 1, has_permission_routes: ['dashboard-analytics', 'users'] });
  });

  it('a customer reads a stale answer with the provider’s staff as a team, its own colleagues by name', async () => {
    const own = (await inject(customerAdmin, 'POST', '/api/departments', { name: 'Equipe' })).body as {
      id: number;
      version: number;
    };
    expect(own.version).toBe(1);
    // Staff change it (v2); the customer's stale save sees who only as the provider's team.
    await as().patch(`/api/departments/${own.id}?tenantName=${customer.name}`, { name: 'Equipe 2' });
    const refused = await inject(customerAdmin, 'PATCH', `/api/departments/${own.id}`, {
      name: 'Equipe 3',
      version: 1,
    });
    expect(refused.status).toBe(409);
    expect((refused.body as unknown as StaleBody).changes).toEqual([
      expect.objectContaining({ actor_name: null, actor_staff: true, version: 2 }),
    ]);
    expect(JSON.stringify(refused.body)).not.toContain('Ana Administradora');
    // A colleague of its own tenant changes it (v3): named.
    const colleague = await createTestUser(t.db, {
      email: `versions-colleague-${postgres ? 'pg' : 'pglite'}@customer.test`,
      tenant: customer.name,
      role: 'administrador',
      originBackoffice: false,
      name: 'Colega da Farmácia',
    });
    const byColleague = await inject(await issuedBearer(t, colleague.id), 'PATCH', `/api/departments/${own.id}`, {
      name: 'Equipe 4',
      version: 2,
    });
    expect(byColleague.status).toBe(200);
    const again = await inject(customerAdmin, 'PATCH', `/api/departments/${own.id}`, { name: 'Equipe 5', version: 1 });
    expect((again.body as unknown as StaleBody).changes).toEqual([
      expect.objectContaining({ actor_name: null, actor_staff: true, version: 2 }),
      expect.objectContaining({ actor_name: 'Colega da Farmácia', actor_staff: false, version: 3 }),
    ]);
  });

  describe.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    it('accepts the current version and raises it; refuses an older one with what changed since; accepts none', async () => {
      const target = await c.target();
      const v0 = await c.read();
      expect(v0).toBeGreaterThanOrEqual(1);

      const first = await save(c, 'Primeira versão', v0);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(validateResponse(c.operationId, 200, first.body)).toEqual(OK);
      expect(first.body.version).toBe(v0 + 1);
      expect(await c.read()).toBe(v0 + 1);
      const kept = await c.value();

      const refused = await save(c, 'Segunda', v0);
      expect(refused.status).toBe(409);
      expect(validateResponse(c.operationId, 409, refused.body)).toEqual(OK);
      const body = refused.body as unknown as StaleBody;
      expect(body).toMatchObject({ error: 'stale', field: 'version', version: v0 + 1 });
      expect(body.changes).toHaveLength(1);
      expect(body.changes[0]).toMatchObject({
        operation: c.operation,
        version: v0 + 1,
        actor_name: 'Ana Administradora',
        actor_staff: true,
      });
      expect(body.changes[0]?.changes.map((ch) => ch.field)).toContain(c.field);
      // Nothing written: the value and the version are the first save's.
      expect(await c.value()).toEqual(kept);
      expect(await c.read()).toBe(v0 + 1);

      // A version ahead of the record's is not current either; nothing changed since it.
      const ahead = await save(c, 'Adiante', v0 + 5);
      expect(ahead.status).toBe(409);
      expect(ahead.body).toMatchObject({ error: 'stale', version: v0 + 1, changes: [] });

      // Without a version the save goes on whatever changed (the base API's last write wins).
      const blind = await save(c, 'Sem versão');
      expect(blind.status, JSON.stringify(blind.body)).toBe(200);
      expect(blind.body.version).toBe(v0 + 2);

      // The two changes since v0, oldest first, when v0 is sent again.
      const two = (await save(c, 'Terceira', v0)).body as unknown as StaleBody;
      expect(two.changes.map((ch) => ch.version)).toEqual([v0 + 1, v0 + 2]);

      // The audit log's versions of this record run 1, 2, 3… (records from before the migration: none here).
      const versions = await recordedVersions(target.type, target.id, target.features);
      const tail = versions.slice(-2);
      expect(tail).toEqual([v0 + 1, v0 + 2]);
    });

    it('hostile versions are bad input, before the record is read (400)', async () => {
      await c.target();
      const before = await c.read();
      for (const version of [0, -1, 2 ** 31, 1.5, '1', null, { $gt: 0 }]) {
        const answer = await save(c, 'Hostil', version);
        expect(answer.status, `version ${JSON.stringify(version)}`).toBe(400);
      }
      expect(await c.read()).toBe(before);
    });

    if (postgres)
      it(`of ${N} identical saves with one version exactly one wins, the rest are stale, none fails`, async () => {
        const target = await c.target();
        const v = await c.read();
        const before = (await recordedVersions(target.type, target.id, target.features)).length;
        const answers = await Promise.all(Array.from({ length: N }, () => save(c, `Corrida ${v}`, v)));
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([200, ...Array<number>(N - 1).fill(409)]);
        for (const refused of answers.filter((a) => a.status === 409))
          expect(refused.body).toMatchObject({ error: 'stale', version: v + 1 });
        expect(await c.read()).toBe(v + 1);
        expect((await recordedVersions(target.type, target.id, target.features)).length).toBe(before + 1);
      });
  });
});
