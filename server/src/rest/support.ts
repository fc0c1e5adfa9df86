import { caller, type Handler, type HandlerDeps } from './types';

/**
 * `/api/support/…` (contracts/openapi.yaml, tag `support`; docs/support-desk.md): the support desk,
 * through the support service (server/src/support/service.ts). REST only: the desk has no GraphQL twin.
 */
export function supportHandlers({ services }: HandlerDeps) {
  const { support } = services;
  const supportSearch: Handler<'supportSearch'> = async (request) =>
    support.search(caller(request), { q: request.query.q, limit: request.query.limit ?? null });
  const supportPerson: Handler<'supportPerson'> = async (request) => support.person(caller(request), request.params.id);
  const supportLiftThrottle: Handler<'supportLiftThrottle'> = async (request) =>
    support.liftThrottle(caller(request), request.params.id);
  const supportTwoFactor: Handler<'supportTwoFactor'> = async (request) =>
    support.twoFactor(caller(request), request.params.id, request.body.action);
  const supportEndSessions: Handler<'supportEndSessions'> = async (request) =>
    support.endSessions(caller(request), request.params.id, request.body.session_id ?? null);
  const supportBlock: Handler<'supportBlock'> = async (request) =>
    support.block(caller(request), request.params.id, request.body.blocked);
  const supportRestore: Handler<'supportRestore'> = async (request) =>
    support.restore(caller(request), request.params.id);
  return {
    supportSearch,
    supportPerson,
    supportLiftThrottle,
    supportTwoFactor,
    supportEndSessions,
    supportBlock,
    supportRestore,
  };
}
