import type { Kysely, Transaction, Updateable } from 'kysely';
import type { AuditOperation } from '../../../src/domain/audit';
import { changesOf, type AuditTrail, type Recorder } from '../audit/trail';
import { beforeValuesOf, mismatchesOf, type RevertOutcome, type UndoStep } from '../audit/undo';
import { refreshWindowOver, type TokenService } from '../auth/tokens';
import { recordTwoFactorChange, resetTwoFactorIn, twoFactorFlagsOf } from '../auth/two-factor';
import type { ServerConfig } from '../base/config';
import { hashPassword as argon2Hash } from '../db/password';
import type { Database, UsersTable } from '../db/schema';
import type { Actor } from '../access/caller';
import { assertMayActOn, assertMayGrant, assertNotOwnRole } from '../access/escalation';
import { guardService } from '../access/guard';
import { assertMayChange, assertMaySetTwoFactor } from '../access/self-service';
import { auditWho } from '../audit/trail';
import { assertCurrentPassword } from '../auth/current-password';
import { voidResetLinks } from '../auth/password-reset';
import {
  checkAll,
  conflict,
  conflictCode,
  forbidden,
  invalid,
  isDomainError,
  limitReached,
  notFound,
  unauthenticated,
  unknownReference,
} from '../base/domain-error';
import { lockLiveTenant, type TenantRef } from '../tenants/scope';
import * as repo from './repository';
import { checkEmail, checkImage, checkName, checkPassword, checkUsername } from './rules';
import { required, type NewUser, type UserPatch } from './user-input';
import { loadUserDtos, type UserDto } from '../db/user-dto';
import { isBroken } from '../base/broken-promises';
import { sentVersion } from '../audit/versions';
import {
  assertBatch,
  checkIds,
  eachRow,
  openBatch,
  rowGate,
  type BulkAnswer,
  type BulkLog,
  type RowFault,
  type RowMode,
} from '../bulk/rows';
import { userListQueries, type UserListFilter, type UserListSort } from './list';
import { userExportLines } from './export';
import type { ExportLanguage } from '../base/csv-stream';

/**
 * Users: every rule about creating, changing, blocking and deleting them, whichever protocol asks
 * (REST handlers in server/src/rest/users.ts, GraphQL resolvers in server/src/graphql/resolvers.ts).
 * Each method's policy (server/src/access/policies.ts `users`) is checked before it runs; what depends
 * on stored data is checked here, with the rows it reads locked: the target's tenant (another tenant's
 * user is not found), and no way up (server/src/access/escalation.ts): a role is given only by someone
 * holding all it grants, a user is acted on only by someone holding all it holds, nobody re-roles itself.
 */

export type { NewUser, UserPatch } from './user-input';

/** The most instances one change links a user to (contracts/openapi.yaml `chosen_instances`, `maxItems`). */
export const MAX_CHOSEN_INSTANCES = 500;

/** Where a target user must be: in one tenant (GraphQL: the path's), or anywhere the actor may see (null). */
export interface TargetScope {
  tenantId: number | null;
}

export interface UsersServiceDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  /** Every change writes its record in its own transaction (server/src/audit/trail.ts). */
  audit: AuditTrail;
  /** argon2id by default; tests that hash thousands of passwords may pass cheaper parameters. */
  hashPassword?: (password: string) => Promise<string>;
}

export type UsersService = ReturnType<typeof createUsersService>;

/** What a bulk run does to each user (contracts/openapi.yaml `UserBulkRequest`; docs/lists.md, Bulk actions). */
export type UserBulkAction = 'block' | 'unblock' | 'require_two_factor' | 'end_sessions' | 'delete';

export interface UserBulkInput {
  action: UserBulkAction;
  ids: readonly number[];
  dryRun: boolean;
  batchId?: number | undefined;
  /** How many rows the whole selection has (the batch's record says so); default: these ids. */
  total?: number | undefined;
}

/**
 * What the audit log shows of a user's change (docs/product.md, Audit log): never the password, its
 * hash or two-factor secrets; a new password is recorded as the operation `user.password`.
 */
const USER_AUDIT_FIELDS = [
  'name',
  'username',
  'email',
  'image',
  'role_id',
  'department_id',
  'instances',
  'blocked',
] as const;

/**
 * Writes the record of a change to user `id` with the change's transaction: its state `before` (read in
 * the transaction before the change; null when created) against the state now (null when deleted).
 */
async function recordUserChange(
  trx: Transaction<Database>,
  record: Recorder,
  operation: AuditOperation,
  id: number,
  before: repo.UserAuditState | null,
  deleted = false,
  version?: number,
): Promise<void> {
  const after = deleted ? null : ((await repo.auditStateOf(trx, id)) ?? null);
  const current = after ?? before;
  if (!current) throw new Error(`audit: user ${id} vanished inside its own change`);
  await record({
    operation,
    target: { id, name: current.name },
    tenantId: current.tenant_id,
    changes: changesOf(before, after, USER_AUDIT_FIELDS),
    ...(version === undefined ? {} : { version }),
  });
}

