/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, refusing or
 * dropping connections, too many of them, or not answering within the connect timeout), as opposed to
 * a bug or a bad query. Those answer 503 with `Retry-After` instead of 500 (contract: ServiceUnavailable),
 * and the pool reconnects by itself once the database is back.
 */

export { DATABASE_RETRY_AFTER_SECONDS } from '../base/errors';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/**
 * SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01 admin_shutdown (the server
 * is stopping), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery), 53300
 * too_many_connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** node-postgres's own messages for a lost or never-made connection. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /connection error and is not queryable/,
  /timeout exceeded when trying to connect/,
  /Connection terminated due to connection timeout/,
  /^the database system is (starting up|shutting down|in recovery mode)/,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; originalError?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code))) return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(e.message as string)))
    return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.originalError, depth + 1);
}
