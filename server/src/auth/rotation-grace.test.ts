import { decodeJwt } from 'jose';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';

/**
 * Refresh of a superseded token (server/src/auth/tokens.ts `rotate`), on PGlite and on PostgreSQL.
 * A page that is left while its refresh is in flight loses the answer after the server rotated; the
 * next page refreshes the superseded token. Within the grace window that refresh answers a token of
 * the family's current jti (the family does not move); after it, the superseded token is reuse and
 * the family dies. The grace window is moved in the database instead of waited for.
 */
const REFRESH = 'mutation refreshToken { refreshToken { token expires_in } }';
const USER_INFOS = 'query userInfos { userInfos { id email } }';
const TTL = 900;

interface Claims {
  sub: string;
  fam: string;
  jti: string;
  tv: number;
  rxp: number;
  iat: number;
  exp: number;
}

const claimsOf = (token: string) => decodeJwt(token) as unknown as Claims;

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('refresh of a superseded token on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { rotationGrace: 30, accessTokenTtl: TTL },
    });
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  /** A new sign-in (a new family) of a new user, without argon2. */
  async function session(): Promise<string> {
    n += 1;
    const user = await createTestUser(t.db, {
      email: `grace-${n}@demo.local`,
      tenant: 'backoffice',
      role: 'administrador',
    });
    const { token_version } = await t.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return (await t.app.tokens.issue(user.id, token_version)).token;
  }

  async function refresh(token: string) {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: REFRESH }),
    });
    const body = response.json<{ data?: { refreshToken: { token: string; expires_in: number } }; status?: string }>();
    return { status: response.statusCode, body, token: body.data?.refreshToken.token ?? '' };
  }

  async function userInfo(token: string) {
    const response = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/auth/userInfo',
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  async function userInfos(token: string) {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: USER_INFOS }),
    });
    return response.statusCode;
  }

  const family = (fam: string) =>
    t.db
      .selectFrom('token_families')
      .select(['current_jti', 'previous_jti', 'previous_valid_until', 'revoked_at'])
      .where('id', '=', fam)
      .executeTakeFirstOrThrow();

  /** Ends the grace window of the family's last rotation. */
  const graceOver = (fam: string) =>
    t.db
      .updateTable('token_families')
      .set({ previous_valid_until: new Date(Date.now() - 1000) })
      .where('id', '=', fam)
      .execute();

  it('the immediate predecessor within the grace window answers a valid token of the family’s current jti, without moving the family', async () => {
    const t0 = await session();
    const first = await refresh(t0);
    expect(first.status).toBe(200);
    const { fam, jti: j0 } = claimsOf(t0);
    const j1 = claimsOf(first.token).jti;
    expect(await family(fam)).toMatchObject({ current_jti: j1, previous_jti: j0, revoked_at: null });
    const graceEnds = (await family(fam)).previous_valid_until;

    // The first answer was lost (the page was left): the next page refreshes t0 again, twice.
    for (const attempt of [1, 2]) {
      const again = await refresh(t0);
      expect(again.status, `attempt ${attempt}`).toBe(200);
      expect(again.body.data?.refreshToken.expires_in).toBe(TTL);
      const claims = claimsOf(again.token);
      expect(claims).toMatchObject({ sub: claimsOf(t0).sub, fam, jti: j1, tv: claimsOf(t0).tv, rxp: claimsOf(t0).rxp });
      expect(claims.exp).toBeGreaterThan(Math.floor(Date.now() / 1000));
      // Usable for authenticated calls, REST and GraphQL.
      expect((await userInfo(again.token)).status).toBe(200);
      expect(await userInfos(again.token)).toBe(200);
    }
    // The family did not move and its grace window did not grow.
    expect(await family(fam)).toEqual({
      current_jti: j1,
      previous_jti: j0,
      previous_valid_until: graceEnds,
      revoked_at: null,
    });
    expect((await userInfo(first.token)).status).toBe(200);
  });

  it('the token from the grace answer rotates the family on its next refresh, like the one that was lost', async () => {
    const t0 = await session();
    const lost = await refresh(t0);
    const regained = await refresh(t0);
    expect(claimsOf(regained.token).jti).toBe(claimsOf(lost.token).jti);
    const next = await refresh(regained.token);
    expect(next.status).toBe(200);
    const { fam } = claimsOf(t0);
    expect(await family(fam)).toMatchObject({
      current_jti: claimsOf(next.token).jti,
      previous_jti: claimsOf(lost.token).jti,
      revoked_at: null,
    });
    expect((await userInfo(next.token)).status).toBe(200);
  });

  it('the immediate predecessor after the grace window: 401 Unauthorized and the whole family revoked, the current token included', async () => {
    const t0 = await session();
    const t1 = (await refresh(t0)).token;
    const { fam } = claimsOf(t0);
    await graceOver(fam);

    expect(await refresh(t0)).toMatchObject({ status: 401, body: { status: 'Unauthorized' } });
    expect((await family(fam)).revoked_at).not.toBeNull();
    expect(await userInfo(t1)).toEqual({ status: 401, body: { status: 'Unauthorized' } });
    expect(await refresh(t1)).toMatchObject({ status: 401, body: { status: 'Unauthorized' } });
  });

  it('a token two rotations back, even within the grace of the last rotation: 401 Unauthorized and the family revoked', async () => {
    const t0 = await session();
    const t1 = (await refresh(t0)).token;
    const t2 = (await refresh(t1)).token;
    const { fam } = claimsOf(t0);
    expect(await family(fam)).toMatchObject({
      current_jti: claimsOf(t2).jti,
      previous_jti: claimsOf(t1).jti,
      revoked_at: null,
    });

    expect(await refresh(t0)).toMatchObject({ status: 401, body: { status: 'Unauthorized' } });
    expect((await family(fam)).revoked_at).not.toBeNull();
    expect((await userInfo(t2)).status).toBe(401);
    expect((await refresh(t1)).status).toBe(401);
  });

  it('no grace answer for a family that was signed out', async () => {
    const t0 = await session();
    const t1 = (await refresh(t0)).token;
    const logout = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${t1}` },
      payload: { data: null, ip: null },
    });
    expect(logout.statusCode).toBe(200);
    expect(await refresh(t0)).toMatchObject({ status: 401, body: { status: 'Unauthorized' } });
  });

  it('rotate itself (a verified token superseded meanwhile) answers only the immediate predecessor, within the grace, of a live family', async () => {
    const t0 = await session();
    const t1 = (await refresh(t0)).token;
    const t2 = (await refresh(t1)).token;
    const { fam } = claimsOf(t0);
    // What a refresh verified just before a concurrent rotation would pass on.
    expect(await t.app.tokens.rotate(claimsOf(t0))).toBeNull();
    const regained = await t.app.tokens.rotate(claimsOf(t1));
    expect(regained && claimsOf(regained.token).jti).toBe(claimsOf(t2).jti);

    await graceOver(fam);
    expect(await t.app.tokens.rotate(claimsOf(t1))).toBeNull();
    await t.db
      .updateTable('token_families')
      .set({ previous_valid_until: new Date(Date.now() + 30_000) })
      .where('id', '=', fam)
      .execute();
    expect(await t.app.tokens.rotate(claimsOf(t1))).not.toBeNull();
    await t.app.tokens.revokeFamily(fam);
    expect(await t.app.tokens.rotate(claimsOf(t1))).toBeNull();
    // rotate never moved the family for a superseded token.
    expect(await family(fam)).toMatchObject({ current_jti: claimsOf(t2).jti, previous_jti: claimsOf(t1).jti });
  });

  it('concurrent refreshes of one token: the family moves exactly once and every caller gets its current token (20 rounds of 2, 5 rounds of 5)', async () => {
    for (const [rounds, callers] of [
      [20, 2],
      [5, 5],
    ] as const) {
      for (let round = 0; round < rounds; round += 1) {
        const token = await session();
        const { fam, jti } = claimsOf(token);
        const answers = await Promise.all(Array.from({ length: callers }, () => refresh(token)));
        const label = `${callers} callers, round ${round}`;
        expect(
          answers.map((a) => a.status),
          label,
        ).toEqual(Array.from({ length: callers }, () => 200));
        const state = await family(fam);
        // One compare-and-swap won: the family's predecessor is the token every caller presented.
        expect(state, label).toMatchObject({ previous_jti: jti, revoked_at: null });
        expect(new Set(answers.map((a) => claimsOf(a.token).jti)), label).toEqual(new Set([state.current_jti]));
        for (const answer of answers) expect((await userInfo(answer.token)).status, label).toBe(200);
      }
    }
  });
});
