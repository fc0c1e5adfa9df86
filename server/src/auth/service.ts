import type { Kysely } from 'kysely';
import type { AuditTrail } from '../audit/trail';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import type { Actor, Anonymous, Caller, Origin } from '../access/caller';
import { guardService } from '../access/guard';
import { auditWho } from '../audit/trail';
import { isValidEmail } from '../../../src/domain/email';
import {
  checkAll,
  conflict,
  invalid,
  invalidCredentials,
  invalidTwoFactorCode,
  passwordChangeRequired,
  tenantDeleted,
  throttled,
  twoFactorEnrolmentExpired,
  twoFactorEnrolmentRequired,
  twoFactorRequired,
  unauthenticated,
} from '../base/domain-error';
import { MAX_PASSWORD_LENGTH } from './password-policy';
import { loadUserDtos, permittedRoutesOf, userEmail, type UserDto } from '../db/user-dto';
import { loadActor } from './actor';
import { createAttemptGate } from './attempts';
import { createLogin, type LoginInput } from './login';
import { createSocketTickets } from './socket-tickets';
import type { TokenService } from './tokens';
import { noTelemetry, type Telemetry } from '../base/telemetry';
import { createTwoFactor, recordTwoFactorChange, resetTwoFactorIn, twoFactorFlagsOf } from './two-factor';
import { isBroken } from '../base/broken-promises';

/** Where a refusal is logged when its audit record cannot be written (a request's logger). */
export interface DenialLog {
  warn(details: object, message: string): void;
}

/** A 403 given to a signed-in caller: what it asked for, and the route permissions it lacked. */
export interface Denial {
  /** The operation refused: REST method and route (`DELETE /api/users/{id}`), or GraphQL operation type and root fields. */
  operation: string;
  /** The route permissions any of which would have allowed it (empty: no permission would, e.g. another tenant). */
  required: readonly string[];
  /** Why, when more than the permissions says it. */
  reason?: string;
}

/**
 * Sessions and the caller's own two-factor: sign-in, sign-out, refresh, who am I — whichever protocol
 * asks (REST server/src/rest/auth.ts and two-factor.ts, GraphQL server/src/graphql/resolvers.ts).
 * Refusals are domain errors (server/src/base/domain-error.ts), one mapping per protocol.
 */
