import { loadConfig } from '../base/config';
import { failedLoginCount, someCustomerUser, someDeletedTenantName } from '../test-support/lookups';
import {
  LOGIN,
  PASSWORD,
  REFRESH,
  USERS,
  USER_INFOS,
  extraApps,
  g,
  gql,
  makeApp,
  tokenOf,
  useGraphqlApp,
} from '../test-support/graphql-app';
import type { LoginData } from '../test-support/graphql-app';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';

/** Sign-in, the 401 bodies, tenants of the path and token refresh through GraphQL (app: server/src/test-support/graphql-app.ts). */
useGraphqlApp();

describe('GraphQL /{tenant}/graphql: sign-in, tokens and tenants', () => {
  it('logIn answers a token and the user; a wrong password gets INVALID_CREDENTIALS', async () => {
    const ok = await gql<LoginData>(g.app, LOGIN, { variables: { email: 'ADMIN@demo.local', password: PASSWORD } });
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

    const before = await failedLoginCount(g.db);
    const wrong = await gql<LoginData>(g.app, LOGIN, {
      variables: { email: 'admin@demo.local', password: 'wrong-password' },
    });
    const unknown = await gql<LoginData>(g.app, LOGIN, {
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
    expect((await failedLoginCount(g.db)) - before).toBe(2);
  });

  it('logIn ignores a bad token, and needs none', async () => {
    const { status, body } = await gql<LoginData>(g.app, LOGIN, {
      variables: { email: 'admin@demo.local', password: PASSWORD },
      token: 'garbage',
    });
    expect(status).toBe(200);
    expect(body.data?.logIn.user.email).toBe('admin@demo.local');
  });

  it('users as administrador → 200 with the tenant users ascending by id', async () => {
    const token = await tokenOf(g.app, 'admin@demo.local');
    const { status, body } = await gql<{ users: { id: number; email: string }[] }>(g.app, USERS, { token });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const users = body.data?.users ?? [];
    expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['admin@demo.local', 'operador@demo.local']));
    expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => a - b));
  });

  it('users as operador → 403 FORBIDDEN; operations for any signed-in user still work', async () => {
    const token = await tokenOf(g.app, 'operador@demo.local');
    const denied = await gql(g.app, USERS, { token });
    expect(denied.status).toBe(403);
    expect(denied.body.data).toBeNull();
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const mine = await gql<{ userInfos: { email: string } }>(g.app, USER_INFOS, { token });
    expect(mine.status).toBe(200);
    expect(mine.body.data?.userInfos.email).toBe('operador@demo.local');
  });

  it('answers the 401 bodies of the contract, not a GraphQL errors array', async () => {
    const missing = await gql(g.app, USERS);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ status: 'Authorization Token not found' });
    const invalid = await gql(g.app, USERS, { token: 'abc.def.ghi' });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ status: 'Token is Invalid' });
    // A document that does not parse still needs a token …
    expect((await gql(g.app, '{ users { ')).status).toBe(401);
    // … and with one it is a 400 GRAPHQL_PARSE_FAILED.
    const token = await tokenOf(g.app, 'admin@demo.local');
    const broken = await gql(g.app, '{ users { ', { token });
    expect(broken.status).toBe(400);
    expect(broken.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknownField = await gql(g.app, '{ users { nope } }', { token });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers 404 for an unknown or soft-deleted tenant and 403 for a tenant user in another tenant', async () => {
    const token = await tokenOf(g.app, 'admin@demo.local');
    const unknown = await gql(g.app, USER_INFOS, { token, tenant: 'no-such-tenant' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ errors: [{ message: 'Tenant not found', extensions: { code: 'NOT_FOUND' } }] });
    expect((await gql(g.app, USER_INFOS, { token, tenant: await someDeletedTenantName(g.db) })).status).toBe(404);

    const customer = await someCustomerUser(g.db);
    // Staff may act in any tenant.
    expect((await gql(g.app, USER_INFOS, { token, tenant: customer.tenant })).status).toBe(200);
    // A tenant user cannot sign in through another tenant …
    const elsewhere = await gql(g.app, LOGIN, {
      variables: { email: customer.email, password: PASSWORD },
      tenant: 'backoffice',
    });
    expect(elsewhere.body.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
    // … and its token does not work there.
    const own = await tokenOf(g.app, customer.email, PASSWORD, customer.tenant);
    expect((await gql(g.app, USER_INFOS, { token: own, tenant: customer.tenant })).status).toBe(200);
    const foreign = await gql(g.app, USER_INFOS, { token: own, tenant: 'backoffice' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('a session ends with its refresh window: a token alive at its end does not rotate into a new one', async () => {
    // Before, a token refreshed every few minutes rotated for ever: rotate never looked at the window.
    const short = await makeApp(
      loadConfig({ databaseUrl: 'pglite://memory', accessTokenTtl: 600, refreshWindow: 120, refreshWindowShort: 120 }),
    );
    extraApps.push(short);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const token = await tokenOf(short, 'admin@demo.local');
      vi.setSystemTime(Date.now() + 60_000);
      const inside = await gql<{ refreshToken: { token: string } }>(short, REFRESH, { token });
      expect(inside.status).toBe(200);
      const next = inside.body.data?.refreshToken.token ?? '';
      vi.setSystemTime(Date.now() + 61_000);
      // The window is over; the token itself is still alive (600 s), but it refreshes no more.
      expect((await gql(short, USER_INFOS, { token: next })).status).toBe(200);
      const after = await gql(short, REFRESH, { token: next });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ status: 'Unauthorized' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a password change by a session past its refresh window: 401 and nothing changed (the password, the other sessions)', async () => {
    // Before, the password changed and the other sessions ended, then the rotation refused: 401 after the change.
    const short = await makeApp(
      loadConfig({ databaseUrl: 'pglite://memory', accessTokenTtl: 600, refreshWindow: 120, refreshWindowShort: 120 }),
    );
    extraApps.push(short);
    // A user of its own: the apps share one database, and a regression here must not change anyone else's password.
    const user = await createTestUser(g.db, { email: 'rxp-password@demo.local', tenant: 'backoffice' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const token = await tokenOf(short, user.email, TEST_PASSWORD);
      vi.setSystemTime(Date.now() + 121_000);
      const other = await tokenOf(short, user.email, TEST_PASSWORD);
      // The first session's token is still alive (600 s), its window is over.
      expect((await gql(short, USER_INFOS, { token })).status).toBe(200);
      const changed = await gql(
        short,
        'mutation p($password: String!, $current_password: String) { updateUserPassword(password: $password, current_password: $current_password) { token } }',
        { token, variables: { password: 'Outra#Senha-Forte9', current_password: TEST_PASSWORD } },
      );
      expect(changed.status).toBe(401);
      expect(changed.body).toEqual({ status: 'Unauthorized' });
      // Nothing changed: the old password signs in, the other session goes on.
      expect(await tokenOf(short, user.email, TEST_PASSWORD)).toBeTruthy();
      expect((await gql(short, USER_INFOS, { token: other })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
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
    const token = await tokenOf(g.app, 'admin@demo.local');
    type Refreshed = { refreshToken: { token: string } };
    const answers = await Promise.all([
      gql<Refreshed>(g.app, REFRESH, { token }),
      gql<Refreshed>(g.app, REFRESH, { token }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // The loser presented the winner's immediate predecessor within the grace window (server/src/auth/tokens.ts).
    const jtiOf = (jwt: string) =>
      (JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string }).jti;
    const [first, second] = answers.map((a) => jtiOf(a.body.data?.refreshToken.token ?? ''));
    expect(first).not.toBe(jtiOf(token));
    expect(second).toBe(first);
  });
});
