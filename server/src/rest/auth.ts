import { createLogin } from '../auth/login';
import { HttpError, tooManyRequests } from '../errors';
import { loadUserDtos, permittedRoutesOf } from '../users/user-dto';
import { caller, type Handler, type HandlerDeps } from './types';

const INVALID = () => new HttpError(401, { error: 'invalid_credentials', message: 'Email ou/e senha errado(s)' });
const TWO_FACTOR_REQUIRED = () => new HttpError(401, { error: 'two_factor_required', message: 'Informe o código de verificação do seu aplicativo autenticador.' });
const INVALID_TWO_FACTOR_CODE = () => new HttpError(401, { error: 'invalid_two_factor_code', message: 'Código de verificação inválido ou já usado.' });

export function authHandlers({ db, config, tokens }: HandlerDeps) {
  const login = createLogin({ db, config, tokens });

  const authLogin: Handler<'authLogin'> = async (request) => {
    const body = request.body;
    const result = await login({ email: body.email, password: body.password, ip: body.ip ?? null, remoteAddress: request.ip, otp: body.otp ?? null });
    if (!result.ok) {
      if (result.reason === 'throttled') throw tooManyRequests(result.retryAfter);
      if (result.reason === 'two_factor_required') throw TWO_FACTOR_REQUIRED();
      if (result.reason === 'invalid_two_factor_code') throw INVALID_TWO_FACTOR_CODE();
      throw INVALID();
    }
    return {
      access_token: result.token,
      token_type: 'Bearer' as const,
      expires_in: result.expiresIn,
      origin_backoffice: result.user.origin_backoffice,
      has_permission_routes: result.user.role.has_permission_routes,
      user: result.user,
    };
  };

  const authLogout: Handler<'authLogout'> = async (request) => {
    const auth = caller(request);
    await tokens.revokeFamily(auth.claims.fam);
    return { message: 'Logged out' };
  };

  const authUserInfo: Handler<'authUserInfo'> = async (request) => {
    const auth = caller(request);
    const [dto] = await loadUserDtos(db, { ids: [auth.userId] });
    if (!dto) throw new HttpError(401, { status: 'Unauthorized' });
    const routes = await permittedRoutesOf(db, dto.role.id, dto.role.name);
    return { user: dto, has_permission_routes: routes };
  };

  return { authLogin, authLogout, authUserInfo };
}
