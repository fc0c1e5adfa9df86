import fc from 'fast-check';
import { waitFor } from 'xstate';
import { createAuthFetch } from '../../api/auth-middleware';
import type { SessionActor } from './session.machine';
import { freshTokenFetch, sessionFetch, sessionSeam } from './session-seam';
import { memoryStorage, writeStoredSession, type StoredSession } from './session-storage';
import {
  fakeApi,
  flush,
  json,
  NOW,
  startSession,
  storageHub,
  USER,
  type RouteHandler,
} from '../test-support/session-fakes';

const T1_SESSION: StoredSession = {
  token: 'T1',
  expiresAt: NOW + 600_000,
  email: USER.email,
  originBackoffice: false,
  user: USER,
  permittedRoutes: ['users'],
  permissions: [],
  baseUrl: 'http://api.test',
};

function storedT1() {
  const storage = memoryStorage();
  writeStoredSession(storage, T1_SESSION);
  return storage;
}

/** Counts the session's endings (authenticated → anything else) as they happen. */
function countLogouts(actor: SessionActor) {
  let authenticated = actor.getSnapshot().hasTag('authenticated');
  const counter = { logouts: 0 };
  actor.subscribe((snapshot) => {
    if (authenticated && !snapshot.hasTag('authenticated')) counter.logouts += 1;
    authenticated = snapshot.hasTag('authenticated');
  });
  return counter;
}

/** A session on T1 whose profile load already finished, so only the test's requests are in flight. */
async function ready(routes: Record<string, RouteHandler>) {
  const started = startSession({ storage: storedT1(), api: fakeApi(routes) });
  await waitFor(started.actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
  started.api.seen.length = 0;
  return { ...started, counter: countLogouts(started.actor) };
}

const EXPIRED = { error: 'Token has expired' };

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

describe('session: cross-tab', () => {
  it('a logout in one tab signs the other out without a second logout call', async () => {
    const hub = storageHub();
    const a = startSession({ ...hub.tab() });
    const b = startSession({ ...hub.tab() });
    a.actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(b.actor, (s) => s.hasTag('authenticated'));
    expect(b.actor.getSnapshot().context.token).toBe('T1');
    await flush();
    a.actor.send({ type: 'session.logout' });
    await waitFor(b.actor, (s) => s.matches({ auth: 'anonymous' }));
    expect(b.actor.getSnapshot().context.ended).toBe('remote');
    expect(b.api.calls('POST /api/auth/logout')).toHaveLength(0);
  });

  it("a token refreshed in one tab replaces the other tab's token, even mid-refresh", async () => {
    const hub = storageHub();
    writeStoredSession(hub.shared, T1_SESSION);
    const a = startSession({ ...hub.tab() });
    const b = startSession({
      ...hub.tab(),
      api: fakeApi({ 'GRAPHQL refreshToken': () => new Promise(() => undefined) }),
    });
    await flush();
    b.actor.send({ type: 'session.refresh', token: 'T1' });
    expect(b.actor.getSnapshot().hasTag('refreshing')).toBe(true);
    a.actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(b.actor, (s) => s.context.token === 'T2' && !s.hasTag('refreshing'));
    expect(a.actor.getSnapshot().context.token).toBe('T2');
  });
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

describe('freshTokenFetch: requests sent while the page is being left', () => {
  it("sends with the session's fresh token (whatever the caller set) and keeps the request's keepalive", async () => {
    const { actor, api } = await ready({ 'GET /api/users': () => json(200, []) });
    const keepalive: boolean[] = [];
    const send = freshTokenFetch(actor, (request) => (keepalive.push(request.keepalive), api.fetch(request)));
    const response = await send(
      new Request('http://api.test/api/users', { headers: { Authorization: 'Bearer forged' }, keepalive: true }),
    );
    expect(response.status).toBe(200);
    expect(api.seen.map((c) => [c.route, c.authorization])).toEqual([['GET /api/users', 'Bearer T1']]);
    expect(keepalive).toEqual([true]);
  });

  it('with a locally expired token rejects without sending, and starts no refresh', async () => {
    let now = NOW;
    const started = startSession({ storage: storedT1(), now: () => now });
    await waitFor(started.actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    started.api.seen.length = 0;
    now = T1_SESSION.expiresAt ?? NOW;
    await expect(
      freshTokenFetch(started.actor, started.api.fetch)(new Request('http://api.test/api/users')),
    ).rejects.toThrow('no fresh session token');
    await flush();
    expect(started.api.seen).toEqual([]);
    expect(started.actor.getSnapshot().hasTag('refreshing')).toBe(false);
  });

  it.each([EXPIRED, { status: 'Unauthorized' }])(
    'hands a 401 (%j) back to the caller: no refresh, no retry, no logout',
    async (body) => {
      const { actor, api, counter } = await ready({ 'GET /api/users': () => json(401, body) });
      const response = await freshTokenFetch(() => actor, api.fetch)(new Request('http://api.test/api/users'));
      await flush();
      expect(response.status).toBe(401);
      expect(api.seen.map((c) => c.route)).toEqual(['GET /api/users']);
      expect(counter.logouts).toBe(0);
      expect(actor.getSnapshot().context.token).toBe('T1');
    },
  );

  it('signed out: rejects without sending', async () => {
    const { actor, api } = startSession();
    await expect(freshTokenFetch(actor, api.fetch)(new Request('http://api.test/api/users'))).rejects.toThrow(
      'no fresh session token',
    );
    expect(api.seen).toEqual([]);
  });
});

describe('sessionFetch: a fresh token leaves at once', () => {
  it('sends the request in the caller’s task, before work queued after the call (e.g. the re-render of the state change that made it)', async () => {
    const started = startSession({ storage: storedT1(), api: fakeApi({}) });
    const order: string[] = [];
    const send = sessionFetch(started.actor, (request) => {
      order.push(`network ${request.headers.get('Authorization')}`);
      return Promise.resolve(json(200, {}));
    });
    const answer = send(new Request('http://api.test/api/tenant/paginated', { method: 'POST', body: '{}' }));
    queueMicrotask(() => order.push('queued after'));
    await answer;
    expect(order).toEqual(['network Bearer T1', 'queued after']);
  });
});
