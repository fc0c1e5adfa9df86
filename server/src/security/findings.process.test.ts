import { loginFragmentChain } from '../test-support/graphql-abuse';
import { loginOn, startServerProcess, stopServerProcess, type ServerProcess } from '../test-support/processes';
import { DEMO_PASSWORD } from '../tooling/seed';

/**
 * The attacks an attacker sent against `npm start` (the embedded database with the demo data), sent again
 * over HTTP to a real server process (server/src/main.ts): each is refused with the contract's status and
 * a reason, changes nothing, and REST and GraphQL agree (docs/security.md, Who may do what).
 */
let server: ServerProcess;
let admin: string;

const NEW_PASSWORD = 'Achado#Seguro-91';

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const graphql = (tenant: string, query: string, token?: string, variables?: Record<string, unknown>) =>
  call('POST', `/${tenant}/graphql`, { token, body: { query, ...(variables ? { variables } : {}) } });

const codes = (body: Record<string, unknown>) =>
  ((body.errors as { extensions?: { code?: string } }[] | undefined) ?? []).map((e) => e.extensions?.code);

async function roleId(name: string): Promise<number> {
  const roles = await call('GET', '/api/roles', { token: admin });
  const role = (roles.body as unknown as { id: number; name: string }[]).find((r) => r.name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role.id;
}

beforeAll(async () => {
  server = await startServerProcess('pglite://memory', { seed: true });
  admin = (await loginOn(server.base)).token;
}, 240_000);

afterAll(async () => {
  if (server) await stopServerProcess(server);
});

it('operador cannot run what it lacks through a GraphQL document with a repeated fragment', async () => {
  const operador = (await loginOn(server.base, 'operador@demo.local')).token;
  const administrador = await roleId('administrador');
  const create = await graphql(
    'backoffice',
    `mutation { ...M ...M } fragment M on Mutation { newUser(username: "x.achado", name: "X", email: "x-achado@demo.local", password: "${NEW_PASSWORD}", role_id: ${administrador}) { id } }`,
    operador,
  );
  expect(create.status).toBe(403);
  expect(codes(create.body)).toEqual(['FORBIDDEN']);
  const read = await graphql('backoffice', 'query { ...F ...F } fragment F on Query { users { id email } }', operador);
  expect(read.status).toBe(403);
  expect(read.body.data).toBeNull();
  const plain = await graphql('backoffice', '{ users { id email } }', operador);
  expect(plain.status).toBe(403);
  const users = await call('GET', '/api/users', { token: admin });
  expect((users.body as unknown as { email: string }[]).some((u) => u.email === 'x-achado@demo.local')).toBe(false);
});

it('a user holding only `users` cannot make itself administrador, nor reset a more privileged account', async () => {
  const role = await call('POST', '/api/roles', {
    token: admin,
    body: { name: 'so_usuarios', display_name: 'Só usuários' },
  });
  expect(role.status).toBe(201);
  const roleIdOnlyUsers = (role.body as { id: number }).id;
  expect(
    (
      await call('POST', '/api/permission/update', {
        token: admin,
        body: { roleId: roleIdOnlyUsers, permissions: ['users'] },
      })
    ).status,
  ).toBe(200);
  const created = await call('POST', '/api/users', {
    token: admin,
    body: {
      username: 'gestor.achado',
      name: 'Gestor',
      email: 'gestor-achado@demo.local',
      password: NEW_PASSWORD,
      role_id: roleIdOnlyUsers,
    },
  });
  expect(created.status).toBe(201);
  const me = (created.body as { id: number }).id;
  const manager = (await loginOn(server.base, 'gestor-achado@demo.local', NEW_PASSWORD)).token;
  const administrador = await roleId('administrador');
  const promote = await call('PUT', `/api/users/${me}`, {
    token: manager,
    body: { username: 'gestor.achado', name: 'Gestor', email: 'gestor-achado@demo.local', role_id: administrador },
  });
  expect(promote.status).toBe(403);
  expect(promote.body.reason).toMatch(/own role/);
  const info = await call('GET', '/api/auth/userInfo', { token: manager });
  expect(info.body.has_permission_routes).toEqual(['users']);
  // The demo administrador's password and two-factor.
  const adminId = (await loginOn(server.base)).userId;
  const reset = await call('PUT', `/api/users/${adminId}`, {
    token: manager,
    body: {
      username: 'ana.administradora',
      name: 'Ana Administradora',
      email: 'admin@demo.local',
      role_id: administrador,
      password: NEW_PASSWORD,
    },
  });
  expect(reset.status).toBe(403);
  const twoFactor = await call('PATCH', `/api/user-settings/${adminId}`, {
    token: manager,
    body: { two_factor_enabled: false },
  });
  expect(twoFactor.status).toBe(403);
  expect((await loginOn(server.base, 'admin@demo.local', DEMO_PASSWORD)).token).toBeTruthy();
});

it('40 wrong passwords sent at once get at most LOGIN_MAX_FAILURES (10) guesses; the rest wait (429)', async () => {
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      call('POST', '/api/auth/login', {
        body: { email: 'operador@demo.local', password: `Errada#Tentativa-${i}`, ip: null },
      }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  // Each 401 is one password checked; the throttle checks no more than its limit.
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
  const right = await call('POST', '/api/auth/login', {
    body: { email: 'operador@demo.local', password: DEMO_PASSWORD, ip: null },
  });
  expect(right.status).toBe(429);
});

it('a 30-link fragment chain without a token is refused, and /healthz answers meanwhile', async () => {
  const chains = Array.from({ length: 4 }, () => graphql('backoffice', loginFragmentChain(30)));
  const health = await call('GET', '/healthz');
  expect(health.status).toBe(200);
  for (const answer of await Promise.all(chains)) {
    expect(answer.status).toBe(400);
    expect(codes(answer.body)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  }
});

describe("a customer's own administrador", () => {
  let customer: string;
  let tenantId: number;

  beforeAll(async () => {
    const tenant = await call('POST', '/api/tenant', {
      token: admin,
      body: {
        name: 'farmacia-achados',
        cnpj: '11.444.777/0001-61',
        features: ['chat'],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 10,
        plan: 'starter',
        ticketLimit: 100,
      },
    });
    expect(tenant.status).toBe(201);
    tenantId = (tenant.body as { id: number }).id;
    const administrador = await roleId('administrador');
    const created = await graphql(
      'farmacia-achados',
      `mutation { newUser(username: "dona.achados", name: "Dona", email: "dona@achados.test", password: "${NEW_PASSWORD}", role_id: ${administrador}) { id } }`,
      admin,
    );
    expect(codes(created.body)).toEqual([]);
    customer = (await loginOn(server.base, 'dona@achados.test', NEW_PASSWORD)).token;
  });

  it('cannot raise its own plan', async () => {
    const raise = await call('POST', '/api/tenant/set-plan', {
      token: customer,
      body: { id: tenantId, plan: 'enterprise', user: 100_000, ticket: 1000 },
    });
    expect(raise.status).toBe(403);
    expect(raise.body.reason).toMatch(/staff/);
    const page = await call('POST', '/api/tenant/paginated', { token: customer, body: { search: 'farmacia-achados' } });
    expect((page.body.data as { plan: string; userLimit: number }[])[0]).toMatchObject({
      plan: 'starter',
      userLimit: 10,
    });
  });

  it('once its tenant is deleted, cannot sign in, use its old token, nor restore it; staff restore it', async () => {
    expect((await call('POST', '/api/tenant/delete', { token: admin, body: { id: tenantId } })).status).toBe(200);
    expect(await call('GET', '/api/auth/userInfo', { token: customer })).toEqual({
      status: 401,
      body: { status: 'Unauthorized' },
    });
    expect((await graphql('backoffice', '{ userInfos { id } }', customer)).status).toBe(401);
    expect((await call('POST', '/api/tenant/restore', { token: customer, body: { id: tenantId } })).status).toBe(401);
    const login = await call('POST', '/api/auth/login', {
      body: { email: 'dona@achados.test', password: NEW_PASSWORD, ip: null },
    });
    expect(login.status).toBe(401);
    expect(login.body.error).toBe('tenant_deleted');
    expect((await call('POST', '/api/tenant/restore', { token: admin, body: { id: tenantId } })).status).toBe(200);
    expect((await loginOn(server.base, 'dona@achados.test', NEW_PASSWORD)).token).toBeTruthy();
  });
});
