import { decodeJwt } from 'jose';
import { once } from 'node:events';
import { admitted, closedWith, openSocket as openWs, socketQuery, socketTicket } from '../test-support/socket-client';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';
import { freshUser, refresh, session, tk, usePostgresTokenApp, userInfo } from '../test-support/tokens-postgres-app';
import { totp } from './totp';

/**
 * Logout, block, delete, disconnect and credential changes revoke at once, on PostgreSQL (rotation and
 * forged tokens: ./tokens.postgres.test.ts). A user's own new password, e-mail or two-factor ends its
 * OTHER sessions and the one that made the change goes on; the same change made by someone else ends
 * every session (docs/security.md, Credentials and sessions).
 */
usePostgresTokenApp();

describe('revocation takes effect at once', () => {
  async function openSocket(user: TestUser, token: string) {
    const ticket = await socketTicket(tk.t.app, `Bearer ${token}`);
    const ws = await openWs(`${tk.wsBase}/ws`, socketQuery(user.tenantName, user.id, ticket));
    // Admitted once its ping is answered (admission is asynchronous after the upgrade).
    await admitted(ws, user.tenantName, user.id);
    return ws;
  }

  const inject = (token: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    tk.t.app.fastify.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
    (
      await tk.t.app.fastify.inject({
        method: 'POST',
        url: '/backoffice/graphql',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ query, variables }),
      })
    ).json<{ data?: Record<string, unknown> | null; errors?: unknown[] }>();
  /** The whole-object form of PUT /api/users/{id} (contracts/openapi.yaml UserUpdate): the user as stored, with `change`. */
  const whole = async (id: number, change: Record<string, unknown>) => ({
    ...(await tk.t.db
      .selectFrom('users')
      .select(['username', 'name', 'email', 'role_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()),
    ...change,
  });

  it.each([
    [
      'logout (that session only)',
      async (_admin: string, token: string) => {
        expect((await inject(token, 'POST', '/api/auth/logout', { data: null, ip: null })).statusCode).toBe(200);
      },
      false,
    ],
    [
      'block',
      async (admin: string, _token: string, target: TestUser) => {
        expect((await inject(admin, 'PATCH', `/api/users/${target.id}`, { blocked: true })).statusCode).toBe(200);
      },
      true,
    ],
    [
      'delete',
      async (admin: string, _token: string, target: TestUser) => {
        expect((await inject(admin, 'DELETE', `/api/users/${target.id}`)).statusCode).toBe(200);
      },
      true,
    ],
    [
      'disconnectUser',
      async (admin: string, _token: string, target: TestUser) => {
        // The answer also names its audit record in `extensions` (server/src/graphql/audit-records.ts).
        const answer = await graphql(admin, 'mutation($id: Int!) { disconnectUser(user_id: $id) }', { id: target.id });
        expect(answer).toMatchObject({ data: { disconnectUser: true } });
        expect(answer).not.toHaveProperty('errors');
      },
      true,
    ],
    [
      'a password set by an administrator (REST)',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await inject(
          admin,
          'PUT',
          `/api/users/${target.id}`,
          await whole(target.id, { password: 'Set#ByAdmin-4Q' }),
        );
        expect(response.statusCode, response.body).toBe(200);
      },
      true,
    ],
    [
      'an e-mail changed by an administrator (GraphQL)',
      async (admin: string, _token: string, target: TestUser) => {
        const answer = await graphql(
          admin,
          'mutation($id: Int!, $e: String) { updateUser(id: $id, email: $e) { id } }',
          {
            id: target.id,
            e: `moved-${target.id}@demo.local`,
          },
        );
        expect(answer.errors, JSON.stringify(answer)).toBeUndefined();
      },
      true,
    ],
    [
      'two-factor enrolment required by an administrator',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await inject(admin, 'PATCH', `/api/user-settings/${target.id}`, {
          two_factor_enrolment_required: true,
        });
        expect(response.statusCode, response.body).toBe(200);
      },
      true,
    ],
    // The support desk (docs/support-desk.md) ends sessions the same way.
    [
      'the support desk blocking (supportBlock)',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await inject(admin, 'POST', `/api/support/users/${target.id}/block`, { blocked: true });
        expect(response.statusCode, response.body).toBe(200);
      },
      true,
    ],
    [
      'the support desk ending every session (supportEndSessions)',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await inject(admin, 'POST', `/api/support/users/${target.id}/sessions/end`, {});
        expect(response.statusCode, response.body).toBe(200);
      },
      true,
    ],
    [
      'the support desk ending this session (supportEndSessions with its id)',
      async (admin: string, token: string, target: TestUser) => {
        const response = await inject(admin, 'POST', `/api/support/users/${target.id}/sessions/end`, {
          session_id: decodeJwt(token)['fam'],
        });
        expect(response.statusCode, response.body).toBe(200);
      },
      false,
    ],
    [
      'the support desk requiring two-factor (supportTwoFactor)',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await inject(admin, 'POST', `/api/support/users/${target.id}/two-factor`, {
          action: 'require',
        });
        expect(response.statusCode, response.body).toBe(200);
      },
      true,
    ],
  ] as const)(
    '%s: the next request is 401 Unauthorized and the socket closes with 4401',
    async (_name, act, everySession) => {
      const admin = await session(await freshUser());
      const target = await freshUser('operador');
      const token = await session(target);
      const other = await session(target);
      const ws = await openSocket(target, token);
      const closed = once(ws, 'close');
      await act(admin, token, target);
      expect(await userInfo(token)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
      expect((await refresh(token)).status).toBe(401);
      const [code] = (await closed) as [number];
      expect(code).toBe(4401);
      // Logout ends one session; the others revoke every session of the user.
      expect((await userInfo(other)).status).toBe(everySession ? 401 : 200);
    },
  );

  it.each([
    [
      'its own password (GraphQL updateUserPassword, with the current one)',
      async (token: string) => {
        const answer = await graphql(
          token,
          'mutation($p: String!, $c: String) { updateUserPassword(password: $p, current_password: $c) { token } }',
          { p: 'Another#Pass-77', c: TEST_PASSWORD },
        );
        const fresh = (answer.data?.updateUserPassword as { token?: string } | undefined)?.token;
        expect(fresh, JSON.stringify(answer)).toEqual(expect.any(String));
        return fresh;
      },
    ],
    [
      'its own e-mail (REST, with the current password)',
      async (token: string, target: TestUser) => {
        const response = await inject(token, 'PUT', `/api/users/${target.id}`, {
          email: `self-moved-${target.id}@demo.local`,
          current_password: TEST_PASSWORD,
        });
        expect(response.statusCode, response.body).toBe(200);
        return undefined;
      },
    ],
    [
      'its own two-factor, enrolled and confirmed',
      async (token: string) => {
        const enrol = await inject(token, 'POST', '/api/two-factor/enrol');
        expect(enrol.statusCode, enrol.body).toBe(200);
        const code = totp(enrol.json<{ secret: string }>().secret, Date.now());
        const verify = await inject(token, 'POST', '/api/two-factor/verify', { code });
        expect(verify.statusCode, verify.body).toBe(200);
        return undefined;
      },
    ],
  ] as const)(
    '%s: the other sessions get 401 and their sockets close with 4401; this session goes on',
    async (_name, act) => {
      const target = await freshUser('operador');
      const token = await session(target);
      const other = await session(target);
      const otherSocket = await openSocket(target, other);
      const closed = once(otherSocket, 'close');
      const fresh = await act(token, target);
      expect(await userInfo(other)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
      expect((await refresh(other)).status).toBe(401);
      const [code] = (await closed) as [number];
      expect(code).toBe(4401);
      expect((await userInfo(token)).status).toBe(200);
      if (fresh) {
        // A new token of the SAME session: same family, same end of the refresh window.
        const before = decodeJwt(token);
        const after = decodeJwt(fresh);
        expect({ fam: after.fam, rxp: after.rxp, sub: after.sub }).toEqual({
          fam: before.fam,
          rxp: before.rxp,
          sub: before.sub,
        });
        expect(after.jti).not.toBe(before.jti);
        expect((await userInfo(fresh)).status).toBe(200);
        expect((await refresh(fresh)).status).toBe(200);
      } else {
        expect((await refresh(token)).status).toBe(200);
      }
    },
  );

  // The socket closes as Tenant closed says (contracts/socket.md §5): 4403, so the client stops rather
  // than refresh and retry as after a 4401.
  it('a deleted tenant: every session of its users ends and their sockets close with 4403 Tenant deleted', async () => {
    const staff = await session(await freshUser());
    const name = `tok-closed-${Date.now().toString(36)}`;
    const created = await inject(staff, 'POST', '/api/tenant', {
      name,
      cnpj: '11.444.777/0001-61',
      features: [],
      template: 'pharmacy',
      pool: 'pool-a',
      userLimit: 5,
      plan: 'starter',
      ticketLimit: 100,
    });
    expect(created.statusCode, created.body).toBe(201);
    const tenantId = created.json<{ id: number }>().id;
    const customer = await createTestUser(tk.t.db, { email: `tok-customer-${tenantId}@demo.local`, tenant: name });
    const token = await session(customer);
    const socket = await openSocket(customer, token);
    const closed = closedWith(socket);
    expect((await inject(staff, 'POST', '/api/tenant/delete', { id: tenantId })).statusCode).toBe(200);
    expect(await userInfo(token)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    expect((await refresh(token)).status).toBe(401);
    expect(await closed).toEqual({ code: 4403, reason: 'Tenant deleted' });
  });
});
