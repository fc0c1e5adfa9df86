import { caller, type Handler, type HandlerDeps } from './types';

/**
 * REST webhook endpoints (docs/webhooks.md): parse, call the webhook endpoints service
 * (server/src/webhooks/endpoints.ts), answer.
 */
export function webhookEndpointHandlers({ services }: HandlerDeps) {
  const { webhookEndpoints } = services;

  const webhookEndpointList: Handler<'webhookEndpointList'> = async (request) => ({
    data: await webhookEndpoints.list(caller(request), request.query.tenantName),
  });

  const webhookEndpointCreate: Handler<'webhookEndpointCreate'> = async (request, reply) => {
    const created = await webhookEndpoints.create(caller(request), request.body);
    reply.code(201);
    return created;
  };

  const webhookEndpointUpdate: Handler<'webhookEndpointUpdate'> = async (request) =>
    webhookEndpoints.update(caller(request), request.params.id, request.body);

  const webhookEndpointRotateSecret: Handler<'webhookEndpointRotateSecret'> = async (request) =>
    webhookEndpoints.rotateSecret(caller(request), request.params.id, request.body);

  const webhookEndpointDelete: Handler<'webhookEndpointDelete'> = async (request) => {
    await webhookEndpoints.remove(caller(request), request.params.id);
    return { message: 'Deleted' };
  };

  return {
    webhookEndpointList,
    webhookEndpointCreate,
    webhookEndpointUpdate,
    webhookEndpointRotateSecret,
    webhookEndpointDelete,
  };
}
