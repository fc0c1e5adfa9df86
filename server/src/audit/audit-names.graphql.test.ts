import { readFileSync } from 'node:fs';
import type { AuditOperation } from '../../../src/domain/audit';
import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import type { AuditNamesDto } from './service';
import { writeAudit } from './trail';

// GraphQL `auditNames` (contracts/schema.graphql) against REST `GET /api/audit/names` on the same database:
// the same names for the same query and caller, the same scope, the same refusals field by field. The rules
// themselves are pinned by ./audit-names.api.test.ts; this file holds the two doors to one answer.
const DOCUMENT = readFileSync(
  new URL('../../../contracts/operations/auditNames.query.graphql', import.meta.url),
  'utf8',
);

type Variables = { of?: string; targetType?: string; q?: string; id?: number; limit?: number };

interface GqlAnswer {
  status: number;
  data?: { auditNames: AuditNamesDto['data'] } | null;
  errors?: { message: string; extensions?: { code?: string; field?: string } }[];
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: auditNames agrees with GET /api/audit/names', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let tenantAdmin: { authorization: string };
  let operador: { authorization: string };
  let mine: { id: number; name: string };
  let other: { id: number; name: string };
  let ana: { id: number; tenantId: number };
  let bruno: { id: number; tenantId: number };
  let staffUser: { id: number; tenantId: number };

  async function createTenant(name: string, cnpj: string) {
    return t.db
      .insertInto('tenants')
      .values({ name, cnpj, template: 't', pool: 'p', plan: 'starter', user_limit: 5, ticket_limit: 10 })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  async function user(email: string, tenant: { id: number; name: string }, name: string) {
    const created = await createTestUser(t.db, { email, tenant: tenant.name, role: ADMIN_ROLE, name });
    return { id: created.id, tenantId: tenant.id };
  }

  async function write(
    operation: AuditOperation,
    actor: { id: number; tenantId: number },
    tenant: { id: number; name: string },
    target: { id: number; name: string },
  ) {
    await writeAudit(
      t.db,
      { actor: { userId: actor.id, tenantId: actor.tenantId }, origin: { requestId: 'req-gnames', address: null } },
      { operation, target, tenantId: tenant.id },
    );
  }

  async function rest(headers: Record<string, string>, variables: Variables) {
    const params = new URLSearchParams(Object.entries(variables).map(([k, v]) => [k, String(v)]));
    const response = await t.app.fastify.inject({ method: 'GET', url: `/api/audit/names?${params}`, headers });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  async function graphql(
    headers: Record<string, string>,
    variables: Variables,
    tenant = 'backoffice',
  ): Promise<GqlAnswer> {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenant}/graphql`,
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      },
      payload: JSON.stringify({ query: DOCUMENT, variables }),
    });
    // The body's own fields first: the base API's refusal without a token has a `status` text of its own.
    return { ...response.json<Omit<GqlAnswer, 'status'>>(), status: response.statusCode };
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    staff = await issuedBearer(t, 'admin@demo.local');
    operador = await issuedBearer(t, 'operador@demo.local');
    mine = await createTenant('gnomes-minha', '11.222.333/0001-81');
    other = await createTenant('gnomes-outra', '11.444.777/0001-61');
    const backoffice = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '=', 'backoffice')
      .executeTakeFirstOrThrow();
    staffUser = await user('zelia.staff@gnomes.local', backoffice, 'Zélia Jabuticaba Staff');
    ana = await user('ana.jabuticaba@gnomes.local', mine, 'Ana Jabuticaba');
    bruno = await user('bruno.jabuticaba@gnomes.local', other, 'Bruno Jabuticaba');
    await createTestUser(t.db, {
      email: 'admin-cliente@gnomes.local',
      tenant: mine.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    tenantAdmin = await issuedBearer(t, 'admin-cliente@gnomes.local');
    await write('user.update', ana, mine, { id: ana.id, name: 'Ana Jabuticaba' });
    await write('user.update', bruno, other, { id: bruno.id, name: 'Bruno Jabuticaba' });
    await write('tenant.update', staffUser, mine, { id: mine.id, name: mine.name });
    await write('tenant.update', staffUser, other, { id: other.id, name: other.name });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const cases: [string, () => Variables][] = [
    ['actors by text', () => ({ of: 'actor', q: 'JABUTICABA' })],
    ['actors by e-mail, one at most', () => ({ of: 'actor', q: 'bruno.jab', limit: 1 })],
    ['one actor by id', () => ({ of: 'actor', id: ana.id })],
    ['the first actors', () => ({ of: 'actor' })],
    ['targets of a kind', () => ({ of: 'target', targetType: 'tenant', q: 'gnomes-' })],
    ['a target by its id as text', () => ({ of: 'target', targetType: 'tenant', q: String(other.id) })],
    ['nothing for a LIKE wildcard', () => ({ of: 'actor', q: '%' })],
  ];

  it.each(cases)('%s: the same names for staff and for a customer administrator', async (_name, variables) => {
    for (const [caller, tenant] of [
      [staff, 'backoffice'],
      [tenantAdmin, mine.name],
    ] as const) {
      const viaRest = await rest(caller, variables());
      const viaGraphql = await graphql(caller, variables(), tenant);
      expect(viaRest.status).toBe(200);
      expect(viaGraphql.errors).toBeUndefined();
      expect(viaGraphql.data?.auditNames).toEqual(viaRest.body.data);
    }
  });

  it("keeps a customer's administrator to its own tenant's people, whichever tenant path it names", async () => {
    const found = (await graphql(tenantAdmin, { of: 'actor', q: 'jabuticaba' }, mine.name)).data?.auditNames ?? [];
    expect(found.map((x) => x.id)).toEqual([ana.id]);
    expect((await graphql(tenantAdmin, { of: 'actor', id: bruno.id }, mine.name)).data?.auditNames).toEqual([]);
    expect((await graphql(tenantAdmin, { of: 'actor', id: staffUser.id }, mine.name)).data?.auditNames).toEqual([]);
    // Another tenant's path is refused at the door, as for every field.
    const elsewhere = await graphql(tenantAdmin, { of: 'actor', q: 'jabuticaba' }, other.name);
    expect(elsewhere.data?.auditNames ?? null).toBeNull();
    expect(elsewhere.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses operador with FORBIDDEN as REST does with 403, and no caller as 401', async () => {
    expect((await rest(operador, { of: 'actor' })).status).toBe(403);
    const answer = await graphql(operador, { of: 'actor' });
    expect(answer.status).toBe(403);
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await graphql({}, { of: 'actor' })).status).toBe(401);
  });

  it.each<[string, Variables]>([
    ['of', { of: 'someone' }],
    ['targetType', { of: 'target', q: 'x' }],
    ['targetType', { of: 'target', targetType: 'planet' }],
    ['q', { of: 'actor', q: 'x'.repeat(101) }],
    ['id', { of: 'actor', id: 0 }],
    ['limit', { of: 'actor', limit: 0 }],
    ['limit', { of: 'actor', limit: 51 }],
  ])('refuses a bad %s: BAD_USER_INPUT on it, 400 on it in REST (%j)', async (field, variables) => {
    const answer = await graphql(staff, variables);
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.map((e) => [e.extensions?.code, e.extensions?.field])).toEqual([['BAD_USER_INPUT', field]]);
    const viaRest = await rest(staff, variables);
    expect(viaRest.status).toBe(400);
    expect((viaRest.body.errors as { field: string }[]).map((e) => e.field)).toEqual([`query/${field}`]);
  });
});
