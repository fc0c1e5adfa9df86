import { caller, type Handler, type HandlerDeps } from './types';

/**
 * REST department changes: parse, call the departments service (server/src/departments/service.ts),
 * answer. The list (`departmentList`) sits with roles and permissions in ./permissions.ts.
 */
export function departmentHandlers({ services }: HandlerDeps) {
  const { departments, tenants } = services;

  const departmentCreate: Handler<'departmentCreate'> = async (request, reply) => {
    const actor = caller(request);
    const created = await departments.create(
      actor,
      await tenants.resolve(actor, request.query.tenantName),
      request.body,
    );
    reply.code(201);
    return created;
  };

  const departmentUpdate: Handler<'departmentUpdate'> = async (request) => {
    const actor = caller(request);
    return departments.update(
      actor,
      await tenants.resolve(actor, request.query.tenantName),
      request.params.id,
      request.body,
    );
  };

  return { departmentCreate, departmentUpdate };
}
