import { decodeJwt, SignJWT } from 'jose';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, type TestUser } from '../test-support/users';

/**
 * Token rotation (docs/security.md, section 1), on a real PostgreSQL (concurrent transactions, row locks), Keycloak-style:
 * - rotation: the predecessor works within the grace window; used after it, the whole family dies;
 * - two (or more) concurrent refreshes of one token: exactly one compare-and-swap winner moves the
 *   family; the losers, whose token is now the immediate predecessor within the grace window, get a
 *   token of the winner's jti (none revokes anything), repeated many times (rotation-grace.test.ts has
 *   the grace rules on PGlite and PostgreSQL);
 * - logout, block, delete, disconnect and password change revoke at once (next request 401, socket 4401);
 * - forged tokens: `alg: none`, a wrong key, tampered claims, another algorithm, another issuer, missing
 *   claims — all refused as `Token is Invalid` before any database state is trusted.
 */
const REFRESH = 'mutation refreshToken { refreshToken { token expires_in } }';

let pg: ThrowawayPostgres;
let t: TestApp;
let wsBase: string;
let key: Uint8Array;
let n = 0;

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  t = await startTestApp({ databaseUrl: pg.url, seed: { days: 1 }, config: { rotationGrace: 30 } });
  await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  wsBase = `ws://127.0.0.1:${(t.app.fastify.server.address() as AddressInfo).port}`;
  const secret = await t.db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', 'jwt')
    .executeTakeFirstOrThrow();
  key = new TextEncoder().encode(secret.value);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await pg?.stop();
});

async function freshUser(role = 'administrador'): Promise<TestUser> {
  n += 1;
  return createTestUser(t.db, { email: `tok-${n}@demo.local`, tenant: 'backoffice', role });
}

/** A session of a user without argon2 (the token service directly): a new family. */
async function session(user: TestUser): Promise<string> {
  const { token_version } = await t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return (await t.app.tokens.issue(user.id, token_version)).token;
}

async function userInfo(token: string) {
  const response = await t.app.fastify.inject({
    method: 'GET',
    url: '/api/auth/userInfo',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

async function refresh(token: string) {
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: '/backoffice/graphql',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ query: REFRESH }),
  });
  const body = response.json<{ data?: { refreshToken: { token: string } }; status?: string; error?: string }>();
  return { status: response.statusCode, body, token: body.data?.refreshToken.token };
}

/** Signs arbitrary claims with the server's own key (what an attacker holding the key could do, and what a test needs to forge time). */
function sign(claims: Record<string, unknown>, header: { alg: string } = { alg: 'HS256' }, signingKey = key) {
  return new SignJWT(claims).setProtectedHeader({ ...header, typ: 'JWT' }).sign(signingKey);
}

