import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { conflict, forbidden, notFound } from '../errors';
import { allows } from '../plugins/auth';
import { resolveTenant } from '../tenants/scope';
import { ADMIN_ROLE, permittedRoutesOf } from '../users/user-dto';
import { caller, type Handler, type HandlerDeps } from './types';

/**
 * Roles (and their permissions) are shared by every tenant: a tenant's own administrator changing one
 * would change what users of other tenants may do. Only back-office staff may (contract).
 */
function backofficeOnly(request: FastifyRequest): void {
  if (!caller(request).originBackoffice) throw forbidden(['roles-edit']);
}

export function permissionHandlers({ db }: HandlerDeps) {
  const allPermissions = () => db.selectFrom('permissions').select(['id', 'route_name', 'display_name', 'category']).orderBy('category').orderBy('route_name');

  const roleDto = async (id: number) => {
    const role = await db.selectFrom('roles').select(['id', 'name', 'display_name']).where('id', '=', id).executeTakeFirst();
    if (!role) throw notFound('Role not found');
    return { ...role, has_permission_routes: await permittedRoutesOf(db, role.id, role.name) };
  };

  const permissionByEmail: Handler<'permissionByEmail'> = async (request) => {
    const auth = caller(request);
    const user = await db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select(['u.id', 'u.tenant_id', 'r.id as role_id', 'r.name as role_name'])
      .where(sql`lower(u.email)`, '=', request.query.email.toLowerCase())
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user || (!auth.originBackoffice && user.tenant_id !== auth.tenantId)) throw notFound('User not found');
    if (user.id !== auth.userId && !allows(auth, ['users', 'roles-list'])) throw forbidden(['users', 'roles-list']);
    const routes = new Set(await permittedRoutesOf(db, user.role_id, user.role_name));
    return (await allPermissions().execute()).filter((p) => routes.has(p.route_name));
  };

  const permissionList: Handler<'permissionList'> = async () => allPermissions().execute();

  const permissionCategories: Handler<'permissionCategories'> = async () => {
    const groups = new Map<string, Awaited<ReturnType<ReturnType<typeof allPermissions>['execute']>>>();
    for (const p of await allPermissions().execute()) groups.set(p.category, [...(groups.get(p.category) ?? []), p]);
    return [...groups].map(([category, permissions]) => ({ category, permissions }));
  };

  const permissionUpdate: Handler<'permissionUpdate'> = async (request) => {
    backofficeOnly(request);
    const { roleId, permissions } = request.body;
    const role = await roleDto(roleId);
    if (role.name === ADMIN_ROLE) throw conflict('The administrador role always holds every permission', 'roleId');
    const rows = permissions.length ? await db.selectFrom('permissions').select(['id', 'route_name']).where('route_name', 'in', [...permissions]).execute() : [];
    const missing = permissions.filter((name) => !rows.some((r) => r.route_name === name));
    if (missing.length) throw notFound(`Unknown permission: ${missing.join(', ')}`);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
      if (rows.length) await trx.insertInto('role_permissions').values(rows.map((r) => ({ role_id: roleId, permission_id: r.id }))).execute();
    });
    return roleDto(roleId);
  };

  const roleList: Handler<'roleList'> = async () => {
    const roles = await db.selectFrom('roles').select(['id', 'name', 'display_name']).orderBy('id').execute();
    return Promise.all(roles.map(async (r) => ({ ...r, has_permission_routes: await permittedRoutesOf(db, r.id, r.name) })));
  };

  const roleGet: Handler<'roleGet'> = async (request) => roleDto(request.params.id);

  const roleCreate: Handler<'roleCreate'> = async (request, reply) => {
    backofficeOnly(request);
    const exists = await db.selectFrom('roles').select('id').where('name', '=', request.body.name).executeTakeFirst();
    if (exists) throw conflict('A role with this name already exists', 'name');
    const created = await db.insertInto('roles').values(request.body).returning('id').executeTakeFirstOrThrow();
    reply.code(201);
    return roleDto(created.id);
  };

  const roleRename: Handler<'roleRename'> = async (request) => {
    backofficeOnly(request);
    const updated = await db.updateTable('roles').set({ display_name: request.body.display_name }).where('id', '=', request.params.id).returning('id').executeTakeFirst();
    if (!updated) throw notFound('Role not found');
    return roleDto(updated.id);
  };

  const departmentList: Handler<'departmentList'> = async (request) => {
    const tenant = await resolveTenant(db, caller(request), request.query.tenantName);
    return db.selectFrom('departments').select(['id', 'name', 'activated']).where('tenant_id', '=', tenant.id).orderBy('name').execute();
  };

  return { permissionByEmail, permissionList, permissionCategories, permissionUpdate, roleList, roleGet, roleCreate, roleRename, departmentList };
}

