import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import { changesOf, type AuditTrail, type Recorder } from '../audit/trail';
import { beforeValuesOf, mismatchesOf, type RevertOutcome, type UndoStep } from '../audit/undo';
import type { Database } from '../db/schema';
import type { EventBus } from '../base/events';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import { auditWho } from '../audit/trail';
import { conflict, forbidden, invalid, notFound, unknownReference } from '../base/domain-error';
import { lockLiveTenant, type TenantRef } from '../tenants/scope';
import { instanceDto, instanceQuery, type InstanceDto } from './instance-dto';
import * as repo from './repository';
import { claimSync, launchSync } from './sync';
import { sentVersion } from '../audit/versions';

/**
 * Instances (messaging channels) and connections of a tenant. Names are unique within a tenant,
 * ignoring case (the index instances_tenant_name_key decides when two requests race). Every change is
 * published to the tenant's sockets as `InstanceUpdated` (contracts/socket.md), after its commit.
 *
 * Every successful change by a person writes one audit record in the change's transaction
 * (server/src/audit/trail.ts): `instance.create`, `instance.update`, `instance.sync` (the sync being
 * started: the claim's `status` and counters; its progress is the server's work, not recorded),
 * `connection.create`, `connection.update`, with the before (read with the row locked) and after of
 * the fields that changed, under the target's tenant. A change that sets the values already stored
 * still succeeds and is recorded with no changes (one successful call, one record); a refused call
 * records nothing.
 */

const NAME_MAX_LENGTH = 80;
/** The columns a person sets, as their audit records name them. */
const INSTANCE_FIELDS = ['name', 'activated', 'is_official', 'is_unlimited'] as const;
const SYNC_FIELDS = ['status', 'sync_progress', 'synced_messages', 'total_messages'] as const;
const CONNECTION_FIELDS = ['name', 'instance_id', 'activated'] as const;

type Db = Kysely<Database> | Transaction<Database>;

/** Official and unlimited instances are what the provider bills for (docs/product.md, Instances). */
const billingFlags = () => forbidden([], 'only back-office staff may make an instance official or unlimited');

/**
 * An instance or connection name: trimmed, 1–80 characters, not blank (contracts/openapi.yaml
 * `InstanceCreate`, `ConnectionCreate`).
 */
function checkName(value: string): string {
  const name = value.trim();
  if (!name) throw invalid('name', 'must not be blank');
  if ([...value].length > NAME_MAX_LENGTH) throw invalid('name', `must have at most ${NAME_MAX_LENGTH} characters`);
  return name;
}

export interface InstanceChange {
  name?: string;
  activated?: boolean;
  isOfficial?: boolean;
  isUnlimited?: boolean;
  /** The version the caller read: the change is refused (409 `stale`) unless it is current (docs/lists.md, Versions). */
  version?: number | null;
}

export interface ConnectionChange {
  name?: string;
  activated?: boolean;
  /** The version the caller read: the change is refused (409 `stale`) unless it is current (docs/lists.md, Versions). */
  version?: number | null;
}

export type ConnectionDto = components['schemas']['Connection'];

function connectionDto(
  tenant: TenantRef,
  r: {
    id: number;
    instance_id: number;
    instance_name: string;
    name: string;
    activated: boolean;
    phone: string | null;
    status: ConnectionDto['status'];
    last_seen_at: Date | null;
    version: number;
  },
): ConnectionDto {
  return {
    id: r.id,
    tenantName: tenant.name,
    instance_id: r.instance_id,
    instance_name: r.instance_name,
    name: r.name,
    activated: r.activated,
    phone: r.phone,
    status: r.status,
    last_seen_at: r.last_seen_at?.toISOString() ?? null,
    version: r.version,
  };
}

