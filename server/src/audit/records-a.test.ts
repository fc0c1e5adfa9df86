import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { AuditChange, AuditOperation } from '../../../src/domain/audit';
import type { PanelEvent } from '../base/events';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * Audit records of tenants, roles, departments, instances and connections (server/src/audit/trail.ts,
 * the services in server/src/{tenants,roles,departments,instances}/service.ts): each successful change,
 * through REST or GraphQL, writes exactly one record with the operation, the target, the target's
 * tenant, the actor, the caller's address and request id, and the real before/after of the fields that
 * changed; a refused change writes none; a change whose transaction fails leaves neither the change nor
 * a record. On PGlite and on PostgreSQL.
 */

const ADDRESS = '203.0.113.44';
const CNPJ = '11.222.333/0001-81';

interface Expected {
  operation: AuditOperation;
  targetType: string;
  targetId: number;
  targetName: string;
  tenantId: number | null;
  changes: AuditChange[];
}

interface Sent {
  status: number;
  body: Record<string, unknown> & { errors?: unknown };
  requestId: string;
}

/** JSON text of a value, as the log stores before and after. */
const j = (value: unknown) => JSON.stringify(value);
const created = (fields: Record<string, unknown>): AuditChange[] =>
  Object.entries(fields).map(([field, after]) => ({ field, before: null, after: j(after) }));
