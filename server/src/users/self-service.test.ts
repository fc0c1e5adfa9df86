import { startTestApp, type TestApp } from '../test-support/app';
import { createAdmin, AdminCreateError } from '../tooling/admin';

/**
 * Every signed-in user may change their own name and e-mail (REST name-only/email-only forms, GraphQL
 * updateUser without role, department or instances); anything else still needs the `users` route.
 * And no operation that sets a password accepts a weak one (docs/product.md, Passwords), whoever calls it.
 */
let t: TestApp;
let operador: { authorization: string };
let admin: { authorization: string };
let operadorId: number;
let adminId: number;

beforeAll(async () => {
  t = await startTestApp();
  operador = await t.auth('operador@demo.local');
  admin = await t.auth('admin@demo.local');
  const ids = await t.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', ['operador@demo.local', 'admin@demo.local'])
    .execute();
  operadorId = ids.find((r) => r.email === 'operador@demo.local')?.id ?? 0;
  adminId = ids.find((r) => r.email === 'admin@demo.local')?.id ?? 0;
});

afterAll(async () => {
  await t?.close();
});

const put = (headers: { authorization: string }, id: number, payload: object) =>
  t.app.fastify.inject({ method: 'PUT', url: `/api/users/${id}`, headers, payload });
const gql = (headers: { authorization: string }, query: string, variables: object) =>
  t.app.fastify.inject({
    method: 'POST',
    url: '/backoffice/graphql',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: { query, variables },
  });

describe('own profile without the users permission', () => {
  it('lets operador change its own name and e-mail over REST', async () => {
    const name = await put(operador, operadorId, { name: 'Olívia O. Operadora' });
    expect(name.statusCode).toBe(200);
    expect(name.json()).toMatchObject({ id: operadorId, name: 'Olívia O. Operadora' });
    const email = await put(operador, operadorId, { email: 'olivia.operadora@demo.local' });
    expect(email.statusCode).toBe(200);
    await put(operador, operadorId, { email: 'operador@demo.local' });
  });

  it('refuses operador the whole object for itself, and anything for someone else', async () => {
    const whole = await put(operador, operadorId, {
      username: 'olivia',
      name: 'Olívia',
      email: 'operador@demo.local',
      role_id: 1,
    });
    expect(whole.statusCode).toBe(403);
    expect((await put(operador, adminId, { name: 'Hacked' })).statusCode).toBe(403);
  });

  it('lets operador rename itself through GraphQL updateUser, but not change its role', async () => {
    const own = await gql(
      operador,
      'mutation U($id: Int!, $name: String) { updateUser(id: $id, name: $name) { id name } }',
      { id: operadorId, name: 'Olívia Operadora' },
    );
    expect(own.json()).toMatchObject({ data: { updateUser: { id: operadorId, name: 'Olívia Operadora' } } });
    const role = await gql(
      operador,
      'mutation U($id: Int!, $role: Int) { updateUser(id: $id, role_id: $role) { id } }',
      { id: operadorId, role: 1 },
    );
    expect(role.json<{ errors?: { extensions?: { code?: string } }[] }>().errors?.[0]?.extensions?.code).toBe(
      'FORBIDDEN',
    );
  });
});

describe('weak passwords are refused by the server', () => {
  // A run of three identical characters, an ascending sequence, and too short (docs/product.md, Passwords).
  const weak = ['Aaaa#!bcXy', 'Senha#!123x', 'Ab#!1'];

  it.each(weak)('POST /api/users refuses %s with a field error', async (password) => {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: {
        username: 'fraca',
        name: 'Senha Fraca',
        email: `fraca-${weak.indexOf(password)}@demo.local`,
        password,
        role_id: 2,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'body/password' }] });
  });

  it('updateUserPassword and newUser refuse a weak password, accept a strong one', async () => {
    const weakChange = await gql(operador, 'mutation P($p: String!) { updateUserPassword(password: $p) { token } }', {
      p: 'Senha#!123x',
    });
    expect(weakChange.json<{ errors?: { extensions?: { field?: string } }[] }>().errors?.[0]?.extensions?.field).toBe(
      'password',
    );
    const created = await gql(
      admin,
      'mutation N($u: String!, $n: String!, $e: String!, $p: String!, $r: Int!) { newUser(username: $u, name: $n, email: $e, password: $p, role_id: $r) { id } }',
      {
        u: 'forte',
        n: 'Senha Forte',
        e: 'forte@demo.local',
        p: 'Tr0ca#Segura!',
        r: 2,
      },
    );
    expect(created.json()).toMatchObject({ data: { newUser: { id: expect.any(Number) } } });
  });

  it('admin:create refuses a weak password', async () => {
    await expect(
      createAdmin(t.db, { email: 'chefe@demo.local', password: 'Qwerty#!111', name: 'Chefe' }),
    ).rejects.toBeInstanceOf(AdminCreateError);
  });
});
