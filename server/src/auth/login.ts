import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AuditOrigin, AuditTrail, AuditWho } from '../audit/trail';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { hashPassword, verifyPassword } from '../db/password';
import { loadUserDtos, type UserDto } from '../db/user-dto';
import type { AttemptGate, Reservation } from './attempts';
import { voidResetLinks } from './password-reset';
import type { TokenService } from './tokens';
import { createTwoFactor } from './two-factor';
import { isBroken } from '../base/broken-promises';
import { passwordRefusal } from './password-policy';

/**
 * The one sign-in procedure behind REST `POST /api/auth/login` and GraphQL `logIn`: the attempt reserved
 * under the throttle before anything is checked (./attempts.ts: per account and address, per address,
 * per account with back-off), argon2 verification (unknown e-mails pay for one too, so timing reveals
 * nothing), the second factor of users who have two-factor on, every attempt recorded, and a new
 * token family on success. Every attempt is recorded with why it failed (`login_attempts.reason`, what
 * the support desk shows: docs/support-desk.md); a success stamps the user's `last_sign_in_at`, and its
 * session keeps the sign-in's user agent, address and remember-me. A successful sign-in writes `session.sign-in` to the audit log (an enrolment
 * completed at sign-in also `user.two-factor`, with the enrolment); failed ones are only the
 * `login_attempts` rows the login-failure report reads, never audit records.
 */

export interface LoginInput {
  email: string;
  password: string;
  /** What the client's IP lookup saw (may be null). */
  ip: string | null;
  /** The connection's own address. */
  remoteAddress: string;
  /** The request's id and address, for the audit log. */
  origin: AuditOrigin;
  /**
   * When set (GraphQL, scoped to the path's tenant), a user of another tenant who is not back-office
   * staff is refused exactly like a wrong password.
   */
  tenantId?: number;
  /**
   * The second factor (TOTP code or recovery code), for users with two-factor on; for a user required
   * to enrol, a code of the pending secret the previous answer handed out.
   */
  otp?: string | null;
  /** Remember me: the long refresh window (REFRESH_WINDOW); otherwise the short one (REFRESH_WINDOW_SHORT). */
  remember?: boolean;
  /**
   * The new password of a user whose password is temporary (`must_change_password`), sent after the
   * `password_change_required` answer and with every later step of the same sign-in; ignored otherwise.
   */
  newPassword?: string | null;
  /** The request's `User-Agent`, kept with the session for the support desk; null when none was sent. */
  userAgent?: string | null;
}

/** The pending secret a sign-in hands out to a user required to enrol (as POST /api/two-factor/enrol). */
export interface TwoFactorEnrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

export type LoginResult =
  | { ok: true; user: UserDto; token: string; expiresIn: number; recoveryCodes: string[] | null }
  | {
      ok: false;
      reason:
        | 'invalid'
        | 'two_factor_required'
        | 'invalid_two_factor_code'
        | 'two_factor_enrolment_expired'
        | 'tenant_deleted'
        | 'password_change_required';
    }
  | { ok: false; reason: 'new_password_invalid'; message: string }
  | { ok: false; reason: 'two_factor_enrolment_required'; enrolment: TwoFactorEnrolment }
  | { ok: false; reason: 'throttled'; retryAfter: number };

