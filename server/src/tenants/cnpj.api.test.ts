import { startTestApp, type TestApp } from '../test-support/app';

/**
 * POST /api/tenant with alphanumeric CNPJs (IN RFB 2.229/2024): accepted bare or masked and in any
 * case, stored masked in upper case, refused with a message that says what is wrong, found by search.
 */
describe('tenant create with alphanumeric CNPJs', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let counter = 0;

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  const create = (cnpj: string) => {
    counter += 1;
    return t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant',
      headers: admin,
      payload: {
        name: `cnpj-teste-${String(counter)}`,
        cnpj,
        features: ['chat'],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      },
    });
  };

  it.each([
    ['12abc34501de35', '12.ABC.345/01DE-35'],
    ['12.abc.345/01De-35', '12.ABC.345/01DE-35'],
    ['AB12CD34000184', 'AB.12C.D34/0001-84'],
    ['11222333000181', '11.222.333/0001-81'],
  ])('stores %j as %j', async (cnpj, stored) => {
    const response = await create(cnpj);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ id: number; cnpj: string }>();
    expect(body.cnpj).toBe(stored);
    const row = await t.db
      .selectFrom('tenants')
      .select(['cnpj', 'cnpj_bare'])
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cnpj: stored, cnpj_bare: stored.replace(/[./-]/g, '') });
  });

  it.each([
    ['12.ABC.345/01DE-36', /check digits/],
    ['AB.12C.D34/0001-48', /check digits/],
    ['AAAAAAAAAAAA45', /one character repeated/],
  ])('refuses %j on body/cnpj, saying %s', async (cnpj, message) => {
    const response = await create(cnpj);
    expect(response.statusCode).toBe(400);
    const errors = response.json<{ errors: { field: string; message: string }[] }>().errors;
    expect(errors.map((e) => e.field)).toEqual(['body/cnpj']);
    expect(errors[0]?.message).toMatch(message);
  });

  it.each(['12.ABC.345/01DE-3A', '12ABC34501DEAB', '12.ABC.345/01DE35', '12 ABC 345 01DE 35', '12.ÀBC.345/01DE-35'])(
    'refuses %j by the contract pattern',
    async (cnpj) => {
      const response = await create(cnpj);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['body/cnpj']);
    },
  );

  it('finds a tenant created with a lower-case bare CNPJ by a lower-case part of it', async () => {
    const created = await create('12abc34501de35');
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: number }>();
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers: admin,
      payload: { search: 'abc345', pagination_limit: 100 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: { id: number; cnpj: string }[] }>().data).toContainEqual(
      expect.objectContaining({ id, cnpj: '12.ABC.345/01DE-35' }),
    );
  });
});
