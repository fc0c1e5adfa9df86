import type { Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import { ADMIN_ROLE, holdsEveryRoute, routesHeld } from '../../../src/domain/route-access';
import type { Database } from './schema';

/**
 * The user read model: the contract's `User` and a role's routes, read by auth (the session's user, the
 * actor's routes), users and roles. It sits on the database floor so those resources share it without
 * importing each other (docs/architecture.md, The server's floors).
 */

export { ADMIN_ROLE };

export type UserDto = components['schemas']['User'];
export type RoleDto = components['schemas']['Role'];

/** A role's permitted route names; administrador holds every one (docs/product.md, Roles and route permissions). */
export async function permittedRoutesOf(db: Kysely<Database>, roleId: number, roleName: string): Promise<string[]> {
  // The administrador's rows are not read: it holds every route whatever they say.
  return routesHeld(roleName, holdsEveryRoute(roleName) ? [] : await grantedRoutes(db, roleId));
}

/** The route names the role's own rows grant, ascending (not the catalogue `administrador` implies). */
export async function grantedRoutes(db: Kysely<Database>, roleId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('role_permissions as rp')
    .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
    .select('p.route_name')
    .where('rp.role_id', '=', roleId)
    .orderBy('p.route_name')
    .execute();
  return rows.map((r) => r.route_name);
}

/**
 * Loads users as the contract's `User` (role with its routes, department, instance links) in four
 * queries whatever the number of users, so a 10,000-user list is not 40,000 round trips. Live users
 * only, unless `deleted` asks for soft-deleted ones too (the purge answers the user as it was).
 */
export async function loadUserDtos(
  db: Kysely<Database>,
  filter: { ids?: readonly number[]; tenantId?: number; deleted?: boolean },
): Promise<UserDto[]> {
  let query = db
    .selectFrom('users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .select([
      'u.id',
      'u.name',
      'u.username',
      'u.email',
      'u.image',
      'u.is_connected',
      'u.blocked',
      'u.two_factor_enabled',
      'u.two_factor_enrolment_required',
      'u.origin_backoffice',
      'u.version',
      't.name as tenant_name',
      'r.id as role_id',
      'r.name as role_name',
      'r.display_name as role_display_name',
      'r.version as role_version',
      'd.id as department_id',
      'd.name as department_name',
      'd.activated as department_activated',
      'd.version as department_version',
    ])
    .orderBy('u.name')
    .orderBy('u.id');
  if (filter.ids) {
    if (filter.ids.length === 0) return [];
    query = query.where('u.id', 'in', [...filter.ids]);
  }
  if (filter.tenantId !== undefined) query = query.where('u.tenant_id', '=', filter.tenantId);
  if (!filter.deleted) query = query.where('u.deleted_at', 'is', null);
  const rows = await query.execute();
  if (rows.length === 0) return [];

  const roleIds = [...new Set(rows.map((r) => r.role_id))];
  const rolePerms = await db
    .selectFrom('role_permissions as rp')
    .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
    .select(['rp.role_id', 'p.route_name'])
    .where('rp.role_id', 'in', roleIds)
    .orderBy('p.route_name')
    .execute();
  const links = await db
    .selectFrom('user_instances as ui')
    .innerJoin('instances as i', 'i.id', 'ui.instance_id')
    .select([
      'ui.id',
      'ui.user_id',
      'i.id as instance_id',
      'i.name as instance_name',
      'i.activated as instance_activated',
      'i.version as instance_version',
    ])
    .where(
      'ui.user_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('i.name')
    .execute();

  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    name: r.name,
    username: r.username,
    email: r.email,
    image: r.image,
    isConnected: r.is_connected,
    blocked: r.blocked,
    twoFactorEnabled: r.two_factor_enabled,
    twoFactorEnrolmentRequired: r.two_factor_enrolment_required,
    tenantName: r.tenant_name,
    origin_backoffice: r.origin_backoffice,
    role: {
      id: r.role_id,
      name: r.role_name,
      display_name: r.role_display_name,
      version: r.role_version,
      has_permission_routes: routesHeld(
        r.role_name,
        rolePerms.filter((p) => p.role_id === r.role_id).map((p) => p.route_name),
      ),
    },
    userDepartment:
      r.department_id === null
        ? null
        : {
            id: r.department_id,
            name: r.department_name ?? '',
            activated: r.department_activated ?? false,
            version: r.department_version ?? 1,
          },
    userInstances: links
      .filter((l) => l.user_id === r.id)
      .map((l) => ({
        id: l.id,
        instance: {
          id: l.instance_id,
          name: l.instance_name,
          activated: l.instance_activated,
          version: l.instance_version,
        },
      })),
  }));
}

/** A user's e-mail as stored; throws when there is no such user. */
export function userEmail(db: Kysely<Database>, id: number) {
  return db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
}
