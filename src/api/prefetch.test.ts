import { createPrefetchingFetch, PREFETCH_MAX_AGE_MS } from './prefetch';

function network() {
  const sent: string[] = [];
  let n = 0;
  const fetch = async (request: Request) => {
    n += 1;
    sent.push(`${request.method} ${new URL(request.url).pathname} ${await request.clone().text()}`);
    return new Response(JSON.stringify({ answer: n }), { headers: { 'content-type': 'application/json' } });
  };
  return { fetch, sent };
}

const post = (path: string, body: unknown) =>
  new Request(`http://api.test${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('createPrefetchingFetch', () => {
  it('answers the first equal request with the prefetched answer, once; later ones go to the network', async () => {
    const net = network();
    const { fetch, prefetch } = createPrefetchingFetch(net.fetch);
    const early = await prefetch(post('/api/tenant/paginated', { limit: 100 }));
    expect(await early.json()).toEqual({ answer: 1 });
    expect(await (await fetch(post('/api/tenant/paginated', { limit: 100 }))).json()).toEqual({ answer: 1 });
    expect(await (await fetch(post('/api/tenant/paginated', { limit: 100 }))).json()).toEqual({ answer: 2 });
    expect(net.sent).toHaveLength(2);
  });

  it('never serves a request with another body, URL or method', async () => {
    const net = network();
    const { fetch, prefetch } = createPrefetchingFetch(net.fetch);
    await prefetch(post('/api/tenant/paginated', { limit: 100 }));
    expect(await (await fetch(post('/api/tenant/paginated', { limit: 10 }))).json()).toEqual({ answer: 2 });
    expect(await (await fetch(post('/api/tenant/other', { limit: 100 }))).json()).toEqual({ answer: 3 });
    expect(await (await fetch(new Request('http://api.test/api/tenant/paginated'))).json()).toEqual({ answer: 4 });
    expect(await (await fetch(post('/api/tenant/paginated', { limit: 100 }))).json()).toEqual({ answer: 1 });
  });

  it('drops an answer nobody asked for within the window', async () => {
    const net = network();
    let clock = 1_000;
    const { fetch, prefetch } = createPrefetchingFetch(net.fetch, () => clock);
    await prefetch(post('/api/tenant/paginated', { limit: 100 }));
    clock += PREFETCH_MAX_AGE_MS + 1;
    expect(await (await fetch(post('/api/tenant/paginated', { limit: 100 }))).json()).toEqual({ answer: 2 });
  });

  it('keeps no failed prefetch: the screen asks the network itself', async () => {
    let calls = 0;
    const { fetch, prefetch } = createPrefetchingFetch(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return new Response('{"ok":true}');
    });
    await expect(prefetch(post('/api/tenant/paginated', {}))).rejects.toThrow('Failed to fetch');
    expect(await (await fetch(post('/api/tenant/paginated', {}))).json()).toEqual({ ok: true });
    expect(calls).toBe(2);
  });
});

describe('createPrefetchingFetch: timing', () => {
  it('sends the prefetch in the caller’s task, and two equal requests share it only once', async () => {
    const net = network();
    let sentSync = 0;
    const { fetch, prefetch } = createPrefetchingFetch((request) => {
      sentSync += 1;
      return net.fetch(request);
    });
    void prefetch(post('/api/tenant/paginated', { limit: 100 }));
    expect(sentSync).toBe(1);
    const [a, b] = await Promise.all([
      fetch(post('/api/tenant/paginated', { limit: 100 })),
      fetch(post('/api/tenant/paginated', { limit: 100 })),
    ]);
    expect([(await a.json()).answer, (await b.json()).answer].sort()).toEqual([1, 2]);
  });
});

describe('createPrefetchingFetch: clear', () => {
  it('drops every waiting answer: an equal request then goes to the network', async () => {
    const { fetch, sent } = network();
    const prefetching = createPrefetchingFetch(fetch);
    await prefetching.prefetch(post('/api/tenant/paginated', { page: 1 }));
    prefetching.clear();
    const answer = await prefetching.fetch(post('/api/tenant/paginated', { page: 1 }));
    expect(await answer.json()).toEqual({ answer: 2 });
    expect(sent).toHaveLength(2);
  });
});
