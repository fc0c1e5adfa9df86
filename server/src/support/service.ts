import type { Kysely, Transaction } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { Actor } from '../access/caller';
import { assertMayActOn } from '../access/escalation';
import { guardService } from '../access/guard';
import { tenantIdByName, auditPage, undoneByOf } from '../audit/repository';
import { readAs, toAuditRecord } from '../audit/service';
import { auditWho, changesOf, type AuditTrail } from '../audit/trail';
import { retryAfter, type Failures } from '../auth/attempts';
import type { TokenService } from '../auth/tokens';
import { recordTwoFactorChange, resetTwoFactorIn } from '../auth/two-factor';
import type { ServerConfig } from '../base/config';
import { conflict, invalid, isUniqueViolation, notFound, type ConflictCode } from '../base/domain-error';
import type { Database } from '../db/schema';
import { countLiveUsers, roleGrant } from '../users/repository';
import { voidResetLinks, type PasswordReset } from '../auth/password-reset';
import { deviceLabel } from './device';
import * as repo from './repository';

/**
 * The support desk (docs/support-desk.md): what back-office staff with the `users` permission do when a
 * pharmacy calls about one person. Across every tenant, deleted users included. Each method's policy is
 * server/src/access/policies.ts `support`; on a person, the rule of who may act on whom
 * (server/src/access/escalation.ts `assertMayActOn`, 403) and never on one's own account (409
 * `own_account`). Every action locks the person's row, refuses what would change nothing (409 with the
 * contract's `Conflict.error`), commits its one audit record with the change, and answers the person
 * as the desk shows it; sessions it ends are ended the way TokenService ends them, so sockets close.
 */

export type SupportUser = components['schemas']['SupportUser'];
export type SupportPerson = components['schemas']['SupportPerson'];
export type TwoFactorAction = components['schemas']['SupportTwoFactorRequest']['action'];

export const SEARCH_LIMIT = { default: 20, max: 50 } as const;
const LIST_LIMIT = 50;

export interface SupportServiceDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  audit: AuditTrail;
  /** Whether reset links can be sent: the server has a way to send mail (server/src/mail/mailer.ts). */
  reset: Pick<PasswordReset, 'enabled'>;
}

export type SupportService = ReturnType<typeof createSupportService>;

// eslint-disable-next-line no-control-regex -- control characters are what the search removes
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** What a search looks for: without control characters (no stored text holds one), in composed form, trimmed. */
export function searchText(q: string): string {
  return q.replace(CONTROL, '').normalize('NFC').trim();
}

function toSupportUser(row: repo.SupportUserRow): SupportUser {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    tenantName: row.tenant_name,
    tenantDeleted: row.tenant_deleted,
    role: { id: row.role_id, name: row.role_name, display_name: row.role_display_name },
    blocked: row.blocked,
    twoFactorEnabled: row.two_factor_enabled,
    twoFactorEnrolmentRequired: row.two_factor_enrolment_required,
    isConnected: row.is_connected,
    lastSignInAt: row.last_sign_in_at === null ? null : new Date(row.last_sign_in_at).toISOString(),
    deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at).toISOString(),
  };
}

const emptyFailures = (): Failures => ({ n: 0, oldest: null, newest: null });
function failuresOf(times: readonly number[]): Failures {
  if (times.length === 0) return emptyFailures();
  return { n: times.length, oldest: Math.min(...times), newest: Math.max(...times) };
}

