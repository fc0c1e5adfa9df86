import type { Kysely, Transaction } from 'kysely';
import { changesOf, type AuditTrail, type Recorder } from '../audit/trail';
import { beforeValuesOf, mismatchesOf, type RevertOutcome, type UndoStep } from '../audit/undo';
import type { Database } from '../db/schema';
import type { EventBus } from '../base/events';
import type { Actor } from '../access/caller';
import { assertMayEditRole } from '../access/escalation';
import { guardService } from '../access/guard';
import { holdsAny } from '../access/permissions';
import { auditWho } from '../audit/trail';
import { conflict, forbidden, invalid, notFound } from '../base/domain-error';
import { holdsEveryRoute } from '../../../src/domain/route-access';
import { ADMIN_ROLE, permittedRoutesOf } from '../db/user-dto';
import * as repo from './repository';
import { sentVersion } from '../audit/versions';
import { isBroken } from '../base/broken-promises';

/**
 * Roles and their route permissions. Roles are shared by every tenant, so only back-office staff may
 * create or change them; each method's policy is server/src/access/policies.ts `roles`. A permission
 * edit adds or removes only permissions the editor holds and never touches the editor's own role
 * (server/src/access/escalation.ts `assertMayEditRole`), decided on the role's permissions read under
 * its row lock. The rules on names match contracts/openapi.yaml `RoleCreate`.
 *
 * Every successful change writes one audit record in its own transaction (server/src/audit/trail.ts):
 * `role.create`, `role.rename`, `role.permissions`, `role.delete`, the target being the role (named by
 * its display name) and no tenant (roles are shared by every tenant). The before is read with the
 * role's row locked. `permissions` is recorded as the sorted route names the role's own rows grant. A
 * call that sets what the role already has still succeeds and is recorded with no changes (one
 * successful call, one record); a refused call records nothing.
 */

const ROLE_NAME = /^[a-z0-9_-]{2,40}$/;
const DISPLAY_NAME_MAX = 80;
/** A role's own columns, as its audit records name them. */
const ROLE_FIELDS = ['name', 'display_name'] as const;

export interface RoleDto {
  id: number;
  name: string;
  display_name: string;
  /** Ascending by route name, no duplicates; every route of the catalogue for `administrador`. */
  has_permission_routes: string[];
  /** Raised by every change of the role, its permissions included (docs/lists.md, Versions). */
  version: number;
}

function checkDisplayName(value: string): string {
  const length = [...value].length;
  if (length < 1 || length > DISPLAY_NAME_MAX)
    throw invalid('display_name', `display_name must be 1–${DISPLAY_NAME_MAX} characters`);
  return value;
}

