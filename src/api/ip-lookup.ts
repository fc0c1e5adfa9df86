/**
 * The public-IP lookup sent with login and logout (docs/product.md, Sessions). It never throws and never takes longer
 * than `timeoutMs` (login must not wait on a third party), answering null on any failure.
 */
export interface IpLookupOptions {
  url: string;
  fetch?: (input: Request) => Promise<Response>;
  timeoutMs?: number;
  log?: (message: string, error?: unknown) => void;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9a-f:.]{2,45}$/i;

export async function lookupPublicIp(options: IpLookupOptions): Promise<string | null> {
  const { url, timeoutMs = 1500, log = (m, e) => console.warn(m, e) } = options;
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      log('ip lookup timed out');
      resolve(null);
    }, timeoutMs);
  });
  const lookup = (async () => {
    try {
      const response = await send(
        new Request(url, { headers: { Accept: 'application/json' }, signal: controller.signal }),
      );
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as { ip?: unknown };
      const ip = typeof body.ip === 'string' ? body.ip.trim() : '';
      if (!IPV4.test(ip) && !(ip.includes(':') && IPV6.test(ip))) throw new Error('no ip in answer');
      return ip;
    } catch (error) {
      if (!controller.signal.aborted) log('ip lookup failed', error);
      return null;
    }
  })();
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