export function createAuthService({
  db,
  config,
  tokens,
  audit,
  telemetry = noTelemetry,
}: {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  audit: AuditTrail;
  telemetry?: Telemetry;
}) {
  // One throttle for sign-in and the second-factor routes: a code checked anywhere waits on, and wakes, the others.
  const attempts = createAttemptGate(db, config);
  const login = createLogin({ db, config, tokens, audit, attempts });
  const twoFactor = createTwoFactor(db);
  const socketTickets = createSocketTickets(db, config);
  // A refresh token used again after its grace window is recorded with the revocation of its family.
  tokens.setAudit(audit);

  const nameOf = async (userId: number): Promise<string | null> =>
    (await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst())?.name ?? null;

  const emailOf = async (userId: number): Promise<string> => (await userEmail(db, userId)).email.toLowerCase();

  /**
   * A second-factor check of the caller's own account under the sign-in throttle (./attempts.ts): reserved
   * before the code is looked at, a wrong code is a failed sign-in of its e-mail from this address and a
   * right one leaves no row, so a stolen session cannot try codes without limit, not even all at once.
   */
  async function checkedCode(userId: number, remoteAddress: string, check: () => Promise<boolean>): Promise<boolean> {
    const email = await emailOf(userId);
    const reserved = await attempts.reserve({ email, ip: null, remoteAddress, userId });
    if (!reserved.ok) throw throttled(reserved.retryAfter);
    const attempt = reserved.reservation;
    try {
      const ok = await check();
      await (ok ? attempt.cancel() : attempt.fail(userId, 'invalid_two_factor_code'));
      return ok;
    } finally {
      await attempt.close();
    }
  }

  return guardService('auth', {
    /**
     * The caller of a bearer token, as it is stored now (its role, permissions and tenant), or the
     * contract's 401 (docs/product.md, Sessions): every door (REST, GraphQL) asks this before anything
     * else. `allowRefreshable` lets an expired token whose refresh window lasts through (only GraphQL
     * `refreshToken` asks it). A user of a deleted tenant, or one gone since the token was issued, is
     * no longer signed in.
     */
    async authenticate(
      caller: Caller,
      token: string | undefined,
      options: { allowRefreshable?: boolean } = {},
    ): Promise<Actor> {
      const origin: Origin = caller.origin;
      const verified = await tokens.verify(token, { allowRefreshable: options.allowRefreshable ?? false, origin });
      if (!verified.ok) throw unauthenticated(verified.body);
      const actor = await loadActor(db, verified.userId, verified.claims, origin);
      if (!actor) throw unauthenticated();
      return actor;
    },

    /** Signs in (server/src/auth/login.ts): a new session, or the refusal as a domain error. */
    async signIn(
      _caller: Anonymous | Caller,
      input: LoginInput,
      /** The name of the new password's field in the caller's protocol (REST `new_password`, GraphQL `newPassword`). */
      newPasswordField = 'new_password',
    ): Promise<{ user: UserDto; token: string; expiresIn: number; recoveryCodes: string[] | null }> {
      // contracts/openapi.yaml `LoginRequest`, for both protocols: a malformed request is bad input,
      // neither a wrong password nor a recorded attempt.
      checkAll({
        email: () => {
          if (!isValidEmail(input.email))
            throw invalid('email', 'email must be a valid address of at most 254 characters');
        },
        password: () => {
          const length = [...input.password].length;
          if (length < 1 || length > MAX_PASSWORD_LENGTH)
            throw invalid('password', `password must have 1–${MAX_PASSWORD_LENGTH} characters`);
        },
        newPassword: () => {
          if (input.newPassword === undefined || input.newPassword === null) return;
          const length = [...input.newPassword].length;
          if (length < 1 || length > MAX_PASSWORD_LENGTH)
            throw invalid(newPasswordField, `new password must have 1–${MAX_PASSWORD_LENGTH} characters`);
        },
      });
      const result = await login(input);
      telemetry.signIn(result.ok ? 'success' : result.reason);
      if (result.ok)
        return {
          user: result.user,
          token: result.token,
          expiresIn: result.expiresIn,
          recoveryCodes: result.recoveryCodes,
        };
      if (result.reason === 'throttled') throw throttled(result.retryAfter);
      if (result.reason === 'two_factor_required') throw twoFactorRequired();
      if (result.reason === 'invalid_two_factor_code') throw invalidTwoFactorCode();
      if (result.reason === 'two_factor_enrolment_required') throw twoFactorEnrolmentRequired(result.enrolment);
      if (result.reason === 'two_factor_enrolment_expired') throw twoFactorEnrolmentExpired();
      if (result.reason === 'tenant_deleted') throw tenantDeleted();
      if (result.reason === 'password_change_required') throw passwordChangeRequired();
      if (result.reason === 'new_password_invalid') throw invalid(newPasswordField, result.message);
      throw invalidCredentials();
    },

    /** Ends the caller's session (its token family); other sessions of the user go on. Recorded: `session.sign-out`. */
    async signOut(actor: Actor): Promise<void> {
      if (!isBroken('logout-keeps-session')) await tokens.revokeFamily(actor.claims.fam);
      await audit.write(auditWho(actor), {
        operation: 'session.sign-out',
        target: { id: actor.userId, name: await nameOf(actor.userId) },
        tenantId: actor.tenantId,
      });
    },

    /**
     * Records a 403 given to a signed-in caller (`access.denied`; docs/security.md): in its own
     * transaction, as there is nothing to roll back. Never fails the refusal: a record that cannot be
     * written is logged, and the 403 goes out all the same. A 401 has no caller, and is not recorded.
     */
    async recordDenial(actor: Actor, denial: Denial, log: DenialLog): Promise<void> {
      try {
        await audit.write(auditWho(actor), {
          operation: 'access.denied',
          target: { id: null, name: denial.operation },
          tenantId: actor.tenantId,
          changes: [
            { field: 'required', before: null, after: JSON.stringify([...denial.required]) },
            ...(denial.reason ? [{ field: 'reason', before: null, after: JSON.stringify(denial.reason) }] : []),
          ],
        });
      } catch (error) {
        log.warn({ err: error, denial }, 'audit: the access.denied record could not be written');
      }
    },

    /**
     * A new token of the caller's session (server/src/auth/tokens.ts `rotate`): refused (401) when
     * another refresh of the same token won and the grace does not cover it.
     */
    async refresh(actor: Actor): Promise<{ token: string; expiresIn: number }> {
      const next = await tokens.rotate(actor.claims);
      telemetry.refresh(next ? 'rotated' : 'refused');
      if (!next) throw unauthenticated();
      return next;
    },

    /**
     * A single-use ticket for opening the socket (contracts/socket.md §1.1), bound to the caller's user
     * and session (token family): the socket's URL carries it instead of the token.
     */
    async socketTicket(actor: Actor): Promise<{ ticket: string; expiresIn: number }> {
      return socketTickets.issue(actor);
    },

    /** The caller with its permitted route names. */
    async whoAmI(actor: Actor): Promise<{ user: UserDto; has_permission_routes: string[] }> {
      const [user] = await loadUserDtos(db, { ids: [actor.userId] });
      if (!user) throw unauthenticated();
      return { user, has_permission_routes: await permittedRoutesOf(db, user.role.id, user.role.name) };
    },

    async twoFactorStatus(actor: Actor) {
      return twoFactor.status(actor.userId);
    },

    async twoFactorEnrol(actor: Actor) {
      const enrolment = await twoFactor.enrol(actor.userId, await emailOf(actor.userId));
      if (!enrolment) throw conflict('Two-factor is already on; turn it off before enrolling again');
      return enrolment;
    },

    async twoFactorVerify(actor: Actor, remoteAddress: string, code: string) {
      let outcome: Awaited<ReturnType<typeof twoFactor.verify>> | undefined;
      await checkedCode(actor.userId, remoteAddress, async () => {
        outcome = await twoFactor.verify(actor.userId, code, { audit, who: auditWho(actor) });
        return outcome.ok || outcome.reason !== 'wrong_code';
      });
      if (!outcome) throw new Error('unreachable: verify did not run');
      if (!outcome.ok) {
        if (outcome.reason === 'no_pending')
          throw conflict('There is no pending enrolment: call POST /api/two-factor/enrol first');
        throw invalid('code', 'The code is not valid for the pending secret');
      }
      // Two-factor on: every other session of the user ends (docs/security.md, Credentials and sessions).
      await tokens.revokeOtherFamilies(actor.userId, actor.claims.fam);
      return { enabled: true as const, enrolled_at: outcome.enrolled_at, recovery_codes: outcome.recovery_codes };
    },

    async twoFactorDisable(actor: Actor, remoteAddress: string, code: string) {
      const current = await twoFactor.status(actor.userId);
      if (!current.enabled) throw conflict('Two-factor is already off');
      const ok = await checkedCode(actor.userId, remoteAddress, () => twoFactor.consume(actor.userId, code));
      if (!ok) throw invalid('code', 'The code is not valid or was already used');
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const before = await twoFactorFlagsOf(trx, actor.userId);
        await resetTwoFactorIn(trx, actor.userId);
        await recordTwoFactorChange(trx, record, actor.userId, before);
      });
      await tokens.revokeOtherFamilies(actor.userId, actor.claims.fam);
      return twoFactor.status(actor.userId);
    },
  });
}

export type AuthService = ReturnType<typeof createAuthService>;
