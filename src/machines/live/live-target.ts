/** The server the live machines run against, and what the kit hands them (./index.ts). */
export interface LiveTarget {
  /** The server's base address, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The administrator the kit signed in as: each session path signs in with these. */
  email: string;
  password: string;
  /** The administrator's own tenant (its GraphQL endpoint carries the refresh). */
  tenant: string;
  /** The kit's own token, for the calls the walk makes besides the machines (tickets, checks, cleanup). */
  token: string;
  /** The administrator's user id (the socket's `userId`). */
  userId: number;
  /** A tenant the kit created for this run: the socket joins it, the feature editor edits it. */
  tenantName: string;
  /** Per request, in milliseconds. */
  timeoutMs: number;
  /** The WebSocket constructor (Node's global one by default). */
  WebSocket?: new (url: string) => WebSocket;
}

/** `fetch` with the target's per-request timeout (the machines pass their own signals too). */
export function timedFetch(target: LiveTarget): (request: Request) => Promise<Response> {
  return (request) => {
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(target.timeoutMs)]);
    // Redirects are not followed: a 307 of the sign-in would re-send the password to wherever it points.
    return fetch(new Request(request, { signal, redirect: 'manual' }));
  };
}

/** One JSON call of the walk itself (not of a machine), with the kit's token unless another is given. */
export async function call(
  target: LiveTarget,
  method: string,
  path: string,
  options: { body?: unknown; token?: string | null; query?: Record<string, string> } = {},
): Promise<{ status: number; json: unknown }> {
  const url = new URL(`${target.baseUrl.replace(/\/+$/, '')}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const token = options.token === undefined ? target.token : options.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(target.timeoutMs),
    redirect: 'manual',
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

/** Resolves after `ms` (a live answer is awaited with a bound). */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
