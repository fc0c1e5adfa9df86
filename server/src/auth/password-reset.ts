import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { AuditTrail, AuditWho } from '../audit/trail';
import { createBackground, type Background } from '../base/background';
import type { ServerConfig } from '../base/config';
import { invalid, mailDisabled, resetLinkInvalid, throttled } from '../base/domain-error';
import { hashPassword as argon2Hash } from '../db/password';
import type { Database } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { resetLinkMail, type MailLocale } from '../mail/templates';
import { addressKey } from './attempts';
import { passwordRefusal } from './password-policy';
import type { TokenService } from './tokens';

/**
 * Reset links by e-mail (docs/support-desk.md, Forgot password): asked for from the login page
 * (`request`) or sent by support staff (`sendLink`), used once on the reset-password page (`confirm`).
 *
 * - The token is 32 random bytes followed by their HMAC-SHA256 under PASSWORD_RESET_SECRET (else a key
 *   derived from the JWT key), base64url: a token the server did not make is refused without a query.
 *   Only its SHA-256 is stored; it lives {@link RESET_LINK_MINUTES} minutes and is used once.
 * - A new link voids the user's older unused ones; so do the confirm of any link and a temporary password.
 * - `request` answers the same whatever the e-mail: a link goes out only to a live, unblocked user of a
 *   live tenant, at most {@link LINKS_PER_ACCOUNT_PER_HOUR} an hour per account (past that, nothing is
 *   sent); more than {@link REQUESTS_PER_ADDRESS_PER_HOUR} requests an hour from one address (counted by
 *   ./attempts.ts `addressKey`) are refused with 429, whether or not the e-mails exist. Everything that
 *   depends on the e-mail (the lookup, the account's count, the link, the mail) runs after the answer,
 *   so its time does not tell which e-mails exist either.
 * - `confirm` has one refusal for an unknown, used, expired or voided link; of two confirms of one link
 *   at once exactly one wins (a conditional UPDATE). It sets the password, clears
 *   `must_change_password`, lifts the sign-in throttle on the account and ends every session.
 */

export const RESET_LINK_MINUTES = 30;
export const LINKS_PER_ACCOUNT_PER_HOUR = 3;
export const REQUESTS_PER_ADDRESS_PER_HOUR = 10;
const HOUR_MS = 3600_000;
const RANDOM_BYTES = 32;

/** The same answer to every request for a link, in the request's language. */
export const REQUEST_ANSWER: Record<MailLocale, string> = {
  'pt-BR':
    'Se este e-mail pertencer a uma conta ativa, enviamos um link para redefinir a senha. Ele vale por 30 minutos.',
  pt: 'Se este e-mail pertencer a uma conta ativa, enviámos uma ligação para redefinir a palavra-passe. É válida durante 30 minutos.',
  en: 'If this e-mail belongs to an active account, we sent a link to reset the password. It is valid for 30 minutes.',
};

export interface ResetLog {
  error(details: object, message: string): void;
}