const changed = (field: string, before: unknown, after: unknown): AuditChange => ({
  field,
  before: j(before),
  after: j(after),
});

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: audit records of tenants, roles, departments, instances and connections', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let actor: { id: number; name: string; email: string; tenant_id: number; tenant_name: string };
  const heard: PanelEvent[] = [];
  /** What the steps created, for the steps after them. */
  const s = {
    tenantId: 0,
    tenantName: 'registro-a',
    instanceId: 0,
    restConnectionId: 0,
    gqlConnectionId: 0,
    restDepartmentId: 0,
    gqlDepartmentId: 0,
    roleId: 0,
    routes: [] as string[],
    deletedAt: '',
  };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    t.app.events.subscribe((event) => heard.push(event));
    actor = await t.db
      .selectFrom('users as u')
      .innerJoin('tenants as tn', 'tn.id', 'u.tenant_id')
      .select(['u.id', 'u.name', 'u.email', 'u.tenant_id', 'tn.name as tenant_name'])
      .where('u.email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    s.routes = (await t.db.selectFrom('permissions').select('route_name').orderBy('id').limit(3).execute()).map(
      (r) => r.route_name,
    );
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  async function lastAuditId(): Promise<number> {
    const row = await t.db
      .selectFrom('audit_log')
      .select(sql<number>`coalesce(max(id), 0)::int`.as('id'))
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const recordsAfter = (id: number) =>
    t.db.selectFrom('audit_log').selectAll().where('id', '>', id).orderBy('id').execute();

  /** The answer, with the id the server gave the request (a client's own X-Request-Id is not kept). */
  function sent(response: LightMyRequestResponse): Sent {
    return { status: response.statusCode, body: response.json(), requestId: String(response.headers['x-request-id']) };
  }

  async function rest(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<Sent> {
    const response = await t.app.fastify.inject({
      method,
      url,
      headers: admin,
      remoteAddress: ADDRESS,
      ...(payload ? { payload } : {}),
    });
    return sent(response);
  }

  async function gql(query: string, variables: Record<string, unknown>): Promise<Sent> {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: `/${s.tenantName}/graphql`,
      headers: {
        ...admin,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      },
      remoteAddress: ADDRESS,
      payload: JSON.stringify({ query, variables }),
    });
    return sent(response);
  }

  /** The answer's data field of a GraphQL mutation, or a failure naming the errors. */
  function data<T>(answer: Sent, field: string): T {
    expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
    return (answer.body.data as Record<string, T>)[field] as T;
  }

  interface Step {
    label: string;
    protocol: 'REST' | 'GraphQL';
    send: () => Promise<Sent>;
    /** Called with the answer once it succeeded: keeps ids for later steps, answers what the record holds. */
    expected: (answer: Sent) => Expected | Promise<Expected>;
  }

  const tenantTarget = (name = s.tenantName) => ({
    targetType: 'tenant',
    targetId: s.tenantId,
    targetName: name,
    tenantId: s.tenantId,
  });

  const steps: Step[] = [
    {
      label: 'tenant.create',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/tenant', {
          name: 'registro-a',
          cnpj: '11222333000181',
          features: ['chat', 'analytics'],
          template: 'pharmacy',
          pool: 'pool-a',
          userLimit: 5,
          plan: 'starter',
          ticketLimit: 100,
        }),
      expected: (answer) => {
        s.tenantId = answer.body.id as number;
        return {
          operation: 'tenant.create',
          ...tenantTarget(),
          changes: created({
            name: 'registro-a',
            cnpj: CNPJ,
            template: 'pharmacy',
            pool: 'pool-a',
            plan: 'starter',
            user_limit: 5,
            ticket_limit: 100,
            features: ['analytics', 'chat'],
          }),
        };
      },
    },
    {
      label: 'tenant.update (name and template change, CNPJ and pool sent as they are)',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/tenant/update', {
          id: s.tenantId,
          name: 'registro-a2',
          cnpj: CNPJ,
          template: 'clinic',
          pool: 'pool-a',
        }),
      expected: () => {
        s.tenantName = 'registro-a2';
        return {
          operation: 'tenant.update',
          ...tenantTarget(),
          changes: [changed('name', 'registro-a', 'registro-a2'), changed('template', 'pharmacy', 'clinic')],
        };
      },
    },
    {
      label: 'tenant.plan',
      protocol: 'REST',
      send: () => rest('POST', '/api/tenant/set-plan', { id: s.tenantId, plan: 'professional', user: 25, ticket: 100 }),
      expected: () => ({
        operation: 'tenant.plan',
        ...tenantTarget(),
        changes: [changed('plan', 'starter', 'professional'), changed('user_limit', 5, 25)],
      }),
    },
    {
      label: 'tenant.plan set to the plan it has: recorded, no changes',
      protocol: 'REST',
      send: () => rest('POST', '/api/tenant/set-plan', { id: s.tenantId, plan: 'professional', user: 25, ticket: 100 }),
      expected: () => ({ operation: 'tenant.plan', ...tenantTarget(), changes: [] }),
    },
    {
      label: 'tenant.feature',
      protocol: 'REST',
      send: () => rest('POST', '/api/tenant/feature', { tenantName: s.tenantName, option: 'campaigns', enabled: true }),
      expected: () => ({
        operation: 'tenant.feature',
        ...tenantTarget(),
        changes: [changed('campaigns', false, true)],
      }),
    },
    {
      label: 'instance.create',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/instance', {
          tenantName: s.tenantName,
          name: 'Canal Registro',
          isOfficial: false,
          isUnlimited: true,
        }),
      expected: (answer) => {
        s.instanceId = answer.body.id as number;
        return {
          operation: 'instance.create',
          targetType: 'instance',
          targetId: s.instanceId,
          targetName: 'Canal Registro',
          tenantId: s.tenantId,
          changes: created({ name: 'Canal Registro', activated: true, is_official: false, is_unlimited: true }),
        };
      },
    },
    {
      label: 'instance.update',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/instance/update', {
          tenantName: s.tenantName,
          id: s.instanceId,
          name: 'Canal Oficial',
          isOfficial: true,
          isUnlimited: true,
        }),
      expected: () => ({
        operation: 'instance.update',
        targetType: 'instance',
        targetId: s.instanceId,
        targetName: 'Canal Oficial',
        tenantId: s.tenantId,
        changes: [changed('name', 'Canal Registro', 'Canal Oficial'), changed('is_official', false, true)],
      }),
    },
    {
      label: 'instance.sync (the start; the progress writes no record)',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/instance/syncMessages', {
          tenantName: s.tenantName,
          id: s.instanceId,
          daysAgo: 7,
          unlimitedSync: false,
        }),
      expected: async () => {
        // Wait for the background batches to end: they must not add records (checked by the caller).
        for (let i = 0; i < 500; i += 1) {
          const row = await t.db
            .selectFrom('instances')
            .select('status')
            .where('id', '=', s.instanceId)
            .executeTakeFirstOrThrow();
          if (row.status === 'done') break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return {
          operation: 'instance.sync',
          targetType: 'instance',
          targetId: s.instanceId,
          targetName: 'Canal Oficial',
          tenantId: s.tenantId,
          // A new tenant has no messages: the window's total is 0.
          changes: [changed('status', 'idle', 'syncing'), changed('total_messages', null, 0)],
        };
      },
    },
    {
      label: 'instance.create (a second one)',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/instance', {
          tenantName: s.tenantName,
          name: 'Outro Canal',
          isOfficial: false,
          isUnlimited: false,
        }),
      expected: (answer) => ({
        operation: 'instance.create',
        targetType: 'instance',
        targetId: answer.body.id as number,
        targetName: 'Outro Canal',
        tenantId: s.tenantId,
        changes: created({ name: 'Outro Canal', activated: true, is_official: false, is_unlimited: false }),
      }),
    },
    {
      label: 'connection.create',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/connection', { tenantName: s.tenantName, instance_id: s.instanceId, name: 'Loja 1' }),
      expected: (answer) => {
        s.restConnectionId = answer.body.id as number;
        return {
          operation: 'connection.create',
          targetType: 'connection',
          targetId: s.restConnectionId,
          targetName: 'Loja 1',
          tenantId: s.tenantId,
          changes: created({ name: 'Loja 1', instance_id: s.instanceId, activated: true }),
        };
      },
    },
    {
      label: 'connection.update',
      protocol: 'REST',
      send: () =>
        rest('POST', '/api/connection/update', {
          tenantName: s.tenantName,
          id: s.restConnectionId,
          name: 'Loja Um',
          activated: false,
        }),
      expected: () => ({
        operation: 'connection.update',
        targetType: 'connection',
        targetId: s.restConnectionId,
        targetName: 'Loja Um',
        tenantId: s.tenantId,
        changes: [changed('name', 'Loja 1', 'Loja Um'), changed('activated', true, false)],
      }),
    },
    {
      label: 'connection.create',
      protocol: 'GraphQL',
      send: () =>
        gql(
          'mutation c($instance_id: Int!, $name: String!) { createConnection(instance_id: $instance_id, name: $name) { id name } }',
          { instance_id: s.instanceId, name: 'Loja 2' },
        ),
      expected: (answer) => {
        s.gqlConnectionId = data<{ id: number }>(answer, 'createConnection').id;
        return {
          operation: 'connection.create',
          targetType: 'connection',
          targetId: s.gqlConnectionId,
          targetName: 'Loja 2',
          tenantId: s.tenantId,
          changes: created({ name: 'Loja 2', instance_id: s.instanceId, activated: true }),
        };
      },
    },
    {
      label: 'connection.update',
      protocol: 'GraphQL',
      send: () =>
        gql('mutation u($id: Int!, $activated: Boolean) { updateConnection(id: $id, activated: $activated) { id } }', {
          id: s.gqlConnectionId,
          activated: false,
        }),
      expected: (answer) => {
        data(answer, 'updateConnection');
        return {
          operation: 'connection.update',
          targetType: 'connection',
          targetId: s.gqlConnectionId,
          targetName: 'Loja 2',
          tenantId: s.tenantId,
          changes: [changed('activated', true, false)],
        };
      },
    },
    {
      label: 'department.create',
      protocol: 'REST',
      send: () => rest('POST', `/api/departments?tenantName=${s.tenantName}`, { name: '  Vendas  ' }),
      expected: (answer) => {
        s.restDepartmentId = answer.body.id as number;
        return {
          operation: 'department.create',
          targetType: 'department',
          targetId: s.restDepartmentId,
          targetName: 'Vendas',
          tenantId: s.tenantId,
          changes: created({ name: 'Vendas', activated: true }),
        };
      },
    },
    {
      label: 'department.update',
      protocol: 'REST',
      send: () =>
        rest('PATCH', `/api/departments/${s.restDepartmentId}?tenantName=${s.tenantName}`, {
          name: 'Vendas',
          activated: false,
        }),
      expected: () => ({
        operation: 'department.update',
        targetType: 'department',
        targetId: s.restDepartmentId,
        targetName: 'Vendas',
        tenantId: s.tenantId,
        changes: [changed('activated', true, false)],
      }),
    },
    {
      label: 'department.create',
      protocol: 'GraphQL',
      send: () => gql('mutation d($name: String!) { createDepartment(name: $name) { id } }', { name: 'Compras' }),
      expected: (answer) => {
        s.gqlDepartmentId = data<{ id: number }>(answer, 'createDepartment').id;
        return {
          operation: 'department.create',
          targetType: 'department',
          targetId: s.gqlDepartmentId,
          targetName: 'Compras',
          tenantId: s.tenantId,
          changes: created({ name: 'Compras', activated: true }),
        };
      },
    },
    {
      label: 'department.update',
      protocol: 'GraphQL',
      send: () =>
        gql('mutation u($id: Int!, $name: String) { updateDepartment(id: $id, name: $name) { id } }', {
          id: s.gqlDepartmentId,
          name: 'Compras e Estoque',
        }),
      expected: (answer) => {
        data(answer, 'updateDepartment');
        return {
          operation: 'department.update',
          targetType: 'department',
          targetId: s.gqlDepartmentId,
          targetName: 'Compras e Estoque',
          tenantId: s.tenantId,
          changes: [changed('name', 'Compras', 'Compras e Estoque')],
        };
      },
    },
    {
      label: 'role.create',
      protocol: 'REST',
      send: () => rest('POST', '/api/roles', { name: 'registro_a', display_name: 'Registro A' }),
      expected: (answer) => {
        s.roleId = answer.body.id as number;
        return {
          operation: 'role.create',
          targetType: 'role',
          targetId: s.roleId,
          targetName: 'Registro A',
          tenantId: null,
          changes: created({ name: 'registro_a', display_name: 'Registro A' }),
        };
      },
    },
    {
      label: 'role.rename',
      protocol: 'REST',
      send: () => rest('PUT', `/api/roles/${s.roleId}`, { display_name: 'Registro Á' }),
      expected: () => ({
        operation: 'role.rename',
        targetType: 'role',
        targetId: s.roleId,
        targetName: 'Registro Á',
        tenantId: null,
        changes: [changed('display_name', 'Registro A', 'Registro Á')],
      }),
    },
    {
      label: 'role.permissions (sorted route names)',
      protocol: 'REST',
      send: () => rest('POST', '/api/permission/update', { roleId: s.roleId, permissions: [...s.routes].reverse() }),
      expected: () => ({
        operation: 'role.permissions',
        targetType: 'role',
        targetId: s.roleId,
        targetName: 'Registro Á',
        tenantId: null,
        changes: [changed('permissions', [], [...s.routes].sort())],
      }),
    },
    {
      label: 'role.permissions (one fewer)',
      protocol: 'REST',
      send: () => rest('POST', '/api/permission/update', { roleId: s.roleId, permissions: s.routes.slice(0, 2) }),
      expected: () => ({
        operation: 'role.permissions',
        targetType: 'role',
        targetId: s.roleId,
        targetName: 'Registro Á',
        tenantId: null,
        changes: [changed('permissions', [...s.routes].sort(), s.routes.slice(0, 2).sort())],
      }),
    },
    {
      label: 'role.delete (what the role was)',
      protocol: 'REST',
      send: () => rest('DELETE', `/api/roles/${s.roleId}`),
      expected: () => ({
        operation: 'role.delete',
        targetType: 'role',
        targetId: s.roleId,
        targetName: 'Registro Á',
        tenantId: null,
        changes: [
          { field: 'name', before: j('registro_a'), after: null },
          { field: 'display_name', before: j('Registro Á'), after: null },
          { field: 'permissions', before: j(s.routes.slice(0, 2).sort()), after: null },
        ],
      }),
    },
    {
      label: 'tenant.delete',
      protocol: 'REST',
      send: () => rest('POST', '/api/tenant/delete', { id: s.tenantId }),
      expected: (answer) => {
        s.deletedAt = answer.body.deleted_at as string;
        expect(s.deletedAt).toEqual(expect.any(String));
        return { operation: 'tenant.delete', ...tenantTarget(), changes: [changed('deleted_at', null, s.deletedAt)] };
      },
    },
    {
      label: 'tenant.restore',
      protocol: 'REST',
      send: () => rest('POST', '/api/tenant/restore', { id: s.tenantId }),
      expected: () => ({
        operation: 'tenant.restore',
        ...tenantTarget(),
        changes: [changed('deleted_at', s.deletedAt, null)],
      }),
    },
  ];

  it.each(steps.map((step) => [step.protocol, step.label, step] as const))(
    '%s %s: one record with the operation, target, tenant, actor, origin and real before/after',
    async (_protocol, _label, step) => {
      const before = await lastAuditId();
      heard.length = 0;
      const answer = await step.send();
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      const want = await step.expected(answer);
      const records = await recordsAfter(before);
      expect(records).toHaveLength(1);
      const [record] = records;
      expect(record).toMatchObject({
        operation: want.operation,
        target_type: want.targetType,
        target_id: want.targetId,
        target_name: want.targetName,
        tenant_id: want.tenantId,
        actor_user_id: actor.id,
        actor_name: actor.name,
        actor_email: actor.email,
        actor_tenant_id: actor.tenant_id,
        actor_tenant_name: actor.tenant_name,
        address: ADDRESS,
        request_id: answer.requestId,
      });
      expect(record?.changes).toEqual(want.changes);
      // Announced after the commit (contracts/socket.md §3): the target's tenant and the actor's.
      const announced = heard.filter((e) => e.event === 'AuditRecorded');
      expect(announced.map((e) => e.tenantName).sort()).toEqual(
        [...new Set([actor.tenant_name, ...(want.tenantId === null ? [] : [s.tenantName])])].sort(),
      );
      expect(announced[0]?.data).toMatchObject({ id: record?.id, operation: want.operation });
    },
  );

  it.each<[string, number, () => Promise<Sent>]>([
    [
      'tenant create with a taken name',
      409,
      () =>
        rest('POST', '/api/tenant', {
          name: s.tenantName,
          cnpj: CNPJ,
          features: [],
          template: 'pharmacy',
          pool: 'pool-a',
          userLimit: 5,
          plan: 'starter',
          ticketLimit: 100,
        }),
    ],
    [
      'tenant update to an unknown id',
      404,
      () => rest('POST', '/api/tenant/update', { id: 999_999, name: 'nada', cnpj: CNPJ, template: 't', pool: 'p' }),
    ],
    ['tenant delete of the own tenant', 409, () => rest('POST', '/api/tenant/delete', { id: actor.tenant_id })],
    ['tenant restore of a live tenant', 409, () => rest('POST', '/api/tenant/restore', { id: s.tenantId })],
    [
      'tenant set-plan with a limit out of range',
      400,
      () => rest('POST', '/api/tenant/set-plan', { id: s.tenantId, plan: 'starter', user: 0, ticket: 1 }),
    ],
    [
      'tenant set-plan of an unknown tenant',
      404,
      () => rest('POST', '/api/tenant/set-plan', { id: 999_999, plan: 'starter', user: 1, ticket: 1 }),
    ],
    [
      'tenant feature that does not exist',
      404,
      () => rest('POST', '/api/tenant/feature', { tenantName: s.tenantName, option: 'nao-existe', enabled: true }),
    ],
    ['role create with a taken name', 409, () => rest('POST', '/api/roles', { name: 'operador', display_name: 'X' })],
    ['role rename of an unknown role', 404, () => rest('PUT', '/api/roles/999999', { display_name: 'X' })],
    [
      'permission update of administrador',
      409,
      async () => {
        const role = await t.db
          .selectFrom('roles')
          .select('id')
          .where('name', '=', 'administrador')
          .executeTakeFirstOrThrow();
        return rest('POST', '/api/permission/update', { roleId: role.id, permissions: [] });
      },
    ],
    [
      'role delete of a role users hold',
      409,
      async () => {
        const role = await t.db
          .selectFrom('roles')
          .select('id')
          .where('name', '=', 'operador')
          .executeTakeFirstOrThrow();
        return rest('DELETE', `/api/roles/${role.id}`);
      },
    ],
    [
      'instance update to a name another instance has',
      409,
      () => rest('POST', '/api/instance/update', { tenantName: s.tenantName, id: s.instanceId, name: 'outro canal' }),
    ],
    [
      'instance sync of an unknown instance',
      404,
      () =>
        rest('POST', '/api/instance/syncMessages', {
          tenantName: s.tenantName,
          id: 999_999,
          daysAgo: null,
          unlimitedSync: true,
        }),
    ],
    [
      'connection update with nothing to change',
      400,
      () => rest('POST', '/api/connection/update', { tenantName: s.tenantName, id: s.restConnectionId }),
    ],
    [
      'department update to a name another department has (GraphQL)',
      200,
      () =>
        gql('mutation u($id: Int!, $name: String) { updateDepartment(id: $id, name: $name) { id } }', {
          id: s.gqlDepartmentId,
          name: 'VENDAS',
        }),
    ],
  ])('refused: %s (%i) writes no record and changes nothing', async (_label, status, send) => {
    const snapshot = async () => ({
      tenant: await t.db.selectFrom('tenants').selectAll().where('id', '=', s.tenantId).executeTakeFirstOrThrow(),
      instance: await t.db.selectFrom('instances').selectAll().where('id', '=', s.instanceId).executeTakeFirstOrThrow(),
      departments: await t.db.selectFrom('departments').selectAll().where('tenant_id', '=', s.tenantId).execute(),
    });
    const stateBefore = await snapshot();
    const before = await lastAuditId();
    const answer = await send();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (status === 200) expect(answer.body.errors).toBeDefined();
    expect(await recordsAfter(before)).toEqual([]);
    const stateAfter = await snapshot();
    expect(stateAfter.tenant).toEqual(stateBefore.tenant);
    expect(stateAfter.instance).toEqual(stateBefore.instance);
    expect(stateAfter.departments).toEqual(stateBefore.departments);
  });

  it.each([
    ['tenant set-plan', 'tenant.plan', 'user_limit'],
    ['department update', 'department.update', 'name'],
  ] as const)(
    "parallel %s calls: each record's before is the after of the one committed just before it (the row is read locked)",
    async (_label, operation, field) => {
      const N = 8;
      const before = await lastAuditId();
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          operation === 'tenant.plan'
            ? rest('POST', '/api/tenant/set-plan', { id: s.tenantId, plan: 'starter', user: 40 + i, ticket: 100 })
            : rest('PATCH', `/api/departments/${s.restDepartmentId}?tenantName=${s.tenantName}`, {
                name: `Corrida ${i}`,
              }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array.from({ length: N }, () => 200));
      const records = (await recordsAfter(before)).filter((r) => r.operation === operation);
      expect(records).toHaveLength(N);
      const values = records.map((r) => {
        const change = (r.changes as AuditChange[]).find((c) => c.field === field);
        if (!change) throw new Error(`record ${r.id} has no ${field} change: ${JSON.stringify(r.changes)}`);
        return change;
      });
      for (let i = 1; i < values.length; i += 1) expect(values[i]?.before).toBe(values[i - 1]?.after);
    },
  );

  describe('a change whose transaction fails', () => {
    afterEach(async () => {
      await sql`drop trigger if exists records_a_fail on tenants`.execute(t.db);
      await sql`drop trigger if exists records_a_fail on departments`.execute(t.db);
      await sql`drop function if exists records_a_fail()`.execute(t.db);
    });

    async function installFailure(table: 'tenants' | 'departments', trigger: string): Promise<void> {
      await sql`create function records_a_fail() returns trigger language plpgsql as $$
        begin raise exception 'injected failure'; end $$`.execute(t.db);
      await sql.raw(trigger.replace('TABLE', table)).execute(t.db);
    }

    it('tenant set-plan failing at commit (after its record was written): 5xx, no record, no event, plan unchanged', async () => {
      // Deferred: the trigger fires at COMMIT, after the service wrote the record in the same transaction.
      await installFailure(
        'tenants',
        `create constraint trigger records_a_fail after update on TABLE deferrable initially deferred
         for each row when (new.plan = 'enterprise') execute function records_a_fail()`,
      );
      const stored = () =>
        t.db
          .selectFrom('tenants')
          .select(['plan', 'user_limit', 'ticket_limit'])
          .where('id', '=', s.tenantId)
          .executeTakeFirstOrThrow();
      const planBefore = await stored();
      const before = await lastAuditId();
      heard.length = 0;
      const answer = await rest('POST', '/api/tenant/set-plan', {
        id: s.tenantId,
        plan: 'enterprise',
        user: 200,
        ticket: 1000,
      });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(await recordsAfter(before)).toEqual([]);
      expect(heard.filter((e) => e.event === 'AuditRecorded')).toEqual([]);
      expect(await stored()).toEqual(planBefore);
    });

    it('department update failing on its row: 5xx, no record, name unchanged', async () => {
      await installFailure(
        'departments',
        `create trigger records_a_fail before update on TABLE
         for each row when (new.name = 'Falha') execute function records_a_fail()`,
      );
      const name = () =>
        t.db.selectFrom('departments').select('name').where('id', '=', s.restDepartmentId).executeTakeFirstOrThrow();
      const nameBefore = await name();
      const before = await lastAuditId();
      const answer = await rest('PATCH', `/api/departments/${s.restDepartmentId}?tenantName=${s.tenantName}`, {
        name: 'Falha',
      });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(await recordsAfter(before)).toEqual([]);
      expect(await name()).toEqual(nameBefore);
    });
  });
});
