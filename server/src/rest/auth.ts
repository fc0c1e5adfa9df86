import { anonymous } from '../access/caller';
import { requestOrigin } from '../plugins/auth';
import { caller, type Handler, type HandlerDeps } from './types';

/** REST `/api/auth/…`: parse, call the auth service (server/src/auth/service.ts), answer. */
export function authHandlers({ services }: HandlerDeps) {
  const { auth } = services;

  const authLogin: Handler<'authLogin'> = async (request) => {
    const body = request.body;
    const session = await auth.signIn(anonymous(requestOrigin(request)), {
      email: body.email,
      password: body.password,
      ip: body.ip ?? null,
      remoteAddress: request.ip,
      origin: requestOrigin(request),
      otp: body.otp ?? null,
      remember: body.remember === true,
      newPassword: body.new_password ?? null,
      userAgent: request.headers['user-agent'] ?? null,
    });
    return {
      access_token: session.token,
      token_type: 'Bearer' as const,
      expires_in: session.expiresIn,
      origin_backoffice: session.user.origin_backoffice,
      has_permission_routes: session.user.role.has_permission_routes,
      user: session.user,
      ...(session.recoveryCodes ? { recovery_codes: session.recoveryCodes } : {}),
    };
  };

  const authLogout: Handler<'authLogout'> = async (request) => {
    await auth.signOut(caller(request));
    return { message: 'Logged out' };
  };

  const authUserInfo: Handler<'authUserInfo'> = async (request) => auth.whoAmI(caller(request));

  const authSocketTicket: Handler<'authSocketTicket'> = async (request) => {
    const { ticket, expiresIn } = await auth.socketTicket(caller(request));
    return { ticket, expires_in: expiresIn };
  };

  return { authLogin, authLogout, authUserInfo, authSocketTicket };
}