export const hashResetToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function createPasswordReset(deps: {
  db: Kysely<Database>;
  config: Pick<ServerConfig, 'passwordResetSecret' | 'publicUrl'>;
  tokens: TokenService;
  audit: AuditTrail;
  mailer: Mailer;
  log?: ResetLog;
  /** Where the account side of a request runs after its answer (server/src/base/background.ts). */
  background?: Background;
  hashPassword?: (password: string) => Promise<string>;
  now?: () => number;
}) {
  const { db, config, tokens, audit, mailer, now = Date.now, hashPassword = argon2Hash } = deps;
  const background = deps.background ?? createBackground();
  const log = deps.log ?? { error: () => undefined };
  let key: Buffer | undefined;
  // Read when first needed: the token service has its key only after `init()`.
  const hmacKey = () =>
    (key ??= config.passwordResetSecret
      ? Buffer.from(config.passwordResetSecret, 'utf8')
      : tokens.derivedKey('password-reset-links'));

  function newToken(): string {
    const random = randomBytes(RANDOM_BYTES);
    const mac = createHmac('sha256', hmacKey()).update(random).digest();
    return Buffer.concat([random, mac]).toString('base64url');
  }

  /** Whether the server made this token: its HMAC checks, in constant time. */
  function signed(token: string): boolean {
    if (!/^[A-Za-z0-9_-]{86}$/.test(token)) return false;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== RANDOM_BYTES + 32) return false;
    const expected = createHmac('sha256', hmacKey()).update(bytes.subarray(0, RANDOM_BYTES)).digest();
    return timingSafeEqual(expected, bytes.subarray(RANDOM_BYTES));
  }

  /** Voids the user's unused links (a newer link, a confirm, a temporary password). */
  const voidLinks = (trx: Kysely<Database> | Transaction<Database>, userId: number): Promise<void> =>
    voidResetLinks(trx, userId, new Date(now()));

  interface Recipient {
    id: number;
    name: string;
    email: string;
    tenant: string;
  }

  /** A new link of the user, older ones voided, in `trx`; the token to send. */
  async function issue(trx: Transaction<Database>, userId: number, requestedAddress: string | null) {
    // The user's row lock: of links issued at once (staff's sends are not otherwise serialised), each
    // voids the one before, so one stays live.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
    await voidLinks(trx, userId);
    const token = newToken();
    const expiresAt = new Date(now() + RESET_LINK_MINUTES * 60_000);
    await trx
      .insertInto('password_reset_tokens')
      .values({
        user_id: userId,
        token_hash: hashResetToken(token),
        expires_at: expiresAt,
        requested_address: requestedAddress,
      })
      .execute();
    return { token, expiresAt };
  }

  const linkOf = (tenant: string, token: string) =>
    `${config.publicUrl}/${encodeURIComponent(tenant)}/reset-password#token=${token}`;

  async function deliver(user: Recipient, token: string, locale: MailLocale): Promise<void> {
    const content = resetLinkMail(locale, {
      name: user.name,
      link: linkOf(user.tenant, token),
      minutes: RESET_LINK_MINUTES,
    });
    await mailer.send({ to: user.email, ...content });
  }

  /** A live, unblocked user of a live tenant with this e-mail (lower-cased), or undefined. */
  function recipientByEmail(email: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select(['u.id', 'u.name', 'u.email', 't.name as tenant'])
      .where(sql<string>`lower(u.email)`, '=', email)
      .where('u.deleted_at', 'is', null)
      .where('u.blocked', '=', false)
      .where('t.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /**
   * The account side of a request from the login page, after its answer: a live, unblocked user of a
   * live tenant with the e-mail gets a link, within its hourly links; failures are logged.
   */
  async function linkAsked(email: string, locale: MailLocale, key: string, hourAgo: Date): Promise<void> {
    try {
      const user = await recipientByEmail(email);
      if (!user) return;
      const issued = await db.transaction().execute(async (trx) => {
        // The user's row lock: links of one account are counted and issued one at a time.
        await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
        const sent = await trx
          .selectFrom('password_reset_tokens')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('user_id', '=', user.id)
          .where('requested_address', 'is not', null)
          .where('created_at', '>=', hourAgo)
          .executeTakeFirstOrThrow();
        if (Number(sent.n) >= LINKS_PER_ACCOUNT_PER_HOUR) return null;
        return issue(trx, user.id, key);
      });
      if (!issued) return;
      try {
        await deliver(user, issued.token, locale);
      } catch (error) {
        log.error({ err: error, userId: user.id }, 'password reset: the link could not be sent');
        // A link nobody received neither counts against the account nor stays usable.
        await db
          .deleteFrom('password_reset_tokens')
          .where('token_hash', '=', hashResetToken(issued.token))
          .execute()
          .catch(() => undefined);
      }
    } catch (error) {
      log.error({ err: error }, 'password reset: a requested link could not be issued');
    }
  }

  return {
    /** Whether links can be sent at all (`GET /api/auth/password-reset`). */
    enabled(): boolean {
      return mailer.enabled;
    },

    /** Someone on the login page asks for a link (`POST /api/auth/password-reset/request`). */
    async request(input: { email: string; locale: MailLocale; address: string }): Promise<{ message: string }> {
      if (!mailer.enabled) throw mailDisabled();
      const key = addressKey(input.address);
      const hourAgo = new Date(now() - HOUR_MS);
      const refusedFor = await db.transaction().execute(async (trx) => {
        // One request of an address at a time: the count and the insert cannot interleave.
        await sql`select pg_advisory_xact_lock(hashtext(${`password-reset:${key}`}))`.execute(trx);
        await trx.deleteFrom('password_reset_requests').where('created_at', '<', hourAgo).execute();
        const recent = await trx
          .selectFrom('password_reset_requests')
          .select(['created_at'])
          .where('address_key', '=', key)
          .where('created_at', '>=', hourAgo)
          .orderBy('created_at')
          .execute();
        if (recent.length >= REQUESTS_PER_ADDRESS_PER_HOUR) {
          const oldest = new Date(recent[0]?.created_at ?? now()).getTime();
          return Math.max(1, Math.ceil((oldest + HOUR_MS - now()) / 1000));
        }
        await trx
          .insertInto('password_reset_requests')
          .values({ address_key: key, created_at: new Date(now()) })
          .execute();
        return null;
      });
      if (refusedFor !== null) throw throttled(refusedFor);
      // Everything that depends on the e-mail happens after the answer: whether it is anyone's, the
      // account's hourly links, issuing and sending. Done before, the extra queries of a known account
      // (and a wait on its row's lock) would tell which e-mails exist by the answer's time alone.
      background.run(() => linkAsked(input.email.trim().toLowerCase(), input.locale, key, hourAgo));
      return { message: REQUEST_ANSWER[input.locale] };
    },

    /**
     * Support staff send a link to user `userId` (server/src/support/credentials.ts decides who may):
     * not counted against the account's hourly links, older links voided, sent before the answer so a
     * failure is said. The caller has checked the user is live.
     */
    async sendLink(userId: number, locale: MailLocale = 'pt-BR'): Promise<{ expiresAt: Date }> {
      if (!mailer.enabled) throw mailDisabled();
      const user = await db
        .selectFrom('users as u')
        .innerJoin('tenants as t', 't.id', 'u.tenant_id')
        .select(['u.id', 'u.name', 'u.email', 't.name as tenant'])
        .where('u.id', '=', userId)
        .executeTakeFirstOrThrow();
      const issued = await db.transaction().execute((trx) => issue(trx, userId, null));
      try {
        await deliver(user, issued.token, locale);
      } catch (error) {
        await db.deleteFrom('password_reset_tokens').where('token_hash', '=', hashResetToken(issued.token)).execute();
        throw error;
      }
      return { expiresAt: issued.expiresAt };
    },

    /** The reset-password page sets the new password (`POST /api/auth/password-reset/confirm`). */
    async confirm(
      input: { token: string; password: string },
      origin: AuditWho['origin'],
    ): Promise<{ message: string }> {
      const tokenHash = signed(input.token) ? hashResetToken(input.token) : null;
      const live = async () =>
        tokenHash === null
          ? undefined
          : db
              .selectFrom('password_reset_tokens as p')
              .innerJoin('users as u', 'u.id', 'p.user_id')
              .innerJoin('tenants as t', 't.id', 'u.tenant_id')
              .select(['p.id', 'p.user_id', 'u.tenant_id'])
              .where('p.token_hash', '=', tokenHash)
              .where('p.used_at', 'is', null)
              .where('p.voided_at', 'is', null)
              .where('p.expires_at', '>', new Date(now()))
              .where('u.deleted_at', 'is', null)
              .where('u.blocked', '=', false)
              .where('t.deleted_at', 'is', null)
              .executeTakeFirst();
      const link = await live();
      if (!link) throw resetLinkInvalid();
      // The link stays usable after a weak password: the page asks again.
      const refusal = passwordRefusal(input.password);
      if (refusal) throw invalid('password', refusal);
      const hash = await hashPassword(input.password);
      const who: AuditWho = { actor: { userId: link.user_id, tenantId: link.tenant_id }, origin };
      const done = await audit.transaction(who, async (trx, record) => {
        // The one confirm that marks the link used wins; a concurrent one finds it used.
        const used = await trx
          .updateTable('password_reset_tokens')
          .set({ used_at: new Date(now()) })
          .where('id', '=', link.id)
          .where('used_at', 'is', null)
          .where('voided_at', 'is', null)
          .where('expires_at', '>', new Date(now()))
          .returning('user_id')
          .executeTakeFirst();
        if (!used) return false;
        const before = await trx
          .selectFrom('users')
          .select(['name', 'must_change_password'])
          .where('id', '=', link.user_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('users')
          .set({ password_hash: hash, must_change_password: false })
          .where('id', '=', link.user_id)
          .execute();
        await voidLinks(trx, link.user_id);
        await record({
          operation: 'user.password',
          target: { id: link.user_id, name: before.name },
          tenantId: link.tenant_id,
          changes: [
            { field: 'reset_link', before: null, after: 'true' },
            ...(before.must_change_password ? [{ field: 'temporary', before: 'true', after: 'false' }] : []),
          ],
        });
        return true;
      });
      if (!done) throw resetLinkInvalid();
      await tokens.revokeUser(link.user_id);
      await liftThrottleFor(db, link.user_id);
      return { message: 'Password changed' };
    },

    voidLinks,
  };
}

/**
 * Voids every unused reset link of the user, in the caller's transaction (docs/support-desk.md, What
 * voids a link). Besides this file's own cases (a newer link, a confirm, a temporary password) and the
 * change at sign-in (./login.ts), every
 * change that says the old mailbox or the old password may be in the wrong hands calls it: a new
 * e-mail, a new password set any other way, a block, a delete (server/src/users/service.ts,
 * server/src/support/service.ts), a company's deletion (server/src/tenants/service.ts). A link mailed before is then of no use, even after an unblock or a
 * restore brings the account back.
 */
export async function voidResetLinks(
  trx: Kysely<Database> | Transaction<Database>,
  /** One user, or every user of a tenant (its deletion, server/src/tenants/service.ts). */
  of: number | { tenantId: number },
  at: Date = new Date(),
): Promise<void> {
  const unused = trx
    .updateTable('password_reset_tokens')
    .set({ voided_at: at })
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null);
  await (
    typeof of === 'number'
      ? unused.where('user_id', '=', of)
      : unused.where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('tenant_id', '=', of.tenantId))
  ).execute();
}

/**
 * Lifts the sign-in throttle on the user's account after its password was reset by link
 * (docs/support-desk.md, Forgot password): the account's counted failures become lifted
 * (`login_attempts.lifted_at`, migration 0019), which the throttle ignores in every scope
 * (./attempts.ts), as the desk's "lift the throttle" does (server/src/support/repository.ts `liftFailures`).
 * Failures of other e-mails from the same addresses stay counted.
 */
export async function liftThrottleFor(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('login_attempts')
    .set({ lifted_at: sql<Date>`now()` })
    .where('email', '=', (eb) =>
      eb
        .selectFrom('users')
        .select(sql<string>`lower(email)`.as('email'))
        .where('id', '=', userId),
    )
    .where('throttle_counted', '=', true)
    .where('success', '=', false)
    .where('lifted_at', 'is', null)
    .execute();
}

export type PasswordReset = ReturnType<typeof createPasswordReset>;