describe('rotation (Keycloak-style refresh-token reuse detection)', () => {
  it('the predecessor works within the grace window; used after it, the whole family is revoked', async () => {
    const user = await freshUser();
    const t0 = await session(user);
    const r1 = await refresh(t0);
    expect(r1.status).toBe(200);
    const t1 = r1.token ?? '';
    expect((await userInfo(t1)).status).toBe(200);
    // Within grace: requests in flight with the old token still pass.
    expect((await userInfo(t0)).status).toBe(200);

    // The grace window passes (moved in the database instead of waiting 30 s).
    const { fam } = decodeJwt(t0) as { fam: string };
    await t.db
      .updateTable('token_families')
      .set({ previous_valid_until: new Date(Date.now() - 1000) })
      .where('id', '=', fam)
      .execute();
    expect(await userInfo(t0)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    // Reuse detected: the legitimate successor dies with its family, refresh included.
    expect(await userInfo(t1)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    expect((await refresh(t1)).status).toBe(401);
    const family = await t.db
      .selectFrom('token_families')
      .select('revoked_at')
      .where('id', '=', fam)
      .executeTakeFirstOrThrow();
    expect(family.revoked_at).not.toBeNull();
    // Other sessions of the same user are untouched.
    expect((await userInfo(await session(user))).status).toBe(200);
  });

  it('an expired token inside the refresh window refreshes; outside it, it is "Token is Expired"', async () => {
    const user = await freshUser();
    const live = await session(user);
    const claims = decodeJwt(live) as { sub: string; fam: string; jti: string; tv: number; rxp: number };
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ ...claims, iss: 'backoffice-panel', iat: now - 1000, exp: now - 10 });
    expect(await userInfo(expired)).toEqual({ status: 401, body: { error: 'Token has expired' } });
    const rotated = await refresh(expired);
    expect(rotated.status).toBe(200);
    expect((await userInfo(rotated.token ?? '')).status).toBe(200);

    const stale = await sign({ ...claims, iss: 'backoffice-panel', iat: now - 1000, exp: now - 10, rxp: now - 5 });
    expect(await userInfo(stale)).toEqual({ status: 401, body: { status: 'Token is Expired' } });
    expect((await refresh(stale)).body).toEqual({ status: 'Token is Expired' });
  });

  it("two concurrent refreshes of one token: exactly one compare-and-swap winner, the loser gets the winner's jti without revoking (20 rounds)", async () => {
    const user = await freshUser();
    for (let round = 0; round < 20; round += 1) {
      const token = await session(user);
      const { fam, jti } = decodeJwt(token) as { fam: string; jti: string };
      const answers = await Promise.all([refresh(token), refresh(token)]);
      expect(
        answers.map((a) => a.status),
        `round ${round}`,
      ).toEqual([200, 200]);
      // The family moved once: from the token both presented to the one jti both received.
      const family = await t.db
        .selectFrom('token_families')
        .select(['current_jti', 'previous_jti', 'revoked_at'])
        .where('id', '=', fam)
        .executeTakeFirstOrThrow();
      expect(family, `round ${round}`).toMatchObject({ previous_jti: jti, revoked_at: null });
      expect(answers.map((a) => (decodeJwt(a.token ?? '') as { jti: string }).jti)).toEqual([
        family.current_jti,
        family.current_jti,
      ]);
      // Nobody revoked the family: both answers work, and so does the old token in grace.
      for (const answer of answers) expect((await userInfo(answer.token ?? '')).status).toBe(200);
      expect((await userInfo(token)).status).toBe(200);
    }
  });

  it('five concurrent refreshes of one token: still exactly one compare-and-swap winner', async () => {
    const token = await session(await freshUser());
    const { fam, jti } = decodeJwt(token) as { fam: string; jti: string };
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(token)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const family = await t.db
      .selectFrom('token_families')
      .select(['current_jti', 'previous_jti'])
      .where('id', '=', fam)
      .executeTakeFirstOrThrow();
    expect(family.previous_jti).toBe(jti);
    expect(new Set(answers.map((a) => (decodeJwt(a.token ?? '') as { jti: string }).jti))).toEqual(
      new Set([family.current_jti]),
    );
    for (const answer of answers) expect((await userInfo(answer.token ?? '')).status).toBe(200);
  });
});

