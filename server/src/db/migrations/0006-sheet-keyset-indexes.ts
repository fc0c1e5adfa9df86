import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Indexes for the sheets' keyset pages (rest/sheet-stream.ts): every page is
 * `where <range> and (time, id) > (cursor) order by time, id limit n`, over every tenant (staff) or one.
 * Without an index on exactly `(time, id)` each page scanned and sorted the whole range: a 1,000,000-row
 * orders sheet took ~1.5 s per 2,000-row page (bench/scale.ts). `(time, id)` serves the all-tenant
 * sheets, `(tenant_id, time, id)` the one-tenant ones and replaces the former `(tenant_id, time)`
 * index, of which it is a superset.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create index orders_created_id_idx on orders (created_at, id)`,
    `create index orders_tenant_created_id_idx on orders (tenant_id, created_at, id)`,
    `drop index orders_tenant_created_idx`,
    `create index attendances_started_id_idx on attendances (started_at, id)`,
    `create index attendances_tenant_started_id_idx on attendances (tenant_id, started_at, id)`,
    `drop index attendances_tenant_started_idx`,
    `create index instance_logs_created_id_idx on instance_logs (created_at, id)`,
    `create index instance_logs_tenant_created_id_idx on instance_logs (tenant_id, created_at, id)`,
    `drop index instance_logs_tenant_created_idx`,
    `create index attendance_reasons_created_id_idx on attendance_reasons (created_at, id)`,
    `create index attendance_reasons_tenant_created_id_idx on attendance_reasons (tenant_id, created_at, id)`,
    `drop index attendance_reasons_tenant_created_idx`,
  ]);
}
