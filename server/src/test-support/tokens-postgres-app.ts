import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { startTestApp, type TestApp } from './app';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres';
import { createTestUser, type TestUser } from './users';

export const REFRESH = 'mutation refreshToken { refreshToken { token expires_in } }';

/** The app of the token tests on PostgreSQL (server/src/auth/tokens*.postgres.test.ts), set up by {@link usePostgresTokenApp}. */
export const tk = {} as { pg: ThrowawayPostgres; t: TestApp; wsBase: string; key: Uint8Array };
let n = 0;

/** Registers a throwaway PostgreSQL, the app on it (30 s rotation grace) listening on a port, and the server's JWT key. */
export function usePostgresTokenApp(): void {
  beforeAll(async () => {
    tk.pg = await startThrowawayPostgres();
    tk.t = await startTestApp({ databaseUrl: tk.pg.url, seed: { days: 1 }, config: { rotationGrace: 30 } });
    await tk.t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    tk.wsBase = `ws://127.0.0.1:${(tk.t.app.fastify.server.address() as AddressInfo).port}`;
    const secret = await tk.t.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'jwt')
      .executeTakeFirstOrThrow();
    tk.key = new TextEncoder().encode(secret.value);
  }, 120_000);

  afterAll(async () => {
    await tk.t?.close();
    await tk.pg?.stop();
  });
}

export async function freshUser(role = 'administrador'): Promise<TestUser> {
  n += 1;
  return createTestUser(tk.t.db, { email: `tok-${n}@demo.local`, tenant: 'backoffice', role });
}

/** A session of a user without argon2 (the token service directly): a new family. */
export async function session(user: TestUser): Promise<string> {
  const { token_version } = await tk.t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return (await tk.t.app.tokens.issue(user.id, token_version)).token;
}

export async function userInfo(token: string) {
  const response = await tk.t.app.fastify.inject({
    method: 'GET',
    url: '/api/auth/userInfo',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

export async function refresh(token: string) {
  const response = await tk.t.app.fastify.inject({
    method: 'POST',
    url: '/backoffice/graphql',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ query: REFRESH }),
  });
  const body = response.json<{ data?: { refreshToken: { token: string } }; status?: string; error?: string }>();
  return { status: response.statusCode, body, token: body.data?.refreshToken.token };
}

/** Signs arbitrary claims with the server's own key (what an attacker holding the key could do, and what a test needs to forge time). */
export function sign(claims: Record<string, unknown>, header: { alg: string } = { alg: 'HS256' }, signingKey = tk.key) {
  return new SignJWT(claims).setProtectedHeader({ ...header, typ: 'JWT' }).sign(signingKey);
}
