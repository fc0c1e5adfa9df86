import { createHash, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import QRCode from 'qrcode';
import { changesOf, type AuditTrail, type AuditWho, type Recorder } from '../audit/trail';
import type { Database } from '../db/schema';
import { matchTotp, newTotpSecret, otpauthUri } from './totp';
import { totpSecretCipherOf, type TotpSecretCipher } from './totp-secrets';

/**
 * TOTP two-factor (docs/product.md, Two-factor sign-in; contracts/openapi.yaml tag `two-factor`): enrol hands out a pending secret
 * with its otpauth URI and an SVG QR code; verify confirms a code of it, turns two-factor on and
 * returns 10 recovery codes once (only their SHA-256 is stored: they are random 50-bit strings, so a
 * slow password hash adds nothing); login and disable accept a TOTP code once per time step (the last
 * accepted step is kept per user, advanced by a compare-and-swap) or consume a recovery code.
 *
 * Both secrets are stored encrypted (`totp-secrets.ts`); one that does not decrypt counts as absent: no
 * pending enrolment at verify, a wrong code at login and disable.
 */

export const RECOVERY_CODE_COUNT = 10;
export const TOTP_ISSUER = 'Back-office panel';

export interface TwoFactorStatus {
  enabled: boolean;
  enrolled_at: string | null;
  recovery_codes_left: number;
}

const RECOVERY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `ABCDE-FGHIJ`: 10 base32 characters (50 bits) from the CSPRNG. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The stored form of a recovery code: case and the dash do not matter. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.toUpperCase().replace(/-/g, '')).digest('hex');
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/** Who confirms an enrolment, for the audit log (server/src/audit/trail.ts): the user itself, from where. */
export interface AuditedBy {
  audit: AuditTrail;
  who: AuditWho;
}

/** The two-factor fields the audit log shows (never a secret, a code or a recovery code). */
export const TWO_FACTOR_AUDIT_FIELDS = ['two_factor_enabled', 'two_factor_enrolment_required'] as const;

/**
 * Records a change of a user's two-factor (`user.two-factor`) with the transaction that made it: the
 * user's state before, read in that transaction before the change, and after. Answers whether anything
 * changed (a call that changed nothing records nothing).
 */
export async function recordTwoFactorChange(
  trx: Transaction<Database>,
  record: Recorder,
  userId: number,
  before: { two_factor_enabled: boolean; two_factor_enrolment_required: boolean },
): Promise<boolean> {
  const after = await trx
    .selectFrom('users')
    .select(['name', 'tenant_id', ...TWO_FACTOR_AUDIT_FIELDS])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const changes = changesOf(before, after, TWO_FACTOR_AUDIT_FIELDS);
  if (changes.length === 0) return false;
  await record({
    operation: 'user.two-factor',
    target: { id: userId, name: after.name },
    tenantId: after.tenant_id,
    changes,
  });
  return true;
}

/** The user's two-factor flags, read with `db` (a transaction's, before a change). */
export function twoFactorFlagsOf(db: Kysely<Database> | Transaction<Database>, userId: number) {
  return db
    .selectFrom('users')
    .select([...TWO_FACTOR_AUDIT_FIELDS])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Turns two-factor off and forgets the secret, the pending one and the recovery codes, in `trx`. */
export async function resetTwoFactorIn(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      two_factor_enabled: false,
      two_factor_secret: null,
      two_factor_enrolled_at: null,
      two_factor_pending_secret: null,
      two_factor_pending_at: null,
      two_factor_last_step: null,
    })
    .where('id', '=', userId)
    .execute();
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
}

/**
 * `cipher` defaults to the one `initTotpEncryption` set up for `db` at server start, looked up when a
 * secret is first read or written (so building the service does not need it).
 */
