import { sql, type Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { Database } from '../db/schema';

export type TenantDto = components['schemas']['Tenant'];

/** The tenant columns plus enabled features and user count, as the contract's `Tenant`. */
export function tenantQuery(db: Kysely<Database>) {
  return db
    .selectFrom('tenants as t')
    .select([
      't.id',
      't.name',
      't.cnpj',
      't.template',
      't.pool',
      't.user_limit',
      't.plan',
      't.ticket_limit',
      't.created_at',
      't.deleted_at',
      't.version',
      't.features_version',
      sql<
        string[]
      >`coalesce((select array_agg(f.option order by f.option) from tenant_features f where f.tenant_id = t.id and f.enabled), '{}')`.as(
        'features',
      ),
      sql<number>`(select count(*)::int from users u where u.tenant_id = t.id and u.deleted_at is null)`.as(
        'users_count',
      ),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof tenantQuery>['executeTakeFirstOrThrow']>>;

export function toTenantDto(row: Row): TenantDto {
  return {
    id: row.id,
    name: row.name,
    cnpj: row.cnpj,
    features: row.features,
    template: row.template,
    pool: row.pool,
    userLimit: row.user_limit,
    plan: row.plan as TenantDto['plan'],
    ticketLimit: row.ticket_limit,
    users_count: row.users_count,
    created_at: new Date(row.created_at).toISOString(),
    deleted_at: row.deleted_at ? new Date(row.deleted_at).toISOString() : null,
    version: row.version,
    features_version: row.features_version,
  };
}
