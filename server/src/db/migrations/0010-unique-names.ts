import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Uniqueness the services promised but only checked before inserting, so two requests at once could
 * both pass the check (a duplicate instance from 16 identical requests on PostgreSQL): now the
 * database decides, and its violation becomes the contract's conflict in one place
 * (server/src/base/domain-error.ts).
 *
 * - usernames are unique among a tenant's live users, ignoring case (contracts/schema.graphql `newUser`);
 * - instance names are unique within a tenant, ignoring case (contracts/openapi.yaml `InstanceCreate`).
 *
 * Rows that already break the rule (written by such a race, or by the REST path that did not check
 * usernames) are renamed first, keeping the oldest row's name and suffixing the others with their id,
 * so the migration never fails on existing data and nothing is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `update users u set username = left(u.username, 40 - length(u.id::text) - 1) || '-' || u.id
      where u.deleted_at is null and exists (
        select 1 from users o
        where o.tenant_id = u.tenant_id and o.deleted_at is null and lower(o.username) = lower(u.username) and o.id < u.id
      )`,
    `create unique index users_tenant_username_key on users (tenant_id, lower(username)) where deleted_at is null`,
    `update instances i set name = left(i.name, 80 - length(i.id::text) - 3) || ' (' || i.id || ')'
      where exists (
        select 1 from instances o where o.tenant_id = i.tenant_id and lower(o.name) = lower(i.name) and o.id < i.id
      )`,
    `create unique index instances_tenant_name_key on instances (tenant_id, lower(name))`,
  ]);
}
