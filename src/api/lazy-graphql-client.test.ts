import { DisconnectedDocument } from '../generated/graphql-session';
import { createGraphqlClient, type Execute } from './graphql-client';
import { lazyGraphqlClient } from './lazy-graphql-client';

/** A server that answers every operation with `data`, and the operation names it saw. */
function fakeServer(data: unknown = { disconnected: true }) {
  const seen: string[] = [];
  const fetch = vi.fn(async (request: Request) => {
    seen.push(((await request.json()) as { operationName: string }).operationName);
    return new Response(JSON.stringify({ data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return { fetch, seen };
}

/** A load the test settles by hand, counting how often it was asked for. */
function manualLoad(client: () => { execute: Execute }) {
  const loads: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const create = vi.fn(
    () =>
      new Promise<{ execute: Execute }>((resolve, reject) => {
        loads.push({ resolve: () => resolve(client()), reject });
      }),
  );
  return { create, loads };
}

const real = (fetch: (request: Request) => Promise<Response>) => () =>
  createGraphqlClient({ url: () => 'http://api.test/backoffice/graphql', fetch });

describe('lazyGraphqlClient', () => {
  it('loads nothing until asked', () => {
    const { create } = manualLoad(real(fakeServer().fetch));
    lazyGraphqlClient(create);
    expect(create).not.toHaveBeenCalled();
  });

  it('a call before the client is in waits for it, then sends its operation; calls meanwhile share one load', async () => {
    const server = fakeServer();
    const { create, loads } = manualLoad(real(server.fetch));
    const lazy = lazyGraphqlClient(create);
    const first = lazy.execute(DisconnectedDocument);
    const second = lazy.execute(DisconnectedDocument);
    void lazy.load();
    await Promise.resolve();
    expect(server.seen).toEqual([]);
    expect(create).toHaveBeenCalledTimes(1);
    loads[0]!.resolve();
    expect(await first).toEqual({ disconnected: true });
    expect(await second).toEqual({ disconnected: true });
    expect(server.seen).toEqual(['disconnected', 'disconnected']);
  });

  it('once in, a call sends its request in the caller’s task', async () => {
    const server = fakeServer();
    const { create, loads } = manualLoad(real(server.fetch));
    const lazy = lazyGraphqlClient(create);
    const loaded = lazy.load();
    loads[0]!.resolve();
    await loaded;
    void lazy.execute(DisconnectedDocument);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('a failed load rejects its calls and is asked again by the next one', async () => {
    const server = fakeServer();
    const { create, loads } = manualLoad(real(server.fetch));
    const lazy = lazyGraphqlClient(create);
    const failed = lazy.execute(DisconnectedDocument);
    loads[0]!.reject(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    const retried = lazy.execute(DisconnectedDocument);
    expect(create).toHaveBeenCalledTimes(2);
    loads[1]!.resolve();
    expect(await retried).toEqual({ disconnected: true });
  });
});
