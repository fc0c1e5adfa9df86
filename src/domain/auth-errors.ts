/**
 * The one table of 401 bodies (docs/product.md, Sessions): the server sends exactly
 * these (server/src/base/errors.ts; both it and this table are tested against contracts/openapi.yaml),
 * the client reads them with {@link classifyUnauthorized}. One table for both sides is what
 * stops a refresh loop from creeping in.
 */

/** The error text that marks an expired-but-refreshable token. */
export const TOKEN_HAS_EXPIRED = 'Token has expired';

/** `status` values of 401 bodies that end the session. */
export const LOGOUT_STATUSES = [
  'Authorization Token not found',
  'Token is Invalid',
  'Token is Expired',
  'Unauthorized',
] as const;

/** One of {@link LOGOUT_STATUSES}. */
export type LogoutStatus = (typeof LOGOUT_STATUSES)[number];

/** A 401 body the server may send: a terminal `status`, or the refreshable `error`. */
export type UnauthorizedBody = { readonly status: LogoutStatus } | { readonly error: typeof TOKEN_HAS_EXPIRED };

/** Exact 401 body per situation; the server serialises these verbatim. */
export const UNAUTHORIZED_BODIES = {
  /** No Authorization header, or not a Bearer token. */
  missingToken: { status: 'Authorization Token not found' },
  /** Malformed token or bad signature. */
  invalidToken: { status: 'Token is Invalid' },
  /** Expired and past the refresh window. */
  expiredToken: { status: 'Token is Expired' },
  /** Revoked: logout, block, delete, admin disconnect, or refresh-token reuse. */
  revoked: { status: 'Unauthorized' },
  /** Expired but still inside the refresh window: the only body that triggers a refresh. */
  refreshable: { error: TOKEN_HAS_EXPIRED },
} as const satisfies Record<string, UnauthorizedBody>;

/** Name of a row in {@link UNAUTHORIZED_BODIES}. */
export type UnauthorizedReason = keyof typeof UNAUTHORIZED_BODIES;

/** What the client does with a 401. */
export type UnauthorizedAction = 'refresh' | 'logout';

/**
 * Reads an own data property without running getters, so hostile or exotic
 * objects cannot throw or lie through a side effect.
 */
function ownValue(body: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(body, key)?.value;
}

function isPlainRecord(body: unknown): body is object {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/**
 * Decides what the client does with a 401 response body.
 *
 * Only an object whose `error` (or `message`, which some backends use instead)
 * is exactly `'Token has expired'` (and that carries no terminal `status`) is
 * worth a refresh; everything else —
 * terminal statuses, other messages, unparsable or missing bodies — logs out,
 * because guessing "refresh" on an unknown body is how loops start.
 *
 * @param body - the parsed response body, or anything else (never throws)
 * @returns `'refresh'` or `'logout'`
 */
export function classifyUnauthorized(body: unknown): UnauthorizedAction {
  try {
    if (!isPlainRecord(body)) return 'logout';
    // A terminal status wins over a refresh hint: a revoked session must not be revivable.
    if ((LOGOUT_STATUSES as readonly unknown[]).includes(ownValue(body, 'status'))) return 'logout';
    const refreshable =
      ownValue(body, 'error') === TOKEN_HAS_EXPIRED || ownValue(body, 'message') === TOKEN_HAS_EXPIRED;
    return refreshable ? 'refresh' : 'logout';
  } catch {
    // Proxies can throw from any trap; a body we cannot read is not a refresh.
    return 'logout';
  }
}

/**
 * Names the table row a body matches, or null when it matches none.
 *
 * @param body - the parsed response body, or anything else (never throws)
 */
export function unauthorizedReason(body: unknown): UnauthorizedReason | null {
  try {
    if (!isPlainRecord(body)) return null;
    const status = ownValue(body, 'status');
    const error = ownValue(body, 'error');
    for (const [reason, row] of Object.entries(UNAUTHORIZED_BODIES)) {
      const matches = 'status' in row ? status === row.status : error === row.error;
      if (matches) return reason as UnauthorizedReason;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * Type guard for the server's 401 bodies. Extra fields are tolerated so a
 * backend may add detail without breaking clients.
 *
 * @param body - anything (never throws)
 */
export function isUnauthorizedBody(body: unknown): body is UnauthorizedBody {
  return unauthorizedReason(body) !== null;
}
