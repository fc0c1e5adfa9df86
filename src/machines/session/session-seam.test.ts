import fc from 'fast-check';
import { waitFor } from 'xstate';
import { createAuthFetch } from '../../api/auth-middleware';
import { sessionSeam } from './session-seam';
import { fakeApi, json, loginResponse, NOW, startSession, storageHub, USER } from '../test-support/session-fakes';
import { deferred } from '../test-support/fake-fetch';
import { EXPIRED, ready, storedT1, T1_SESSION } from '../test-support/session-fixtures';
import { writeStoredSession } from './session-storage';

describe('session seam: properties', () => {
  it('K concurrent requests refused with "Token has expired" cause one refresh and K retries, in any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 6 }), async (s, k) => {
        const { api, rest, actor, counter } = await ready({
          'GET /api/users': (request) =>
            s.schedule(
              Promise.resolve(
                request.headers.get('Authorization') === 'Bearer T2' ? json(200, []) : json(401, EXPIRED),
              ),
              'users',
            ),
          'GRAPHQL refreshToken': () =>
            s.schedule(
              Promise.resolve(json(200, { data: { refreshToken: { token: 'T2', expires_in: 900 } } })),
              'refresh',
            ),
        });
        const results = await s.waitFor(Promise.all(Array.from({ length: k }, () => rest.GET('/api/users'))));
        expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
        expect(api.calls('GET /api/users').filter((c) => c.authorization === 'Bearer T1')).toHaveLength(k);
        expect(api.calls('GET /api/users').filter((c) => c.authorization === 'Bearer T2')).toHaveLength(k);
        expect(results.map((r) => r.response.status)).toEqual(Array.from({ length: k }, () => 200));
        expect(counter.logouts).toBe(0);
        expect(actor.getSnapshot().context.token).toBe('T2');
      }),
      { numRuns: 1000 },
    );
  });

  it('when that refresh fails: one logout and K rejections, no retry and no second refresh', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(
          json(401, { status: 'Token is Expired' }),
          json(200, { errors: [{ message: 'Unauthorized', extensions: { http: { status: 401 } } }] }),
        ),
        async (s, k, refusal) => {
          const { api, rest, actor, counter } = await ready({
            'GET /api/users': () => s.schedule(Promise.resolve(json(401, EXPIRED)), 'users'),
            'GRAPHQL refreshToken': () => s.schedule(Promise.resolve(refusal.clone()), 'refresh'),
          });
          const results = await s.waitFor(Promise.all(Array.from({ length: k }, () => rest.GET('/api/users'))));
          expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
          expect(api.calls('GET /api/users')).toHaveLength(k);
          expect(results.map((r) => r.response.status)).toEqual(Array.from({ length: k }, () => 401));
          expect(counter.logouts).toBe(1);
          expect(api.calls('POST /api/auth/logout')).toHaveLength(0);
          expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('session seam: 401 policy', () => {
  it.each(['Unauthorized', 'Authorization Token not found', 'Token is Expired', 'Token is Invalid'])(
    'a 401 with status %s logs out at once: no refresh, no retry',
    async (status) => {
      const { api, rest, actor, counter } = await ready({ 'GET /api/users': () => json(401, { status }) });
      const [a, b] = await Promise.all([rest.GET('/api/users'), rest.GET('/api/users')]);
      expect([a.response.status, b.response.status]).toEqual([401, 401]);
      expect(api.calls('GET /api/users')).toHaveLength(2);
      expect(api.calls('GRAPHQL refreshToken')).toHaveLength(0);
      expect(counter.logouts).toBe(1);
      expect(actor.getSnapshot().context).toMatchObject({ token: null, ended: 'expired' });
    },
  );

  it('retries once only: a retry refused again logs out instead of looping', async () => {
    const { api, rest, counter } = await ready({ 'GET /api/users': () => json(401, EXPIRED) });
    const result = await rest.GET('/api/users');
    expect(result.response.status).toBe(401);
    expect(api.seen.map((c) => [c.route, c.authorization])).toEqual([
      ['GET /api/users', 'Bearer T1'],
      ['GRAPHQL refreshToken', 'Bearer T1'],
      ['GET /api/users', 'Bearer T2'],
    ]);
    expect(counter.logouts).toBe(1);
  });

  it('a locally expired token is refreshed once before concurrent requests leave', async () => {
    let now = NOW;
    const storage = storedT1();
    const { api, rest, actor } = startSession({
      storage,
      now: () => now,
      api: fakeApi({ 'GET /api/users': () => json(200, []) }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    api.seen.length = 0;
    now = NOW + 600_000;
    await Promise.all([rest.GET('/api/users'), rest.GET('/api/users'), rest.GET('/api/users')]);
    expect(api.seen.map((c) => [c.route, c.authorization])).toEqual([
      ['GRAPHQL refreshToken', 'Bearer T1'],
      ['GET /api/users', 'Bearer T2'],
      ['GET /api/users', 'Bearer T2'],
      ['GET /api/users', 'Bearer T2'],
    ]);
    expect(storage.getItem('accessToken')).toBe('T2');
  });

  it('a short-lived token (3 s, under the 5 s margin) is refreshed once, then used: no refresh per request', async () => {
    let now = NOW;
    const storage = storedT1();
    const { api, rest, actor } = startSession({
      storage,
      now: () => now,
      api: fakeApi({
        'GET /api/users': () => json(200, []),
        'GRAPHQL refreshToken': () => json(200, { data: { refreshToken: { token: 'T2', expires_in: 3 } } }),
      }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    api.seen.length = 0;
    now = NOW + 600_000;
    await rest.GET('/api/users');
    // The fresh 3 s token is good for the next requests, until its last quarter.
    now += 1_000;
    await rest.GET('/api/users');
    await rest.GET('/api/users');
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
    expect(api.calls('GET /api/users').map((c) => c.authorization)).toEqual(['Bearer T2', 'Bearer T2', 'Bearer T2']);
    // In its last quarter it counts as expired again.
    now += 1_500;
    await rest.GET('/api/users');
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(2);
  });

  it('leaves a 401 of a signed-out request alone and sends no token', async () => {
    const { actor, api } = startSession({
      api: fakeApi({ 'GET /api/users': () => json(401, { status: 'Authorization Token not found' }) }),
    });
    const authFetch = createAuthFetch(sessionSeam(actor), api.fetch);
    const response = await authFetch(new Request('http://api.test/api/users'));
    expect(response.status).toBe(401);
    expect(api.calls('GET /api/users')[0]?.authorization).toBeNull();
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
  });

  it('without a tracked fetch still refreshes and retries with the new token', async () => {
    const { actor, api } = await ready({
      'GET /api/users': (r) => (r.headers.get('Authorization') === 'Bearer T2' ? json(200, []) : json(401, EXPIRED)),
    });
    const response = await createAuthFetch(sessionSeam(actor), api.fetch)(new Request('http://api.test/api/users'));
    expect(response.status).toBe(200);
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
  });
});

describe('session seam: a 401 that comes back after the sign-in changed hands', () => {
  const OTHER = { ...USER, id: 7, email: 'outra@demo.local' };

  // A request of the first user, answered 401 only after that user signed out and another signed in
  // (in this tab, or in another one this tab follows): the new token is "another token than the refused
  // one", but it is not this request's session. Replaying the request with it would make the second user
  // send what the first one asked for (a delete, a role change).
  it.each([
    ['a revoked token', { status: 'Unauthorized' }, OTHER],
    ['an expired token', EXPIRED, OTHER],
    ['an expired token, the same user signing in again', EXPIRED, USER],
  ])('refused as %s: not replayed with the next sign-in’s token', async (_label, refusal, next) => {
    const answer = deferred<Response>();
    let logins = 0;
    const { actor, api, rest } = await ready({
      'DELETE /api/users/42': (request) =>
        request.headers.get('Authorization') === 'Bearer T1' ? answer.promise : json(200, { message: 'deleted' }),
      'POST /api/auth/login': () => json(200, loginResponse(`B${++logins}`, { user: next })),
    });
    const sent = rest.DELETE('/api/users/{id}', { params: { path: { id: 42 } } });
    await vi.waitFor(() => expect(api.calls('DELETE /api/users/42')).toHaveLength(1));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
    actor.send({ type: 'session.login', email: next.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    answer.resolve(json(401, refusal));
    const result = await sent;
    expect(result.response.status).toBe(401);
    expect(api.calls('DELETE /api/users/42').map((c) => c.authorization)).toEqual(['Bearer T1']);
    expect(actor.getSnapshot().context.token).toBe('B1');
  });
});

describe('session seam: a 401 within the same sign-in, followed from another tab of the same user', () => {
  // The other half of the rule above: another tab of the same user refreshing (or rotating) the token is
  // the same sign-in, and this tab's request refused with the superseded token is replayed with the new one.
  it.each([
    ['revoked', { status: 'Unauthorized' }],
    ['expired', EXPIRED],
  ])('the token refused as %s is replayed once with the token the other tab stored', async (_label, refusal) => {
    const hub = storageHub();
    const mine = hub.tab();
    const other = hub.tab();
    writeStoredSession(other.storage, T1_SESSION);
    const answer = deferred<Response>();
    const { actor, api, rest } = startSession({
      storage: mine.storage,
      storageEvents: mine.storageEvents,
      api: fakeApi({
        'DELETE /api/users/42': (request) =>
          request.headers.get('Authorization') === 'Bearer T1' ? answer.promise : json(200, { message: 'deleted' }),
      }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    const signIns = actor.getSnapshot().context.signIns;
    const sent = rest.DELETE('/api/users/{id}', { params: { path: { id: 42 } } });
    await vi.waitFor(() => expect(api.calls('DELETE /api/users/42')).toHaveLength(1));
    writeStoredSession(other.storage, { ...T1_SESSION, token: 'T2' });
    expect(actor.getSnapshot().context.token).toBe('T2');
    expect(actor.getSnapshot().context.signIns).toBe(signIns);
    answer.resolve(json(401, refusal));
    const result = await sent;
    expect(result.response.status).toBe(200);
    expect(api.calls('DELETE /api/users/42').map((c) => c.authorization)).toEqual(['Bearer T1', 'Bearer T2']);
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(0);
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
  });
});

describe('session seam: the sign-in changes hands while the replay waits for a refresh', () => {
  // The replay leaves with the token the session holds once a refresh it needs is done. Another tab's
  // other user, adopted during that refresh, is another sign-in: the first user's request is not sent
  // with that user's token.
  it('is not replayed with the token of the user another tab signed in meanwhile', async () => {
    const OTHER = { ...USER, id: 7, email: 'outra@demo.local' };
    const hub = storageHub();
    const mine = hub.tab();
    const other = hub.tab();
    writeStoredSession(other.storage, T1_SESSION);
    const answer = deferred<Response>();
    const refresh = deferred<Response>();
    const { actor, api, rest } = startSession({
      storage: mine.storage,
      storageEvents: mine.storageEvents,
      api: fakeApi({
        'DELETE /api/users/42': (request) =>
          request.headers.get('Authorization') === 'Bearer T1' ? answer.promise : json(200, { message: 'deleted' }),
        'GRAPHQL refreshToken': () => refresh.promise,
      }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    const sent = rest.DELETE('/api/users/{id}', { params: { path: { id: 42 } } });
    await vi.waitFor(() => expect(api.calls('DELETE /api/users/42')).toHaveLength(1));
    // The same user's other tab stores a new token, already expired here: the replay must refresh it first.
    writeStoredSession(other.storage, { ...T1_SESSION, token: 'T2', expiresAt: NOW - 1000 });
    answer.resolve(json(401, { status: 'Unauthorized' }));
    await vi.waitFor(() => expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1));
    // While that refresh is out, the other tab signs in as another user.
    writeStoredSession(other.storage, { ...T1_SESSION, token: 'B1', email: OTHER.email, user: OTHER });
    expect(actor.getSnapshot().context.user?.id).toBe(OTHER.id);
    refresh.resolve(json(200, { data: { refreshToken: { token: 'T3', expires_in: 900 } } }));
    const result = await sent;
    expect(result.response.status).toBe(401);
    expect(api.calls('DELETE /api/users/42').map((c) => c.authorization)).toEqual(['Bearer T1']);
  });
});
