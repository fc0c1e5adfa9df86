import fc from 'fast-check';
import { createAuthFetch, type AuthSeam, type UnauthorizedEvent } from './auth-middleware';

/** What the fake server saw of one request (read on arrival, so a consumed body shows up as ''). */
interface Seen {
  method: string;
  url: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fake network: answers the queued responses in order and records every request it receives. */
function fakeServer(...answers: Response[]) {
  const seen: Seen[] = [];
  const fetch = vi.fn(async (request: Request): Promise<Response> => {
    seen.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get('Authorization'),
      contentType: request.headers.get('Content-Type'),
      body: request.body ? await request.text() : '',
    });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected request #${seen.length}`);
    return next;
  });
  return { fetch, seen };
}

/** A seam whose getToken hands out the given tokens in order (the last one repeats). */
function fakeSeam(tokens: (string | null)[], decide: (event: UnauthorizedEvent) => boolean = () => true) {
  const queue = [...tokens];
  const getToken = vi.fn(async () => (queue.length > 1 ? queue.shift()! : (queue[0] ?? null)));
  const onUnauthorized = vi.fn(async (event: UnauthorizedEvent) => decide(event));
  const seam: AuthSeam = { getToken, onUnauthorized };
  return { seam, getToken, onUnauthorized };
}

const URL_USERS = 'http://api.test/api/users?page=2';
const PAYLOAD = { name: 'Ana Lúcia', email: 'ana@example.com', roles: [1, 2], nested: { ok: true } };

function postUsers(): Request {
  return new Request(URL_USERS, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Trace': 'abc' },
    body: JSON.stringify(PAYLOAD),
  });
}

