import { startTestApp, type TestApp } from '../test-support/app';

/**
 * POST /api/tenant/update (contracts/openapi.yaml tenantUpdate): back-office staff change a tenant's
 * name, CNPJ, template and pool with creation's rules; a bad value is a 400 on its field and changes
 * nothing; a name another tenant has is a 409 on `name`; an unknown id is 404.
 */
describe('tenant update', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let tenant: { id: number; name: string };

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    const created = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant',
      headers: admin,
      payload: {
        name: 'editar-me',
        cnpj: '11.222.333/0001-81',
        features: ['chat'],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    tenant = created.json();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  const update = (body: Record<string, unknown>) =>
    t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/update',
      headers: admin,
      payload: {
        id: tenant.id,
        name: tenant.name,
        cnpj: '11.222.333/0001-81',
        template: 'pharmacy',
        pool: 'pool-a',
        ...body,
      },
    });
  const stored = () =>
    t.db
      .selectFrom('tenants')
      .select(['name', 'cnpj', 'template', 'pool', 'plan', 'user_limit'])
      .where('id', '=', tenant.id)
      .executeTakeFirstOrThrow();

  it('changes the name, CNPJ (stored masked, upper case), template and pool, and nothing else', async () => {
    const response = await update({ name: 'editada', cnpj: '12abc34501de35', template: 'clinic', pool: 'pool-b' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: tenant.id,
      name: 'editada',
      cnpj: '12.ABC.345/01DE-35',
      template: 'clinic',
      pool: 'pool-b',
    });
    expect(await stored()).toEqual({
      name: 'editada',
      cnpj: '12.ABC.345/01DE-35',
      template: 'clinic',
      pool: 'pool-b',
      plan: 'starter',
      user_limit: 5,
    });
    tenant = { ...tenant, name: 'editada' };
    const found = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers: admin,
      payload: { search: 'editada' },
    });
    expect(found.json<{ data: { id: number }[] }>().data.map((r) => r.id)).toContain(tenant.id);
  });

  it.each([
    [{ cnpj: '12.ABC.345/01DE-36' }, 'body/cnpj', /check digits/],
    [{ cnpj: '11111111111111' }, 'body/cnpj', /repeated/],
    [{ name: 'Nome Com Espaco' }, 'body/name', /./],
    [{ template: 'Modelo!' }, 'body/template', /./],
    [{ pool: '' }, 'body/pool', /./],
  ])('refuses %j with a 400 on %s and changes nothing', async (body, field, message) => {
    const before = await stored();
    const response = await update(body);
    expect(response.statusCode, response.body).toBe(400);
    const errors = response.json<{ errors: { field: string; message: string }[] }>().errors;
    expect(errors.map((e) => e.field)).toEqual([field]);
    expect(errors[0]?.message).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("refuses another tenant's name (live or deleted) with 409 on name, and keeps its own name", async () => {
    const before = await stored();
    const taken = await update({ name: 'farmacia-central' });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toMatchObject({ field: 'name' });
    expect(await stored()).toEqual(before);
    // Its own name is not a conflict.
    expect((await update({ name: before.name, pool: 'pool-c' })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/update',
      headers: admin,
      payload: { id: 999_999, name: 'ninguem', cnpj: '11.222.333/0001-81', template: 'pharmacy', pool: 'pool-a' },
    });
    expect(response.statusCode).toBe(404);
  });
});
