import { caller, type Handler, type HandlerDeps } from './types';
import { isBroken } from '../base/broken-promises';

/** REST `/api/instance…` and connections: parse, call the instances service (server/src/instances/service.ts), answer. */
export function instanceHandlers({ services }: HandlerDeps) {
  const { instances, tenants } = services;

  const instanceList: Handler<'instanceList'> = async (request) => {
    const actor = caller(request);
    return instances.list(actor, await tenants.resolve(actor, request.query.tenantName));
  };

  const instanceCreate: Handler<'instanceCreate'> = async (request, reply) => {
    const { tenantName, ...input } = request.body;
    const actor = caller(request);
    const created = await instances.create(actor, await tenants.resolve(actor, tenantName), input);
    reply.code(201);
    return created;
  };

  const instanceUpdate: Handler<'instanceUpdate'> = async (request) => {
    const { tenantName, id, ...change } = request.body;
    const actor = caller(request);
    return instances.update(actor, await tenants.resolve(actor, tenantName), id, change);
  };

  const instanceSyncMessages: Handler<'instanceSyncMessages'> = async (request, reply) => {
    const { tenantName, ...input } = request.body;
    const actor = caller(request);
    const started = await instances.syncMessages(actor, await tenants.resolve(actor, tenantName), input, request.log);
    reply.code(isBroken('sync-messages-200') ? 200 : 202);
    return started;
  };

  const connectionList: Handler<'connectionList'> = async (request) => {
    const actor = caller(request);
    return instances.connections(actor, await tenants.resolve(actor, request.query.tenantName));
  };

  const connectionCreate: Handler<'connectionCreate'> = async (request, reply) => {
    const { tenantName, ...input } = request.body;
    const actor = caller(request);
    const created = await instances.createConnection(actor, await tenants.resolve(actor, tenantName), input);
    reply.code(201);
    return created;
  };

  const connectionUpdate: Handler<'connectionUpdate'> = async (request) => {
    const { tenantName, id, ...change } = request.body;
    const actor = caller(request);
    return instances.updateConnection(actor, await tenants.resolve(actor, tenantName), id, change);
  };

  return {
    instanceList,
    instanceCreate,
    instanceUpdate,
    instanceSyncMessages,
    connectionList,
    connectionCreate,
    connectionUpdate,
  };
}