export function createRolesService({
  db,
  events,
  audit,
}: {
  db: Kysely<Database>;
  events: EventBus;
  audit: AuditTrail;
}) {
  async function dto(role: { id: number; name: string; display_name: string; version: number }): Promise<RoleDto> {
    const routes = await permittedRoutesOf(db, role.id, role.name);
    return { ...role, has_permission_routes: [...new Set(routes)].sort() };
  }

  async function get(id: number): Promise<RoleDto> {
    const role = await repo.findRole(db, id);
    if (!role) throw notFound('Role not found', 'id');
    return dto(role);
  }

  return guardService('roles', {
    /** Every role, ascending by id. */
    async list(_actor: Actor): Promise<RoleDto[]> {
      return Promise.all((await repo.allRoles(db)).map(dto));
    },

    async get(_actor: Actor, id: number): Promise<RoleDto> {
      return get(id);
    },

    async create(actor: Actor, input: { name: string; display_name: string }): Promise<RoleDto> {
      if (!ROLE_NAME.test(input.name)) throw invalid('name', 'name must be 2–40 characters of a–z 0–9 _ -');
      const displayName = checkDisplayName(input.display_name);
      // A clear answer for the common case; the unique index (roles_name_key) decides races.
      if (await repo.roleNameTaken(db, input.name))
        throw isBroken('duplicate-as-500')
          ? new Error('duplicate key')
          : conflict('A role with this name already exists', 'name');
      const values = { name: input.name, display_name: displayName };
      const id = await audit.transaction(auditWho(actor), async (trx, record) => {
        const created = await repo.insertRole(trx, values);
        await record({
          operation: 'role.create',
          target: { id: created, name: displayName },
          tenantId: null,
          changes: changesOf(null, values, ROLE_FIELDS),
        });
        return created;
      });
      return get(id);
    },

    /** With `version`, only while the role is at it (409 `stale` otherwise; docs/lists.md, Versions). */
    async rename(actor: Actor, id: number, displayName: string, version?: number): Promise<RoleDto> {
      const value = checkDisplayName(displayName);
      const sent = sentVersion(version);
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const role = await repo.lockRole(trx, id);
        if (!role) throw notFound('Role not found', 'id');
        // Only an administrador changes the administrador role (server/src/access/escalation.ts): a display
        // name swapped with another role's would have a customer's administrador give it unknowingly.
        if (role.name === ADMIN_ROLE && actor.role !== ADMIN_ROLE)
          throw forbidden([], 'only an administrador may rename the administrador role');
        const raised = await repo.renameRole(trx, role.id, value, sent);
        if (raised === undefined) throw await audit.stale(trx, actor, { type: 'role', id: role.id }, sent ?? 0);
        await record({
          operation: 'role.rename',
          target: { id: role.id, name: value },
          tenantId: null,
          changes: changesOf(role, { display_name: value }, ['display_name']),
          version: raised,
        });
      });
      return get(id);
    },

    /**
     * The role's route permissions become exactly `routeNames`; `administrador` always holds all. With
     * `version`, only while the role is at it (409 `stale` otherwise; docs/lists.md, Versions).
     */
    async setPermissions(
      actor: Actor,
      roleId: number,
      routeNames: readonly string[],
      version?: number,
    ): Promise<RoleDto> {
      const sent = sentVersion(version);
      const role = await get(roleId);
      if (holdsEveryRoute(role.name)) throw conflict('The administrador role always holds every permission', 'roleId');
      const rows = await repo.permissionsNamed(db, routeNames);
      const missing = routeNames.filter((name) => !rows.some((r) => r.route_name === name));
      if (missing.length) throw notFound(`Unknown permission: ${missing.join(', ')}`, 'permissions');
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const locked = await repo.lockRole(trx, roleId);
        if (!locked) throw notFound('Role not found', 'id');
        // Stale before no way up (docs/lists.md, Versions): a checklist loaded before someone else's change
        // may take away a permission that change added and this editor lacks; the editor must see that
        // change (409 `stale`), not a refusal of a removal it never meant. The caller reads the role
        // already (its `roles-edit`), and the row is locked, so the version cannot move before the write.
        if (sent !== undefined && locked.version !== sent)
          throw await audit.stale(trx, actor, { type: 'role', id: roleId }, sent);
        const before = (await repo.grantedRoutes(trx, roleId)).sort();
        assertMayEditRole(actor, locked, before, routeNames);
        const raised = await repo.raiseRoleVersion(trx, roleId, sent);
        if (raised === undefined) throw await audit.stale(trx, actor, { type: 'role', id: roleId }, sent ?? 0);
        await repo.replaceRolePermissions(
          trx,
          roleId,
          rows.map((r) => r.id),
        );
        await record({
          operation: 'role.permissions',
          target: { id: locked.id, name: locked.display_name },
          tenantId: null,
          changes: changesOf({ permissions: before }, { permissions: rows.map((r) => r.route_name).sort() }, [
            'permissions',
          ]),
          version: raised,
        });
      });
      // After the commit: every signed-in holder reloads its permitted routes (contracts/socket.md §3).
      events.publishToEveryTenant('RolePermissionsChanged', { roleId });
      return get(roleId);
    },

    /**
     * Undoes a role's recorded rename or permission change (server/src/undo/service.ts) in the undo's
     * transaction: the role's row locked, its values now compared with the record's `after` (any other
     * value: the mismatches, nothing written), then the `before` values put back with the operation's
     * rules (the administrador role renamed only by an administrador; only permissions the caller holds,
     * never its own role).
     */
    async revert(actor: Actor, trx: Transaction<Database>, record: Recorder, step: UndoStep): Promise<RevertOutcome> {
      const role = await repo.lockRole(trx, step.targetId);
      if (!role) throw notFound('Role not found', 'id');
      const values = beforeValuesOf(step.changes);
      if (step.operation === 'role.rename') {
        const mismatches = mismatchesOf(step.changes, role);
        if (mismatches.length > 0) return { mismatches };
        if (role.name === ADMIN_ROLE && actor.role !== ADMIN_ROLE)
          throw forbidden([], 'only an administrador may rename the administrador role');
        const value = checkDisplayName(String(values.display_name));
        const version = await repo.renameRole(trx, role.id, value);
        await record({
          operation: 'role.rename',
          target: { id: role.id, name: value },
          tenantId: null,
          changes: changesOf(role, { display_name: value }, ['display_name']),
          // The rename's own statement raised the version (./repository.ts): the trail must not raise it again.
          ...(version === undefined ? {} : { version }),
        });
        return { mismatches: [] };
      }
      if (step.operation !== 'role.permissions')
        throw new Error(`roles: ${step.operation} is not a role operation with an inverse`);
      if (holdsEveryRoute(role.name)) throw conflict('The administrador role always holds every permission', 'roleId');
      const before = (await repo.grantedRoutes(trx, role.id)).sort();
      const mismatches = mismatchesOf(step.changes, { permissions: before });
      if (mismatches.length > 0) return { mismatches };
      const wanted = Array.isArray(values.permissions) ? (values.permissions as string[]) : [];
      const rows = await repo.permissionsNamed(trx, wanted);
      assertMayEditRole(actor, role, before, wanted);
      await repo.replaceRolePermissions(
        trx,
        role.id,
        rows.map((r) => r.id),
      );
      await record({
        operation: 'role.permissions',
        target: { id: role.id, name: role.display_name },
        tenantId: null,
        changes: changesOf({ permissions: before }, { permissions: rows.map((r) => r.route_name).sort() }, [
          'permissions',
        ]),
      });
      return {
        mismatches: [],
        afterCommit: () => events.publishToEveryTenant('RolePermissionsChanged', { roleId: role.id }),
      };
    },

    /**
     * Deletes a role no user points at, live or deleted (`users.role_id` keeps the reference). The
     * role's row is locked first: a user being given the role at the same moment either committed
     * before (and is counted here) or waits for the lock and then fails the foreign key
     * users_role_id_fkey (unknown role, server/src/base/domain-error.ts), so no user is left
     * pointing at a deleted role. No `RolePermissionsChanged` follows: nobody held the role, and
     * contracts/socket.md names that event for a replacement of a role's permissions.
     */
    async remove(actor: Actor, id: number): Promise<void> {
      const outcome = await audit.transaction(auditWho(actor), async (trx, record) => {
        const role = await repo.lockRole(trx, id);
        if (!role) return 'missing' as const;
        if (role.name === ADMIN_ROLE) return 'admin' as const;
        const holders = await repo.roleHolders(trx, id);
        if (holders.live > 0 || holders.deleted > 0) return holders;
        const permissions = (await repo.grantedRoutes(trx, id)).sort();
        await repo.deleteRole(trx, id);
        await record({
          operation: 'role.delete',
          target: { id: role.id, name: role.display_name },
          tenantId: null,
          changes: changesOf({ ...role, permissions }, null, [...ROLE_FIELDS, 'permissions']),
        });
        return 'deleted' as const;
      });
      if (outcome === 'missing') throw notFound('Role not found', 'id');
      if (outcome === 'admin') throw conflict('The administrador role cannot be deleted', 'id');
      if (outcome !== 'deleted')
        throw conflict(
          outcome.live > 0
            ? `${outcome.live} user(s) hold this role; give them another role first`
            : 'Deleted users still keep this role, so it cannot be deleted',
          'id',
        );
    },

    /** The permission catalogue, by category then route name. */
    async permissions(_actor: Actor) {
      return repo.allPermissions(db);
    },

    async permissionCategories(_actor: Actor) {
      const groups = new Map<string, Awaited<ReturnType<typeof repo.allPermissions>>>();
      for (const p of await repo.allPermissions(db)) groups.set(p.category, [...(groups.get(p.category) ?? []), p]);
      return [...groups].map(([category, permissions]) => ({ category, permissions }));
    },

    /** The permissions of the user with this e-mail: one's own always; another's with `users` or `roles-list`. */
    async permissionsOf(actor: Actor, email: string) {
      const user = await repo.userRoleByEmail(db, email.toLowerCase());
      // The permission before the record: a caller without it learns nothing of which e-mails exist
      // (403 for any e-mail not its own; server/src/security/attack-regressions.test.ts).
      if (user?.id !== actor.userId && !holdsAny(actor, ['users', 'roles-list']))
        throw forbidden(['users', 'roles-list']);
      if (!user || (!actor.originBackoffice && user.tenant_id !== actor.tenantId))
        throw notFound('User not found', 'email');
      const routes = new Set(await permittedRoutesOf(db, user.role_id, user.role_name));
      return (await repo.allPermissions(db)).filter((p) => routes.has(p.route_name));
    },
  });
}

export type RolesService = ReturnType<typeof createRolesService>;
