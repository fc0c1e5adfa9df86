import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  UNAUTHORIZED_BODIES,
  classifyUnauthorized,
  isUnauthorizedBody,
  unauthorizedReason,
  type UnauthorizedAction,
  type UnauthorizedReason,
} from './auth-errors';

const RUNS = { numRuns: 1000 };
const EXPIRED = 'Token has expired';

describe('UNAUTHORIZED_BODIES', () => {
  // The literal JSON the server must emit, written out rather than read from the table.
  it.each<[UnauthorizedReason, string]>([
    ['missingToken', '{"status":"Authorization Token not found"}'],
    ['invalidToken', '{"status":"Token is Invalid"}'],
    ['expiredToken', '{"status":"Token is Expired"}'],
    ['revoked', '{"status":"Unauthorized"}'],
    ['refreshable', '{"error":"Token has expired"}'],
  ])('%s serialises to %s', (reason, json) => {
    expect(JSON.stringify(UNAUTHORIZED_BODIES[reason])).toBe(json);
    expect(unauthorizedReason(JSON.parse(json))).toBe(reason);
    expect(isUnauthorizedBody(JSON.parse(json))).toBe(true);
  });
});

describe('classifyUnauthorized — examples', () => {
  it.each<[string, unknown, UnauthorizedAction]>([
    ['refreshable error', { error: EXPIRED }, 'refresh'],
    ['refreshable message', { message: EXPIRED }, 'refresh'],
    ['refreshable with extra fields', { error: EXPIRED, code: 401 }, 'refresh'],
    ['status Unauthorized', { status: 'Unauthorized' }, 'logout'],
    ['status not found', { status: 'Authorization Token not found' }, 'logout'],
    ['status Expired', { status: 'Token is Expired' }, 'logout'],
    ['status Invalid', { status: 'Token is Invalid' }, 'logout'],
    ['status Token has expired', { status: EXPIRED }, 'logout'],
    ['error Unauthorized', { error: 'Unauthorized' }, 'logout'],
    ['error not found', { error: 'Authorization Token not found' }, 'logout'],
    ['message Unauthorized', { message: 'Unauthorized' }, 'logout'],
    ['revoked status wins over refresh hint', { status: 'Unauthorized', error: EXPIRED }, 'logout'],
    // A closed company's sign-in answer: never a refresh (the login call carries no token anyway).
    ['closed company at sign-in', { error: 'tenant_deleted', message: 'closed' }, 'logout'],
    ['other status plus refresh hint', { status: 'whatever', error: EXPIRED }, 'refresh'],
    ['lower-case text', { error: 'token has expired' }, 'logout'],
    ['trailing space', { error: `${EXPIRED} ` }, 'logout'],
    ['nested', { error: { message: EXPIRED } }, 'logout'],
    ['array holding the body', [{ error: EXPIRED }], 'logout'],
    ['bare string', EXPIRED, 'logout'],
    ['JSON text of the body', '{"error":"Token has expired"}', 'logout'],
    ['null', null, 'logout'],
    ['undefined', undefined, 'logout'],
    ['number', 401, 'logout'],
    ['empty object', {}, 'logout'],
    ['inherited error', Object.create({ error: EXPIRED }) as unknown, 'logout'],
  ])('%s → %s', (_label, body, expected) => {
    expect(classifyUnauthorized(body)).toBe(expected);
  });

  it('does not run getters or let throwing proxies escape', () => {
    let called = false;
    const withGetter = {
      get error() {
        called = true;
        return EXPIRED;
      },
    };
    expect(classifyUnauthorized(withGetter)).toBe('logout');
    expect(called).toBe(false);
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
      },
    );
    expect(classifyUnauthorized(hostile)).toBe('logout');
    expect(isUnauthorizedBody(hostile)).toBe(false);
  });
});

describe('isUnauthorizedBody', () => {
  it.each<[unknown, boolean]>([
    [{ status: 'Unauthorized', detail: 'x' }, true],
    [{ error: EXPIRED }, true],
    [{ message: EXPIRED }, false], // refreshable for the client, but not a body our server sends
    [{ status: 'unauthorized' }, false],
    [{ error: 'Unauthorized' }, false],
    [[], false],
    [null, false],
    ['Unauthorized', false],
  ])('%j → %s', (body, expected) => {
    expect(isUnauthorizedBody(body)).toBe(expected);
  });
});

describe('classifyUnauthorized — properties', () => {
  const isRefreshBody = (v: unknown): boolean =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    ((v as Record<string, unknown>)['error'] === EXPIRED || (v as Record<string, unknown>)['message'] === EXPIRED);

  it('answers logout for every JSON value that is not the refresh body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        fc.pre(!isRefreshBody(v));
        expect(classifyUnauthorized(v)).toBe('logout');
      }),
      RUNS,
    );
  });

  it('answers refresh for any JSON object carrying the refresh error and no terminal status', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((k) => k !== 'status' && k !== '__proto__'),
          fc.jsonValue(),
        ),
        fc.constantFrom('error', 'message'),
        (extra, key) => {
          expect(classifyUnauthorized({ ...extra, [key]: EXPIRED })).toBe('refresh');
          expect(classifyUnauthorized(JSON.parse(JSON.stringify({ ...extra, [key]: EXPIRED })))).toBe('refresh');
        },
      ),
      RUNS,
    );
  });

  it('answers logout when a terminal status is present, whatever else the body says', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.constantFrom('Unauthorized', 'Authorization Token not found', 'Token is Expired', 'Token is Invalid'),
        (extra, status) => {
          expect(classifyUnauthorized({ ...extra, error: EXPIRED, status })).toBe('logout');
        },
      ),
      RUNS,
    );
  });

  it('never throws and is consistent with isUnauthorizedBody', () => {
    fc.assert(
      fc.property(fc.anything({ withObjectString: true, withNullPrototype: true, withMap: true }), (v) => {
        const action = classifyUnauthorized(v);
        expect(['refresh', 'logout']).toContain(action);
        if (unauthorizedReason(v) === 'refreshable') expect(action).toBe('refresh');
        if (isUnauthorizedBody(v) && unauthorizedReason(v) !== 'refreshable') {
          expect(action).toBe('logout');
        }
      }),
      RUNS,
    );
  });
});
