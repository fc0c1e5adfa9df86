import type { Kysely } from 'kysely';
import type { Actor, Origin, SessionClaims } from '../access/caller';
import type { Database } from '../db/schema';
import { permittedRoutesOf } from '../db/user-dto';

/**
 * The caller of a verified token as the services see it (server/src/access/caller.ts): its user, role,
 * tenant and permissions as stored now, not as they were at sign-in. Null when the user or its tenant
 * is gone (deleted): such a caller is no longer signed in.
 */
export async function loadActor(
  db: Kysely<Database>,
  userId: number,
  claims: SessionClaims,
  origin: Origin,
): Promise<Actor | null> {
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
    .where('u.deleted_at', 'is', null)
    .where('t.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const permissions = await permittedRoutesOf(db, row.role_id, row.role_name);
  return {
    kind: 'user',
    userId: row.id,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    roleId: row.role_id,
    role: row.role_name,
    originBackoffice: row.origin_backoffice,
    permissions: new Set(permissions),
    claims,
    origin,
  };
}
