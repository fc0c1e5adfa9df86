import { recordAttempt, throttled } from '../auth/login';
import { createTwoFactor } from '../auth/two-factor';
import { badRequest, conflict, tooManyRequests } from '../errors';
import { caller, type Handler, type HandlerDeps } from './types';

/**
 * `/api/two-factor` (contracts/openapi.yaml, tag `two-factor`): the caller's own two-factor. Wrong codes
 * at verify and disable are failed sign-ins of the caller's e-mail from this address, so a stolen
 * session cannot try codes without limit (429 like login).
 */
export function twoFactorHandlers({ db, config }: HandlerDeps) {
  const twoFactor = createTwoFactor(db);

  async function emailOf(userId: number): Promise<string> {
    const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.email.toLowerCase();
  }

  /** Runs a code check under the login throttle, recording a wrong code as a failed sign-in. */
  async function checked(userId: number, remoteAddress: string, check: () => Promise<boolean>): Promise<boolean> {
    const email = await emailOf(userId);
    const retryAfter = await throttled(db, config, email, remoteAddress);
    if (retryAfter !== null) throw tooManyRequests(retryAfter);
    const ok = await check();
    if (!ok) await recordAttempt(db, { email, ip: null, remoteAddress, userId, success: false });
    return ok;
  }

  const twoFactorStatus: Handler<'twoFactorStatus'> = async (request) => twoFactor.status(caller(request).userId);

  const twoFactorEnrol: Handler<'twoFactorEnrol'> = async (request) => {
    const auth = caller(request);
    const enrolment = await twoFactor.enrol(auth.userId, await emailOf(auth.userId));
    if (!enrolment) throw conflict('Two-factor is already on; turn it off before enrolling again');
    return enrolment;
  };

  const twoFactorVerify: Handler<'twoFactorVerify'> = async (request) => {
    const auth = caller(request);
    let outcome: Awaited<ReturnType<typeof twoFactor.verify>> | undefined;
    await checked(auth.userId, request.ip, async () => {
      outcome = await twoFactor.verify(auth.userId, request.body.code);
      return outcome.ok || outcome.reason !== 'wrong_code';
    });
    if (!outcome) throw new Error('unreachable: verify did not run');
    if (!outcome.ok) {
      if (outcome.reason === 'no_pending') throw conflict('There is no pending enrolment: call POST /api/two-factor/enrol first');
      throw badRequest('body/code', 'The code is not valid for the pending secret');
    }
    return { enabled: true as const, enrolled_at: outcome.enrolled_at, recovery_codes: outcome.recovery_codes };
  };

  const twoFactorDisable: Handler<'twoFactorDisable'> = async (request) => {
    const auth = caller(request);
    const current = await twoFactor.status(auth.userId);
    if (!current.enabled) throw conflict('Two-factor is already off');
    const ok = await checked(auth.userId, request.ip, () => twoFactor.consume(auth.userId, request.body.code));
    if (!ok) throw badRequest('body/code', 'The code is not valid or was already used');
    await twoFactor.reset(auth.userId);
    return twoFactor.status(auth.userId);
  };

  return { twoFactorStatus, twoFactorEnrol, twoFactorVerify, twoFactorDisable };
}
