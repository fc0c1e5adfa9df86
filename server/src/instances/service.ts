import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { Database } from '../db/schema';
import type { EventBus } from '../events';
import { conflict, invalid, notFound, unknownReference } from '../shared/domain-error';
import type { TenantRef } from '../tenants/scope';
import { loadInstanceDto, type InstanceDto } from './instance-dto';
import * as repo from './repository';
import { startSync } from './sync';

/**
 * Instances (messaging channels) and connections of a tenant. Names are unique within a tenant,
 * ignoring case (the index instances_tenant_name_key decides when two requests race). Every change is
 * published to the tenant's sockets as `InstanceUpdated` (contracts/socket.md).
 */

const NAME_MAX_LENGTH = 80;

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
}

export interface ConnectionChange {
  name?: string;
  activated?: boolean;
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
  };
}

export function createInstancesService({ db, events }: { db: Kysely<Database>; events: EventBus }) {
  async function publish(id: number): Promise<InstanceDto> {
    const dto = await loadInstanceDto(db, id);
    if (!dto) throw notFound('Instance not found', 'id');
    events.publish(dto.tenantName, 'InstanceUpdated', dto);
    return dto;
  }

  async function target(tenant: TenantRef, id: number) {
    const row = await repo.findTenantInstance(db, tenant.id, id);
    if (!row) throw notFound('Instance not found', 'id');
    return row;
  }

  async function assertConnectionNameFree(instanceId: number, name: string, exceptId?: number) {
    if (await repo.connectionNameTaken(db, instanceId, name, exceptId))
      throw conflict('A connection with this name already exists', 'name');
  }

  async function connection(tenant: TenantRef, id: number): Promise<ConnectionDto> {
    const row = await repo.findTenantConnection(db, tenant.id, id);
    if (!row) throw notFound('Connection not found', 'id');
    return connectionDto(tenant, row);
  }

  async function assertNameFree(tenant: TenantRef, name: string, exceptId?: number) {
    if (await repo.instanceNameTaken(db, tenant.id, name, exceptId))
      throw conflict('An instance with this name already exists', 'name');
  }

  return {
    list(tenant: TenantRef): Promise<InstanceDto[]> {
      return repo.tenantInstances(db, tenant.id);
    },

    /** Id, name and activated of the tenant's instances, without `exceptIds` (GraphQL `instances`). */
    summaries(tenant: TenantRef, exceptIds: readonly number[]) {
      return repo.instanceSummaries(db, tenant.id, exceptIds);
    },

    async create(
      tenant: TenantRef,
      input: { name: string; isOfficial: boolean; isUnlimited: boolean },
    ): Promise<InstanceDto> {
      const name = checkName(input.name);
      await assertNameFree(tenant, name);
      const id = await repo.insertInstance(db, {
        tenant_id: tenant.id,
        name,
        is_official: input.isOfficial,
        is_unlimited: input.isUnlimited,
      });
      return publish(id);
    },

    async update(tenant: TenantRef, id: number, change: InstanceChange): Promise<InstanceDto> {
      const set: { name?: string; activated?: boolean; is_official?: boolean; is_unlimited?: boolean } = {};
      if (change.name !== undefined) set.name = checkName(change.name);
      const row = await target(tenant, id);
      if (set.name !== undefined) await assertNameFree(tenant, set.name, row.id);
      if (change.activated !== undefined) set.activated = change.activated;
      if (change.isOfficial !== undefined) set.is_official = change.isOfficial;
      if (change.isUnlimited !== undefined) set.is_unlimited = change.isUnlimited;
      await repo.updateInstance(db, row.id, set);
      return publish(row.id);
    },

    /** Starts a message sync in the background (./sync.ts); one at a time per instance. */
    async syncMessages(
      tenant: TenantRef,
      input: { id: number; daysAgo: number | null; unlimitedSync: boolean },
      log: FastifyBaseLogger,
    ): Promise<InstanceDto> {
      if (!input.unlimitedSync && input.daysAgo === null)
        throw invalid('daysAgo', 'is required unless unlimitedSync is true');
      const row = await target(tenant, input.id);
      const dto = await startSync(
        { db, events, log },
        { instanceId: row.id, tenantId: tenant.id, daysAgo: input.unlimitedSync ? null : input.daysAgo },
      );
      if (!dto) throw conflict('A sync of this instance is already running', 'id');
      return dto;
    },

    async connections(tenant: TenantRef): Promise<ConnectionDto[]> {
      return (await repo.tenantConnections(db, tenant.id)).map((r) => connectionDto(tenant, r));
    },

    /**
     * A new, activated connection of one of the tenant's instances (status `disconnected` until the
     * channel pairs). Names are unique within the instance ignoring case; the index
     * connections_instance_name_key (migration 0013) decides races.
     */
    async createConnection(tenant: TenantRef, input: { instance_id: number; name: string }): Promise<ConnectionDto> {
      const name = checkName(input.name);
      const instance = await repo.findTenantInstance(db, tenant.id, input.instance_id);
      if (!instance) throw unknownReference('instance_id', 'No such instance in this tenant');
      await assertConnectionNameFree(instance.id, name);
      const id = await repo.insertConnection(db, { tenant_id: tenant.id, instance_id: instance.id, name });
      return connection(tenant, id);
    },

    /** Renames, activates or deactivates a connection of the tenant. */
    async updateConnection(tenant: TenantRef, id: number, change: ConnectionChange): Promise<ConnectionDto> {
      const set: { name?: string; activated?: boolean } = {};
      if (change.name !== undefined) set.name = checkName(change.name);
      if (change.activated !== undefined) set.activated = change.activated;
      if (Object.keys(set).length === 0) throw invalid('name', 'name or activated is required');
      const row = await repo.findTenantConnection(db, tenant.id, id);
      if (!row) throw notFound('Connection not found', 'id');
      if (set.name !== undefined) await assertConnectionNameFree(row.instance_id, set.name, row.id);
      await repo.updateConnection(db, row.id, set);
      return connection(tenant, row.id);
    },
  };
}

export type InstancesService = ReturnType<typeof createInstancesService>;
