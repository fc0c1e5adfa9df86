import { lookupPublicIp } from './ip-lookup';

const URL_IP = 'https://ip.example/json';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function answering(response: Response | (() => Promise<Response>)) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (request: Request) => {
    requests.push(request);
    return typeof response === 'function' ? response() : response;
  });
  return { fetch, requests };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('lookupPublicIp', () => {
  it('returns the ip of the answer and asks the configured url', async () => {
    const { fetch, requests } = answering(json(200, { ip: '203.0.113.7' }));
    const log = vi.fn();

    await expect(lookupPublicIp({ url: URL_IP, fetch, log })).resolves.toBe('203.0.113.7');

    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(URL_IP);
    expect(log).not.toHaveBeenCalled();
  });

  it.each(['2001:db8::1', '2001:0db8:85a3:0000:0000:8a2e:0370:7334', '::1'])(
    'accepts the IPv6 address %s',
    async (ip) => {
      const { fetch } = answering(json(200, { ip }));
      await expect(lookupPublicIp({ url: URL_IP, fetch, log: vi.fn() })).resolves.toBe(ip);
    },
  );

  it('answers null and logs on HTTP 500', async () => {
    const { fetch } = answering(json(500, { ip: '203.0.113.7' }));
    const log = vi.fn();
    await expect(lookupPublicIp({ url: URL_IP, fetch, log })).resolves.toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it('answers null and logs on invalid JSON', async () => {
    const { fetch } = answering(new Response('203.0.113.7 <html>', { status: 200 }));
    const log = vi.fn();
    await expect(lookupPublicIp({ url: URL_IP, fetch, log })).resolves.toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it.each([
    ['no ip field', {}],
    ['a numeric ip', { ip: 203_000_113_007 }],
    ['an empty ip', { ip: '' }],
    ['a hostname', { ip: 'example.com' }],
    ['an out-of-range IPv4', { ip: '256.1.1.1' }],
    ['a three-part IPv4', { ip: '10.0.1' }],
    ['a script', { ip: '<script>alert(1)</script>' }],
    ['a JSON null', null],
    ['a JSON string', '203.0.113.7'],
  ])('answers null and logs on a body with %s', async (_label, body) => {
    const { fetch } = answering(json(200, body));
    const log = vi.fn();
    await expect(lookupPublicIp({ url: URL_IP, fetch, log })).resolves.toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it('answers null and logs when fetch rejects', async () => {
    const failure = new TypeError('fetch failed');
    const fetch = vi.fn(async (): Promise<Response> => {
      throw failure;
    });
    const log = vi.fn();
    await expect(lookupPublicIp({ url: URL_IP, fetch, log })).resolves.toBeNull();
    expect(log).toHaveBeenCalledWith(expect.any(String), failure);
  });

  it('answers null after 1500 ms when fetch never resolves, and aborts the request', async () => {
    vi.useFakeTimers();
    const requests: Request[] = [];
    const fetch = vi.fn((request: Request) => {
      requests.push(request);
      return new Promise<Response>(() => {});
    });
    const log = vi.fn();

    let settled = false;
    let result: string | null | undefined;
    const pending = lookupPublicIp({ url: URL_IP, fetch, log }).then((value) => {
      settled = true;
      result = value;
    });

    await vi.advanceTimersByTimeAsync(1499);
    expect(settled).toBe(false);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.signal.aborted).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(result).toBeNull();
    expect(requests[0]?.signal.aborted).toBe(true);
    expect(log).toHaveBeenCalled();
    await pending;
  });

  it('honours a custom timeoutMs', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    let settled = false;
    const pending = lookupPublicIp({ url: URL_IP, fetch, timeoutMs: 200, log: vi.fn() }).then((value) => {
      settled = true;
      return value;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toBeNull();
  });
});
