import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { TokenService, TokenClaims } from '../auth/tokens';
import type { Database } from '../db/schema';
import { forbidden, unauthorized } from '../errors';
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

export async function loadAuthContext(db: Kysely<Database>, userId: number, claims: TokenClaims): Promise<AuthContext | null> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.tenant_id', 't.name as tenant_name', 'r.id as role_id', 'r.name as role_name', 'u.origin_backoffice'])
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
  };
}

/**
 * Verifies the bearer token (401 bodies of DESIGN §4) and the route permission the operation
 * declares in `x-permission` (403). `allowRefreshable` is only for the refresh call.
 */
export async function authenticate(
  request: FastifyRequest,
  deps: { db: Kysely<Database>; tokens: TokenService; required: string | readonly string[]; allowRefreshable?: boolean },
): Promise<AuthContext> {
  const token = bearerToken(request.headers.authorization);
  const result = await deps.tokens.verify(token, { allowRefreshable: deps.allowRefreshable ?? false });
  if (!result.ok) throw unauthorized(result.body);
  const auth = await loadAuthContext(deps.db, result.userId, result.claims);
  if (!auth) throw unauthorized({ status: 'Unauthorized' });
  const required = typeof deps.required === 'string' ? [] : deps.required;
  if (!allows(auth, required)) throw forbidden(required);
  return auth;
}
