import { asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import { graphqlAt } from './checks-access.js';

/**
 * The token protocol (./kit.ts group `tokens`), each check named `token …` or `401 …`: GraphQL
 * `refreshToken` gives a new token; rotation is single-use with the grace of docs/security.md §1 (the
 * immediate predecessor keeps working, and its refresh answers the family's current token without
 * rotating again); a token two rotations back is reuse and revokes the whole family; sign-out revokes
 * the session (access and refresh refused). The 401 bodies are docs/product.md Sessions'.
 *
 * Not checked over HTTP, because each needs a wait the kit does not take: the immediate predecessor
 * presented after the grace window (`ROTATION_GRACE`, 10 s; reuse, revoking the family), and the refresh
 * of an expired but refreshable token (`ACCESS_TOKEN_TTL`, 15 minutes).
 *
 * Every session here is a sign-in of its own, so the run's main token is never at stake.
 */

const UNAUTHORIZED = { status: 'Unauthorized' };

export async function tokenProtocol(c: ConformanceClient): Promise<void> {
  const graphqlPath = `/${encodeURIComponent(c.tenant)}/graphql`;
  const refreshBody = {
    query: 'mutation refreshToken { refreshToken { token expires_in } }',
    operationName: 'refreshToken',
  };

  /** A refresh; the new token, or undefined (recorded as a failed check named `label`). */
  const refresh = async (token: string, label: string, before: string[] = []): Promise<string | undefined> => {
    const answer = await graphqlAt(c, c.tenant, 'refreshToken', {}, token);
    const payload = asRecord(asRecord(answer.body.data).refreshToken);
    const problems: string[] = [];
    if (answer.status !== 200 || 'errors' in answer.body)
      problems.push(`expected a new token, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    else if (typeof payload.token !== 'string' || payload.token === '') problems.push('refreshToken answered no token');
    else if (before.includes(payload.token))
      problems.push('refreshToken answered a token it had already answered or was given');
    if (typeof payload.expires_in !== 'number' && problems.length === 0)
      problems.push('refreshToken answered no expires_in');
    c.check(label, 'auth', answer.status, problems);
    return problems.length === 0 ? (payload.token as string) : undefined;
  };
  const works = async (token: string, label: string): Promise<void> => {
    const rest = await c.http('GET', '/api/auth/userInfo', { token });
    const graphql = await graphqlAt(c, c.tenant, 'userInfos', {}, token);
    const problems: string[] = [];
    if (rest.status !== 200)
      problems.push(`GET /api/auth/userInfo answered ${rest.status}: ${rest.text.slice(0, 200)}`);
    if (graphql.status !== 200 || 'errors' in graphql.body)
      problems.push(`GraphQL userInfos answered ${graphql.status}: ${graphql.text.slice(0, 200)}`);
    c.check(label, 'auth', rest.status, problems);
  };
  const refused = async (token: string, what: string): Promise<void> => {
    await c.expect401(`401 ${what} (REST)`, 'GET', '/api/auth/userInfo', token, UNAUTHORIZED);
    await c.expect401(`401 ${what} (GraphQL)`, 'POST', graphqlPath, token, UNAUTHORIZED, {
      query: 'query userInfos { userInfos { id } }',
      operationName: 'userInfos',
    });
    await c.expect401(`401 ${what} (refreshToken)`, 'POST', graphqlPath, token, UNAUTHORIZED, refreshBody);
  };

  // ----- refresh and single-use rotation with its grace --------------------------------------------------
  const t0 = await c.loginToken();
  if (!t0) {
    c.check('token refresh', 'auth', 0, ['could not sign in for a separate session']);
    return;
  }
  const t1 = await refresh(t0, 'token refresh gives a new token', [t0]);
  if (!t1) return;
  await works(t1, 'token the refreshed token works (REST and GraphQL)');
  await works(t0, 'token the immediate predecessor keeps working within the grace');
  const regained = await refresh(t0, 'token refresh of the immediate predecessor within the grace answers a token');
  if (regained) await works(regained, 'token the grace answer works');
  // The grace answer did not rotate again: the first successor is still the family's current token and
  // rotates once more (had the family moved twice, t1 would now be reuse).
  const t2 = await refresh(t1, 'token the successor still rotates after a grace answer', [t0, t1]);
  if (!t2) return;

  // ----- reuse detection: a token two rotations back kills the family -------------------------------------
  await c.expect401(
    '401 superseded: a token two rotations back (refreshToken)',
    'POST',
    graphqlPath,
    t0,
    UNAUTHORIZED,
    refreshBody,
  );
  await refused(t2, 'reuse revoked the family: its current token');
  await c.expect401(
    '401 reuse revoked the family: the predecessor (REST)',
    'GET',
    '/api/auth/userInfo',
    t1,
    UNAUTHORIZED,
  );

  // ----- a superseded token on an ordinary request -------------------------------------------------------
  const s0 = await c.loginToken();
  const s1 = s0 ? await refresh(s0, 'token refresh (second session)', [s0]) : undefined;
  const s2 = s0 && s1 ? await refresh(s1, 'token refresh again (second session)', [s0, s1]) : undefined;
  if (s0 && s2)
    await c.expect401(
      '401 superseded: a token two rotations back (REST)',
      'GET',
      '/api/auth/userInfo',
      s0,
      UNAUTHORIZED,
    );

  // ----- sign-out revokes the session ---------------------------------------------------------------------
  const l0 = await c.loginToken();
  const l1 = l0 ? await refresh(l0, 'token refresh (session to sign out)', [l0]) : undefined;
  if (!l0 || !l1) return;
  await c.rest(
    'authLogout',
    'POST',
    '/api/auth/logout',
    200,
    { token: l1, body: { data: { email: c.email }, ip: null } },
    'token sign-out',
  );
  await refused(l1, 'revoked: signed out');
  await c.expect401(
    '401 revoked: signed out, its predecessor within the grace (refreshToken)',
    'POST',
    graphqlPath,
    l0,
    UNAUTHORIZED,
    refreshBody,
  );
  await c.expect401(
    '401 revoked: signed out, its predecessor within the grace (REST)',
    'GET',
    '/api/auth/userInfo',
    l0,
    UNAUTHORIZED,
  );
  // The caller's own session is a family of its own: untouched by the sessions revoked above.
  if (c.session.token) await works(c.session.token, 'token other sessions of the user are untouched');
}
