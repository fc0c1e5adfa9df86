import type { FastifyRequest } from 'fastify';
import { anonymous } from '../access/caller';
import { requestOrigin } from '../plugins/auth';
import { caller, type Handler, type HandlerDeps } from './types';

/** REST `/api/auth/password-reset…` (docs/support-desk.md, Forgot password): parse, call the service, answer. */
export function passwordResetHandlers({ services }: HandlerDeps) {
  const { passwordReset } = services;

  const passwordResetStatus: Handler<'passwordResetStatus'> = async (request) =>
    passwordReset.status(anonymous(requestOrigin(request)));

  const passwordResetRequest: Handler<'passwordResetRequest'> = async (request, reply) => {
    const answer = await passwordReset.request(anonymous(requestOrigin(request)), {
      email: request.body.email,
      locale: request.body.locale ?? null,
      address: request.ip,
    });
    reply.code(202);
    return answer;
  };

  const passwordResetConfirm: Handler<'passwordResetConfirm'> = async (request) =>
    passwordReset.confirm(anonymous(requestOrigin(request)), {
      token: request.body.token,
      password: request.body.password,
    });

  return { passwordResetStatus, passwordResetRequest, passwordResetConfirm };
}

/**
 * The desk's `supportTemporaryPassword` and `supportResetLink` (docs/support-desk.md), whose contract
 * entries come with the rest of the desk's operations (another branch): typed here by hand, registered by
 * operationId once contracts/openapi.yaml has them.
 * LEAD, AT MERGE: spread these into server/src/rest/index.ts, map them in ./operation-policies.ts to
 * `supportCredentials.temporaryPassword` and `supportCredentials.resetLink`, type them with `Handler<'supportTemporaryPassword'>` and `Handler<'supportResetLink'>`,
 * and answer temporary-password with the full `SupportPerson` (it answers `{ mustChangePassword: true }`
 * until then).
 */
export function supportCredentialHandlers({ services }: HandlerDeps) {
  const { supportCredentials } = services;
  const idOf = (request: FastifyRequest) => Number((request.params as { id: string | number }).id);

  const supportTemporaryPassword = async (request: FastifyRequest) =>
    supportCredentials.temporaryPassword(caller(request), idOf(request), {
      password: String((request.body as { password?: unknown } | undefined)?.password ?? ''),
    });

  const supportResetLink = async (request: FastifyRequest) =>
    supportCredentials.resetLink(caller(request), idOf(request));

  return { supportTemporaryPassword, supportResetLink };
}
