import { startTestApp, type TestApp } from '../test-support/app';
import { createAdmin, AdminCreateError } from '../tooling/admin';
import { DEMO_PASSWORD } from '../tooling/seed';

/**
 * Every signed-in user may change their own name and e-mail (REST name-only/email-only forms, GraphQL
 * updateUser without role, department or instances); anything else still needs the `users` route. A new
 * e-mail of one's own is proven with the current password and ends the user's other sessions (docs/security.md,
 * Credentials and sessions). And no operation that sets a password accepts a weak one (docs/product.md,
 * Passwords), whoever calls it.
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
  it('lets operador change its own name and e-mail over REST, the e-mail with its current password', async () => {
    const name = await put(operador, operadorId, { name: 'Olívia O. Operadora' });
    expect(name.statusCode).toBe(200);
    expect(name.json()).toMatchObject({ id: operadorId, name: 'Olívia O. Operadora' });
    // Another session of the same user: a new e-mail ends it, and leaves the one that made the change on.
    const other = await t.auth('operador@demo.local');
    const userInfo = (headers: { authorization: string }) =>
      t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers });
    for (const proof of [{}, { current_password: 'Not#The-Right-1' }]) {
      const refused = await put(operador, operadorId, { email: 'olivia.operadora@demo.local', ...proof });
      expect(refused.statusCode, JSON.stringify(proof)).toBe(400);
      expect(refused.json()).toMatchObject({ errors: [{ field: 'body/current_password' }] });
    }
    // Refused: nothing changed, and no session ended.
    expect((await userInfo(other)).statusCode).toBe(200);
    const email = await put(operador, operadorId, {
      email: 'olivia.operadora@demo.local',
      current_password: DEMO_PASSWORD,
    });
    expect(email.statusCode).toBe(200);
    expect(email.json()).toMatchObject({ id: operadorId, email: 'olivia.operadora@demo.local' });
    expect((await userInfo(operador)).statusCode).toBe(200);
    expect((await userInfo(other)).statusCode).toBe(401);
    // The same address again is no new e-mail: no password asked, no session ended.
    const again = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'olivia.operadora@demo.local', password: DEMO_PASSWORD, ip: null },
    });
    expect(again.statusCode).toBe(200);
    const third = { authorization: `Bearer ${again.json<{ access_token: string }>().access_token}` };
    expect((await put(operador, operadorId, { email: 'Olivia.Operadora@demo.local' })).statusCode).toBe(200);
    expect((await userInfo(third)).statusCode).toBe(200);
    const back = await put(operador, operadorId, { email: 'operador@demo.local', current_password: DEMO_PASSWORD });
    expect(back.statusCode).toBe(200);
    expect((await userInfo(third)).statusCode).toBe(401);
  });

  it('refuses anyone its own password through PUT /api/users/{id}, even with the current one', async () => {
    const row = await t.db
      .selectFrom('users')
      .select(['username', 'name', 'email', 'role_id'])
      .where('id', '=', adminId)
      .executeTakeFirstOrThrow();
    const own = await put(admin, adminId, { ...row, password: 'Outra#Senha-Forte9', current_password: DEMO_PASSWORD });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ message: 'Forbidden', reason: expect.any(String) });
    // The password did not change: the demo one still signs in.
    await t.auth('admin@demo.local');
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

  it('lets operador change its own e-mail through GraphQL updateUser only with its current password', async () => {
    const change = (email: string, current?: string) =>
      gql(
        operador,
        'mutation U($id: Int!, $email: String, $c: String) { updateUser(id: $id, email: $email, current_password: $c) { id email } }',
        { id: operadorId, email, ...(current === undefined ? {} : { c: current }) },
      );
    type Answer = {
      data?: { updateUser?: { email?: string } } | null;
      errors?: { extensions?: Record<string, unknown> }[];
    };
    for (const current of [undefined, 'Not#The-Right-1']) {
      const refused = (await change('olivia.gql@demo.local', current)).json<Answer>();
      expect(refused.errors?.[0]?.extensions, JSON.stringify(refused)).toMatchObject({
        code: 'BAD_USER_INPUT',
        field: 'current_password',
      });
    }
    const other = await t.auth('operador@demo.local');
    const changed = (await change('olivia.gql@demo.local', DEMO_PASSWORD)).json<Answer>();
    expect(changed.data?.updateUser?.email, JSON.stringify(changed)).toBe('olivia.gql@demo.local');
    // The session that changed it goes on; the other one ended.
    const info = (headers: { authorization: string }) =>
      t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers });
    expect((await info(operador)).statusCode).toBe(200);
    expect((await info(other)).statusCode).toBe(401);
    const back = (await change('operador@demo.local', DEMO_PASSWORD)).json<Answer>();
    expect(back.data?.updateUser?.email, JSON.stringify(back)).toBe('operador@demo.local');
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
    const change = (p: string) =>
      gql(
        operador,
        'mutation P($p: String!, $c: String) { updateUserPassword(password: $p, current_password: $c) { token } }',
        { p, c: DEMO_PASSWORD },
      );
    const weakChange = await change('Senha#!123x');
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
    const strongChange = await change('Tr0ca#Segura!');
    const token = strongChange.json<{ data?: { updateUserPassword?: { token?: string } } }>().data?.updateUserPassword
      ?.token;
    expect(token, strongChange.body).toEqual(expect.any(String));
    operador = { authorization: `Bearer ${token ?? ''}` };
    // Back to the demo password, proven with the new one, so the other tests of this file sign in as before.
    const back = await gql(
      operador,
      'mutation P($p: String!, $c: String) { updateUserPassword(password: $p, current_password: $c) { token } }',
      { p: DEMO_PASSWORD, c: 'Tr0ca#Segura!' },
    );
    const backToken = back.json<{ data?: { updateUserPassword?: { token?: string } } }>().data?.updateUserPassword
      ?.token;
    expect(backToken, back.body).toEqual(expect.any(String));
    operador = { authorization: `Bearer ${backToken ?? ''}` };
  });

  it('admin:create refuses a weak password', async () => {
    await expect(
      createAdmin(t.db, { email: 'chefe@demo.local', password: 'Qwerty#!111', name: 'Chefe' }),
    ).rejects.toBeInstanceOf(AdminCreateError);
  });
});
