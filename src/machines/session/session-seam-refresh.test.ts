import { waitFor } from 'xstate';
import { memoryStorage, writeStoredSession } from './session-storage';
import { fakeApi, json, NOW, startSession } from '../test-support/session-fakes';
import { countLogouts, EXPIRED, ready, storedT1, T1_SESSION } from '../test-support/session-fixtures';

describe('session seam: a refresh that is not refused', () => {
  const networkDown = () => Promise.reject(new TypeError('Failed to fetch'));

  it('without an answer (lost, or cut off by leaving the page) keeps the session and its stored token; the next refresh of it carries on', async () => {
    let now = NOW;
    const storage = storedT1();
    let refreshes = 0;
    const started = startSession({
      storage,
      now: () => now,
      api: fakeApi({
        'GET /api/users': (request) =>
          request.headers.get('Authorization') === 'Bearer T2' ? json(200, []) : json(401, EXPIRED),
        'GRAPHQL refreshToken': () =>
          ++refreshes === 1 ? networkDown() : json(200, { data: { refreshToken: { token: 'T2', expires_in: 900 } } }),
      }),
    });
    await waitFor(started.actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    const counter = countLogouts(started.actor);
    started.api.seen.length = 0;
    now = NOW + 600_000;
    const result = await started.rest.GET('/api/users');
    expect(result.response.status).toBe(200);
    // The first refresh got no answer: the request left with T1, met "Token has expired", and its refresh worked.
    expect(started.api.seen.map((c) => [c.route, c.authorization])).toEqual([
      ['GRAPHQL refreshToken', 'Bearer T1'],
      ['GET /api/users', 'Bearer T1'],
      ['GRAPHQL refreshToken', 'Bearer T1'],
      ['GET /api/users', 'Bearer T2'],
    ]);
    expect(counter.logouts).toBe(0);
    expect(storage.getItem('accessToken')).toBe('T2');
  });

  it('the token stays stored while the refresh has no answer (what the next page starts from)', async () => {
    let now = NOW;
    const storage = storedT1();
    const { actor, rest } = startSession({
      storage,
      now: () => now,
      api: fakeApi({ 'GET /api/users': () => json(200, []), 'GRAPHQL refreshToken': networkDown }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    now = NOW + 600_000;
    await rest.GET('/api/users');
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('T1');
    expect(storage.getItem('accessToken')).toBe('T1');
  });

  it.each([
    ['the network down', networkDown],
    ['a server failure (503)', () => json(503, { status: 'unavailable' })],
  ])(
    'with %s: K concurrent requests end with at most two refreshes, no logout and no loop',
    async (_label, refreshAnswer) => {
      const { api, rest, actor, counter } = await ready({
        'GET /api/users': () => json(401, EXPIRED),
        'GRAPHQL refreshToken': refreshAnswer,
      });
      const results = await Promise.all(Array.from({ length: 4 }, () => rest.GET('/api/users')));
      expect(results.map((r) => r.response.status)).toEqual([401, 401, 401, 401]);
      expect(api.calls('GRAPHQL refreshToken').length).toBeLessThanOrEqual(2);
      expect(api.calls('GET /api/users')).toHaveLength(4);
      expect(counter.logouts).toBe(0);
      expect(actor.getSnapshot().context.token).toBe('T1');
    },
  );
});

describe('session: restored short-lived token', () => {
  /** A JWT-shaped token whose payload says it lives `seconds` (signature irrelevant to the client). */
  const jwt = (seconds: number) =>
    `h.${btoa(JSON.stringify({ iat: 1_000, exp: 1_000 + seconds })).replace(/=+$/, '')}.s`;

  it('a restored 3 s token is used while fresh, its margin sized from its own claims (not refreshed on the first request)', async () => {
    const storage = memoryStorage();
    writeStoredSession(storage, { ...T1_SESSION, token: jwt(3), expiresAt: NOW + 2_000 });
    const { api, rest, actor } = startSession({
      storage,
      now: () => NOW,
      api: fakeApi({ 'GET /api/users': () => json(200, []) }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    await rest.GET('/api/users');
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(0);
    expect(api.calls('GET /api/users').map((c) => c.authorization)).toEqual([`Bearer ${jwt(3)}`]);
  });

  it('a restored token without readable claims keeps the full margin', async () => {
    const storage = memoryStorage();
    writeStoredSession(storage, { ...T1_SESSION, expiresAt: NOW + 2_000 });
    const { api, rest, actor } = startSession({
      storage,
      now: () => NOW,
      api: fakeApi({ 'GET /api/users': () => json(200, []) }),
    });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    await rest.GET('/api/users');
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
  });
});
