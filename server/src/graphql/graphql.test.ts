import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { buildApp, type App } from '../app';
import { loadConfig, type ServerConfig } from '../config';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import type { Database } from '../db/schema';
import { seedDemo } from '../db/seed';
import {
  failedLoginCount,
  instanceIdsOf,
  isConnected,
  roleId,
  someCustomerUser,
  someDeletedTenantName,
  someDepartmentOf,
  someInstanceOutside,
  tenantId,
  userIdByEmail,
} from '../test-support/lookups';

const PASSWORD = 'Back#Office!Demo';
let app: App;
let db: Kysely<Database>;
let close: () => Promise<void>;
const extraApps: App[] = [];

interface GqlError {
  message: string;
  extensions?: { code?: string; field?: string };
}
interface GqlBody<T> {
  data?: T | null;
  errors?: GqlError[];
}

async function makeApp(config: ServerConfig): Promise<App> {
  return buildApp({ db, config });
}

async function gql<T>(
  target: App,
  query: string,
  options: {
    variables?: Record<string, unknown>;
    token?: string;
    tenant?: string;
    operationName?: string;
    accept?: string;
  } = {},
) {
  const response = await target.fastify.inject({
    method: 'POST',
    url: `/${options.tenant ?? 'backoffice'}/graphql`,
    headers: {
      'content-type': 'application/json',
      accept: options.accept ?? 'application/graphql-response+json, application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    payload: JSON.stringify({ query, variables: options.variables ?? {}, operationName: options.operationName }),
  });
  return {
    status: response.statusCode,
    body: response.json<GqlBody<T> & Record<string, unknown>>(),
    headers: response.headers,
  };
}

const LOGIN = `mutation logIn($email: String!, $password: String!) {
  logIn(email: $email, password: $password) { token expires_in user { id email tenantName origin_backoffice role { name has_permission_routes } userInstances { id } } }
}`;
const USERS =
  'query users { users { id name email isConnected role { name } userDepartment { id } userInstances { id instance { id } } } }';
const USER_INFOS = 'query userInfos { userInfos { id email } }';
const REFRESH = 'mutation refreshToken { refreshToken { token expires_in } }';

interface LoginData {
  logIn: {
    token: string;
    expires_in: number;
    user: {
      id: number;
      email: string;
      tenantName: string;
      origin_backoffice: boolean;
      role: { name: string; has_permission_routes: string[] };
    };
  };
}

async function tokenOf(target: App, email: string, password = PASSWORD, tenant = 'backoffice'): Promise<string> {
  const { status, body } = await gql<LoginData>(target, LOGIN, { variables: { email, password }, tenant });
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  return body.data?.logIn.token ?? '';
}

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  const database = await openDatabase('pglite://memory');
  db = database.db;
  close = database.close;
  await migrate(db);
  await seedDemo(db);
  app = await makeApp(loadConfig({ databaseUrl: 'pglite://memory', seedDemo: true }));
}, 120_000);

afterAll(async () => {
  for (const extra of extraApps) await extra.fastify.close();
  await app.fastify.close();
  await close();
});

