import type { Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { Database } from '../db/schema';

export type InstanceDto = components['schemas']['Instance'];

/** An instance with its tenant's name, the columns the contract's `Instance` needs. */
export function instanceQuery(db: Kysely<Database>) {
  return db
    .selectFrom('instances as i')
    .innerJoin('tenants as t', 't.id', 'i.tenant_id')
    .select([
      'i.id',
      'i.tenant_id',
      't.name as tenant_name',
      'i.name',
      'i.activated',
      'i.is_official',
      'i.is_unlimited',
      'i.status',
      'i.sync_progress',
      'i.synced_messages',
      'i.total_messages',
      'i.created_at',
      'i.version',
    ]);
}

export type InstanceRow = Awaited<ReturnType<ReturnType<typeof instanceQuery>['executeTakeFirstOrThrow']>>;

/** The contract's `Instance` (REST answers and the `InstanceUpdated` socket event alike). */
export function instanceDto(row: InstanceRow): InstanceDto {
  return {
    id: row.id,
    name: row.name,
    activated: row.activated,
    tenantName: row.tenant_name,
    isOfficial: row.is_official,
    isUnlimited: row.is_unlimited,
    status: row.status,
    syncProgress: row.sync_progress,
    syncedMessages: row.synced_messages,
    totalMessages: row.total_messages,
    created_at: row.created_at.toISOString(),
    version: row.version,
  };
}

/** Loads one instance as the contract's `Instance`, or undefined. */
export async function loadInstanceDto(db: Kysely<Database>, id: number): Promise<InstanceDto | undefined> {
  const row = await instanceQuery(db).where('i.id', '=', id).executeTakeFirst();
  return row ? instanceDto(row) : undefined;
}