export function createSupportService({ db, config, tokens, audit, reset }: SupportServiceDeps) {
  /** The longest a session may refresh: sessions from before their window was stored are taken at it. */
  const longestWindow = () => Math.max(config.refreshWindow, config.refreshWindowShort);

  let backofficeId: number | undefined;
  async function backoffice(): Promise<number | undefined> {
    backofficeId ??= await tenantIdByName(db, config.backofficeTenant);
    return backofficeId;
  }

  /** 403 when the actor may not act on the person, then 409 for its own account (permission before state). */
  async function mayActOn(
    actor: Actor,
    dbOrTrx: Kysely<Database> | Transaction<Database>,
    person: { id: number; role_id: number },
  ) {
    const role = await roleGrant(dbOrTrx, person.role_id);
    if (!role) throw new Error(`support: user ${person.id} points at no role`);
    assertMayActOn(actor, { id: person.id, role });
    if (person.id === actor.userId)
      throw conflict('The support desk is not for your own account: use your account settings', 'id', 'own_account');
  }

  /** The person locked in `trx`, after the rule of who may act on whom; 404 for no such user. */
  async function subject(actor: Actor, trx: Transaction<Database>, id: number) {
    const person = await repo.lockPerson(trx, id);
    if (!person) throw notFound('User not found', 'id');
    await mayActOn(actor, trx, person);
    return person;
  }

  const refuse = (message: string, code: ConflictCode, field = 'id') => conflict(message, field, code);
  const notDeleted = (person: { deleted_at: Date | null }) => {
    if (person.deleted_at !== null) throw refuse('The user is deleted: restore it first', 'deleted');
  };

  /** Whether sign-ins with the e-mail are refused now, and for how long; counted failures of the account. */
  async function throttleOf(email: string): Promise<SupportPerson['throttle']> {
    const rows = await repo.countedFailures(db, email, config.loginWindowSeconds);
    const now = rows[0]?.now.getTime() ?? Date.now();
    const mine = rows.filter((r) => r.email === email);
    const account = failuresOf(mine.map((r) => r.created_at.getTime()));
    // From each address the person failed from (the one they will try again from is among them), and
    // with the account's own back-off when none.
    const keys = [...new Set(mine.map((r) => r.address_key))];
    const waits = (keys.length > 0 ? keys : [undefined]).map((key) => {
      const pair = failuresOf(mine.filter((r) => r.address_key === key).map((r) => r.created_at.getTime()));
      const address =
        key === undefined || key === null
          ? emptyFailures()
          : failuresOf(rows.filter((r) => r.address_key === key).map((r) => r.created_at.getTime()));
      return retryAfter(config, { pair, address, account }, now);
    });
    const longest = Math.max(...waits.map((w) => w ?? 0));
    return { throttled: longest > 0, retryAfter: longest > 0 ? longest : null, failures: account.n };
  }

  /** The person as the desk shows it (contracts/openapi.yaml `SupportPerson`). */
  async function view(reader: Actor, id: number): Promise<SupportPerson> {
    const [row] = await repo.supportUsers(db, [id]);
    if (!row) throw notFound('User not found', 'id');
    const email = row.email.toLowerCase();
    const [throttle, attempts, sessions, records, staffTenant, mustChangePassword] = await Promise.all([
      throttleOf(email),
      repo.attemptsOf(db, email, LIST_LIMIT),
      repo.liveSessionsOf(db, id, longestWindow()),
      auditPage(db, { targetType: 'user', targetId: id }, null, LIST_LIMIT),
      backoffice(),
      db
        .selectFrom('users')
        .select('must_change_password')
        .where('id', '=', id)
        .executeTakeFirst()
        .then((user) => user?.must_change_password === true),
    ]);
    // Which records were undone, and by which (server/src/undo/service.ts).
    const undone = await undoneByOf(
      db,
      records.map((r) => r.id),
    );
    return {
      user: toSupportUser(row),
      mustChangePassword,
      throttle,
      attempts: attempts.map((a) => ({
        id: Number(a.id),
        at: new Date(a.created_at).toISOString(),
        success: a.success,
        reason: a.reason,
        address: a.remote_address,
        claimed_ip: a.ip,
      })),
      sessions: sessions.map((s) => ({
        id: s.id,
        device: deviceLabel(s.user_agent),
        user_agent: s.user_agent,
        address: s.address,
        started_at: new Date(s.created_at).toISOString(),
        last_used_at: new Date(s.refreshed_at).toISOString(),
        remember: s.remember,
      })),
      // Every reader of the desk is staff: each record whole (server/src/audit/service.ts readAs).
      audit: records.map((r) => toAuditRecord(readAs(reader, staffTenant, r), undone.get(r.id) ?? null)),
      resetLinks: { enabled: reset.enabled() },
    };
  }

  return guardService('support', {
    /** Users of every tenant whose e-mail, name or username holds `q` (no case, no accents), live first, then by name. */
    async search(_actor: Actor, query: { q: string; limit?: number | null }) {
      const text = searchText(query.q);
      if (text === '') throw invalid('q', 'must not be blank');
      const limit = query.limit ?? SEARCH_LIMIT.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT.max)
        throw invalid('limit', `must be a whole number from 1 to ${SEARCH_LIMIT.max}`);
      const ids = await repo.searchIds(db, text, limit);
      const rows = new Map((await repo.supportUsers(db, ids)).map((row) => [row.id, row]));
      const data = ids.flatMap((id) => {
        const row = rows.get(id);
        return row ? [toSupportUser(row)] : [];
      });
      return { data, limit };
    },

    /** One person: why sign-ins fail, where they are signed in, what was done to them. */
    async person(actor: Actor, id: number): Promise<SupportPerson> {
      const person = await repo.personRow(db, id);
      if (!person) throw notFound('User not found', 'id');
      await mayActOn(actor, db, person);
      return view(actor, id);
    },

    /** Releases the person's counted failures (every scope of the throttle); 409 `not_throttled` when none. */
    async liftThrottle(actor: Actor, id: number): Promise<SupportPerson> {
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const person = await subject(actor, trx, id);
        notDeleted(person);
        const lifted = await repo.liftFailures(trx, person.email.toLowerCase(), config.loginWindowSeconds);
        if (lifted === 0) throw refuse('No failed sign-in counts against this user', 'not_throttled');
        await record({
          operation: 'user.throttle-lift',
          target: { id: person.id, name: person.name },
          tenantId: person.tenant_id,
          changes: [{ field: 'failures', before: JSON.stringify(lifted), after: JSON.stringify(0) }],
        });
      });
      return view(actor, id);
    },

    /** Resets two-factor, requires enrolment at the next sign-in, or withdraws that; ends every session. */
    async twoFactor(actor: Actor, id: number, action: TwoFactorAction): Promise<SupportPerson> {
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const person = await subject(actor, trx, id);
        notDeleted(person);
        const before = {
          two_factor_enabled: person.two_factor_enabled,
          two_factor_enrolment_required: person.two_factor_enrolment_required,
        };
        const already = (message: string) => refuse(message, 'already', 'action');
        if (action === 'reset') {
          if (!person.two_factor_enabled && person.two_factor_pending_secret === null)
            throw already('Two-factor is off for this user, with no enrolment under way');
          await resetTwoFactorIn(trx, id);
        } else if (action === 'require') {
          if (person.two_factor_enabled) throw already('Two-factor is already on for this user');
          if (person.two_factor_enrolment_required) throw already('Two-factor is already required of this user');
          await trx.updateTable('users').set({ two_factor_enrolment_required: true }).where('id', '=', id).execute();
        } else {
          if (!person.two_factor_enrolment_required) throw already('Two-factor is not required of this user');
          await trx.updateTable('users').set({ two_factor_enrolment_required: false }).where('id', '=', id).execute();
        }
        // A reset of an enrolment under way changes neither flag: its record says so.
        if (!(await recordTwoFactorChange(trx, record, id, before)))
          await record({
            operation: 'user.two-factor',
            target: { id: person.id, name: person.name },
            tenantId: person.tenant_id,
            changes: [{ field: 'enrolment', before: JSON.stringify('pending'), after: null }],
          });
      });
      // A two-factor change ends the user's sessions (docs/security.md, Credentials and sessions).
      await tokens.revokeUser(id);
      return view(actor, id);
    },

    /** Ends one live session of the person (404 when it is not one), or every one (409 `already` when none). */
    async endSessions(actor: Actor, id: number, sessionId?: string | null): Promise<SupportPerson> {
      const one = sessionId !== undefined && sessionId !== null;
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const person = await subject(actor, trx, id);
        notDeleted(person);
        const ended = await repo.endSessionsIn(trx, id, longestWindow(), one ? sessionId : undefined);
        if (one && ended.length === 0) throw notFound('No such live session of this user', 'session_id');
        if (!one && ended.length === 0) throw refuse('This user has no live session', 'already');
        if (!one) await trx.updateTable('users').set({ is_connected: false }).where('id', '=', id).execute();
        await record(
          one
            ? {
                operation: 'user.session-end',
                target: { id: person.id, name: person.name },
                tenantId: person.tenant_id,
                changes: [{ field: 'session', before: JSON.stringify(sessionId), after: null }],
              }
            : {
                // As the users list's "disconnect" (server/src/users/service.ts).
                operation: 'user.disconnect',
                target: { id: person.id, name: person.name },
                tenantId: person.tenant_id,
                changes: [{ field: 'sessions', before: JSON.stringify(ended.length), after: JSON.stringify('ended') }],
              },
        );
      });
      // After the commit, as TokenService ends sessions: the sockets of the ended ones close on every process.
      if (one) await tokens.revokeFamily(sessionId);
      else await tokens.revokeUser(id);
      return view(actor, id);
    },

    /** Blocks (ending every session) or unblocks the person; 409 `already` when it is so. */
    async block(actor: Actor, id: number, blocked: boolean): Promise<SupportPerson> {
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const person = await subject(actor, trx, id);
        notDeleted(person);
        if (person.blocked === blocked)
          throw refuse(blocked ? 'The user is already blocked' : 'The user is not blocked', 'already', 'blocked');
        await trx.updateTable('users').set({ blocked }).where('id', '=', id).execute();
        // Links asked for before the block stay void after an unblock (server/src/auth/password-reset.ts).
        if (blocked) await voidResetLinks(trx, id);
        await record({
          operation: blocked ? 'user.block' : 'user.unblock',
          target: { id: person.id, name: person.name },
          tenantId: person.tenant_id,
          changes: changesOf({ blocked: person.blocked }, { blocked }),
        });
      });
      if (blocked) await tokens.revokeUser(id);
      return view(actor, id);
    },

    /**
     * Brings a deleted person back as it was (role, block, two-factor; offline, no session, no instance
     * links: deleting removed them). Refused while another user holds its e-mail or its username, while
     * its tenant is deleted, or when the tenant has its limit of live users.
     */
    async restore(actor: Actor, id: number): Promise<SupportPerson> {
      const found = await repo.personRow(db, id);
      if (!found) throw notFound('User not found', 'id');
      await audit.transaction(auditWho(actor), async (trx, record) => {
        // The tenant before the user, in the order a tenant's deletion and a user's creation lock them
        // (a user never changes tenant).
        const tenant = await repo.lockTenant(trx, found.tenant_id);
        const person = await subject(actor, trx, id);
        if (person.deleted_at === null) throw refuse('The user is not deleted', 'not_deleted');
        if (tenant.deleted_at !== null)
          throw refuse("The user's tenant is deleted: restore the tenant first", 'tenant_deleted');
        if (await repo.emailHeldByAnother(trx, id, person.email))
          throw refuse('Another user now holds this e-mail', 'email_taken', 'email');
        if (await repo.usernameHeldByAnother(trx, id, person.tenant_id, person.username))
          throw refuse('Another user of the tenant now holds this username', 'username_taken', 'username');
        if ((await countLiveUsers(trx, person.tenant_id)) >= tenant.user_limit)
          throw refuse(`The tenant already has its limit of ${tenant.user_limit} users`, 'user_limit_reached');
        try {
          await trx
            .updateTable('users')
            .set({ deleted_at: null, email_reserved: false, is_connected: false })
            .where('id', '=', id)
            .execute();
        } catch (error) {
          // A user of another tenant given the e-mail since the check (the locks here are this tenant's).
          if (isUniqueViolation(error) && error.constraint === 'users_email_lower_key')
            throw refuse('Another user now holds this e-mail', 'email_taken', 'email');
          if (isUniqueViolation(error) && error.constraint === 'users_tenant_username_key')
            throw refuse('Another user of the tenant now holds this username', 'username_taken', 'username');
          throw error;
        }
        await record({
          operation: 'user.restore',
          target: { id: person.id, name: person.name },
          tenantId: person.tenant_id,
          changes: changesOf({ deleted_at: person.deleted_at }, { deleted_at: null }),
        });
      });
      return view(actor, id);
    },
  });
}
