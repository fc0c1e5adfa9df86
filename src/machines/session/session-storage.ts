import type { components } from '../../generated/openapi';

/**
 * What the session keeps in localStorage (docs/product.md, Sessions: userInfo, permissionRoutes,
 * permissions, baseUrl, the access token and its expiry, email and the origin flag) and how other tabs learn of
 * changes (the `storage` event fires in every other tab of the origin when one tab writes).
 */

export type User = components['schemas']['User'];
export type Permission = components['schemas']['Permission'];

/** The subset of `Storage` the session needs; tests pass a Map-backed fake. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** One key change seen by this tab (from `StorageEvent`: `key` is null when storage was cleared). */
export interface StorageChange {
  key: string | null;
}

/** Subscribes to key changes made by OTHER tabs; returns the unsubscribe function. */
export type StorageEventSource = (listener: (change: StorageChange) => void) => () => void;

/** localStorage keys. The legacy panel's names, so an old tab and a new one agree. */
export const SESSION_KEYS = {
  token: 'accessToken',
  expiresAt: 'accessTokenExpiresAt',
  email: 'email',
  originBackoffice: 'originBackoffice',
  userInfo: 'userInfo',
  permissionRoutes: 'permissionRoutes',
  permissions: 'permissions',
  baseUrl: 'baseUrl',
} as const;

/** A session as stored; `baseUrl` is the API base the token was issued by. */
export interface StoredSession {
  token: string;
  /** Epoch milliseconds, or null when the server gave no lifetime. */
  expiresAt: number | null;
  email: string | null;
  originBackoffice: boolean;
  user: User | null;
  permittedRoutes: string[];
  permissions: Permission[];
  baseUrl: string;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function permissionArray(value: unknown): Permission[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (p): p is Permission =>
      !!p && typeof p === 'object' && typeof (p as { route_name?: unknown }).route_name === 'string',
  );
}

function userOrNull(value: unknown): User | null {
  if (!value || typeof value !== 'object') return null;
  const candidate = value as Partial<User>;
  return typeof candidate.id === 'number' && typeof candidate.email === 'string' ? (value as User) : null;
}

/**
 * Reads the stored session. Null when there is no token, or when it was issued for another API base
 * (`baseUrl` differs): a token is only good where it came from. Malformed entries degrade to empty
 * values instead of throwing, so a corrupted key never blocks the panel from starting.
 */
export function readStoredSession(storage: StorageLike, baseUrl: string): StoredSession | null {
  try {
    const token = storage.getItem(SESSION_KEYS.token);
    if (!token) return null;
    const storedBase = storage.getItem(SESSION_KEYS.baseUrl);
    if (storedBase !== null && storedBase !== baseUrl) return null;
    const expiresAt = Number(storage.getItem(SESSION_KEYS.expiresAt));
    return {
      token,
      expiresAt: storage.getItem(SESSION_KEYS.expiresAt) !== null && Number.isFinite(expiresAt) ? expiresAt : null,
      email: storage.getItem(SESSION_KEYS.email),
      originBackoffice: storage.getItem(SESSION_KEYS.originBackoffice) === 'true',
      user: userOrNull(parse(storage.getItem(SESSION_KEYS.userInfo))),
      permittedRoutes: stringArray(parse(storage.getItem(SESSION_KEYS.permissionRoutes))),
      permissions: permissionArray(parse(storage.getItem(SESSION_KEYS.permissions))),
      baseUrl,
    };
  } catch {
    // Storage can throw (disabled cookies, sandboxed frames): behave as signed out.
    return null;
  }
}

function setOrRemove(storage: StorageLike, key: string, value: string | null): void {
  if (value === null) storage.removeItem(key);
  else storage.setItem(key, value);
}

/**
 * Writes the whole session. The token goes last: other tabs react to the token key, and by then
 * everything it belongs with is already in place.
 *
 * @returns false when storage refused (quota, privacy mode); the session still works in this tab.
 */
export function writeStoredSession(storage: StorageLike, session: StoredSession): boolean {
  try {
    setOrRemove(storage, SESSION_KEYS.expiresAt, session.expiresAt === null ? null : String(session.expiresAt));
    setOrRemove(storage, SESSION_KEYS.email, session.email);
    storage.setItem(SESSION_KEYS.originBackoffice, String(session.originBackoffice));
    setOrRemove(storage, SESSION_KEYS.userInfo, session.user === null ? null : JSON.stringify(session.user));
    storage.setItem(SESSION_KEYS.permissionRoutes, JSON.stringify(session.permittedRoutes));
    storage.setItem(SESSION_KEYS.permissions, JSON.stringify(session.permissions));
    storage.setItem(SESSION_KEYS.baseUrl, session.baseUrl);
    storage.setItem(SESSION_KEYS.token, session.token);
    return true;
  } catch {
    return false;
  }
}

/** Removes every session key, the token first (so other tabs see the logout before anything else). */
export function clearStoredSession(storage: StorageLike): void {
  try {
    storage.removeItem(SESSION_KEYS.token);
    for (const key of Object.values(SESSION_KEYS)) if (key !== SESSION_KEYS.token) storage.removeItem(key);
  } catch {
    // Nothing stored can be trusted anyway; the in-memory session is what ends.
  }
}

/** The browser's `storage` event as a {@link StorageEventSource}. */
export function windowStorageEvents(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
): StorageEventSource {
  return (listener) => {
    const handler = (event: StorageEvent) => listener({ key: event.key });
    target.addEventListener('storage', handler);
    return () => target.removeEventListener('storage', handler);
  };
}

/** A Map-backed {@link StorageLike}, for tests and for environments without localStorage. */
export function memoryStorage(initial: Record<string, string> = {}): StorageLike & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
    dump: () => Object.fromEntries(map),
  };
}
