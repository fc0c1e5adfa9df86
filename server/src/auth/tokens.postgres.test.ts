import { decodeJwt } from 'jose';
import {
  freshUser,
  refresh,
  session,
  sign,
  tk,
  usePostgresTokenApp,
  userInfo,
} from '../test-support/tokens-postgres-app';

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
usePostgresTokenApp();

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
    await tk.t.db
      .updateTable('token_families')
      .set({ previous_valid_until: new Date(Date.now() - 1000) })
      .where('id', '=', fam)
      .execute();
    expect(await userInfo(t0)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    // Reuse detected: the legitimate successor dies with its family, refresh included.
    expect(await userInfo(t1)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    expect((await refresh(t1)).status).toBe(401);
    const family = await tk.t.db
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
      const family = await tk.t.db
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
    const family = await tk.t.db
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
