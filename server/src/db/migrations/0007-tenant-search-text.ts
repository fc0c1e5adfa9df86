import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * One searched column for the tenant search instead of two. `search_text` is the name and the masked
 * CNPJ joined by a space, which neither can hold (the name is a slug, the CNPJ digits and punctuation),
 * so a search without a space matches it exactly when it matches the name or the CNPJ. Searching it
 * with `like lower(…)` (both parts have no upper-case letters) replaces `name ilike … union cnpj ilike …`:
 * one trigram bitmap scan and no de-duplication, and a plain LIKE where ILIKE lower-cased all 100,000
 * rows whenever the planner chose a scan (docs/performance.md: 'drogaria', 17 % of 100,000 tenants,
 * 45 → 12 ms). The two per-column trigram indexes it replaces are dropped; the digits one stays.
 *
 * `tenants_live_name_idx` serves the list sorted by name (the default sort of the screen's search):
 * an index-only walk over live tenants for the page, however deep.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table tenants add column search_text text generated always as (name || ' ' || cnpj) stored`,
    `create index tenants_live_name_idx on tenants (name, id) where deleted_at is null`,
    `do $$
    begin
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists tenants_search_text_trgm_idx on tenants using gin (search_text gin_trgm_ops);
        drop index if exists tenants_name_trgm_idx;
        drop index if exists tenants_cnpj_trgm_idx;
      end if;
    end
    $$`,
  ]);
}
