import { once } from 'node:events';
import { admitted, openSocket as openWs, socketQuery, socketTicket } from '../test-support/socket-client';
import type { TestUser } from '../test-support/users';
import { freshUser, refresh, session, tk, usePostgresTokenApp, userInfo } from '../test-support/tokens-postgres-app';

/** Logout, block, delete, disconnect and password change revoke at once, on PostgreSQL (rotation and forged tokens: ./tokens.postgres.test.ts). */
usePostgresTokenApp();

describe('revocation takes effect at once', () => {
  async function openSocket(user: TestUser, token: string) {
    const ticket = await socketTicket(tk.t.app, `Bearer ${token}`);
    const ws = await openWs(`${tk.wsBase}/ws`, socketQuery('backoffice', user.id, ticket));
    // Admitted once its ping is answered (admission is asynchronous after the upgrade).
    await admitted(ws, 'backoffice', user.id);
    return ws;
  }

  it.each([
    [
      'logout (that session only)',
      async (_admin: string, token: string) => {
        expect(
          (
            await tk.t.app.fastify.inject({
              method: 'POST',
              url: '/api/auth/logout',
              headers: { authorization: `Bearer ${token}` },
              payload: { data: null, ip: null },
            })
          ).statusCode,
        ).toBe(200);
      },
      false,
    ],
    [
      'block',
      async (admin: string, _token: string, target: TestUser) => {
        expect(
          (
            await tk.t.app.fastify.inject({
              method: 'PATCH',
              url: `/api/users/${target.id}`,
              headers: { authorization: `Bearer ${admin}` },
              payload: { blocked: true },
            })
          ).statusCode,
        ).toBe(200);
      },
      true,
    ],
    [
      'delete',
      async (admin: string, _token: string, target: TestUser) => {
        expect(
          (
            await tk.t.app.fastify.inject({
              method: 'DELETE',
              url: `/api/users/${target.id}`,
              headers: { authorization: `Bearer ${admin}` },
            })
          ).statusCode,
        ).toBe(200);
      },
      true,
    ],
    [
      'disconnectUser',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await tk.t.app.fastify.inject({
          method: 'POST',
          url: '/backoffice/graphql',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          payload: JSON.stringify({
            query: 'mutation($id: Int!) { disconnectUser(user_id: $id) }',
            variables: { id: target.id },
          }),
        });
        expect(response.json()).toEqual({ data: { disconnectUser: true } });
      },
      true,
    ],
    [
      'password change',
      async (_admin: string, token: string) => {
        const response = await tk.t.app.fastify.inject({
          method: 'POST',
          url: '/backoffice/graphql',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ query: 'mutation { updateUserPassword(password: "Another#Pass-77") { token } }' }),
        });
        expect(response.statusCode).toBe(200);
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
});
