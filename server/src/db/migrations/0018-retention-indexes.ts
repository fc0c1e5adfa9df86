import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * The daily retention purge deletes spent token families (server/src/audit/retention-purges.ts): those
 * begun before a cut-off and those revoked before another, oldest first, in batches. One index for each,
 * so a batch reads only the rows it deletes instead of the whole table (the revoked ones are a part of
 * it: a partial index). Sign-in attempts are read by `login_attempts_created_idx` of migration 0002.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create index token_families_created_idx on token_families (created_at)`,
    `create index token_families_revoked_idx on token_families (revoked_at) where revoked_at is not null`,
  ]);
}
