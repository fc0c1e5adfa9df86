/** Pure helpers of the socket protocol's client rules (contracts/socket.md §1.1, §4.3). */

export interface SocketCredentials {
  tenantName: string;
  userId: number;
  /** A single-use ticket (`POST /api/auth/socket-ticket`): the session token never goes in the URL. */
  ticket: string;
}

/** The default `SOCKET_URL`: path `/ws` on the page's host. */
export const DEFAULT_SOCKET_URL = '/ws';

/**
 * The socket address (socket.md §1.1): `ws:`/`wss:` settings as they are, `http:`/`https:` mapped to
 * `ws:`/`wss:`, a path resolved against the page (scheme following the page); then `tenantName`,
 * `userId` and `ticket` added to whatever query the setting already has.
 *
 * @param setting - the `SOCKET_URL` setting
 * @param pageUrl - the page's address (`location.href`)
 */
export function buildSocketUrl(setting: string, pageUrl: string, credentials: SocketCredentials): string {
  const page = new URL(pageUrl);
  const url = new URL(setting || DEFAULT_SOCKET_URL, page);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new Error(`SOCKET_URL has an unsupported scheme: ${url.protocol}`);
  url.searchParams.set('tenantName', credentials.tenantName);
  url.searchParams.set('userId', String(credentials.userId));
  url.searchParams.set('ticket', credentials.ticket);
  return url.toString();
}

/** First reconnect delay (contracts/socket.md §4.3). */
export const FIRST_RECONNECT_MS = 1000;
/** Backoff cap (socket.md §4.3). */
export const MAX_RECONNECT_MS = 30_000;

/**
 * Delay before reconnect attempt `attempt` (1-based, socket.md §4.3): exactly 1000 ms for the first,
 * then full jitter over `[0, min(30000, 1000 · 2^(attempt−1))]`.
 *
 * @param random - uniform in [0, 1), injected so tests choose it
 */
export function reconnectDelay(attempt: number, random: () => number): number {
  if (attempt <= 1) return FIRST_RECONNECT_MS;
  const ceiling = Math.min(MAX_RECONNECT_MS, FIRST_RECONNECT_MS * 2 ** (attempt - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(r * ceiling);
}
