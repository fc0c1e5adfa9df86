import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Trigram indexes so `ILIKE '%term%'` over tenant name and CNPJ uses an index on PostgreSQL.
 * pg_trgm is optional: where it cannot be created (not installed, or no privilege) the migration
 * still succeeds and the search falls back to a scan. The exception block runs in a subtransaction,
 * so a refused CREATE EXTENSION does not abort the migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `do $$
    begin
      create extension if not exists pg_trgm;
    exception when others then
      raise notice 'pg_trgm unavailable (%), tenant search will not use trigram indexes', sqlerrm;
    end
    $$`,
    `do $$
    begin
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists tenants_name_trgm_idx on tenants using gin (name gin_trgm_ops);
        create index if not exists tenants_cnpj_trgm_idx on tenants using gin (cnpj gin_trgm_ops);
        create index if not exists tenants_cnpj_digits_trgm_idx on tenants using gin (cnpj_digits gin_trgm_ops);
      end if;
    end
    $$`,
  ]);
}
