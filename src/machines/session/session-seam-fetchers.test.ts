import { waitFor } from 'xstate';
import { freshTokenFetch, sessionFetch } from './session-seam';
import { fakeApi, flush, json, NOW, startSession } from '../test-support/session-fakes';
import { EXPIRED, ready, storedT1, T1_SESSION } from '../test-support/session-fixtures';

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