export function createTwoFactor(db: Kysely<Database>, now: () => number = Date.now, cipher?: TotpSecretCipher) {
  const secrets = () => cipher ?? totpSecretCipherOf(db);

  async function status(userId: number): Promise<TwoFactorStatus> {
    const row = await db
      .selectFrom('users')
      .select(['two_factor_enabled', 'two_factor_enrolled_at'])
      .select((eb) =>
        eb
          .selectFrom('two_factor_recovery_codes as c')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('c.user_id', '=', 'users.id')
          .where('c.used_at', 'is', null)
          .as('left'),
      )
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      enabled: row.two_factor_enabled,
      enrolled_at:
        row.two_factor_enabled && row.two_factor_enrolled_at
          ? new Date(row.two_factor_enrolled_at).toISOString()
          : null,
      recovery_codes_left: row.two_factor_enabled ? Number(row.left ?? 0) : 0,
    };
  }

  /** A new pending secret (replacing any pending one); null when two-factor is already on. */
  async function enrol(
    userId: number,
    account: string,
  ): Promise<{ secret: string; otpauth_uri: string; qr_svg: string } | null> {
    const secret = newTotpSecret();
    const updated = await db
      .updateTable('users')
      .set({
        two_factor_pending_secret: secrets().encrypt(userId, 'two_factor_pending_secret', secret),
        two_factor_pending_at: new Date(now()),
      })
      .where('id', '=', userId)
      .where('two_factor_enabled', '=', false)
      .returning('id')
      .executeTakeFirst();
    if (!updated) return null;
    const uri = otpauthUri(secret, account, TOTP_ISSUER);
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauth_uri: uri, qr_svg: svg };
  }

  /**
   * Confirms the pending secret with a code of it. `no_pending`: nothing to confirm (or already on);
   * `wrong_code`: the code does not match. The confirmation and its audit record (`user.two-factor`,
   * by `by`) commit together.
   */
  async function verify(
    userId: number,
    code: string,
    by: AuditedBy,
  ): Promise<
    { ok: true; enrolled_at: string; recovery_codes: string[] } | { ok: false; reason: 'no_pending' | 'wrong_code' }
  > {
    const row = await db
      .selectFrom('users')
      .select(['two_factor_enabled', 'two_factor_pending_secret'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (row.two_factor_enabled || !row.two_factor_pending_secret) return { ok: false, reason: 'no_pending' };
    const pending = secrets().decrypt(userId, 'two_factor_pending_secret', row.two_factor_pending_secret);
    if (pending === null) return { ok: false, reason: 'no_pending' };
    const step = matchTotp(pending, code, now());
    if (step === null) return { ok: false, reason: 'wrong_code' };
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const enrolledAt = new Date(now());
    const done = await by.audit.transaction(by.who, async (trx, record) => {
      const before = await twoFactorFlagsOf(trx, userId);
      // Only the secret that was checked is promoted: a concurrent enrol replaced it → not confirmed.
      const promoted = await trx
        .updateTable('users')
        .set({
          two_factor_enabled: true,
          // Encrypted afresh: the additional authenticated data names the column.
          two_factor_secret: secrets().encrypt(userId, 'two_factor_secret', pending),
          two_factor_enrolled_at: enrolledAt,
          two_factor_pending_secret: null,
          two_factor_pending_at: null,
          two_factor_last_step: step,
          // Enrolled: an administrator's requirement to enrol is met.
          two_factor_enrolment_required: false,
        })
        .where('id', '=', userId)
        .where('two_factor_enabled', '=', false)
        .where('two_factor_pending_secret', '=', row.two_factor_pending_secret)
        .returning('id')
        .executeTakeFirst();
      if (!promoted) return false;
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor_recovery_codes')
        .values(codes.map((c) => ({ user_id: userId, code_hash: hashRecoveryCode(c) })))
        .execute();
      await recordTwoFactorChange(trx, record, userId, before);
      return true;
    });
    if (!done) return { ok: false, reason: 'no_pending' };
    return { ok: true, enrolled_at: enrolledAt.toISOString(), recovery_codes: codes };
  }

  /**
   * Accepts a second factor of an enrolled user once: a TOTP code whose step is newer than the last
   * accepted one (advanced atomically, so two requests with one code cannot both pass), or an unused
   * recovery code (consumed atomically).
   */
  async function consume(userId: number, code: string): Promise<boolean> {
    return accept(userId, code, true);
  }

  /**
   * Whether {@link consume} would accept the code now, without using it up: sign-in asks a user with a
   * temporary password for a new one after a right code (server/src/auth/login.ts), and the request
   * that carries the new password sends the same code again, which then is consumed.
   */
  async function check(userId: number, code: string): Promise<boolean> {
    return accept(userId, code, false);
  }

  async function accept(userId: number, code: string, use: boolean): Promise<boolean> {
    if (isTotpCode(code)) {
      const row = await db
        .selectFrom('users')
        .select(['two_factor_secret'])
        .where('id', '=', userId)
        .where('two_factor_enabled', '=', true)
        .executeTakeFirst();
      if (!row?.two_factor_secret) return false;
      const secret = secrets().decrypt(userId, 'two_factor_secret', row.two_factor_secret);
      if (secret === null) return false;
      const step = matchTotp(secret, code, now());
      if (step === null) return false;
      if (!use) {
        const last = await db
          .selectFrom('users')
          .select('two_factor_last_step')
          .where('id', '=', userId)
          .executeTakeFirst();
        return last?.two_factor_last_step == null || last.two_factor_last_step < step;
      }
      const advanced = await db
        .updateTable('users')
        .set({ two_factor_last_step: step })
        .where('id', '=', userId)
        .where('two_factor_enabled', '=', true)
        .where((eb) => eb.or([eb('two_factor_last_step', 'is', null), eb('two_factor_last_step', '<', step)]))
        .returning('id')
        .executeTakeFirst();
      return Boolean(advanced);
    }
    if (!/^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$/.test(code)) return false;
    if (!use) {
      const unused = await db
        .selectFrom('two_factor_recovery_codes as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select('c.id')
        .where('c.user_id', '=', userId)
        .where('c.code_hash', '=', hashRecoveryCode(code))
        .where('c.used_at', 'is', null)
        .where('u.two_factor_enabled', '=', true)
        .executeTakeFirst();
      return Boolean(unused);
    }
    const used = await db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: new Date(now()) })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashRecoveryCode(code))
      .where('used_at', 'is', null)
      .where((eb) =>
        eb.exists(eb.selectFrom('users').select('id').where('id', '=', userId).where('two_factor_enabled', '=', true)),
      )
      .returning('id')
      .executeTakeFirst();
    return Boolean(used);
  }

  return { status, enrol, verify, consume, check };
}

export type TwoFactorService = ReturnType<typeof createTwoFactor>;
