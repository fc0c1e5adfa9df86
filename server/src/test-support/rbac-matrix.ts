import { decodeJwt, SignJWT } from 'jose';
import { AUDIT_OPERATION_NAMES } from '../../../src/domain/audit';
import type { TestApp } from './app';
import { createTestUser, type TestUser } from './users';

/**
 * The RBAC and tenant-isolation matrix (docs/security.md, section 3). Every REST operation and every GraphQL
 * operation of the contract, called as each of seven principals, must answer the status in the TABLES
 * below; every answer must be one the contract lists, with its body; and nothing of tenant B may show in
 * any answer to tenant A's user (0 leaks), nor may any refused call change tenant B's data.
 *
 * Principals (columns):
 *   anon   no Authorization header                        → 401 {"status":"Authorization Token not found"}
 *   malf   a malformed token                              → 401 {"status":"Token is Invalid"}
 *   exp    an expired (still refreshable) staff token     → 401 {"error":"Token has expired"}; refreshToken 200
 *   rev    a revoked staff token (logged out)             → 401 {"status":"Unauthorized"}
 *   op     back-office `operador` (dashboards and reports only)
 *   A→B    tenant A's own administrator (not back-office staff), every request aimed at tenant B
 *   admin  back-office `administrador`
 * The exp and rev tokens belong to a back-office administrator: only the token's state refuses them.
 * Requests target tenant B (by `tenantName`, by its records' ids, or by the GraphQL path `/matrix-b/graphql`).
 *
 * ORDER OF CHECKS (contracts/openapi.yaml conventions: identity, then permission, then input, then state;
 * the GraphQL guard of contracts/schema.graphql: identity, the path's tenant, the root fields' route
 * permission, then the body). For every operation and root field above that takes input, requests broken
 * in one place (server/src/test-support/ordering.ts: wrong types, missing and unknown properties, NUL,
 * bad JSON, another media type, a body over 1 MiB) are sent as
 *   (a) anon, malf and forged (admin's claims signed with another key) → 401 with the contract's body;
 *   (b) a signed-in caller the contract refuses before reading input → 403 with the contract's body:
 *       op or none (back-office staff whose role holds no route) for route lists, A→B for x-staff-only,
 *       op aimed at another user for x-permission-for-others; GraphQL: op for route `users`, A→B for
 *       tenant B's path;
 *   (c) every other signed-in caller (admin; op, none, A→B where allowed; op aimed at itself) → 400
 *       (413 for the size, 415 for the media type).
 */

export type Principal = 'anon' | 'malf' | 'exp' | 'rev' | 'op' | 'AtoB' | 'admin';
export const PRINCIPALS: Principal[] = ['anon', 'malf', 'exp', 'rev', 'op', 'AtoB', 'admin'];
export type Row = [number, number, number, number, number, number, number];

export interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
}
/** A request, built per call (fresh targets for destructive calls; `who` makes names unique). */
export type Build = (who: Principal, n: number) => Req | Promise<Req>;

/** The app under test and the counters of the run; set up by {@link useMatrixApp}. */
export const m = {
  t: undefined as unknown as TestApp,
  key: new Uint8Array(),
  counter: 0,
  requests: 0,
  opRoutes: new Set<string>() as ReadonlySet<string>,
};
export const ids = { a: 0, b: 0, bUser: 0, bInstance: 0, bDepartment: 0, bConnection: 0, bLink: 0, role: 0 };
export const users = {} as Record<'admin' | 'op' | 'aAdmin' | 'login' | 'none', TestUser>;

/** Strings only tenant B's data holds: none may appear in an answer to tenant A's user. */
export const B_MARKERS = [
  'matrix-b',
  'Bruno Segredo',
  'Instancia Secreta B',
  'Departamento Secreto B',
  'Conexão Secreta B',
];
export const leaks: string[] = [];
/**
 * The audit log's operations except `access.denied`: the audit rows of the matrix read these, because a
 * denial recorded in tenant A names the path A itself asked for (`POST /matrix-b/graphql`), which is
 * A's own input and not B's data; every record about B (its name in `tenant_name`) would still show.
 */
export const AUDIT_LEAK_OPERATIONS = AUDIT_OPERATION_NAMES.filter((name) => name !== 'access.denied');
export const refusedWrites: string[] = [];

// ------------------------------------------------------------------------------------------------------
// Principals
// ------------------------------------------------------------------------------------------------------

export async function mint(user: TestUser): Promise<string> {
  const { token_version } = await m.t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return (await m.t.app.tokens.issue(user.id, token_version)).token;
}

/** A fresh Authorization header per call: a session ended by one row (logout, password change) never leaks into the next. */
export async function authorization(who: Principal): Promise<string | undefined> {
  switch (who) {
    case 'anon':
      return undefined;
    case 'malf':
      return 'Bearer not.a.jwt';
    case 'exp': {
      const claims = decodeJwt(await mint(users.admin));
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ ...claims, iat: now - 2000, exp: now - 60 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(m.key);
      return `Bearer ${expired}`;
    }
    case 'rev': {
      const token = await mint(users.admin);
      await m.t.app.tokens.revokeFamily((decodeJwt(token) as { fam: string }).fam);
      return `Bearer ${token}`;
    }
    case 'op':
      return `Bearer ${await mint(users.op)}`;
    case 'AtoB':
      return `Bearer ${await mint(users.aAdmin)}`;
    case 'admin':
      return `Bearer ${await mint(users.admin)}`;
  }
}

export const UNAUTHORIZED: Partial<Record<Principal, unknown>> = {
  anon: { status: 'Authorization Token not found' },
  malf: { status: 'Token is Invalid' },
  exp: { error: 'Token has expired' },
  rev: { status: 'Unauthorized' },
};

// ------------------------------------------------------------------------------------------------------
// Fresh targets in tenant B (for calls that consume them)
// ------------------------------------------------------------------------------------------------------

export async function freshBUser({ deleted = false }: { deleted?: boolean } = {}): Promise<number> {
  m.counter += 1;
  const id = (
    await createTestUser(m.t.db, {
      email: `matrix-b-extra-${m.counter}@demo.local`,
      tenant: 'matrix-b',
      name: `Bruno Segredo ${m.counter}`,
      originBackoffice: false,
    })
  ).id;
  if (deleted) await m.t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', id).execute();
  return id;
}
export async function freshTenant(deleted: boolean): Promise<number> {
  m.counter += 1;
  const row = await m.t.db
    .insertInto('tenants')
    .values({
      name: `matrix-b-extra-${m.counter}`,
      cnpj: '11.444.777/0001-61',
      template: 'pharmacy',
      pool: 'pool-a',
      plan: 'starter',
      user_limit: 5,
      ticket_limit: 100,
      deleted_at: deleted ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
/** A role no user holds, for a call that deletes one. */
export async function freshRole(): Promise<number> {
  m.counter += 1;
  const row = await m.t.db
    .insertInto('roles')
    .values({ name: `matrix_extra_${m.counter}`, display_name: `Matrix extra ${m.counter}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
export async function freshBLink(): Promise<number> {
  const user = await freshBUser();
  return (
    await m.t.db
      .insertInto('user_instances')
      .values({ user_id: user, instance_id: ids.bInstance })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}
export const unique = (who: Principal, n: number) => `${who.toLowerCase()}${n}${Date.now().toString(36)}`;
export const today = () => new Date().toISOString().slice(0, 10);
