import { caller, type Handler, type HandlerDeps } from './types';

/** REST roles, permissions and departments: parse, call the services (server/src/roles/, departments/), answer. */
export function permissionHandlers({ services }: HandlerDeps) {
  const { roles, departments, tenants } = services;

  const permissionByEmail: Handler<'permissionByEmail'> = async (request) =>
    roles.permissionsOf(caller(request), request.query.email);
  const permissionList: Handler<'permissionList'> = async (request) => roles.permissions(caller(request));
  const permissionCategories: Handler<'permissionCategories'> = async (request) =>
    roles.permissionCategories(caller(request));
  const permissionUpdate: Handler<'permissionUpdate'> = async (request) =>
    roles.setPermissions(caller(request), request.body.roleId, request.body.permissions, request.body.version);
  const roleList: Handler<'roleList'> = async (request) => roles.list(caller(request));
  const roleGet: Handler<'roleGet'> = async (request) => roles.get(caller(request), request.params.id);
  const roleCreate: Handler<'roleCreate'> = async (request, reply) => {
    const created = await roles.create(caller(request), request.body);
    reply.code(201);
    return created;
  };
  const roleRename: Handler<'roleRename'> = async (request) =>
    roles.rename(caller(request), request.params.id, request.body.display_name, request.body.version);
  const roleDelete: Handler<'roleDelete'> = async (request) => {
    await roles.remove(caller(request), request.params.id);
    return { message: 'Deleted' };
  };
  const departmentList: Handler<'departmentList'> = async (request) => {
    const actor = caller(request);
    return departments.list(actor, await tenants.resolve(actor, request.query.tenantName));
  };

  return {
    permissionByEmail,
    permissionList,
    permissionCategories,
    permissionUpdate,
    roleList,
    roleGet,
    roleCreate,
    roleRename,
    roleDelete,
    departmentList,
  };
}
