import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { TokenService, TokenClaims } from '../auth/tokens';
import type { AuditOrigin, AuditWho } from '../audit/trail';
import type { Database } from '../db/schema';
import { forbidden, unauthenticated } from '../base/domain-error';
import { ADMIN_ROLE, permittedRoutesOf } from '../users/user-dto';

/** Who is calling, resolved once per request by the single auth hook of `/api` and `/graphql`. */
export interface AuthContext {
  userId: number;
  tenantId: number;
  tenantName: string;
  role: string;
  originBackoffice: boolean;
  permissions: ReadonlySet<string>;
  claims: TokenClaims;
  /** The request's id and the caller's address, for the audit log (server/src/audit/trail.ts). */
  origin: AuditOrigin;
}

/** Who acts, for the audit log: the signed-in user, from where. */
export function auditWho(auth: AuthContext): AuditWho {
  return { actor: { userId: auth.userId, tenantId: auth.tenantId }, origin: auth.origin };
}

/** The audit origin of a request: its id and the caller's address. */
export function requestOrigin(request: Pick<FastifyRequest, 'id' | 'ip'>): AuditOrigin {
  return { requestId: String(request.id), address: request.ip };
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** Whether the context holds any of the route permissions (administrador holds all). */
export function allows(auth: AuthContext, required: readonly string[]): boolean {
  return auth.role === ADMIN_ROLE || required.length === 0 || required.some((name) => auth.permissions.has(name));
}

export async function loadAuthContext(
  db: Kysely<Database>,
  userId: number,
  claims: TokenClaims,
  origin: AuditOrigin,
): Promise<AuthContext | null> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id',
      'u.tenant_id',
      't.name as tenant_name',
      'r.id as role_id',
      'r.name as role_name',
      'u.origin_backoffice',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const permissions = await permittedRoutesOf(db, row.role_id, row.role_name);
  return {
    userId: row.id,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    role: row.role_name,
    originBackoffice: row.origin_backoffice,
    permissions: new Set(permissions),
    claims,
    origin,
  };
}

/**
 * What a REST operation requires before its input is read, from its contract extensions
 * (contracts/openapi.yaml, read off the route schema openapi-glue builds):
 * - `x-permission`: `public` (no token), `[]` (any signed-in user) or route names (any one suffices);
 * - `x-staff-only: true`: only back-office staff (`origin_backoffice`), whatever the role;
 * - `x-permission-for-others: [routes]`: when the path's `id` is another user than the caller, these
 *   route permissions too (a user acting on its own record needs only `x-permission`).
 */
export interface RouteAccess {
  required: readonly string[];
  staffOnly: boolean;
  forOthers: readonly string[] | null;
}

/** The access an operation's route schema declares; null for public operations and routes outside the contract. */
export function routeAccess(schema: unknown): RouteAccess | null {
  const declared = schema as
    { 'x-permission'?: string | string[]; 'x-staff-only'?: boolean; 'x-permission-for-others'?: string[] } | undefined;
  const permission = declared?.['x-permission'];
  if (permission === undefined || permission === 'public') return null;
  return {
    required: typeof permission === 'string' ? [] : permission,
    staffOnly: declared?.['x-staff-only'] === true,
    forOthers: declared?.['x-permission-for-others'] ?? null,
  };
}

/** Back-office staff only (roles are shared by every tenant; tenants are created by the back-office). */
export function requireStaff(auth: AuthContext, required: readonly string[]): void {
  if (!auth.originBackoffice) throw forbidden(required);
}

/** A REST operation as the audit log names it: method and the contract's path (`DELETE /api/users/{id}`). */
export function restOperationName(request: Pick<FastifyRequest, 'method' | 'routeOptions' | 'url'>): string {
  const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  return `${request.method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

/**
 * Verifies the bearer token (401 bodies of contracts/openapi.yaml `Unauthorized`) and the access the
 * operation declares (403), before anything of the request's body is read. The caller is on
 * `request.auth` before the permission checks, so a 403 is recorded with it (server/src/app.ts, onError).
 */
export async function authenticate(
  request: FastifyRequest,
  deps: { db: Kysely<Database>; tokens: TokenService; access: RouteAccess },
): Promise<AuthContext> {
  const token = bearerToken(request.headers.authorization);
  const origin = requestOrigin(request);
  const result = await deps.tokens.verify(token, { allowRefreshable: false, origin });
  if (!result.ok) throw unauthenticated(result.body);
  const auth = await loadAuthContext(deps.db, result.userId, result.claims, origin);
  if (!auth) throw unauthenticated({ status: 'Unauthorized' });
  request.auth = auth;
  const { required, staffOnly, forOthers } = deps.access;
  if (!allows(auth, required)) throw forbidden(required);
  if (staffOnly) requireStaff(auth, required);
  if (forOthers) {
    const id = Number((request.params as { id?: unknown } | undefined)?.id);
    if (id !== auth.userId && !allows(auth, forOthers)) throw forbidden(forOthers);
  }
  return auth;
}