export function createUsersService({ db, config, tokens, audit, hashPassword = argon2Hash }: UsersServiceDeps) {
  /** The user's state before a change, read in the change's transaction. */
  async function stateIn(trx: Transaction<Database>, id: number): Promise<repo.UserAuditState> {
    const state = await repo.auditStateOf(trx, id);
    if (!state) throw notFound('User not found', 'id');
    return state;
  }

  async function dto(id: number): Promise<UserDto> {
    const [user] = await loadUserDtos(db, { ids: [id] });
    if (!user) throw notFound('User not found', 'id');
    return user;
  }

  /** The live target user, visible to the actor in the scope; else not found (never "forbidden": that would confirm it exists). */
  async function target(actor: Actor, scope: TargetScope, id: number) {
    const row = await repo.findLiveUser(db, id);
    const visible =
      row !== undefined &&
      (scope.tenantId !== null
        ? row.tenant_id === scope.tenantId
        : actor.originBackoffice || row.tenant_id === actor.tenantId);
    if (!row || !(visible || isBroken('other-tenant-id-visible'))) throw notFound('User not found', 'id');
    return row;
  }

  /**
   * Locks user `id` for the rest of the transaction and checks the actor may act on it: it holds every
   * permission the user's role grants (server/src/access/escalation.ts). Answers the user's role id.
   * The user must still be live under the lock (a change read it live before the lock, and a racing
   * delete may have committed since: the change then answers 404, as it would after the delete), unless
   * `deleted` says a deleted user is the point (an undo's restore).
   */
  async function actingOn(
    actor: Actor,
    trx: Transaction<Database>,
    id: number,
    deleted: 'refused' | 'allowed' = 'refused',
  ): Promise<number> {
    const locked = await repo.lockUserRole(trx, id);
    if (!locked || (deleted === 'refused' && locked.deleted_at !== null)) throw notFound('User not found', 'id');
    const role = await repo.roleGrant(trx, locked.role_id);
    if (!role) throw new Error(`users: user ${id} points at no role`);
    assertMayActOn(actor, { id, role });
    return locked.role_id;
  }

  /** The role to give, checked against the actor's own permissions (no way up). */
  async function grantable(actor: Actor, trx: Kysely<Database> | Transaction<Database>, roleId: number) {
    const role = await repo.roleGrant(trx, roleId);
    if (!role) throw unknownReference('role_id', 'No such role');
    assertMayGrant(actor, role);
    return role;
  }

  /** Role, department and instances must exist, the last two in the user's tenant; answers the distinct instance ids. */
  async function checkReferences(
    tenantId: number,
    refs: { role_id?: number; user_department_id?: number | null; chosen_instances?: readonly number[] },
  ): Promise<number[] | undefined> {
    if (refs.role_id !== undefined && !(await repo.roleExists(db, refs.role_id)))
      throw unknownReference('role_id', 'No such role');
    if (refs.user_department_id != null && !(await repo.departmentInTenant(db, tenantId, refs.user_department_id))) {
      throw unknownReference('user_department_id', 'No such department in this tenant');
    }
    if (refs.chosen_instances === undefined) return undefined;
    // REST's schema says so (contracts/openapi.yaml `maxItems: 500`); GraphQL sends the list as a variable,
    // which no token limit bounds, and one SQL statement takes at most 65,535 parameters.
    if (refs.chosen_instances.length > MAX_CHOSEN_INSTANCES)
      throw invalid('chosen_instances', `at most ${MAX_CHOSEN_INSTANCES} instances`);
    const ids = [...new Set(refs.chosen_instances)];
    if ((await repo.instancesInTenant(db, tenantId, ids)) !== ids.length)
      throw unknownReference('chosen_instances', 'An instance does not belong to this tenant');
    return ids;
  }

  async function assertUnique(
    trx: Kysely<Database>,
    tenantId: number,
    values: { email?: string; username?: string },
    exceptId?: number,
  ) {
    // Checked inside the transaction for a clear answer; the unique indexes (users_email_lower_key,
    // users_tenant_username_key) decide when two requests race, and their violation maps to the same
    // conflict (server/src/base/domain-error.ts).
    if (values.email !== undefined && (await repo.emailTaken(trx, values.email, exceptId)))
      throw conflict('A user with this email already exists', 'email');
    if (values.username !== undefined && (await repo.usernameTaken(trx, tenantId, values.username, exceptId))) {
      throw conflict('This username is already taken in this tenant', 'username');
    }
  }

  const service = guardService('users', {
    /** The tenant's live users, by name. */
    async list(_actor: Actor, tenant: TenantRef): Promise<UserDto[]> {
      return loadUserDtos(db, { tenantId: tenant.id });
    },

    /** One page of the tenant's live users, filtered and sorted (./list.ts), as the contract's `User`. */
    async page(
      _actor: Actor,
      tenant: TenantRef,
      filter: UserListFilter,
      order: UserListSort,
      page: number,
      limit: number,
    ) {
      const queries = userListQueries(db, tenant.id, filter, order);
      const total = await queries.count();
      const ids = total === 0 ? [] : await queries.pageIds(page, limit);
      const byId = new Map((await loadUserDtos(db, { ids, tenantId: tenant.id })).map((u) => [u.id, u]));
      return {
        data: ids.flatMap((id) => byId.get(id) ?? []),
        total,
        page,
        limit,
        last_page: Math.max(1, Math.ceil(total / limit)),
      };
    },

    /** Every id of the tenant's live users matching the filter, in order; 400 beyond 100,000. */
    async ids(_actor: Actor, tenant: TenantRef, filter: UserListFilter, order: UserListSort) {
      return userListQueries(db, tenant.id, filter, order).allIds();
    },

    /** The tenant's live users matching the filter, as CSV lines read as they are sent (./export.ts). */
    async exportCsv(
      _actor: Actor,
      tenant: TenantRef,
      filter: UserListFilter,
      order: UserListSort,
      language: ExportLanguage,
    ) {
      return userExportLines(db, tenant.id, filter, order, language);
    },

    /** The caller itself; a caller whose record vanished mid-request is no longer signed in. */
    async me(actor: Actor): Promise<UserDto> {
      const [user] = await loadUserDtos(db, { ids: [actor.userId] });
      if (!user) throw unauthenticated();
      return user;
    },

    /** A live user by e-mail, visible to the actor. */
    async findByEmail(actor: Actor, email: string): Promise<{ id: number; name: string; email: string }> {
      const row = await repo.findLiveUserByEmail(db, email.toLowerCase());
      if (!row || (!actor.originBackoffice && row.tenant_id !== actor.tenantId))
        throw notFound('User not found', 'email');
      return { id: row.id, name: row.name, email: row.email };
    },

    /** "Functional user" (contracts/openapi.yaml `userIsFuncionalUser`): a customer-tenant account, not staff. */
    async isFunctional(actor: Actor): Promise<boolean> {
      return !actor.originBackoffice;
    },

    /** Creates a user in the tenant; at most the tenant's `userLimit` live users, whatever runs at the same time. */
    async create(actor: Actor, tenant: TenantRef, input: NewUser): Promise<UserDto> {
      const { username, name, email, password } = checkAll({
        username: () => checkUsername(input.username),
        name: () => checkName(input.name),
        email: () => checkEmail(input.email),
        password: () => checkPassword(input.password),
      });
      const instances =
        (await checkReferences(tenant.id, { ...input, chosen_instances: input.chosen_instances ?? [] })) ?? [];
      // A clear refusal before the password is hashed; checked again inside the transaction.
      await grantable(actor, db, input.role_id);
      // Hashed before the transaction: on PGlite the transaction holds the only connection.
      const passwordHash = await hashPassword(password);
      const id = await audit.transaction(auditWho(actor), async (trx, record) => {
        await grantable(actor, trx, input.role_id);
        const limit = await repo.lockTenantUserLimit(trx, tenant.id);
        await assertUnique(trx, tenant.id, { email, username });
        if ((await repo.countLiveUsers(trx, tenant.id)) >= limit) throw limitReached(limit);
        const created = await repo.insertUser(trx, {
          tenant_id: tenant.id,
          role_id: input.role_id,
          department_id: input.user_department_id ?? null,
          name,
          username,
          email,
          password_hash: passwordHash,
          // Back-office staff are exactly the users of the back-office tenant (BACKOFFICE_TENANT).
          origin_backoffice: tenant.name === config.backofficeTenant,
        });
        await repo.setInstanceLinks(trx, created, instances);
        await recordUserChange(trx, record, 'user.create', created, null);
        return created;
      });
      return dto(id);
    },

    /**
     * Changes a user. With the `users` permission: any visible user, any field. Without it: only its
     * own username, name, e-mail and avatar. A new password ends every session of the user.
     */
    async update(actor: Actor, scope: TargetScope, id: number, patch: UserPatch): Promise<UserDto> {
      // An explicit null counts as a change asked for: only the fields it may change decide, not its value.
      assertMayChange(
        actor,
        id,
        (Object.keys(patch) as (keyof UserPatch)[]).filter((key) => patch[key] !== undefined),
      );
      // Input before state (docs/architecture.md): the values first, then the user they would change.
      const given = <T, R>(value: T | undefined, check: (value: T) => R): R | undefined =>
        value === undefined ? undefined : check(value);
      const checked = checkAll({
        username: () => given(patch.username, (v) => checkUsername(required(v, 'username'))),
        name: () => given(patch.name, (v) => checkName(required(v, 'name'))),
        email: () => given(patch.email, (v) => checkEmail(required(v, 'email'))),
        image: () => given(patch.image, (v) => (v === null ? null : checkImage(v))),
        password: () => given(patch.password, checkPassword),
        role_id: () => given(patch.role_id, (v) => required(v, 'role_id')),
        version: () => sentVersion(patch.version),
      });
      const set: Updateable<UsersTable> = {};
      if (checked.username !== undefined) set.username = checked.username;
      if (checked.name !== undefined) set.name = checked.name;
      if (checked.email !== undefined) set.email = checked.email;
      if (checked.image !== undefined) set.image = checked.image;
      const password = checked.password;
      const roleId = checked.role_id;
      const user = await target(actor, scope, id);
      const own = user.id === actor.userId;
      // One's own password changes on the account screen, with the current one (changeOwnPassword).
      if (password !== undefined && own && !isBroken('own-password-change-allowed'))
        throw forbidden(
          [],
          isBroken('forbidden-without-reason')
            ? 'Forbidden'
            : 'change your own password on your account screen, with your current password',
        );
      // A new e-mail of one's own is proven with the current password (docs/security.md, Credentials and sessions).
      const stored = (await repo.userEmail(db, user.id)).email;
      const newEmail = set.email !== undefined && set.email !== stored.toLowerCase();
      if (newEmail && own && !isBroken('email-change-without-current-password'))
        await assertCurrentPassword(db, config, actor, patch.current_password);
      const instances = await checkReferences(user.tenant_id, { ...patch, role_id: roleId });
      if (roleId !== undefined) set.role_id = roleId;
      if (patch.user_department_id !== undefined) set.department_id = patch.user_department_id;
      if (password !== undefined) set.password_hash = await hashPassword(password);
      const roleBefore = await audit.transaction(auditWho(actor), async (trx, record) => {
        const currentRole = await actingOn(actor, trx, user.id);
        if (roleId !== undefined) {
          assertNotOwnRole(actor, user.id, roleId, currentRole);
          if (roleId !== currentRole) await grantable(actor, trx, roleId);
        }
        const before = await stateIn(trx, user.id);
        await assertUnique(trx, user.tenant_id, { email: set.email, username: set.username }, user.id);
        // The check of a sent version and the write are one statement (docs/lists.md, Versions).
        const sent = checked.version;
        const version = await repo.updateUserVersioned(trx, user.id, set, sent);
        if (version === undefined) throw await audit.stale(trx, actor, { type: 'user', id: user.id }, sent ?? 0);
        // A link mailed to the old address, or asked for before this password, is of no use any more.
        if (password !== undefined || newEmail) await voidResetLinks(trx, user.id);
        if (instances !== undefined) await repo.setInstanceLinks(trx, user.id, instances);
        // One record: a change that sets a password is `user.password` (which fields else changed, too).
        const operation = password === undefined ? 'user.update' : 'user.password';
        await recordUserChange(trx, record, operation, user.id, before, false, version);
        return before.role_id;
      });
      // A new password or e-mail ends the user's sessions: every one when someone else changed it, the
      // others when the user did (its own session goes on).
      if (password !== undefined || (newEmail && !isBroken('email-change-keeps-other-sessions'))) {
        if (own) await tokens.revokeOtherFamilies(user.id, actor.claims.fam);
        else await tokens.revokeUser(user.id);
      }
      // Its sockets reconnect and read the new role (contracts/socket.md §5.1).
      if (roleId !== undefined && roleId !== roleBefore) tokens.accessChanged(user.id);
      return dto(user.id);
    },

    /** Blocks (ending every session at once) or unblocks a user; nobody blocks itself. */
    async setBlocked(actor: Actor, scope: TargetScope, id: number, blocked: boolean, mode?: RowMode): Promise<UserDto> {
      const user = await target(actor, scope, id);
      if (blocked && user.id === actor.userId) throw conflict('You cannot block yourself', 'id');
      await audit.transaction(auditWho(actor), async (trx, record) => {
        await actingOn(actor, trx, user.id);
        const before = await stateIn(trx, user.id);
        rowGate(mode, before.blocked === blocked, blocked ? 'The user is already blocked' : 'The user is not blocked');
        await repo.updateUserRow(trx, user.id, { blocked });
        // Links asked for before the block stay void after an unblock.
        if (blocked) await voidResetLinks(trx, user.id);
        await recordUserChange(trx, record, blocked ? 'user.block' : 'user.unblock', user.id, before);
      });
      if (blocked) await tokens.revokeUser(user.id);
      return dto(user.id);
    },

    /** Deletes a user (soft: its e-mail becomes free again), ending every session; nobody deletes itself. */
    async remove(actor: Actor, scope: TargetScope, id: number, mode?: RowMode): Promise<void> {
      const user = await target(actor, scope, id);
      if (user.id === actor.userId) throw conflict('You cannot delete yourself', 'id');
      await audit.transaction(auditWho(actor), async (trx, record) => {
        await actingOn(actor, trx, user.id);
        const before = await stateIn(trx, user.id);
        // Read with the row locked: a bulk run racing another delete of the user finds it done.
        if (mode !== undefined)
          rowGate(mode, (await repo.deletedAtOf(trx, user.id)) !== null, 'The user is already deleted');
        await repo.markUserDeleted(trx, user.id);
        // Links asked for before the delete stay void after a restore.
        await voidResetLinks(trx, user.id);
        await recordUserChange(trx, record, 'user.delete', user.id, before, true);
      });
      await tokens.revokeUser(user.id);
    },

    /**
     * Removes a soft-deleted user for good: the row goes and, by the schema's foreign keys
     * (server/src/db/migrations/0001-core.ts, 0002-auth.ts, 0005-two-factor.ts, 0017-socket-tickets.ts),
     * its token families, socket tickets, recovery codes and instance links go with it; its sign-in
     * attempts and the tenant's activity it took part in stay, their link to it cleared (`on delete set
     * null`); the audit log keeps its records (no foreign key) and records the purge. Only an
     * administrador of the back office purges (403 with a reason for any other role); nobody purges
     * itself (409, as for a delete); a live user is refused (409): it is deleted first, which ends its
     * sessions. Answers the user as it was.
     */
    async purge(actor: Actor, id: number): Promise<UserDto> {
      // Decided on the caller alone, before any record is read: the answer tells nothing of the user.
      if (actor.role !== 'administrador') throw forbidden([], 'only an administrador may purge a user');
      if (id === actor.userId) throw conflict('You cannot purge yourself', 'id');
      return audit.transaction(auditWho(actor), async (trx, record) => {
        // Locked: of two racing purges the second waits, then finds no user (404).
        const row = await repo.lockUserForPurge(trx, id);
        if (!row) throw notFound('User not found', 'id');
        if (row.deleted_at === null) throw conflict('The user is not deleted; delete it before purging it', 'id');
        const [user] = await loadUserDtos(trx, { ids: [row.id], deleted: true });
        if (!user) throw notFound('User not found', 'id');
        // Recorded while the row is there (server/src/audit/trail.ts reads the target's tenant name).
        await record({
          operation: 'user.purge',
          target: { id: row.id, name: row.name },
          tenantId: row.tenant_id,
          changes: changesOf({ deleted_at: row.deleted_at }, { deleted_at: null }),
        });
        await repo.purgeUser(trx, row.id);
        return user;
      });
    },

    /** Marks a user offline and ends every session of it (an administrator's "disconnect"). */
    async disconnect(actor: Actor, scope: TargetScope, id: number, mode?: RowMode): Promise<void> {
      const user = await target(actor, scope, id);
      await audit.transaction(auditWho(actor), async (trx, record) => {
        await actingOn(actor, trx, user.id);
        const before = await stateIn(trx, user.id);
        if (mode !== undefined) {
          const longest = Math.max(config.refreshWindow, config.refreshWindowShort);
          const connected = (await repo.isConnectedOf(trx, user.id)) === true;
          // Ended with the row locked (and rolled back on a dry run or a no-op), so a bulk run racing
          // this one finds none left: `unchanged`.
          const ended = await repo.endLiveSessions(trx, user.id, longest);
          rowGate(mode, ended === 0 && !connected, 'The user has no live session');
        }
        await repo.updateUserRow(trx, user.id, { is_connected: false });
        // Every session of the user ends: the record says so, whatever fields changed.
        await record({
          operation: 'user.disconnect',
          target: { id: user.id, name: before.name },
          tenantId: before.tenant_id,
          changes: [{ field: 'sessions', before: null, after: JSON.stringify('ended') }],
        });
      });
      await tokens.revokeUser(user.id);
    },

    /**
     * Undoes one recorded change of a user (server/src/undo/service.ts) in the undo's transaction: the
     * user's row locked, the actor checked as the operation checks it (the user visible in its tenant,
     * no way up, nobody blocks or deletes itself, a role given only by who holds it), the record's
     * `after` values compared with the user's now (any other value: the mismatches, nothing written),
     * then the `before` values put back through the operation's own writes and recorded by `record`.
     */
    async revert(actor: Actor, trx: Transaction<Database>, record: Recorder, step: UndoStep): Promise<RevertOutcome> {
      // A restore locks the tenant before the user, in the order the support desk's restore, a tenant's
      // deletion and a user's creation lock them (server/src/support/service.ts): the other order deadlocks
      // with a restore of the same user at the same moment.
      const restoring =
        step.operation === 'user.delete' && step.tenantId !== null
          ? await repo.lockTenantForRestore(trx, step.tenantId)
          : undefined;
      // Any other change of a user is refused while the user's tenant is deleted (409 `tenant_deleted`), as
      // the change itself is (404, ./repository.ts findLiveUser): the tenant share-locked before the user, in
      // the order a tenant's deletion locks the tenant and then its users.
      if (step.operation !== 'user.delete' && step.tenantId !== null) await lockLiveTenant(trx, step.tenantId);
      const row = await repo.lockUserForPurge(trx, step.targetId);
      const visible = row !== undefined && (actor.originBackoffice || row.tenant_id === actor.tenantId);
      if (!row || !visible) throw notFound('User not found', 'id');
      await actingOn(actor, trx, row.id, 'allowed');
      const before = await stateIn(trx, row.id);
      const deleted = row.deleted_at !== null;
      const values = beforeValuesOf(step.changes);
      const own = row.id === actor.userId;
      switch (step.operation) {
        case 'user.delete': {
          // The undo of a delete is a restore, which only the provider's staff make directly (the support
          // desk): a customer tenant takes back its own deletes, never one the provider made.
          if (!actor.originBackoffice && step.actorTenantId !== actor.tenantId)
            throw forbidden([], "A user the provider deleted is restored by the provider's support desk");
          if (!deleted) return { mismatches: [{ field: 'deleted_at', recorded: 'deleted', current: null }] };
          const tenant =
            restoring !== undefined && step.tenantId === row.tenant_id
              ? restoring
              : await repo.lockTenantForRestore(trx, row.tenant_id);
          // A live user in a deleted tenant is a state no other path makes (server/src/support/service.ts).
          if (tenant.deleted)
            throw conflictCode('tenant_deleted', "The user's tenant is deleted: restore the tenant first");
          const limit = tenant.user_limit;
          if (await repo.emailTaken(trx, before.email, row.id))
            throw conflictCode('email_taken', 'Another user now holds this e-mail');
          if (await repo.usernameTaken(trx, row.tenant_id, before.username, row.id))
            throw conflictCode('username_taken', 'Another user of the tenant now holds this username');
          if ((await repo.countLiveUsers(trx, row.tenant_id)) >= limit) throw limitReached(limit);
          await repo.markUserRestored(trx, row.id);
          await record({
            operation: 'user.restore',
            target: { id: row.id, name: before.name },
            tenantId: row.tenant_id,
            changes: changesOf({ deleted_at: row.deleted_at }, { deleted_at: null }),
          });
          return { mismatches: [] };
        }
        case 'user.restore': {
          if (deleted) return { mismatches: [{ field: 'deleted_at', recorded: null, current: 'deleted' }] };
          if (own) throw conflict('You cannot delete yourself', 'id');
          await repo.markUserDeleted(trx, row.id);
          await voidResetLinks(trx, row.id);
          await recordUserChange(trx, record, 'user.delete', row.id, before, true);
          return { mismatches: [], afterCommit: () => tokens.revokeUser(row.id) };
        }
        default:
          break;
      }
      const current = { ...before, deleted_at: row.deleted_at };
      const mismatches = mismatchesOf(step.changes, current);
      if (deleted) mismatches.push({ field: 'deleted_at', recorded: null, current: 'deleted' });
      if (mismatches.length > 0) return { mismatches };
      switch (step.operation) {
        case 'user.block':
        case 'user.unblock': {
          const blocked = values.blocked === true;
          if (blocked && own) throw conflict('You cannot block yourself', 'id');
          await repo.updateUserRow(trx, row.id, { blocked });
          if (blocked) await voidResetLinks(trx, row.id);
          await recordUserChange(trx, record, blocked ? 'user.block' : 'user.unblock', row.id, before);
          return { mismatches: [], ...(blocked ? { afterCommit: () => tokens.revokeUser(row.id) } : {}) };
        }
        case 'user.two-factor': {
          const required = values.two_factor_enrolment_required === true;
          const flags = await twoFactorFlagsOf(trx, row.id);
          if (!(await repo.setEnrolmentRequired(trx, row.id, required)))
            throw conflict(
              'Two-factor is already on for this user: there is nothing to enrol',
              'two_factor_enrolment_required',
            );
          await recordTwoFactorChange(trx, record, row.id, flags);
          return { mismatches: [], afterCommit: () => tokens.revokeUser(row.id) };
        }
        case 'user.update': {
          const set: Updateable<UsersTable> = {};
          for (const field of ['name', 'username', 'email', 'image', 'department_id'] as const)
            if (field in values) (set as Record<string, unknown>)[field] = values[field];
          let roleChanged = false;
          if ('role_id' in values && typeof values.role_id === 'number') {
            assertNotOwnRole(actor, row.id, values.role_id, before.role_id);
            if (values.role_id !== before.role_id) await grantable(actor, trx, values.role_id);
            set.role_id = values.role_id;
            roleChanged = values.role_id !== before.role_id;
          }
          if (typeof set.email === 'string' || typeof set.username === 'string')
            await assertUnique(
              trx,
              row.tenant_id,
              {
                ...(typeof set.email === 'string' ? { email: set.email } : {}),
                ...(typeof set.username === 'string' ? { username: set.username } : {}),
              },
              row.id,
            );
          if (Object.keys(set).length > 0) await repo.updateUserRow(trx, row.id, set);
          const newEmail = typeof set.email === 'string' && set.email !== before.email;
          if (newEmail) await voidResetLinks(trx, row.id);
          if (Array.isArray(values.instances)) await repo.setInstanceLinks(trx, row.id, values.instances as number[]);
          await recordUserChange(trx, record, 'user.update', row.id, before);
          return {
            mismatches: [],
            afterCommit: async () => {
              if (newEmail) {
                if (own) await tokens.revokeOtherFamilies(row.id, actor.claims.fam);
                else await tokens.revokeUser(row.id);
              }
              if (roleChanged) tokens.accessChanged(row.id);
            },
          };
        }
        default:
          throw new Error(`users: ${step.operation} is not a user operation with an inverse`);
      }
    },

    /** Presence of the caller (the SPA's `connected` / `disconnected`). */
    async setConnected(actor: Actor, connected: boolean): Promise<void> {
      await repo.updateUserRow(db, actor.userId, { is_connected: connected });
    },

    /**
     * The caller's new password, proven with its current one: every other session of the user ends,
     * and this one goes on with a new token of the same session, so its remember-me window is kept.
     */
    async changeOwnPassword(
      actor: Actor,
      password: string,
      currentPassword: string | null | undefined,
    ): Promise<{ token: string; expiresIn: number; user: UserDto }> {
      const newPassword = checkPassword(password);
      // A session past its refresh window gets no new token (tokens.rotate): it is over, so it changes
      // nothing rather than change the password and then answer 401.
      if (refreshWindowOver(actor.claims)) throw unauthenticated();
      await assertCurrentPassword(db, config, actor, currentPassword);
      const passwordHash = await hashPassword(newPassword);
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const before = await stateIn(trx, actor.userId);
        await repo.updateUserRow(trx, actor.userId, { password_hash: passwordHash });
        await voidResetLinks(trx, actor.userId);
        // That it changed, never a value: no field of the password is recorded.
        await recordUserChange(trx, record, 'user.password', actor.userId, before);
      });
      if (!isBroken('password-change-keeps-other-sessions'))
        await tokens.revokeOtherFamilies(actor.userId, actor.claims.fam);
      // A new token of this session: the same family and refresh window (remember me or not).
      const session = await tokens.rotate(actor.claims);
      if (!session) throw unauthenticated();
      const [user] = await loadUserDtos(db, { ids: [actor.userId] });
      if (!user) throw unauthenticated();
      return { token: session.token, expiresIn: session.expiresIn, user };
    },

    /** A user's instance links, by link id. */
    async instanceLinks(actor: Actor, scope: TargetScope, userId: number) {
      const user = await target(actor, scope, userId);
      const rows = await repo.instanceLinksOf(db, user.id);
      return rows.map((r) => ({
        id: r.id,
        instance: { id: r.instance_id, name: r.name, activated: r.activated, version: r.version },
      }));
    },

    /** Removes one user–instance link of the tenant. */
    async removeInstanceLink(actor: Actor, tenant: TenantRef, linkId: number): Promise<void> {
      const link = await repo.findTenantLink(db, tenant.id, linkId);
      if (!link) throw notFound('No such user–instance link in this tenant', 'id');
      await audit.transaction(auditWho(actor), async (trx, record) => {
        await actingOn(actor, trx, link.user_id);
        const before = await stateIn(trx, link.user_id);
        await repo.deleteLink(trx, link.id);
        await recordUserChange(trx, record, 'user.instance-unlink', link.user_id, before);
      });
    },

    /** The tenant's connected users, optionally without one user and only those linked to an instance. */
    async online(
      _actor: Actor,
      tenant: TenantRef,
      filter: { exceptUserId?: number | null; instanceId?: number | null },
    ): Promise<UserDto[]> {
      const ids = await repo.onlineUserIds(db, tenant.id, filter);
      return loadUserDtos(db, { ids, tenantId: tenant.id });
    },

    /** Who a login-failure report may be narrowed to: id, name and e-mail of the tenant's users. */
    async summaries(_actor: Actor, tenant: TenantRef) {
      return repo.userSummaries(db, tenant.id);
    },

    /**
     * A user's two-factor settings, kept consistent with enrolment (contracts/openapi.yaml
     * `userSettingsUpdate`, GraphQL `updateUserSettings`): `two_factor_enabled` on only for an enrolled
     * user (a no-op), off is a reset of another user that needs the `users` permission;
     * `two_factor_enrolment_required` needs it too, and is refused (409) for a user whose two-factor is
     * already on. Neither is anyone's on its own account (server/src/access/self-service.ts). A reset
     * comes first.
     */
    async updateSettings(
      actor: Actor,
      scope: TargetScope,
      id: number,
      patch: { two_factor_enabled?: boolean; two_factor_enrolment_required?: boolean },
      mode?: RowMode,
    ): Promise<{ user_id: number; two_factor_enabled: boolean; two_factor_enrolment_required: boolean }> {
      // The same rule the doors asked before reading the input, asked again here, where the work is done.
      assertMaySetTwoFactor(actor, id, patch);
      if (patch.two_factor_enabled === undefined && patch.two_factor_enrolment_required === undefined)
        throw invalid('two_factor_enabled', 'Give two_factor_enabled, two_factor_enrolment_required or both');
      const user = await target(actor, scope, id);
      // The reset and the requirement commit together with their one record (`user.two-factor`; none
      // for a no-op), or not at all.
      const stored = await audit.transaction(auditWho(actor), async (trx, record) => {
        await actingOn(actor, trx, user.id);
        const before = await twoFactorFlagsOf(trx, user.id);
        // A bulk run only ever requires enrolment: a user with two-factor on, or already required, is as asked.
        rowGate(
          mode,
          before.two_factor_enabled || before.two_factor_enrolment_required,
          before.two_factor_enabled ? 'Two-factor is already on for this user' : 'Two-factor is already required',
        );
        if (patch.two_factor_enabled === true) {
          if (!before.two_factor_enabled) {
            if (isBroken('two-factor-conflict-as-500')) throw new Error('two-factor flags out of step');
            throw conflict(
              'Two-factor can only be turned on by the user, by enrolling an authenticator app on the two-factor screen',
              'two_factor_enabled',
            );
          }
        } else if (patch.two_factor_enabled === false) {
          // Turning it off without a code is a reset: only with the `users` permission (a user turns its own
          // off with POST /api/two-factor/disable and a code, so a stolen session alone cannot).
          await resetTwoFactorIn(trx, user.id);
        }
        const required = patch.two_factor_enrolment_required;
        if (required !== undefined && !(await repo.setEnrolmentRequired(trx, user.id, required))) {
          throw conflict(
            'Two-factor is already on for this user: there is nothing to enrol (reset it first)',
            'two_factor_enrolment_required',
          );
        }
        const changed = await recordTwoFactorChange(trx, record, user.id, before);
        return { ...(await repo.twoFactorEnabledOf(trx, user.id)), changed };
      });
      // A two-factor change ends the user's sessions (docs/security.md, Credentials and sessions): a reset
      // or a requirement to enrol takes effect at its next sign-in; its own change leaves this session on.
      if (stored.changed) {
        if (user.id === actor.userId) await tokens.revokeOtherFamilies(user.id, actor.claims.fam);
        else await tokens.revokeUser(user.id);
      }
      return {
        user_id: user.id,
        two_factor_enabled: stored.two_factor_enabled,
        two_factor_enrolment_required: stored.two_factor_enrolment_required,
      };
    },

    /**
     * A bulk action on users (docs/lists.md, Bulk actions): each row through the single action's method
     * (setBlocked, updateSettings, disconnect, remove) with its policy and rules, in its own transaction.
     * A user the actor may not see is `not_found` whether or not it exists; its own account is refused
     * (`own_account`), a deleted user too (`deleted`; for a delete it is as asked). A real run writes the
     * batch's record first (or continues the batch it names) and each changed row's record names it.
     */
    async bulk(
      actor: Actor,
      scope: TargetScope,
      input: UserBulkInput,
      options: { fault?: RowFault | undefined; log?: BulkLog | undefined } = {},
    ): Promise<BulkAnswer> {
      checkIds(input.ids);
      const kind = { operation: 'user.bulk', action: input.action } as const;
      let batchId: number | null = null;
      if (input.dryRun) {
        if (input.batchId !== undefined) await assertBatch(db, actor, kind, input.batchId);
      } else {
        batchId = await openBatch({ db, audit }, actor, kind, {
          batchId: input.batchId,
          total: input.total ?? input.ids.length,
        });
      }
      const mode: RowMode = input.dryRun ? 'dry-run' : 'run';
      const rowActor: Actor = batchId === null ? actor : { ...actor, origin: { ...actor.origin, batchId } };
      const results = await eachRow(input.ids, {
        dryRun: input.dryRun,
        fault: options.fault,
        log: options.log,
        names: (ids) => repo.userNames(db, ids),
        work: async (id) => {
          const row = await repo.findUserAnyState(db, id);
          const visible =
            row !== undefined &&
            (scope.tenantId !== null
              ? row.tenant_id === scope.tenantId
              : actor.originBackoffice || row.tenant_id === actor.tenantId);
          if (!row || !visible) throw notFound('User not found', 'id');
          if (row.id === actor.userId)
            throw conflictCode('own_account', 'This is your own account: a bulk action never acts on it');
          const deletedRefusal = () =>
            input.action === 'delete'
              ? conflictCode('already', 'The user is already deleted')
              : conflictCode('deleted', 'The user is deleted');
          if (row.deleted_at !== null) throw deletedRefusal();
          try {
            switch (input.action) {
              case 'block':
              case 'unblock':
                await service.setBlocked(rowActor, scope, id, input.action === 'block', mode);
                return;
              case 'require_two_factor':
                await service.updateSettings(rowActor, scope, id, { two_factor_enrolment_required: true }, mode);
                return;
              case 'end_sessions':
                await service.disconnect(rowActor, scope, id, mode);
                return;
              case 'delete':
                await service.remove(rowActor, scope, id, mode);
                return;
            }
          } catch (error) {
            // The single actions look the user up live: one deleted by a racing run between the read above
            // and theirs is not "not found" but deleted (for a delete: already as asked).
            if (isDomainError(error) && error.kind === 'not_found') {
              const now = await repo.findUserAnyState(db, id);
              if (now !== undefined && now.deleted_at !== null) throw deletedRefusal();
            }
            throw error;
          }
        },
      });
      return { batch_id: batchId, results };
    },
  });
  return service;
}
