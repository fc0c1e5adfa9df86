import type { AuditOperation } from '../../../src/domain/audit';
import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import type { AuditNamesDto } from './service';
import { writeAudit } from './trail';

// GET /api/audit/names (contracts/openapi.yaml, auditNames): the audit screen's "Usuário" and "Alvo"
// filters by name (docs/panel.md, Audit log). The names come from the records the caller may read: staff
// every record; a customer's administrator only its own tenant's, never another tenant's people nor staff.
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let tenantAdmin: { authorization: string };
  let operador: { authorization: string };
  let mine: { id: number; name: string };
  let other: { id: number; name: string };
  let staffUser: { id: number; tenantId: number };
  let ana: { id: number; tenantId: number };
  let bruno: { id: number; tenantId: number };

  async function createTenant(name: string, cnpj: string) {
    return t.db
      .insertInto('tenants')
      .values({ name, cnpj, template: 't', pool: 'p', plan: 'starter', user_limit: 5, ticket_limit: 10 })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  const bearer = (email: string) => issuedBearer(t, email);

  async function user(email: string, tenant: { id: number; name: string }, name: string) {
    const created = await createTestUser(t.db, { email, tenant: tenant.name, role: ADMIN_ROLE, name });
    return { id: created.id, tenantId: tenant.id };
  }

  async function write(
    operation: AuditOperation,
    actor: { id: number; tenantId: number },
    tenant: { id: number; name: string } | null,
    target: { id: number | null; name: string | null },
  ) {
    await writeAudit(
      t.db,
      { actor: { userId: actor.id, tenantId: actor.tenantId }, origin: { requestId: 'req-names', address: null } },
      { operation, target, tenantId: tenant?.id ?? null },
    );
  }

  async function ask(query: Record<string, string | number>, headers: Record<string, string> = staff) {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return t.app.fastify.inject({ method: 'GET', url: `/api/audit/names?${params.toString()}`, headers });
  }

  async function names(query: Record<string, string | number>, headers: Record<string, string> = staff) {
    const response = await ask(query, headers);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<AuditNamesDto>();
    expect(validateResponse('auditNames', 200, body)).toEqual({ valid: true, errors: [] });
    return body.data;
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    staff = await bearer('admin@demo.local');
    operador = await bearer('operador@demo.local');
    mine = await createTenant('nomes-minha', '11.222.333/0001-81');
    other = await createTenant('nomes-outra', '11.444.777/0001-61');
    const backoffice = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '=', 'backoffice')
      .executeTakeFirstOrThrow();
    staffUser = await user('zelia.staff@nomes.local', backoffice, 'Zélia Quixabeira Staff');
    ana = await user('ana.quixabeira@nomes.local', mine, 'Ana Quixabeira');
    bruno = await user('bruno.quixabeira@nomes.local', other, 'Bruno Quixabeira');
    await createTestUser(t.db, {
      email: 'admin-cliente@nomes.local',
      tenant: mine.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    tenantAdmin = await bearer('admin-cliente@nomes.local');
    await write('user.update', ana, mine, { id: ana.id, name: 'Ana Quixabeira' });
    await write('user.update', bruno, other, { id: bruno.id, name: 'Bruno Quixabeira' });
    // Staff acting in the customer's tenant: its records are the customer's, its name is not.
    await write('tenant.update', staffUser, mine, { id: mine.id, name: mine.name });
    await write('tenant.update', staffUser, other, { id: other.id, name: other.name });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it('finds actors by name or e-mail without case, as their newest record names them, by name', async () => {
    const found = await names({ of: 'actor', q: 'QUIXABEIRA' });
    expect(found).toEqual([
      { id: ana.id, name: 'Ana Quixabeira', email: 'ana.quixabeira@nomes.local', tenant_name: mine.name },
      { id: bruno.id, name: 'Bruno Quixabeira', email: 'bruno.quixabeira@nomes.local', tenant_name: other.name },
      { id: staffUser.id, name: 'Zélia Quixabeira Staff', email: 'zelia.staff@nomes.local', tenant_name: 'backoffice' },
    ]);
    expect((await names({ of: 'actor', q: 'bruno.quix' })).map((x) => x.id)).toEqual([bruno.id]);
    expect(await names({ of: 'actor', q: 'quixabeira', id: ana.id })).toHaveLength(1);
    expect(await names({ of: 'actor', q: '%' })).toEqual(expect.not.arrayContaining([expect.anything()]));
    expect(await names({ of: 'actor', q: 'quixabeira', limit: 1 })).toHaveLength(1);
  });

  it('still finds a deleted user, by what its records hold and nothing read from the user since', async () => {
    const gone = await user('carla.quixabeira@nomes.local', mine, 'Carla Quixabeira');
    await write('user.update', gone, mine, { id: gone.id, name: 'Carla Quixabeira' });
    await t.db
      .updateTable('users')
      .set({ deleted_at: new Date(), name: 'renomeada depois', email: 'apagada@nomes.local' })
      .where('id', '=', gone.id)
      .execute();
    expect(await names({ of: 'actor', id: gone.id })).toEqual([
      { id: gone.id, name: 'Carla Quixabeira', email: 'carla.quixabeira@nomes.local', tenant_name: mine.name },
    ]);
    expect(await names({ of: 'actor', q: 'carla' }, tenantAdmin)).toHaveLength(1);
    expect(await names({ of: 'actor', q: 'renomeada' })).toEqual([]);
  });

  it("shows a customer's administrator only its own tenant's people: never another tenant's, never staff", async () => {
    const found = await names({ of: 'actor', q: 'quixabeira' }, tenantAdmin);
    expect(found.map((x) => x.id)).toContain(ana.id);
    expect(found.map((x) => x.id)).not.toContain(bruno.id);
    expect(found.map((x) => x.id)).not.toContain(staffUser.id);
    expect(await names({ of: 'actor', id: bruno.id }, tenantAdmin)).toEqual([]);
    expect(await names({ of: 'actor', id: staffUser.id }, tenantAdmin)).toEqual([]);
    expect(await names({ of: 'actor', q: 'zelia.staff' }, tenantAdmin)).toEqual([]);
  });

  it('finds targets of one kind by name or id, scoped the same way', async () => {
    expect(await names({ of: 'target', targetType: 'tenant', q: 'nomes-' })).toEqual([
      { id: mine.id, name: mine.name, email: null, tenant_name: mine.name },
      { id: other.id, name: other.name, email: null, tenant_name: other.name },
    ]);
    expect((await names({ of: 'target', targetType: 'tenant', q: String(other.id) })).map((x) => x.id)).toContain(
      other.id,
    );
    expect((await names({ of: 'target', targetType: 'user', q: 'quixabeira' })).map((x) => x.id)).toEqual(
      expect.arrayContaining([ana.id, bruno.id]),
    );
    expect(await names({ of: 'target', targetType: 'tenant', q: 'nomes-' }, tenantAdmin)).toEqual([
      { id: mine.id, name: mine.name, email: null, tenant_name: mine.name },
    ]);
    expect(await names({ of: 'target', targetType: 'user', id: bruno.id }, tenantAdmin)).toEqual([]);
    // Another kind's record of the same name is not a tenant.
    expect(await names({ of: 'target', targetType: 'role', q: 'nomes-' })).toEqual([]);
  });

  it('refuses a bad query, a caller without the audit permission, and no caller', async () => {
    const bad = await ask({ of: 'target', q: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: [{ field: 'query/targetType' }] });
    expect((await ask({ of: 'someone' })).statusCode).toBe(400);
    expect((await ask({ of: 'actor', limit: 51 })).statusCode).toBe(400);
    expect((await ask({ of: 'actor', q: 'x'.repeat(101) })).statusCode).toBe(400);
    const refused = await ask({ of: 'actor', q: 'ana' }, operador);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Forbidden', required_permission: ['audit'] });
    expect((await ask({ of: 'actor' }, {})).statusCode).toBe(401);
  });
});
