import { readFileSync } from 'node:fs';
import type { AuditOperation } from '../../../src/domain/audit';
import { ADMIN_ROLE } from '../db/catalog';
import { startTestApp, type TestApp } from '../test-support/app';
import { createTestUser } from '../test-support/users';
import type { AuditPageDto } from './service';
import { writeAudit } from './trail';

// GraphQL `auditRecords` (contracts/schema.graphql) against REST `GET /api/audit` on the same database:
// the same pages for the same filters and cursor, the same refusals field by field, the same scope.
// The differential suite (server/src/parity/) runs twins whose records differ by nature (request ids,
// instants), so the two protocols are compared here on one app instead.
const DOCUMENT = readFileSync(
  new URL('../../../contracts/operations/auditRecords.query.graphql', import.meta.url),
  'utf8',
);

let t: TestApp;
let staff: string;
let tenantAdmin: string;
let operador: string;
let mine: { id: number; name: string };
let other: { id: number; name: string };
let staffId: number;

type Variables = {
  from?: string;
  to?: string;
  actorId?: number;
  tenantId?: number;
  operation?: string[];
  targetType?: string;
  targetId?: number;
  after?: string;
  limit?: number;
};

async function token(email: string): Promise<string> {
  const user = await t.db
    .selectFrom('users')
    .select(['id', 'token_version'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return (await t.app.tokens.issue(user.id, user.token_version)).token;
}

async function rest(bearer: string, variables: Variables) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(variables)) for (const one of [v].flat()) params.append(k, String(one));
  const response = await t.app.fastify.inject({
    method: 'GET',
    url: `/api/audit?${params.toString()}`,
    headers: { authorization: `Bearer ${bearer}` },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

interface GqlAnswer {
  status: number;
  data?: { auditRecords: AuditPageDto } | null;
  errors?: { message: string; extensions?: { code?: string; field?: string } }[];
}

async function graphql(bearer: string, variables: Variables, tenant = 'backoffice'): Promise<GqlAnswer> {
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: `/${tenant}/graphql`,
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      authorization: `Bearer ${bearer}`,
    },
    payload: JSON.stringify({ query: DOCUMENT, variables }),
  });
  return { status: response.statusCode, ...response.json<Omit<GqlAnswer, 'status'>>() };
}

