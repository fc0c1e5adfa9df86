import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * The users list filtered and paged on the server (docs/lists.md, Filters and export;
 * server/src/users/list.ts), at 100,000 users in one tenant:
 *
 * - `users_list_name_idx`: a tenant's live users by name (the list's default order and every sort's
 *   tie-break), holding every filtered column and the folded search text. A filter walks it in the
 *   answer's order until the page is full, and counts its matches, without reading a table row
 *   (an index-only scan).
 * - `users_list_email_idx`, `users_list_presence_idx`: the same walk for the e-mail and presence sorts
 *   (presence ascending is online first: `not is_connected`).
 *
 * Role and department sort by the names the list shows, read from their own tables: no index of users
 * holds them, so those two sorts read the tenant's matches and sort them (docs/performance.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create index users_list_name_idx on users (tenant_id, name, id)
       include (role_id, department_id, blocked, is_connected, two_factor_enabled, support_search)
       where deleted_at is null`,
    `create index users_list_email_idx on users (tenant_id, email, name, id) where deleted_at is null`,
    `create index users_list_presence_idx on users (tenant_id, (not is_connected), name, id) where deleted_at is null`,
  ]);
}
