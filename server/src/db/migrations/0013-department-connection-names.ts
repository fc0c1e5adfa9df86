import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Departments and connections become editable (contracts/openapi.yaml `departmentCreate`,
 * `departmentUpdate`, `connectionCreate`, `connectionUpdate`):
 *
 * - department names are unique within a tenant ignoring case, as instance names are (0010): the
 *   case-sensitive constraint of 0001 becomes a unique index on `lower(name)` under the same name, so
 *   server/src/base/domain-error.ts maps it as before. Rows that already differ only in case keep the
 *   oldest row's name; the others get their id appended, so nothing is deleted and the index builds.
 * - a connection gets a name, unique within its instance ignoring case, and an `activated` flag (on).
 *   Existing connections are named "Conexão <id>", which is unique.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table departments drop constraint departments_tenant_name_key`,
    `update departments d set name = left(d.name, 80 - length(d.id::text) - 3) || ' (' || d.id || ')'
      where exists (
        select 1 from departments o where o.tenant_id = d.tenant_id and lower(o.name) = lower(d.name) and o.id < d.id
      )`,
    `create unique index departments_tenant_name_key on departments (tenant_id, lower(name))`,
    `alter table connections add column name text`,
    `update connections set name = 'Conexão ' || id`,
    `alter table connections alter column name set not null`,
    `alter table connections add column activated boolean not null default true`,
    `create unique index connections_instance_name_key on connections (instance_id, lower(name))`,
  ]);
}
