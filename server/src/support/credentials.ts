import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../access/caller';
import { assertMayActOn } from '../access/escalation';
import { guardService } from '../access/guard';
import { auditWho, type AuditTrail } from '../audit/trail';
import { conflictCode, invalid, notFound } from '../base/domain-error';
import { hashPassword as argon2Hash } from '../db/password';
import type { Database } from '../db/schema';
import { passwordRefusal } from '../auth/password-policy';
import type { PasswordReset } from '../auth/password-reset';
import type { TokenService } from '../auth/tokens';
import { lockUserRole, roleGrant } from '../users/repository';

/**
 * The support desk's two actions on a person's password (docs/support-desk.md, REST operations):
 * `supportTemporaryPassword` sets a password the person must replace at its next sign-in
 * (server/src/auth/login.ts), `supportResetLink` e-mails the person a reset link
 * (server/src/auth/password-reset.ts). Back-office staff with `users` (server/src/access/policies.ts),
 * on a person they may act on (server/src/access/escalation.ts `assertMayActOn`), never on their own
 * account (409 `own_account`), each with one audit record naming the person and its tenant.
 */
export function createSupportCredentialsService(deps: {
  db: Kysely<Database>;
  tokens: TokenService;
  audit: AuditTrail;
  reset: PasswordReset;
  hashPassword?: (password: string) => Promise<string>;
}) {
  const { db, tokens, audit, reset, hashPassword = argon2Hash } = deps;

  function notOwn(actor: Actor, userId: number): void {
    if (actor.userId === userId)
      throw conflictCode('own_account', 'This is your own account: change your password on the account settings page');
  }

  /** The person with its tenant: 404 when unknown, 409 `deleted` when deleted (restored first, as the desk's other actions). */
  async function person(userId: number) {
    const row = await db
      .selectFrom('users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select([
        'u.id',
        'u.name',
        'u.tenant_id',
        'u.blocked',
        'u.must_change_password',
        'u.deleted_at',
        't.deleted_at as tenant_deleted_at',
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('User not found', 'id');
    if (row.deleted_at !== null) throw conflictCode('deleted', 'The user is deleted: restore it first');
    return row;
  }

  /** Checks, in `trx` with the person's row locked, that the actor may act on it. */
  async function actingOn(actor: Actor, trx: Transaction<Database>, userId: number): Promise<void> {
    const locked = await lockUserRole(trx, userId);
    if (!locked) throw notFound('User not found', 'id');
    const role = await roleGrant(trx, locked.role_id);
    if (!role) throw new Error(`support: user ${String(userId)} points at no role`);
    assertMayActOn(actor, { id: userId, role });
  }

  return guardService('supportCredentials', {
    /**
     * Sets a temporary password: the person signs in with it once and must choose a new one. Every
     * session of the person ends and its unused reset links are voided.
     */
    async temporaryPassword(
      actor: Actor,
      userId: number,
      input: { password: string },
    ): Promise<{ mustChangePassword: true }> {
      notOwn(actor, userId);
      const target = await person(userId);
      // Who may act on whom before the input (docs/architecture.md: 403 before 400); checked again below
      // with the row locked, so a role changed meanwhile cannot slip through.
      await db.transaction().execute((trx) => actingOn(actor, trx, userId));
      const refusal = passwordRefusal(input.password);
      if (refusal) throw invalid('password', refusal);
      const hash = await hashPassword(input.password);
      await audit.transaction(auditWho(actor), async (trx, record) => {
        await actingOn(actor, trx, userId);
        await trx
          .updateTable('users')
          .set({ password_hash: hash, must_change_password: true })
          .where('id', '=', userId)
          .execute();
        await reset.voidLinks(trx, userId);
        await record({
          operation: 'user.password',
          target: { id: userId, name: target.name },
          tenantId: target.tenant_id,
          // `temporary`: the password is one the person must replace (field names that look like secrets
          // are refused by the audit log, src/domain/audit.ts `AUDIT_SECRET_FIELD`).
          changes: [{ field: 'temporary', before: JSON.stringify(target.must_change_password), after: 'true' }],
        });
      });
      await tokens.revokeUser(userId);
      return { mustChangePassword: true };
    },

    /** E-mails the person a reset link (503 `mail_disabled` when the server cannot send mail). */
    async resetLink(actor: Actor, userId: number): Promise<{ sent: true; expires_at: string }> {
      notOwn(actor, userId);
      const target = await person(userId);
      await db.transaction().execute((trx) => actingOn(actor, trx, userId));
      // The person could not use the link: said plainly instead of sending one.
      if (target.blocked) throw conflictCode('blocked', 'This person is blocked: unblock them before sending a link');
      if (target.tenant_deleted_at !== null)
        throw conflictCode('tenant_deleted', "This person's company is deleted: restore it before sending a link");
      const { expiresAt } = await reset.sendLink(userId);
      await audit.write(auditWho(actor), {
        operation: 'user.reset-link',
        target: { id: userId, name: target.name },
        tenantId: target.tenant_id,
        changes: [{ field: 'expires_at', before: null, after: JSON.stringify(expiresAt.toISOString()) }],
      });
      return { sent: true, expires_at: expiresAt.toISOString() };
    },
  });
}

export type SupportCredentialsService = ReturnType<typeof createSupportCredentialsService>;
