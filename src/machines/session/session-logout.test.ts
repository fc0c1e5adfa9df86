import { waitFor } from 'xstate';
import { fakeApi, json, NOW, startSession, USER } from '../test-support/session-fakes';
import { loggedIn, remote, stored } from '../test-support/session-fixtures';

describe('session machine: logout', () => {
  it.each([
    ['succeeds', () => json(200, { message: 'Logged out' })],
    ['fails', () => json(500, { message: 'boom' })],
    ['cannot reach the server', () => Promise.reject(new TypeError('fetch failed'))],
  ] as const)(
    'sends the logout with the ip and the token, clears storage and ends logged out when the call %s',
    async (_, answer) => {
      const storage = stored({ ...remote, expiresAt: NOW + 60_000 });
      const { actor, api } = startSession({ storage, api: fakeApi({ 'POST /api/auth/logout': answer }) });
      await loggedIn(actor);
      actor.send({ type: 'session.logout' });
      expect(storage.dump()).toEqual({});
      await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
      expect(api.calls('POST /api/auth/logout')[0]).toMatchObject({
        authorization: 'Bearer T3',
        body: { data: { email: USER.email }, ip: '203.0.113.7' },
      });
      expect(actor.getSnapshot().context).toMatchObject({
        token: null,
        user: null,
        permittedRoutes: [],
        ended: 'logout',
      });
    },
  );
});

describe('session machine: what happens just before logout', () => {
  it('runs beforeLogout first, and logs out even when it fails or never answers', async () => {
    for (const beforeLogout of [
      () => Promise.resolve('said'),
      () => Promise.reject(new Error('offline')),
      () => new Promise(() => undefined),
    ]) {
      const order: string[] = [];
      const api = fakeApi({
        'POST /api/auth/logout': () => {
          order.push('logout');
          return json(200, { message: 'Logged out' });
        },
      });
      const { actor } = startSession({
        api,
        storage: stored({ ...remote, expiresAt: NOW + 60_000 }),
        beforeLogout: () => (order.push('before'), beforeLogout()),
      });
      await loggedIn(actor);
      actor.send({ type: 'session.logout' });
      // The never-answering one is cut off after BEFORE_LOGOUT_MS (a real timer inside the actor).
      await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }), { timeout: 5000 });
      expect(order).toEqual(['before', 'logout']);
    }
  });
});
