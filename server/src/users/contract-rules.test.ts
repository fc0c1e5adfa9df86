import { startTestApp, type TestApp } from '../test-support/app';

/**
 * REST applies the value rules contracts/openapi.yaml names with `x-rule` together with the schema, and
 * GraphQL applies the same through the users service: one answer names every bad field, the same
 * fields through either protocol.
 */
describe('value rules: every bad field at once, through REST and GraphQL alike', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let roleId: number;

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    const roles = await t.app.fastify.inject({ method: 'GET', url: '/api/roles', headers: admin });
    roleId = roles.json<{ id: number; name: string }[]>().find((r) => r.name === 'operador')?.id ?? 0;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  const restFields = async (payload: Record<string, unknown>) => {
    const response = await t.app.fastify.inject({ method: 'POST', url: '/api/users', headers: admin, payload });
    expect(response.statusCode).toBe(400);
    return [
      ...new Set(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field.replace(/^body\//, ''))),
    ].sort();
  };
  const graphqlFields = async (variables: Record<string, unknown>) => {
    const query = `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) {
      newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id }
    }`;
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: admin,
      payload: { query, variables },
    });
    const body = response.json<{ data: unknown; errors?: { extensions: { code: string; field: string } }[] }>();
    expect(body.data).toBeNull();
    for (const error of body.errors ?? []) expect(error.extensions.code).toBe('BAD_USER_INPUT');
    return (body.errors ?? []).map((e) => e.extensions.field).sort();
  };

  it.each([
    ['a blank name and an e-mail without @', { name: '   ', email: 'sem-arroba' }, ['email', 'name']],
    ['a weak password and a short username', { password: 'Aaa#1234x', username: 'ab' }, ['password', 'username']],
    [
      'a name of 121 characters and a weak password',
      { name: 'x'.repeat(121), password: 'abcdefgh' },
      ['name', 'password'],
    ],
    [
      'all four',
      { username: 'a b', name: '', email: 'x@', password: '123' },
      ['email', 'name', 'password', 'username'],
    ],
  ])('%s', async (_label, bad, fields) => {
    const good = {
      username: 'regras.juntas',
      name: 'Regras Juntas',
      email: 'regras.juntas@demo.local',
      password: 'Regras#Juntas!7',
      role_id: roleId,
    };
    expect(await restFields({ ...good, ...bad })).toEqual(fields);
    expect(await graphqlFields({ ...good, ...bad })).toEqual(fields);
  });

  it('a valid user is created, and only its first request', async () => {
    const good = {
      username: 'regras.ok',
      name: ' Regras Ok ',
      email: 'regras.ok@demo.local',
      password: 'Regras#Juntas!7',
      role_id: roleId,
    };
    const created = await t.app.fastify.inject({ method: 'POST', url: '/api/users', headers: admin, payload: good });
    expect(created.statusCode).toBe(201);
    expect(created.json<{ name: string }>().name).toBe('Regras Ok');
  });

  it('an avatar that is not an http(s) URL is refused by both, with the same field', async () => {
    type Me = { user: { id: number; username: string; name: string; email: string; role: { id: number } } };
    const me = (await t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: admin })).json<Me>()
      .user;
    const rest = await t.app.fastify.inject({
      method: 'PUT',
      url: `/api/users/${me.id}`,
      headers: admin,
      payload: {
        username: me.username,
        name: me.name,
        email: me.email,
        role_id: me.role.id,
        image: 'ftp://x.test/a.png',
      },
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain('body/image');
    const query = `mutation { updateUser(id: ${me.id}, image: "ftp://x.test/a.png") { id } }`;
    const graphql = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: admin,
      payload: { query },
    });
    expect(
      graphql.json<{ errors: { extensions: { field: string } }[] }>().errors.map((e) => e.extensions.field),
    ).toEqual(['image']);
  });
});