export function createLogin(deps: {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  audit: AuditTrail;
  /** The throttle, shared with the second-factor routes (server/src/auth/service.ts). */
  attempts: AttemptGate;
  now?: () => number;
}): (input: LoginInput) => Promise<LoginResult> {
  const { db, config, tokens, audit, attempts, now = Date.now } = deps;
  const twoFactor = createTwoFactor(db, now);
  // Unknown e-mails still pay for one argon2 verification, so timing does not reveal which exist.
  const dummyHash = hashPassword('not-a-real-password-' + Math.random());

  return async function login(input: LoginInput): Promise<LoginResult> {
    const email = input.email.trim().toLowerCase();
    // Reserved before the password is looked at: while this attempt is checked it counts as a failure.
    const reserved = await attempts.reserve(
      { email, ip: input.ip, remoteAddress: input.remoteAddress, userId: null },
      { recordRefusal: true },
    );
    if (!reserved.ok) return { ok: false, reason: 'throttled', retryAfter: reserved.retryAfter };
    try {
      return await checked(input, email, reserved.reservation);
    } finally {
      await reserved.reservation.close();
    }
  };

  /** The password, then the second factor, under the attempt's reservation, which every outcome resolves. */
  async function checked(input: LoginInput, email: string, attempt: Reservation): Promise<LoginResult> {
    const user = await db
      .selectFrom('users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select([
        'u.id',
        'u.tenant_id',
        'u.origin_backoffice',
        'u.password_hash',
        'u.blocked',
        'u.token_version',
        'u.two_factor_enabled',
        'u.two_factor_enrolment_required',
        'u.two_factor_pending_at',
        'u.must_change_password',
        't.deleted_at as tenant_deleted_at',
      ])
      .where(sql`lower(u.email)`, '=', email)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    const valid = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
    const inTenant =
      !user || input.tenantId === undefined || user.tenant_id === input.tenantId || user.origin_backoffice;
    const passwordOk = Boolean(user && valid && !user.blocked && inTenant);
    // The user signing in acts, from the request's address.
    const who: AuditWho | null = user
      ? { actor: { userId: user.id, tenantId: user.tenant_id }, origin: input.origin }
      : null;
    if (!passwordOk || !user || !who) {
      // One answer for all of them; the record says which (a blocked account or another tenant's path
      // only with the right password, so the record of a guess is always a wrong password).
      await attempt.fail(
        user?.id ?? null,
        !user ? 'unknown_account' : !valid ? 'wrong_password' : user.blocked ? 'blocked' : 'other_tenant',
      );
      return { ok: false, reason: 'invalid' };
    }
    // A deleted tenant is closed (docs/security.md, Who may do what): said plainly, but only after the
    // right password, so it tells nothing about e-mails or tenants to who does not know the password.
    if (user.tenant_deleted_at !== null) {
      await attempt.fail(user.id, 'tenant_deleted');
      return { ok: false, reason: 'tenant_deleted' };
    }

    // A temporary password (docs/support-desk.md, Sign-in with a temporary password): the new one is
    // asked for after the password and the second factor, and checked before anything is used up.
    const newPassword = user.must_change_password ? (input.newPassword ?? null) : null;
    const changeRefused = (): LoginResult | null => {
      if (!user.must_change_password) return null;
      if (newPassword === null) return { ok: false, reason: 'password_change_required' };
      const refusal = passwordRefusal(newPassword);
      if (refusal) return { ok: false, reason: 'new_password_invalid', message: refusal };
      if (newPassword === input.password)
        return {
          ok: false,
          reason: 'new_password_invalid',
          message: 'the new password must differ from the temporary one',
        };
      return null;
    };

    if (user.two_factor_enabled && !isBroken('two-factor-not-required')) {
      // Asked for only after a right password, so this answer says nothing about unknown e-mails. Not a
      // failure: the client repeats the request with the code.
      if (!input.otp) {
        await attempt.fail(user.id, 'two_factor_required');
        return { ok: false, reason: 'two_factor_required' };
      }
      // While a new password is still to come, the code is checked but not used up: the request that
      // brings the new password sends it again (./two-factor.ts `check`).
      const refused = changeRefused();
      if (refused && !(await twoFactor.check(user.id, input.otp))) {
        await attempt.fail(user.id, 'invalid_two_factor_code');
        return { ok: false, reason: 'invalid_two_factor_code' };
      }
      if (refused) {
        await attempt.fail(user.id, 'password_change_required');
        return refused;
      }
      if (!(await twoFactor.consume(user.id, input.otp))) {
        await attempt.fail(user.id, 'invalid_two_factor_code');
        return { ok: false, reason: 'invalid_two_factor_code' };
      }
    } else {
      // Before an enrolment at sign-in: the new password is asked for first, then kept by the client
      // and sent with the enrolment's code.
      const refused = changeRefused();
      if (refused) {
        await attempt.fail(user.id, 'password_change_required');
        return refused;
      }
    }
    let recoveryCodes: string[] | null = null;
    if (!user.two_factor_enabled && user.two_factor_enrolment_required) {
      // Enrolment at sign-in: no session until a code of the handed-out secret is right.
      if (!input.otp) {
        const enrolment = await twoFactor.enrol(user.id, email);
        // Two-factor was turned on in between: ask for a code as for any enrolled user.
        await attempt.fail(user.id, enrolment ? 'two_factor_enrolment_required' : 'two_factor_required');
        if (!enrolment) return { ok: false, reason: 'two_factor_required' };
        return { ok: false, reason: 'two_factor_enrolment_required', enrolment };
      }
      const pendingAt = user.two_factor_pending_at ? new Date(user.two_factor_pending_at).getTime() : null;
      // A secret handed out more than TWO_FACTOR_ENROLMENT_TTL ago is not confirmed: the user signs in
      // again for a new one (docs/product.md, Two-factor sign-in).
      if (pendingAt === null || now() - pendingAt > config.twoFactorEnrolmentTtl * 1000) {
        await attempt.fail(user.id, 'two_factor_enrolment_expired');
        return { ok: false, reason: 'two_factor_enrolment_expired' };
      }
      const verified = await twoFactor.verify(user.id, input.otp, { audit, who });
      if (!verified.ok && verified.reason === 'no_pending') {
        await attempt.fail(user.id, 'two_factor_enrolment_expired');
        return { ok: false, reason: 'two_factor_enrolment_expired' };
      }
      if (!verified.ok) {
        await attempt.fail(user.id, 'invalid_two_factor_code');
        return { ok: false, reason: 'invalid_two_factor_code' };
      }
      recoveryCodes = verified.recovery_codes;
    }
    let tokenVersion = user.token_version;
    if (newPassword !== null) {
      const changed = await changeTemporaryPassword(user.id, newPassword, who);
      if (changed === null) {
        // Another sign-in changed it first: this one's temporary password is no longer the password.
        await attempt.fail(user.id, 'wrong_password');
        return { ok: false, reason: 'invalid' };
      }
      tokenVersion = changed;
    }
    await attempt.succeed(user.id);
    await db
      .updateTable('users')
      .set({ last_sign_in_at: sql<Date>`now()` })
      .where('id', '=', user.id)
      .execute();

    const refreshWindow = input.remember
      ? config.refreshWindow
      : Math.min(config.refreshWindowShort, config.refreshWindow);
    const session = await tokens.issue(user.id, tokenVersion, refreshWindow, {
      userAgent: input.userAgent ?? null,
      address: input.remoteAddress,
      remember: input.remember === true,
    });
    const [dto] = await loadUserDtos(db, { ids: [user.id] });
    if (!dto) return { ok: false, reason: 'invalid' };
    await audit.write(who, {
      operation: 'session.sign-in',
      target: { id: user.id, name: dto.name },
      tenantId: user.tenant_id,
      changes: [
        { field: 'remember', before: null, after: JSON.stringify(input.remember === true) },
        ...(user.two_factor_enabled || recoveryCodes
          ? [{ field: 'two_factor', before: null, after: JSON.stringify(recoveryCodes ? 'enrolled' : 'verified') }]
          : []),
      ],
    });
    return { ok: true, user: dto, token: session.token, expiresIn: session.expiresIn, recoveryCodes };
  }

  /**
   * Sets the new password of a user with a temporary one and clears the requirement, recorded as
   * `user.password` by the user; then every older session of the user ends. Only while the requirement
   * holds (two sign-ins at once: one changes it). The user's token version after the revocation, or
   * null when the requirement was already gone.
   */
  async function changeTemporaryPassword(userId: number, password: string, who: AuditWho): Promise<number | null> {
    const hash = await hashPassword(password);
    const done = await audit.transaction(who, async (trx, record) => {
      const changed = await trx
        .updateTable('users')
        .set({ password_hash: hash, must_change_password: false })
        .where('id', '=', userId)
        .where('must_change_password', '=', true)
        .returning(['name', 'tenant_id'])
        .executeTakeFirst();
      if (!changed) return false;
      // Links asked for before are of no use any more.
      await voidResetLinks(trx, userId, new Date(now()));
      await record({
        operation: 'user.password',
        target: { id: userId, name: changed.name },
        tenantId: changed.tenant_id,
        // `temporary`: whether the password is one support staff set (the audit log refuses field names
        // that look like secrets, src/domain/audit.ts `AUDIT_SECRET_FIELD`).
        changes: [{ field: 'temporary', before: 'true', after: 'false' }],
      });
      return true;
    });
    if (!done) return null;
    await tokens.revokeUser(userId);
    const row = await db.selectFrom('users').select('token_version').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.token_version;
  }
}
