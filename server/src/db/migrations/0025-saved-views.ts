import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Saved views (docs/lists.md, Views): a user's named states of a list (its address search string and
 * the columns it hides), one of them the list's default.
 *
 * - Names are unique per user and list ignoring case (`saved_views_name_key` on `name_key`, the name in
 *   Unicode lower case as the service computes it: PostgreSQL's `lower()` follows the database's locale,
 *   which under `C` leaves "Ã" as it is). The service checks first for a clear answer; the index decides
 *   when two requests race.
 * - At most one default per user and list (`saved_views_default_key`, partial): switching the default
 *   clears the old one and sets the new one in one transaction, and the index refuses a second default
 *   a concurrent switch would leave.
 * - The views go with their user when it is purged (`on delete cascade`); a soft-deleted user keeps them
 *   unseen (nobody signs in as it) and finds them again when restored.
 * - The 50-per-list limit is counted by the service under a lock of the user's row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create table saved_views (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      list text not null check (list in ('users', 'tenants', 'audit')),
      name text not null,
      name_key text not null,
      state jsonb not null,
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create unique index saved_views_name_key on saved_views (user_id, list, name_key)`,
    `create unique index saved_views_default_key on saved_views (user_id, list) where is_default`,
  ]);
}
