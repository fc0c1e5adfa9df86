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
 * The desk's `supportTemporaryPassword` and `supportResetLink` (docs/support-desk.md, REST operations),
 * through the support credentials service (server/src/support/credentials.ts). A temporary password
 * answers with the person as the desk now shows it (`SupportPerson`), like the desk's other actions.
 */
export function supportCredentialHandlers({ services }: HandlerDeps) {
  const { supportCredentials, support } = services;

  const supportTemporaryPassword: Handler<'supportTemporaryPassword'> = async (request) => {
    await supportCredentials.temporaryPassword(caller(request), request.params.id, {
      password: request.body.password,
    });
    return support.person(caller(request), request.params.id);
  };

  const supportResetLink: Handler<'supportResetLink'> = async (request) =>
    supportCredentials.resetLink(caller(request), request.params.id);

  return { supportTemporaryPassword, supportResetLink };
}