export function createInstancesService({
  db,
  events,
  audit,
}: {
  db: Kysely<Database>;
  events: EventBus;
  audit: AuditTrail;
}) {
  async function publish(id: number): Promise<InstanceDto> {
    const row = await instanceQuery(db).where('i.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Instance not found', 'id');
    const dto = instanceDto(row);
    events.publish({ id: row.tenant_id, name: row.tenant_name }, 'InstanceUpdated', dto);
    return dto;
  }

  /** The tenant's instance, locked (./repository.ts `lockTenantInstance`); 404 when it is not one. */
  async function target(trx: Transaction<Database>, tenant: TenantRef, id: number) {
    const row = await repo.lockTenantInstance(trx, tenant.id, id);
    if (!row) throw notFound('Instance not found', 'id');
    return row;
  }

  async function assertConnectionNameFree(trx: Db, instanceId: number, name: string, exceptId?: number) {
    if (await repo.connectionNameTaken(trx, instanceId, name, exceptId))
      throw conflict('A connection with this name already exists', 'name');
  }

  async function connection(tenant: TenantRef, id: number): Promise<ConnectionDto> {
    const row = await repo.findTenantConnection(db, tenant.id, id);
    if (!row) throw notFound('Connection not found', 'id');
    return connectionDto(tenant, row);
  }

  async function assertNameFree(trx: Db, tenant: TenantRef, name: string, exceptId?: number) {
    if (await repo.instanceNameTaken(trx, tenant.id, name, exceptId))
      throw conflict('An instance with this name already exists', 'name');
  }

  return guardService('instances', {
    async list(_actor: Actor, tenant: TenantRef): Promise<InstanceDto[]> {
      return repo.tenantInstances(db, tenant.id);
    },

    /** Id, name and activated of the tenant's instances, without `exceptIds` (GraphQL `instances`). */
    async summaries(_actor: Actor, tenant: TenantRef, exceptIds: readonly number[]) {
      return repo.instanceSummaries(db, tenant.id, exceptIds);
    },

    async create(
      actor: Actor,
      tenant: TenantRef,
      input: { name: string; isOfficial: boolean; isUnlimited: boolean },
    ): Promise<InstanceDto> {
      const name = checkName(input.name);
      // Billing flags are the provider's: a customer's instance starts neither official nor unlimited.
      if (!actor.originBackoffice && (input.isOfficial || input.isUnlimited)) throw billingFlags();
      await assertNameFree(db, tenant, name);
      const id = await audit.transaction(auditWho(actor), async (trx, record) => {
        const created = await repo.insertInstance(trx, {
          tenant_id: tenant.id,
          name,
          is_official: input.isOfficial,
          is_unlimited: input.isUnlimited,
        });
        await record({
          operation: 'instance.create',
          target: { id: created.id, name: created.name },
          tenantId: tenant.id,
          changes: changesOf(null, created, INSTANCE_FIELDS),
        });
        return created.id;
      });
      return publish(id);
    },

    async update(actor: Actor, tenant: TenantRef, id: number, change: InstanceChange): Promise<InstanceDto> {
      const set: { name?: string; activated?: boolean; is_official?: boolean; is_unlimited?: boolean } = {};
      if (change.name !== undefined) set.name = checkName(change.name);
      const sent = sentVersion(change.version);
      const instanceId = await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await target(trx, tenant, id);
        // Billing flags are the provider's: a customer may send them unchanged (its form shows them), not change them.
        const flips =
          (change.isOfficial !== undefined && change.isOfficial !== row.is_official) ||
          (change.isUnlimited !== undefined && change.isUnlimited !== row.is_unlimited);
        if (flips && !actor.originBackoffice) throw billingFlags();
        if (set.name !== undefined) await assertNameFree(trx, tenant, set.name, row.id);
        if (change.activated !== undefined) set.activated = change.activated;
        if (change.isOfficial !== undefined) set.is_official = change.isOfficial;
        if (change.isUnlimited !== undefined) set.is_unlimited = change.isUnlimited;
        const updated = await repo.updateInstance(trx, row.id, set, sent);
        if (!updated) throw await audit.stale(trx, actor, { type: 'instance', id: row.id }, sent ?? 0);
        await record({
          operation: 'instance.update',
          target: { id: updated.id, name: updated.name },
          tenantId: tenant.id,
          changes: changesOf(row, updated, INSTANCE_FIELDS),
          version: updated.version,
        });
        return updated.id;
      });
      return publish(instanceId);
    },

    /**
     * Starts a message sync in the background (./sync.ts); one at a time per instance. The start is
     * claimed and recorded in one transaction; the batches run after its commit.
     */
    async syncMessages(
      actor: Actor,
      tenant: TenantRef,
      input: { id: number; daysAgo: number | null; unlimitedSync: boolean },
      log: FastifyBaseLogger,
    ): Promise<InstanceDto> {
      if (!input.unlimitedSync && input.daysAgo === null)
        throw invalid('daysAgo', 'is required unless unlimitedSync is true');
      const claimed = await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await target(trx, tenant, input.id);
        const p = await claimSync(trx, {
          instanceId: row.id,
          tenantId: tenant.id,
          daysAgo: input.unlimitedSync ? null : input.daysAgo,
        });
        if (!p) throw conflict('A sync of this instance is already running', 'id');
        await record({
          operation: 'instance.sync',
          target: { id: row.id, name: row.name },
          tenantId: tenant.id,
          changes: changesOf(
            row,
            { status: 'syncing', sync_progress: 0, synced_messages: 0, total_messages: p.total },
            SYNC_FIELDS,
          ),
        });
        return p;
      });
      const dto = await launchSync({ db, events, log }, claimed);
      if (!dto) throw notFound('Instance not found', 'id');
      return dto;
    },

    async connections(_actor: Actor, tenant: TenantRef): Promise<ConnectionDto[]> {
      return (await repo.tenantConnections(db, tenant.id)).map((r) => connectionDto(tenant, r));
    },

    /**
     * A new, activated connection of one of the tenant's instances (status `disconnected` until the
     * channel pairs). Names are unique within the instance ignoring case; the index
     * connections_instance_name_key (migration 0013) decides races.
     */
    async createConnection(
      actor: Actor,
      tenant: TenantRef,
      input: { instance_id: number; name: string },
    ): Promise<ConnectionDto> {
      const name = checkName(input.name);
      const instance = await repo.findTenantInstance(db, tenant.id, input.instance_id);
      if (!instance) throw unknownReference('instance_id', 'No such instance in this tenant');
      await assertConnectionNameFree(db, instance.id, name);
      const id = await audit.transaction(auditWho(actor), async (trx, record) => {
        const created = await repo.insertConnection(trx, { tenant_id: tenant.id, instance_id: instance.id, name });
        const after = await repo.findTenantConnection(trx, tenant.id, created);
        await record({
          operation: 'connection.create',
          target: { id: created, name },
          tenantId: tenant.id,
          changes: changesOf(null, after ?? null, CONNECTION_FIELDS),
        });
        return created;
      });
      return connection(tenant, id);
    },

    /** Renames, activates or deactivates a connection of the tenant. */
    async updateConnection(
      actor: Actor,
      tenant: TenantRef,
      id: number,
      change: ConnectionChange,
    ): Promise<ConnectionDto> {
      const set: { name?: string; activated?: boolean } = {};
      if (change.name !== undefined) set.name = checkName(change.name);
      if (change.activated !== undefined) set.activated = change.activated;
      if (Object.keys(set).length === 0) throw invalid('name', 'name or activated is required');
      const sent = sentVersion(change.version);
      const connectionId = await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = (await repo.lockTenantConnection(trx, tenant.id, id))
          ? await repo.findTenantConnection(trx, tenant.id, id)
          : undefined;
        if (!row) throw notFound('Connection not found', 'id');
        if (set.name !== undefined) await assertConnectionNameFree(trx, row.instance_id, set.name, row.id);
        const raised = await repo.updateConnection(trx, row.id, set, sent);
        if (raised === undefined) throw await audit.stale(trx, actor, { type: 'connection', id: row.id }, sent ?? 0);
        const after = { ...row, ...set };
        await record({
          operation: 'connection.update',
          target: { id: row.id, name: after.name },
          tenantId: tenant.id,
          changes: changesOf(row, after, CONNECTION_FIELDS),
          version: raised,
        });
        return row.id;
      });
      return connection(tenant, connectionId);
    },

    /**
     * Undoes an instance's or a connection's recorded change (server/src/undo/service.ts) in the undo's
     * transaction: the record of the record's tenant (the caller's own, except for staff; else not found)
     * locked, its values now compared with the record's `after`, then the `before` values put back with
     * the operation's rules (billing flags only by staff; a name taken since is a conflict).
     */
    async revert(actor: Actor, trx: Transaction<Database>, record: Recorder, step: UndoStep): Promise<RevertOutcome> {
      const tenantId = step.tenantId;
      const missing = step.operation === 'connection.update' ? 'Connection not found' : 'Instance not found';
      if (tenantId === null || (!actor.originBackoffice && tenantId !== actor.tenantId)) throw notFound(missing, 'id');
      await lockLiveTenant(trx, tenantId);
      const values = beforeValuesOf(step.changes);
      if (step.operation === 'connection.update') {
        const row = (await repo.lockTenantConnection(trx, tenantId, step.targetId))
          ? await repo.findTenantConnection(trx, tenantId, step.targetId)
          : undefined;
        if (!row) throw notFound(missing, 'id');
        const mismatches = mismatchesOf(step.changes, row);
        if (mismatches.length > 0) return { mismatches };
        const set: { name?: string; activated?: boolean } = {};
        if (typeof values.name === 'string') {
          set.name = checkName(values.name);
          await assertConnectionNameFree(trx, row.instance_id, set.name, row.id);
        }
        if (typeof values.activated === 'boolean') set.activated = values.activated;
        const version = await repo.updateConnection(trx, row.id, set);
        const after = { ...row, ...set };
        await record({
          operation: 'connection.update',
          target: { id: row.id, name: after.name },
          tenantId,
          changes: changesOf(row, after, CONNECTION_FIELDS),
          // The update's own statement raised the version (./repository.ts): the trail must not raise it again.
          ...(version === undefined ? {} : { version }),
        });
        return { mismatches: [] };
      }
      if (step.operation !== 'instance.update')
        throw new Error(`instances: ${step.operation} is not an instance operation with an inverse`);
      const row = await repo.lockTenantInstance(trx, tenantId, step.targetId);
      if (!row) throw notFound(missing, 'id');
      const mismatches = mismatchesOf(step.changes, row);
      if (mismatches.length > 0) return { mismatches };
      const set: { name?: string; activated?: boolean; is_official?: boolean; is_unlimited?: boolean } = {};
      if (typeof values.name === 'string') {
        set.name = checkName(values.name);
        await assertNameFree(trx, { id: tenantId, name: '' }, set.name, row.id);
      }
      if (typeof values.activated === 'boolean') set.activated = values.activated;
      for (const flag of ['is_official', 'is_unlimited'] as const)
        if (typeof values[flag] === 'boolean') {
          if (values[flag] !== row[flag] && !actor.originBackoffice) throw billingFlags();
          set[flag] = values[flag];
        }
      const updated = await repo.updateInstance(trx, row.id, set);
      if (!updated) throw notFound(missing, 'id');
      await record({
        operation: 'instance.update',
        target: { id: updated.id, name: updated.name },
        tenantId,
        changes: changesOf(row, updated, INSTANCE_FIELDS),
        // The update's own statement raised the version (./repository.ts): the trail must not raise it again.
        version: updated.version,
      });
      return { mismatches: [], afterCommit: async () => void (await publish(updated.id)) };
    },
  });
}

export type InstancesService = ReturnType<typeof createInstancesService>;