async function createTenant(name: string, cnpj: string) {
  return t.db
    .insertInto('tenants')
    .values({ name, cnpj, template: 't', pool: 'p', plan: 'starter', user_limit: 5, ticket_limit: 10 })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

async function write(operation: AuditOperation, tenant: { id: number; name: string } | null, targetId: number) {
  return (
    await writeAudit(
      t.db,
      { actor: { userId: staffId, tenantId: 1 }, origin: { requestId: 'req-g', address: '2001:db8::7' } },
      {
        operation,
        target: { id: targetId, name: `alvo ${targetId}` },
        tenantId: tenant?.id ?? null,
        changes: [{ field: 'name', before: `"antes ${targetId}"`, after: `"depois ${targetId}"` }],
      },
    )
  ).id;
}

beforeAll(async () => {
  t = await startTestApp({ seed: { days: 1 } });
  staff = await token('admin@demo.local');
  operador = await token('operador@demo.local');
  staffId = (
    await t.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.local').executeTakeFirstOrThrow()
  ).id;
  mine = await createTenant('auditoria-g-minha', '11.222.333/0001-81');
  other = await createTenant('auditoria-g-outra', '11.444.777/0001-61');
  await createTestUser(t.db, {
    email: 'admin-g@auditoria.local',
    tenant: mine.name,
    role: ADMIN_ROLE,
    originBackoffice: false,
  });
  tenantAdmin = await token('admin-g@auditoria.local');
  for (let i = 1; i <= 12; i++) {
    await write('user.update', mine, i);
    await write('department.create', other, i);
    if (i % 4 === 0) await write('role.rename', null, i);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('auditRecords agrees with GET /api/audit', () => {
  const far = new Date(Date.now() + 86_400_000).toISOString();
  const cases: [string, () => Variables][] = [
    ['no filter', () => ({})],
    ['a tenant', () => ({ tenantId: mine.id })],
    ['operations', () => ({ operation: ['department.create', 'role.rename'], limit: 7 })],
    ['a target', () => ({ targetType: 'user', targetId: 3 })],
    ['an actor and a window', () => ({ actorId: staffId, from: '2020-01-01T00:00:00Z', to: far, limit: 5 })],
    ['an empty window', () => ({ from: far })],
  ];

  it.each(cases)('%s: the same pages, walked to the end', async (_name, variables) => {
    let after: string | undefined;
    for (let pages = 0; pages < 40; pages++) {
      const query = { ...variables(), ...(after ? { after } : {}) };
      const viaRest = await rest(staff, query);
      const viaGraphql = await graphql(staff, query);
      expect(viaRest.status).toBe(200);
      expect(viaGraphql.errors).toBeUndefined();
      expect(viaGraphql.data?.auditRecords).toEqual(viaRest.body);
      const next = viaGraphql.data?.auditRecords.next;
      if (!next) return;
      after = next;
    }
    throw new Error('more pages than records');
  });

  it("keeps a tenant administrator to their tenant's records through both, whatever tenantId says", async () => {
    for (const query of [{}, { tenantId: other.id }, { operation: ['department.create'] }]) {
      const viaRest = await rest(tenantAdmin, query);
      const viaGraphql = await graphql(tenantAdmin, query, mine.name);
      expect(viaGraphql.data?.auditRecords).toEqual(viaRest.body);
      const page = viaRest.body as unknown as AuditPageDto;
      expect(page.data.every((r) => r.tenant_id === mine.id)).toBe(true);
    }
    expect((await graphql(tenantAdmin, { tenantId: other.id }, mine.name)).data?.auditRecords.data).toEqual(
      (await graphql(tenantAdmin, {}, mine.name)).data?.auditRecords.data,
    );
  });

  it('refuses operador with FORBIDDEN, as REST does with 403', async () => {
    expect((await rest(operador, {})).status).toBe(403);
    const answer = await graphql(operador, {});
    expect(answer.status).toBe(403);
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it.each<[string, Variables]>([
    ['from', { from: 'ontem' }],
    ['to', { to: '2026-02-30T00:00:00Z' }],
    ['to', { from: '2026-11-02T00:00:00Z', to: '2026-11-01T23:59:59Z' }],
    ['after', { after: 'abc' }],
    ['after', { after: '-5' }],
    ['limit', { limit: 0 }],
    ['limit', { limit: 201 }],
    ['operation', { operation: ['user.update', 'tenant.fly'] }],
    ['targetType', { targetType: 'planet' }],
    ['actorId', { actorId: 0 }],
    ['tenantId', { tenantId: -1 }],
    ['targetId', { targetId: 0 }],
  ])('refuses a bad %s: BAD_USER_INPUT on it, 400 on it in REST (%j)', async (field, variables) => {
    const answer = await graphql(staff, variables);
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['BAD_USER_INPUT', field]]);
    const viaRest = await rest(staff, variables);
    expect(viaRest.status).toBe(400);
    const fields = (viaRest.body.errors as { field: string }[]).map((e) => e.field.replace(/\.\d+$/, ''));
    expect(fields).toEqual([`query/${field}`]);
  });

  it('names every bad field at once, in both', async () => {
    const variables = { from: 'ontem', limit: 999, targetType: 'planet', actorId: 0 };
    const answer = await graphql(staff, variables);
    expect(answer.errors?.map((e) => e.extensions?.field).sort()).toEqual(['actorId', 'from', 'limit', 'targetType']);
    const viaRest = await rest(staff, variables);
    expect((viaRest.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
      'query/actorId',
      'query/from',
      'query/limit',
      'query/targetType',
    ]);
    // The rules the REST schema cannot state are named together too.
    const semantic = { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z', after: 'x' };
    expect((await graphql(staff, semantic)).errors?.map((e) => e.extensions?.field).sort()).toEqual(['after', 'to']);
    const semanticRest = await rest(staff, semantic);
    expect((semanticRest.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
      'query/after',
      'query/to',
    ]);
  });
});
