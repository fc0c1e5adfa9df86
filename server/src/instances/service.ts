import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { EventBus } from '../events';
import { conflict, invalid, notFound } from '../shared/domain-error';
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

/** An instance name: trimmed, 1–80 characters, not blank (contracts/openapi.yaml `InstanceCreate`). */
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

    async connections(tenant: TenantRef) {
      return (await repo.tenantConnections(db, tenant.id)).map((r) => ({
        id: r.id,
        tenantName: tenant.name,
        instance_id: r.instance_id,
        instance_name: r.instance_name,
        phone: r.phone,
        status: r.status,
        last_seen_at: r.last_seen_at?.toISOString() ?? null,
      }));
    },
  };
}

export type InstancesService = ReturnType<typeof createInstancesService>;