describe('createAuthFetch', () => {
  it('attaches the bearer token from getToken', async () => {
    const { fetch, seen } = fakeServer(json(200, { ok: true }));
    const { seam } = fakeSeam(['tok-1']);
    await createAuthFetch(seam, fetch)(new Request('http://api.test/api/auth/userInfo'));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toBe('Bearer tok-1');
    expect(seen[0]?.url).toBe('http://api.test/api/auth/userInfo');
  });

  it('sends no Authorization header when getToken gives null, even if the request carried one', async () => {
    const { fetch, seen } = fakeServer(json(200, {}), json(200, {}));
    const { seam } = fakeSeam([null]);
    const authFetch = createAuthFetch(seam, fetch);
    await authFetch(new Request('http://api.test/api/auth/login', { method: 'POST', body: '{}' }));
    await authFetch(new Request('http://api.test/x', { headers: { Authorization: 'Bearer stale' } }));
    expect(seen.map((s) => s.authorization)).toEqual([null, null]);
  });

  it('returns a 401 of a request sent without a token untouched, without calling onUnauthorized', async () => {
    const unauthorized = json(401, { status: 'Authorization Token not found' });
    const { fetch, seen } = fakeServer(unauthorized);
    const { seam, onUnauthorized, getToken } = fakeSeam([null]);
    const result = await createAuthFetch(seam, fetch)(postUsers());
    expect(result).toBe(unauthorized);
    expect(result.bodyUsed).toBe(false);
    expect(await result.json()).toEqual({ status: 'Authorization Token not found' });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(1);
  });

  it('hands an expired-token 401 to the session and replays the original POST once with the fresh token', async () => {
    const first = json(401, { error: 'Token has expired' });
    const second = json(201, { id: 7 });
    const { fetch, seen } = fakeServer(first, second);
    const { seam, onUnauthorized, getToken } = fakeSeam(['old-token', 'fresh-token']);

    const result = await createAuthFetch(seam, fetch)(postUsers());

    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    const event = onUnauthorized.mock.calls[0]![0];
    expect(event.attempt).toBe(1);
    expect(event.body).toEqual({ error: 'Token has expired' });
    expect(event.response).toBe(first);
    expect(event.request.method).toBe('POST');
    expect(event.request.url).toBe(URL_USERS);
    expect(getToken).toHaveBeenCalledTimes(2);

    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual({
      method: 'POST',
      url: URL_USERS,
      authorization: 'Bearer old-token',
      contentType: 'application/json',
      body: JSON.stringify(PAYLOAD),
    });
    expect(seen[1]).toEqual({
      method: 'POST',
      url: URL_USERS,
      authorization: 'Bearer fresh-token',
      contentType: 'application/json',
      body: JSON.stringify(PAYLOAD),
    });
    expect(JSON.parse(seen[1]!.body)).toEqual(PAYLOAD);

    expect(result).toBe(second);
    expect(await result.json()).toEqual({ id: 7 });
  });

  it('reports a second 401 as attempt 2 and never sends a third request', async () => {
    const { fetch, seen } = fakeServer(
      json(401, { error: 'Token has expired' }),
      json(401, { status: 'Token is Invalid' }),
      json(200, { never: 'served' }),
    );
    const { seam, onUnauthorized } = fakeSeam(['old', 'new'], () => true);

    const result = await createAuthFetch(seam, fetch)(postUsers());

    expect(seen).toHaveLength(2);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
    expect(onUnauthorized.mock.calls.map(([e]) => e.attempt)).toEqual([1, 2]);
    expect(onUnauthorized.mock.calls[1]![0].body).toEqual({ status: 'Token is Invalid' });
    expect(result.status).toBe(401);
    expect(await result.json()).toEqual({ status: 'Token is Invalid' });
  });

  it('does not replay when onUnauthorized resolves false, and returns the 401 with its body still readable', async () => {
    const first = json(401, { status: 'Token is Invalid' });
    const { fetch, seen } = fakeServer(first, json(200, {}));
    const { seam, onUnauthorized, getToken } = fakeSeam(['tok'], () => false);

    const result = await createAuthFetch(seam, fetch)(postUsers());

    expect(seen).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(result).toBe(first);
    expect(await result.json()).toEqual({ status: 'Token is Invalid' });
  });

  it.each([
    ['an HTML page', '<html><body>401 Unauthorized</body></html>'],
    ['an empty body', ''],
    ['truncated JSON', '{"error":'],
  ])('gives body null for a 401 with %s', async (_label, text) => {
    const first = new Response(text, { status: 401, headers: { 'Content-Type': 'text/html' } });
    const { fetch } = fakeServer(first);
    const { seam, onUnauthorized } = fakeSeam(['tok'], () => false);

    const result = await createAuthFetch(seam, fetch)(new Request('http://api.test/api/users'));

    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized.mock.calls[0]![0].body).toBeNull();
    expect(onUnauthorized.mock.calls[0]![0].attempt).toBe(1);
    expect(result).toBe(first);
    expect(await result.text()).toBe(text);
  });

  it.each([200, 204, 400, 403, 404, 419, 500, 503])('passes a %i answer through untouched', async (status) => {
    const answer = new Response(status === 204 ? null : JSON.stringify({ status }), {
      status,
      headers: { 'X-Answer': 'original' },
    });
    const { fetch, seen } = fakeServer(answer);
    const { seam, onUnauthorized } = fakeSeam(['tok']);

    const result = await createAuthFetch(seam, fetch)(postUsers());

    expect(result).toBe(answer);
    expect(result.bodyUsed).toBe(false);
    expect(result.headers.get('X-Answer')).toBe('original');
    expect(seen).toHaveLength(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('never sends more than two requests nor calls onUnauthorized more than twice, whatever the server answers', async () => {
    const status = fc.oneof(fc.constant(401), fc.integer({ min: 200, max: 599 }));
    const token = fc.option(fc.stringMatching(/^[A-Za-z0-9._-]{1,16}$/), { nil: null });

    await fc.assert(
      fc.asyncProperty(
        fc.array(status, { minLength: 1, maxLength: 12 }),
        fc.array(token, { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        async (statuses, tokens, decisions, requestCount) => {
          let served = 0;
          const fetch = async (request: Request): Promise<Response> => {
            await request.text();
            const code = statuses[served % statuses.length]!;
            served += 1;
            return code === 401 ? json(401, { error: 'Token has expired' }) : new Response(null, { status: code });
          };
          let tokenIndex = 0;
          let decisionIndex = 0;
          const attempts: number[] = [];
          const seam: AuthSeam = {
            getToken: async () => tokens[tokenIndex++ % tokens.length] ?? null,
            onUnauthorized: async (event) => {
              attempts.push(event.attempt);
              return decisions[decisionIndex++ % decisions.length]!;
            },
          };
          const authFetch = createAuthFetch(seam, fetch);

          for (let i = 0; i < requestCount; i += 1) {
            const servedBefore = served;
            const attemptsBefore = attempts.length;
            const firstStatus = statuses[served % statuses.length]!;
            const secondStatus = statuses[(served + 1) % statuses.length]!;
            const firstToken = tokens[tokenIndex % tokens.length] ?? null;
            const freshToken = tokens[(tokenIndex + 1) % tokens.length] ?? null;
            const firstDecision = decisions[decisionIndex % decisions.length]!;

            const response = await authFetch(postUsers());

            const calls = served - servedBefore;
            const seamCalls = attempts.slice(attemptsBefore);
            expect(calls).toBeGreaterThanOrEqual(1);
            expect(calls).toBeLessThanOrEqual(2);
            expect(seamCalls.length).toBeLessThanOrEqual(2);

            const handedToSession = firstStatus === 401 && firstToken !== null;
            const replayed = handedToSession && firstDecision;
            expect(calls).toBe(replayed ? 2 : 1);
            expect(seamCalls[0]).toBe(handedToSession ? 1 : undefined);
            if (!replayed || secondStatus !== 401) expect(seamCalls).toHaveLength(handedToSession ? 1 : 0);
            if (replayed && secondStatus === 401 && freshToken !== null) expect(seamCalls).toEqual([1, 2]);
            if (seamCalls.length === 2) expect(seamCalls).toEqual([1, 2]);
            expect(response.status).toBe(replayed ? secondStatus : firstStatus);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