describe('GraphQL /{tenant}/graphql', () => {
  it('logIn answers a token and the user; a wrong password gets INVALID_CREDENTIALS', async () => {
    const ok = await gql<LoginData>(app, LOGIN, { variables: { email: 'ADMIN@demo.local', password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body.data?.logIn.token.split('.')).toHaveLength(3);
    expect(ok.body.data?.logIn.expires_in).toBe(900);
    expect(ok.body.data?.logIn.user).toMatchObject({
      email: 'admin@demo.local',
      tenantName: 'backoffice',
      origin_backoffice: true,
      role: { name: 'administrador' },
    });
    const routes = ok.body.data?.logIn.user.role.has_permission_routes ?? [];
    expect(routes).toContain('users');
    expect(routes).toEqual([...routes].sort());

    const before = await failedLoginCount(db);
    const wrong = await gql<LoginData>(app, LOGIN, {
      variables: { email: 'admin@demo.local', password: 'wrong-password' },
    });
    const unknown = await gql<LoginData>(app, LOGIN, {
      variables: { email: 'nobody@demo.local', password: 'wrong-password' },
    });
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toBeNull();
      expect(answer.body.errors?.[0]).toMatchObject({
        message: 'Wrong Email or Password',
        extensions: { code: 'INVALID_CREDENTIALS' },
      });
    }
    expect((await failedLoginCount(db)) - before).toBe(2);
  });

  it('logIn ignores a bad token, and needs none', async () => {
    const { status, body } = await gql<LoginData>(app, LOGIN, {
      variables: { email: 'admin@demo.local', password: PASSWORD },
      token: 'garbage',
    });
    expect(status).toBe(200);
    expect(body.data?.logIn.user.email).toBe('admin@demo.local');
  });

  it('users as administrador → 200 with the tenant users ascending by id', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    const { status, body } = await gql<{ users: { id: number; email: string }[] }>(app, USERS, { token });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const users = body.data?.users ?? [];
    expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['admin@demo.local', 'operador@demo.local']));
    expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => a - b));
  });

  it('users as operador → 403 FORBIDDEN; operations for any signed-in user still work', async () => {
    const token = await tokenOf(app, 'operador@demo.local');
    const denied = await gql(app, USERS, { token });
    expect(denied.status).toBe(403);
    expect(denied.body.data).toBeNull();
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const mine = await gql<{ userInfos: { email: string } }>(app, USER_INFOS, { token });
    expect(mine.status).toBe(200);
    expect(mine.body.data?.userInfos.email).toBe('operador@demo.local');
  });

  it('answers the 401 bodies of the contract, not a GraphQL errors array', async () => {
    const missing = await gql(app, USERS);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ status: 'Authorization Token not found' });
    const invalid = await gql(app, USERS, { token: 'abc.def.ghi' });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ status: 'Token is Invalid' });
    // A document that does not parse still needs a token …
    expect((await gql(app, '{ users { ')).status).toBe(401);
    // … and with one it is a 400 GRAPHQL_PARSE_FAILED.
    const token = await tokenOf(app, 'admin@demo.local');
    const broken = await gql(app, '{ users { ', { token });
    expect(broken.status).toBe(400);
    expect(broken.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknownField = await gql(app, '{ users { nope } }', { token });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers 404 for an unknown or soft-deleted tenant and 403 for a tenant user in another tenant', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    const unknown = await gql(app, USER_INFOS, { token, tenant: 'no-such-tenant' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ errors: [{ message: 'Tenant not found', extensions: { code: 'NOT_FOUND' } }] });
    expect((await gql(app, USER_INFOS, { token, tenant: await someDeletedTenantName(db) })).status).toBe(404);

    const customer = await someCustomerUser(db);
    // Staff may act in any tenant.
    expect((await gql(app, USER_INFOS, { token, tenant: customer.tenant })).status).toBe(200);
    // A tenant user cannot sign in through another tenant …
    const elsewhere = await gql(app, LOGIN, {
      variables: { email: customer.email, password: PASSWORD },
      tenant: 'backoffice',
    });
    expect(elsewhere.body.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
    // … and its token does not work there.
    const own = await tokenOf(app, customer.email, PASSWORD, customer.tenant);
    expect((await gql(app, USER_INFOS, { token: own, tenant: customer.tenant })).status).toBe(200);
    const foreign = await gql(app, USER_INFOS, { token: own, tenant: 'backoffice' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('expired token: 401 "Token has expired", refreshToken rotates, reuse of the old token after the grace window revokes the family', async () => {
    // The clock is moved instead of slept on: token times come from Date.now(), so a loaded machine
    // cannot expire a token before the test means it to.
    const short = await makeApp(loadConfig({ databaseUrl: 'pglite://memory', accessTokenTtl: 60, rotationGrace: 5 }));
    extraApps.push(short);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const old = await tokenOf(short, 'admin@demo.local');
      expect((await gql(short, USER_INFOS, { token: old })).status).toBe(200);
      vi.setSystemTime(Date.now() + 61_000);

      const expired = await gql(short, USER_INFOS, { token: old });
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual({ error: 'Token has expired' });
      // refreshToken accepts the expired token only as the sole root field.
      const mixed = await gql(short, 'mutation { refreshToken { token } connected }', { token: old });
      expect(mixed.status).toBe(401);
      expect(mixed.body).toEqual({ error: 'Token has expired' });

      const refreshed = await gql<{ refreshToken: { token: string; expires_in: number } }>(short, REFRESH, {
        token: old,
      });
      expect(refreshed.status).toBe(200);
      const fresh = refreshed.body.data?.refreshToken.token ?? '';
      expect(refreshed.body.data?.refreshToken.expires_in).toBe(60);
      expect(fresh).not.toBe(old);
      expect((await gql(short, USER_INFOS, { token: fresh })).status).toBe(200);

      vi.setSystemTime(Date.now() + 6_000);
      const reuse = await gql(short, USER_INFOS, { token: old });
      expect(reuse.status).toBe(401);
      expect(reuse.body).toEqual({ status: 'Unauthorized' });
      const afterReuse = await gql(short, USER_INFOS, { token: fresh });
      expect(afterReuse.status).toBe(401);
      expect(afterReuse.body).toEqual({ status: 'Unauthorized' });
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);

  it('two concurrent refreshToken calls with one token: one rotation, and both get a token of its jti', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    type Refreshed = { refreshToken: { token: string } };
    const answers = await Promise.all([
      gql<Refreshed>(app, REFRESH, { token }),
      gql<Refreshed>(app, REFRESH, { token }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // The loser presented the winner's immediate predecessor within the grace window (server/src/auth/tokens.ts).
    const jtiOf = (jwt: string) =>
      (JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string }).jti;
    const [first, second] = answers.map((a) => jtiOf(a.body.data?.refreshToken.token ?? ''));
    expect(first).not.toBe(jtiOf(token));
    expect(second).toBe(first);
  });

  it('newUser checks its arguments per field', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    const role = { id: await roleId(db, 'operador') };
    const NEW_USER = `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!, $user_department_id: Int, $chosen_instances: [Int!]) {
      newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances) { id }
    }`;
    const base = {
      username: 'weak.pw',
      name: 'Weak Password',
      email: 'weak.pw@demo.local',
      password: 'short',
      role_id: role.id,
    };
    const weak = await gql(app, NEW_USER, { token, variables: base });
    expect(weak.status).toBe(200);
    expect(weak.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });

    const duplicate = await gql(app, NEW_USER, {
      token,
      variables: { ...base, password: 'long-enough-1', email: 'Admin@Demo.local' },
    });
    expect(duplicate.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
    const noRole = await gql(app, NEW_USER, {
      token,
      variables: { ...base, password: 'long-enough-1', role_id: 999_999 },
    });
    expect(noRole.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'role_id' });
    const foreignInstance = await someInstanceOutside(db, 'backoffice');
    const wrongInstance = await gql(app, NEW_USER, {
      token,
      variables: { ...base, password: 'long-enough-1', chosen_instances: [foreignInstance] },
    });
    expect(wrongInstance.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'chosen_instances' });
  });

  it('newUser, updateUser (omitted vs null), userInstances and deleteUserInstance', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    const role = { id: await roleId(db, 'operador') };
    const tenant = await tenantId(db, 'backoffice');
    const dep = { id: await someDepartmentOf(db, tenant) };
    const chosen = (await instanceIdsOf(db, tenant)).slice(0, 2);
    const created = await gql<{
      newUser: {
        id: number;
        image: string | null;
        userDepartment: { id: number } | null;
        userInstances: { id: number; instance: { id: number } }[];
      };
    }>(
      app,
      `mutation { newUser(username: "gql.user", name: " GraphQL User ", email: "gql.user@demo.local", password: "long-enough-1", role_id: ${role.id}, user_department_id: ${dep.id}, chosen_instances: [${[...chosen, ...chosen].join(',')}]) {
        id image userDepartment { id } userInstances { id instance { id } } } }`,
      { token },
    );
    expect(created.body.errors).toBeUndefined();
    const user = created.body.data?.newUser;
    expect(user?.userDepartment?.id).toBe(dep.id);
    expect(user?.userInstances.map((l) => l.instance.id).sort()).toEqual([...chosen].sort());
    const id = user?.id ?? 0;

    const UPDATE = `mutation updateUser($id: Int!, $image: String, $user_department_id: Int, $chosen_instances: [Int!], $name: String) {
      updateUser(id: $id, image: $image, user_department_id: $user_department_id, chosen_instances: $chosen_instances, name: $name) { name image userDepartment { id } userInstances { id instance { id } } }
    }`;
    type Updated = {
      updateUser: {
        name: string;
        image: string | null;
        userDepartment: { id: number } | null;
        userInstances: { instance: { id: number } }[];
      };
    };
    const withImage = await gql<Updated>(app, UPDATE, { token, variables: { id, image: 'https://example.com/a.png' } });
    expect(withImage.body.data?.updateUser).toMatchObject({
      name: 'GraphQL User',
      image: 'https://example.com/a.png',
      userDepartment: { id: dep.id },
    });
    expect(withImage.body.data?.updateUser.userInstances).toHaveLength(2);
    const cleared = await gql<Updated>(app, UPDATE, {
      token,
      variables: { id, image: null, user_department_id: null, chosen_instances: chosen.slice(0, 1) },
    });
    expect(cleared.body.data?.updateUser).toMatchObject({ image: null, userDepartment: null });
    expect(cleared.body.data?.updateUser.userInstances.map((l) => l.instance.id)).toEqual(chosen.slice(0, 1));
    const nullName = await gql(app, UPDATE, { token, variables: { id, name: null } });
    expect(nullName.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const badImage = await gql(app, UPDATE, { token, variables: { id, image: 'javascript:alert(1)' } });
    expect(badImage.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'image' });

    const links = await gql<{ userInstances: { id: number }[] }>(
      app,
      `query { userInstances(user_id: ${id}) { id instance { id } } }`,
      { token },
    );
    const linkId = links.body.data?.userInstances[0]?.id ?? 0;
    expect(linkId).toBeGreaterThan(0);
    const removed = await gql<{ deleteUserInstance: boolean }>(app, `mutation { deleteUserInstance(id: ${linkId}) }`, {
      token,
    });
    expect(removed.body.data?.deleteUserInstance).toBe(true);
    const again = await gql(app, `mutation { deleteUserInstance(id: ${linkId}) }`, { token });
    expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'id' });

    const deleted = await gql<{ deleteUser: boolean }>(app, `mutation { deleteUser(id: ${id}) }`, { token });
    expect(deleted.body.data?.deleteUser).toBe(true);
    const me = await userIdByEmail(db, 'admin@demo.local');
    const self = await gql(app, `mutation { deleteUser(id: ${me}) }`, { token });
    expect(self.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
  });

  it('disconnectUser makes the target token 401 Unauthorized; presence shows in onlineUsers', async () => {
    const admin = await tokenOf(app, 'admin@demo.local');
    const target = await tokenOf(app, 'operador@demo.local');
    const targetId = await userIdByEmail(db, 'operador@demo.local');
    expect(
      (await gql<{ connected: boolean }>(app, 'mutation { connected }', { token: target })).body.data?.connected,
    ).toBe(true);
    const online = await gql<{ onlineUsers: { id: number }[] }>(app, 'query { onlineUsers { id } }', { token: admin });
    expect(online.body.data?.onlineUsers.map((u) => u.id)).toContain(targetId);

    const done = await gql<{ disconnectUser: boolean }>(app, `mutation { disconnectUser(user_id: ${targetId}) }`, {
      token: admin,
    });
    expect(done.body.data?.disconnectUser).toBe(true);
    const after = await gql(app, USER_INFOS, { token: target });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ status: 'Unauthorized' });
    expect(await isConnected(db, targetId)).toBe(false);
  });

  it('updateUserPassword revokes earlier tokens and answers a working one', async () => {
    const email = 'operador@demo.local';
    const first = await tokenOf(app, email);
    const other = await tokenOf(app, email);
    const changed = await gql<{ updateUserPassword: { token: string; user: { email: string } } }>(
      app,
      'mutation updateUserPassword($password: String!) { updateUserPassword(password: $password) { token expires_in user { email } } }',
      { token: first, variables: { password: 'Another#Password1' } },
    );
    expect(changed.status).toBe(200);
    const fresh = changed.body.data?.updateUserPassword.token ?? '';
    expect(changed.body.data?.updateUserPassword.user.email).toBe(email);
    expect((await gql(app, USER_INFOS, { token: other })).body).toEqual({ status: 'Unauthorized' });
    expect((await gql(app, USER_INFOS, { token: first })).body).toEqual({ status: 'Unauthorized' });
    expect((await gql(app, USER_INFOS, { token: fresh })).status).toBe(200);
    // Put the demo password back for the other tests.
    await gql(app, 'mutation { updateUserPassword(password: "Back#Office!Demo") { token } }', { token: fresh });
  });

  it('reads roles, departments and instances', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    const { status, body } = await gql<{
      roles: { id: number; name: string }[];
      departments: { name: string }[];
      instances: { id: number }[];
    }>(
      app,
      'query { roles { id name display_name has_permission_routes } departments { id name activated } instances { id name activated } }',
      { token },
    );
    expect(status).toBe(200);
    expect(body.data?.roles.map((r) => r.name)).toEqual(expect.arrayContaining(['administrador', 'operador']));
    const names = body.data?.departments.map((d) => d.name) ?? [];
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const all = body.data?.instances.map((i) => i.id) ?? [];
    const first = all[0];
    if (first !== undefined) {
      const rest = await gql<{ instances: { id: number }[] }>(
        app,
        `query { instances(remove_ids: [${first}]) { id } }`,
        { token },
      );
      expect(rest.body.data?.instances.map((i) => i.id)).toEqual(all.slice(1));
    }
  });

  it('answers application/json when asked, with the contract statuses (400 for validation failures)', async () => {
    const token = await tokenOf(app, 'admin@demo.local');
    const ok = await gql(app, USER_INFOS, { token, accept: 'application/json' });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toContain('application/json');
    const invalid = await gql(app, '{ users { nope } }', { token, accept: 'application/json' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it("serves yoga's GraphiQL on GET outside production: no CDN, its one inline script allowed by hash", async () => {
    const page = await app.fastify.inject({
      method: 'GET',
      url: '/backoffice/graphql',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('renderYogaGraphiQL');
    // Nothing is loaded from another origin: no src/href to http(s), no CDN.
    expect(page.body).not.toMatch(/(?:src|href)=["']?https?:|unpkg\.com|jsdelivr/i);
    const csp = String(page.headers['content-security-policy']);
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp).toMatch(/connect-src 'self';/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    // One page for every tenant: it queries its own path.
    const other = await app.fastify.inject({
      method: 'GET',
      url: '/farmacia-central/graphql',
      headers: { accept: 'text/html' },
    });
    expect(other.body).toBe(page.body);
    expect(
      (await app.fastify.inject({ method: 'GET', url: '/no-such-tenant/graphql', headers: { accept: 'text/html' } }))
        .statusCode,
    ).toBe(404);
    const getQuery = await app.fastify.inject({ method: 'GET', url: '/backoffice/graphql?query=%7B__typename%7D' });
    expect(getQuery.statusCode).toBe(405);
    const getJson = await app.fastify.inject({
      method: 'GET',
      url: '/backoffice/graphql',
      headers: { accept: 'application/json' },
    });
    expect(getJson.statusCode).toBe(405);
    // What the page's script sends: a POST to the same URL with the bearer token.
    const introspection = await gql<{ __schema: { queryType: { name: string } } }>(
      app,
      '{ __schema { queryType { name } } }',
    );
    expect(introspection.body.data?.__schema.queryType.name).toBe('Query');
  });

  it('in production: no GraphiQL, no introspection', async () => {
    const prod = await makeApp(loadConfig({ databaseUrl: 'pglite://memory', production: true }));
    extraApps.push(prod);
    expect(
      (await prod.fastify.inject({ method: 'GET', url: '/backoffice/graphql', headers: { accept: 'text/html' } }))
        .statusCode,
    ).toBe(405);
    const introspection = await gql(prod, '{ __schema { queryType { name } } }');
    expect(introspection.status).toBe(400);
    expect(introspection.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const typename = await gql<{ __typename: string }>(prod, '{ __typename }');
    expect(typename.status).toBe(200);
    expect(typename.body.data?.__typename).toBe('Query');
  });
});
