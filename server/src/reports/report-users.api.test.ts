import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';

let t: TestApp;
let customer: { id: number; name: string };
const ok = { valid: true, errors: [] };
const URL = '/api/dashboard-report/users';

async function bearer(email: string, password: string): Promise<{ authorization: string }> {
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, ip: null },
  });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

async function usersOf(tenantId: number) {
  return t.db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

beforeAll(async () => {
  t = await startTestApp({ seed: { days: 1 } });
  customer = await t.db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .where('name', '!=', 'backoffice')
    .orderBy('id')
    .executeTakeFirstOrThrow();
}, 180_000);

afterAll(async () => t.close());

describe('GET /api/dashboard-report/users (the report user picker)', () => {
  it('gives the report-only operador its own tenant users (id, name, email), by name', async () => {
    const operador = await t.auth('operador@demo.local');
    const response = await t.app.fastify.inject({ url: URL, headers: operador });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ id: number; name: string; email: string }[]>();
    expect(validateResponse('dashboardReportUsers', 200, body)).toEqual(ok);
    const backoffice = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'backoffice')
      .executeTakeFirstOrThrow();
    expect(body).toEqual(await usersOf(backoffice.id));
    expect(body.map((u) => u.email)).toEqual(expect.arrayContaining(['admin@demo.local', 'operador@demo.local']));
    expect(body.some((u) => u.email.endsWith(`@${customer.name}.demo.local`))).toBe(false);
  });

  it('lets staff name a tenant; a tenant user naming another tenant is refused', async () => {
    const operador = await t.auth('operador@demo.local');
    const named = await t.app.fastify.inject({ url: `${URL}?tenantName=${customer.name}`, headers: operador });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual(await usersOf(customer.id));

    const local = await createTestUser(t.db, {
      email: 'report-picker@demo.local',
      tenant: customer.name,
      originBackoffice: false,
    });
    const headers = await bearer(local.email, TEST_PASSWORD);
    const own = await t.app.fastify.inject({ url: URL, headers });
    expect(own.statusCode).toBe(200);
    expect(own.json<{ id: number }[]>().map((u) => u.id)).toContain(local.id);
    expect(own.json()).toEqual(await usersOf(customer.id));
    const other = await t.app.fastify.inject({ url: `${URL}?tenantName=backoffice`, headers });
    expect(other.statusCode).toBe(403);
  });

  it('answers 401 without a token and 403 to a role without the report routes', async () => {
    const anonymous = await t.app.fastify.inject({ url: URL });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ status: 'Authorization Token not found' });

    await t.db.insertInto('roles').values({ name: 'sem_relatorios', display_name: 'Sem relatórios' }).execute();
    const user = await createTestUser(t.db, {
      email: 'no-reports@demo.local',
      tenant: customer.name,
      role: 'sem_relatorios',
      originBackoffice: false,
    });
    const refused = await t.app.fastify.inject({ url: URL, headers: await bearer(user.email, TEST_PASSWORD) });
    expect(refused.statusCode).toBe(403);
    expect(validateResponse('dashboardReportUsers', 403, refused.json())).toEqual(ok);
  });
});
