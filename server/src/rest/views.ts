import { caller, type Handler, type HandlerDeps } from './types';

/** REST saved views (docs/lists.md, Views): parse, call the views service (server/src/views/service.ts), answer. */
export function viewHandlers({ services }: HandlerDeps) {
  const { views } = services;

  const viewList: Handler<'viewList'> = async (request) => ({
    data: await views.list(caller(request), request.query.list),
  });

  const viewCreate: Handler<'viewCreate'> = async (request, reply) => {
    const created = await views.create(caller(request), request.body);
    reply.code(201);
    return created;
  };

  const viewUpdate: Handler<'viewUpdate'> = async (request) =>
    views.update(caller(request), request.params.id, request.body);

  const viewDelete: Handler<'viewDelete'> = async (request) => {
    await views.remove(caller(request), request.params.id);
    return { message: 'Deleted' };
  };

  return { viewList, viewCreate, viewUpdate, viewDelete };
}
