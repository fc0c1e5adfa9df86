import {
  clearStoredSession,
  memoryStorage,
  readStoredSession,
  SESSION_KEYS,
  writeStoredSession,
  type StorageLike,
  type StoredSession,
} from './session-storage';
import { USER } from '../test-support/session-fakes';

const SESSION: StoredSession = {
  token: 'T1',
  expiresAt: 123,
  email: USER.email,
  originBackoffice: true,
  user: USER,
  permittedRoutes: ['users'],
  permissions: [{ id: 1, route_name: 'users', display_name: 'U', category: 'C' }],
  baseUrl: '',
};

describe('session storage', () => {
  it('round-trips a session under its storage keys, writing the token last and removing it first', () => {
    const order: string[] = [];
    const inner = memoryStorage();
    const storage: StorageLike = {
      getItem: (k) => inner.getItem(k),
      setItem: (k, v) => (order.push(`set ${k}`), inner.setItem(k, v)),
      removeItem: (k) => (order.push(`remove ${k}`), inner.removeItem(k)),
    };
    expect(writeStoredSession(storage, SESSION)).toBe(true);
    expect(order.at(-1)).toBe(`set ${SESSION_KEYS.token}`);
    expect(Object.keys(inner.dump()).sort()).toEqual(Object.values(SESSION_KEYS).sort());
    expect(readStoredSession(storage, '')).toEqual(SESSION);
    order.length = 0;
    clearStoredSession(storage);
    expect(order[0]).toBe(`remove ${SESSION_KEYS.token}`);
    expect(inner.dump()).toEqual({});
  });

  it('reads malformed entries as empty values and a foreign or missing token as no session', () => {
    const storage = memoryStorage({
      accessToken: 'T',
      userInfo: '{oops',
      permissionRoutes: '[1,"users"]',
      permissions: '"x"',
      accessTokenExpiresAt: 'soon',
    });
    expect(readStoredSession(storage, '')).toMatchObject({
      token: 'T',
      user: null,
      permittedRoutes: ['users'],
      permissions: [],
      expiresAt: null,
    });
    expect(readStoredSession(memoryStorage({ ...storage.dump(), baseUrl: 'http://other' }), '')).toBeNull();
    expect(readStoredSession(memoryStorage(), '')).toBeNull();
  });

  it('survives a storage that throws', () => {
    const hostile: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readStoredSession(hostile, '')).toBeNull();
    expect(writeStoredSession(hostile, SESSION)).toBe(false);
    expect(() => clearStoredSession(hostile)).not.toThrow();
  });
});