describe('revocation takes effect at once', () => {
  async function openSocket(user: TestUser, token: string) {
    const ws = new WebSocket(`${wsBase}/ws?tenantName=backoffice&userId=${user.id}&token=${token}`);
    await once(ws, 'open');
    // Admitted once the server counts it (admission is asynchronous after the upgrade).
    for (let i = 0; i < 200 && !(t.app.sockets.count('backoffice') > 0); i += 1)
      await new Promise((r) => setTimeout(r, 10));
    return ws;
  }

  it.each([
    [
      'logout (that session only)',
      async (_admin: string, token: string) => {
        expect(
          (
            await t.app.fastify.inject({
              method: 'POST',
              url: '/api/auth/logout',
              headers: { authorization: `Bearer ${token}` },
              payload: { data: null, ip: null },
            })
          ).statusCode,
        ).toBe(200);
      },
      false,
    ],
    [
      'block',
      async (admin: string, _token: string, target: TestUser) => {
        expect(
          (
            await t.app.fastify.inject({
              method: 'PATCH',
              url: `/api/users/${target.id}`,
              headers: { authorization: `Bearer ${admin}` },
              payload: { blocked: true },
            })
          ).statusCode,
        ).toBe(200);
      },
      true,
    ],
    [
      'delete',
      async (admin: string, _token: string, target: TestUser) => {
        expect(
          (
            await t.app.fastify.inject({
              method: 'DELETE',
              url: `/api/users/${target.id}`,
              headers: { authorization: `Bearer ${admin}` },
            })
          ).statusCode,
        ).toBe(200);
      },
      true,
    ],
    [
      'disconnectUser',
      async (admin: string, _token: string, target: TestUser) => {
        const response = await t.app.fastify.inject({
          method: 'POST',
          url: '/backoffice/graphql',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          payload: JSON.stringify({
            query: 'mutation($id: Int!) { disconnectUser(user_id: $id) }',
            variables: { id: target.id },
          }),
        });
        expect(response.json()).toEqual({ data: { disconnectUser: true } });
      },
      true,
    ],
    [
      'password change',
      async (_admin: string, token: string) => {
        const response = await t.app.fastify.inject({
          method: 'POST',
          url: '/backoffice/graphql',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ query: 'mutation { updateUserPassword(password: "Another#Pass-77") { token } }' }),
        });
        expect(response.statusCode).toBe(200);
      },
      true,
    ],
  ] as const)(
    '%s: the next request is 401 Unauthorized and the socket closes with 4401',
    async (_name, act, everySession) => {
      const admin = await session(await freshUser());
      const target = await freshUser('operador');
      const token = await session(target);
      const other = await session(target);
      const ws = await openSocket(target, token);
      const closed = once(ws, 'close');
      await act(admin, token, target);
      expect(await userInfo(token)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
      expect((await refresh(token)).status).toBe(401);
      const [code] = (await closed) as [number];
      expect(code).toBe(4401);
      // Logout ends one session; the others revoke every session of the user.
      expect((await userInfo(other)).status).toBe(everySession ? 401 : 200);
    },
  );
});

describe('forged tokens are refused as "Token is Invalid"', () => {
  let genuine: string;
  let claims: Record<string, unknown>;

  beforeAll(async () => {
    genuine = await session(await freshUser());
    claims = decodeJwt(genuine);
  });

  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it.each([
    ['alg: none, no signature', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`],
    [
      'alg: none with the original signature',
      () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.${genuine.split('.')[2] ?? ''}`,
    ],
    [
      'a wrong key',
      () => sign(claims, { alg: 'HS256' }, new TextEncoder().encode('not-the-server-key-but-long-enough-0123456789')),
    ],
    [
      'tampered claims (another user) with the original signature',
      () => `${genuine.split('.')[0] ?? ''}.${b64({ ...claims, sub: '1' })}.${genuine.split('.')[2] ?? ''}`,
    ],
    [
      'tampered expiry with the original signature',
      () => `${genuine.split('.')[0] ?? ''}.${b64({ ...claims, exp: 4_102_444_800 })}.${genuine.split('.')[2] ?? ''}`,
    ],
    ['HS512 with the right key (algorithm not allowed)', () => sign(claims, { alg: 'HS512' })],
    ['another issuer, right key', () => sign({ ...claims, iss: 'someone-else' })],
    ['missing family claim, right key', () => sign({ ...claims, fam: undefined })],
    ['a non-numeric subject, right key', () => sign({ ...claims, sub: '1 OR 1=1' })],
    ['not a JWT', () => 'garbage'],
    ['three empty parts', () => '..'],
  ])('%s', async (_name, forge) => {
    expect(await userInfo(await forge())).toEqual({ status: 401, body: { status: 'Token is Invalid' } });
  });

  it("right key and well-formed, but naming another user than the family's: Unauthorized, not that user", async () => {
    const victim = await freshUser();
    const forged = await sign({ ...claims, sub: String(victim.id) });
    expect(await userInfo(forged)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    expect((await userInfo(genuine)).status).toBe(200);
  });
});
