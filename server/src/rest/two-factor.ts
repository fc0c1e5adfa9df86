import { caller, type Handler, type HandlerDeps } from './types';

/**
 * `/api/two-factor` (contracts/openapi.yaml, tag `two-factor`): the caller's own two-factor, through the
 * auth service (server/src/auth/service.ts), which also throttles wrong codes like sign-ins.
 */
export function twoFactorHandlers({ services }: HandlerDeps) {
  const { auth } = services;
  const twoFactorStatus: Handler<'twoFactorStatus'> = async (request) => auth.twoFactorStatus(caller(request));
  const twoFactorEnrol: Handler<'twoFactorEnrol'> = async (request) => auth.twoFactorEnrol(caller(request));
  const twoFactorVerify: Handler<'twoFactorVerify'> = async (request) =>
    auth.twoFactorVerify(caller(request), request.ip, request.body.code);
  const twoFactorDisable: Handler<'twoFactorDisable'> = async (request) =>
    auth.twoFactorDisable(caller(request), request.ip, request.body.code);
  return { twoFactorStatus, twoFactorEnrol, twoFactorVerify, twoFactorDisable };
}
