import type { Middleware } from 'openapi-fetch';
import { createRestClient } from './create-rest-client';
import { lazyRestClient } from './lazy-rest-client';
import type { RestClient } from './rest-client';
import { unwrap } from './rest-client';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A server that answers every request with `body`, and the requests it saw (method and path). */
function fakeServer(body: unknown = []) {
  const seen: string[] = [];
  const fetch = vi.fn(async (request: Request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    return json(200, body);
  });
  return { fetch, seen };
}

/** A load the test settles by hand, counting how often it was asked for. */
function manualLoad(client: () => RestClient) {
  const loads: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const create = vi.fn(
    () =>
      new Promise<RestClient>((resolve, reject) => {
        loads.push({ resolve: () => resolve(client()), reject });
      }),
  );
  return { create, loads };
}

describe('lazyRestClient', () => {
  it('loads nothing until asked', () => {
    const { create } = manualLoad(() => createRestClient());
    lazyRestClient(create);
    expect(create).not.toHaveBeenCalled();
  });

  it('a call before the client is in waits for it, then sends its request', async () => {
    const server = fakeServer([{ route_name: 'users' }]);
    const { create, loads } = manualLoad(() => createRestClient({ baseUrl: 'http://api.test', fetch: server.fetch }));
    const { client } = lazyRestClient(create);

    const answer = client.GET('/api/permission/email', { params: { query: { email: 'a@b.c' } } });
    await Promise.resolve();
    expect(server.seen).toEqual([]);
    loads[0]!.resolve();

    expect(unwrap(await answer)).toEqual([{ route_name: 'users' }]);
    expect(server.seen).toEqual(['GET /api/permission/email']);
  });

  it('loads once for every call and preload made meanwhile', async () => {
    const server = fakeServer();
    const { create, loads } = manualLoad(() => createRestClient({ baseUrl: 'http://api.test', fetch: server.fetch }));
    const lazy = lazyRestClient(create);

    const preloaded = lazy.load();
    const calls = [
      lazy.client.POST('/api/auth/logout', { body: { data: null, ip: null } }),
      lazy.client.GET('/api/auth/userInfo'),
    ];
    loads[0]!.resolve();
    await Promise.all([preloaded, ...calls]);

    expect(create).toHaveBeenCalledTimes(1);
    expect(server.seen).toEqual(['POST /api/auth/logout', 'GET /api/auth/userInfo']);
    await lazy.load();
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('once the client is in, a call sends its request in the caller’s task', async () => {
    const server = fakeServer();
    const lazy = lazyRestClient(() =>
      Promise.resolve(createRestClient({ baseUrl: 'http://api.test', fetch: server.fetch })),
    );
    await lazy.load();

    const answer = lazy.client.GET('/api/auth/userInfo');
    // No await in between: the request has already reached fetch.
    expect(server.fetch).toHaveBeenCalledTimes(1);
    await answer;
  });

  it('a failed load rejects the calls waiting on it, and the next call loads again', async () => {
    const server = fakeServer({ ok: true });
    const { create, loads } = manualLoad(() => createRestClient({ baseUrl: 'http://api.test', fetch: server.fetch }));
    const { client } = lazyRestClient(create);

    const first = client.GET('/api/auth/userInfo');
    loads[0]!.reject(new Error('chunk failed'));
    await expect(first).rejects.toThrow('chunk failed');
    expect(server.seen).toEqual([]);

    const second = client.GET('/api/auth/userInfo');
    expect(create).toHaveBeenCalledTimes(2);
    loads[1]!.resolve();
    expect(unwrap(await second)).toEqual({ ok: true });
    expect(server.seen).toEqual(['GET /api/auth/userInfo']);
  });

  it('middleware registered before the load applies, in order, to the first request; after it, at once', async () => {
    const server = fakeServer();
    const order: string[] = [];
    const tag = (name: string): Middleware => ({
      onRequest({ request }) {
        order.push(name);
        return request;
      },
    });
    const first = tag('first');
    const dropped = tag('dropped');
    const later = tag('later');
    const { create, loads } = manualLoad(() => createRestClient({ baseUrl: 'http://api.test', fetch: server.fetch }));
    const { client } = lazyRestClient(create);

    client.use(first, dropped);
    client.eject(dropped);
    const answer = client.GET('/api/auth/userInfo');
    loads[0]!.resolve();
    await answer;
    expect(order).toEqual(['first']);

    client.use(later);
    await client.GET('/api/auth/userInfo');
    expect(order).toEqual(['first', 'first', 'later']);
  });
});
