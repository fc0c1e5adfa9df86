import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * An exact index for the tenant search's common case, a search of letters and digits only
 * (server/src/tenants/search.ts). Such a search lies within one run of letters and digits of what it
 * matches, so it matches a tenant exactly when it begins one of the suffixes of
 * - a word of the name or of the lower-case masked CNPJ (`search_text LIKE`, migrations 0007 and 0008), or
 * - the upper-case bare CNPJ (`cnpj_bare`, migration 0008), for a search that reads as part of a CNPJ.
 * `tenant_search_lexemes` lists those suffixes as a tsvector (lower-case, and upper-case for the bare
 * CNPJ); a GIN index over it answers `@@ 'term':*` without a recheck, where the trigram index of
 * migration 0007 rechecked `LIKE` on every match it read ('drogaria': 16,672 tenants at 100,000,
 * docs/performance.md). Live tenants only, as the screen searches them; the soft-deleted ones stay on
 * the trigram indexes. Core PostgreSQL (tsvector, GIN), so PGlite builds it as well.
 *
 * `fastupdate` is off: a pending list would be read in full by every search; tenant writes are rare.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create function tenant_search_lexemes(name text, cnpj text) returns tsvector
       language sql immutable strict parallel safe
       as $$
         select array_to_tsvector(array(
           select substr(w, i)
             from regexp_split_to_table(name || ' ' || lower(cnpj), '[^a-z0-9]+') as w, generate_series(1, length(w)) as i
           union all
           select substr(b, i)
             from (select regexp_replace(cnpj, '[^0-9A-Z]', '', 'g') as b) as bare, generate_series(1, length(b)) as i
         ))
       $$`,
    `create index tenants_live_search_lexemes_idx on tenants using gin (tenant_search_lexemes(name, cnpj)) with (fastupdate = off) where deleted_at is null`,
  ]);
}
