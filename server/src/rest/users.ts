import type { FastifyRequest } from 'fastify';
import { assertMayChange, assertMaySetTwoFactor } from '../access/self-service';
import type { UserPatch } from '../users/service';
import { checkUserFilter, type UserListSort } from '../users/list';
import { exportLanguage } from '../base/csv-stream';
import { sendCsv } from './csv-http';

/** The filters and order of `userPage`, `userIds` and `userExport` (contracts/openapi.yaml, `UserFilter*`). */
function listQuery(query: QueryOf<'userIds'>) {
  const filter = checkUserFilter({
    id: query.id,
    q: query.q,
    role: query.role,
    department: query.department,
    blocked: query.blocked,
    online: query.online,
    twoFactor: query.two_factor,
  });
  const order: UserListSort = { sort: query.sort ?? 'name', dir: query.dir ?? 'asc' };
  return { filter, order };
}
import { caller, recordRowDenials, type Handler, type HandlerDeps, type OperationId, type QueryOf } from './types';

/**
 * Permission rules that depend on the body, asked before the body is validated (server/src/app.ts):
 * a caller without the permission gets 403 whatever the values.
 */
export function bodyPermissionChecks(): Partial<Record<OperationId, (request: FastifyRequest) => void>> {
  return {
    // The fields the body names, whatever their values (a body that is not an object is left to validation).
    userUpdate: (request) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
      assertMayChange(caller(request), Number((request.params as { id?: unknown }).id), Object.keys(body));
    },
    // A reset, and requiring or lifting two-factor enrolment, need the `users` permission, also for one's own account.
    userSettingsUpdate: (request) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
      assertMaySetTwoFactor(
        caller(request),
        Number((request.params as { id?: unknown }).id),
        body as Record<string, unknown>,
      );
    },
  };
}

/** REST `/api/users…` and `/api/user-settings/{id}`: parse, call the users service (server/src/users/service.ts), answer. */
export function userHandlers({ services, faults }: HandlerDeps) {
  const { users, tenants } = services;
  /** REST names a user by id alone: any user the caller may see. */
  const anyVisible = { tenantId: null };

  const userList: Handler<'userList'> = async (request) => {
    const actor = caller(request);
    return users.list(actor, await tenants.resolve(actor, request.query.tenantName));
  };

  const userPage: Handler<'userPage'> = async (request) => {
    const actor = caller(request);
    const { filter, order } = listQuery(request.query);
    const tenant = await tenants.resolve(actor, request.query.tenantName);
    return users.page(actor, tenant, filter, order, request.query.page ?? 1, request.query.limit ?? 25);
  };

  const userIds: Handler<'userIds'> = async (request) => {
    const actor = caller(request);
    const { filter, order } = listQuery(request.query);
    return users.ids(actor, await tenants.resolve(actor, request.query.tenantName), filter, order);
  };

  const userExport: Handler<'userExport'> = async (request, reply) => {
    const actor = caller(request);
    const { filter, order } = listQuery(request.query);
    const tenant = await tenants.resolve(actor, request.query.tenantName);
    const lines = await users.exportCsv(
      actor,
      tenant,
      filter,
      order,
      exportLanguage(request.headers['accept-language']),
    );
    await sendCsv(reply, `usuarios-${tenant.name}.csv`, lines);
  };

  const userFindByEmail: Handler<'userFindByEmail'> = async (request) =>
    users.findByEmail(caller(request), request.body.email);

  const userIsFuncionalUser: Handler<'userIsFuncionalUser'> = async (request) => ({
    is_funcional_user: await users.isFunctional(caller(request)),
  });

  const userCreate: Handler<'userCreate'> = async (request, reply) => {
    const auth = caller(request);
    // Users are created in the caller's own tenant.
    const created = await users.create(auth, { id: auth.tenantId, name: auth.tenantName }, request.body);
    reply.code(201);
    return created;
  };

  const userUpdate: Handler<'userUpdate'> = async (request) => {
    const body = request.body;
    // The contract's three forms (whole object, e-mail only, name only) are one patch each.
    const patch: UserPatch = 'role_id' in body ? { ...body, chosen_instances: body.chosen_instances } : body;
    return users.update(caller(request), anyVisible, request.params.id, patch);
  };

  const userSetBlocked: Handler<'userSetBlocked'> = async (request) =>
    users.setBlocked(caller(request), anyVisible, request.params.id, request.body.blocked);

  const userDelete: Handler<'userDelete'> = async (request) => {
    await users.remove(caller(request), anyVisible, request.params.id);
    return { message: 'Deleted' };
  };

  const userPurge: Handler<'userPurge'> = async (request) => users.purge(caller(request), request.body.id);

  const userSettingsUpdate: Handler<'userSettingsUpdate'> = async (request) =>
    users.updateSettings(caller(request), anyVisible, request.params.id, request.body);

  const userBulk: Handler<'userBulk'> = async (request) => {
    const actor = caller(request);
    const { action, ids, dry_run, batch_id, total } = request.body;
    const answer = await users.bulk(
      actor,
      anyVisible,
      { action, ids, dryRun: dry_run, batchId: batch_id, total },
      { fault: faults && ((id) => faults.row('userBulk', request.body, id)), log: request.log },
    );
    if (!dry_run)
      await recordRowDenials(services, actor, 'POST /api/users/bulk', ['users'], answer.results, request.log);
    return answer;
  };

  return {
    userList,
    userPage,
    userIds,
    userExport,
    userFindByEmail,
    userIsFuncionalUser,
    userCreate,
    userUpdate,
    userPurge,
    userSetBlocked,
    userDelete,
    userSettingsUpdate,
    userBulk,
  };
}
