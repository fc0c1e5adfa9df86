import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Alphanumeric CNPJs (src/domain/cnpj.ts): the base's 12 characters may be upper-case letters, the two
 * check digits stay digits. Stored masked and upper-case, `12.ABC.345/01DE-35`.
 *
 * - The CHECK of migration 0001 allowed digits only; it is replaced (same name) by the alphanumeric mask.
 * - `cnpj_digits` (digits only, migration 0001) would drop the letters: it gives way to `cnpj_bare`,
 *   the 14 characters without the mask, which the search matches fragments typed without it against
 *   (server/src/tenants/search.ts). Its trigram index takes the place of `tenants_cnpj_digits_trgm_idx`
 *   (migration 0004), which goes with the dropped column.
 * - `search_text` (migration 0007) is searched with `like lower(…)`, which is only right while neither
 *   part has a capital letter: the CNPJ part is lower-cased now (`12.abc.345/01de-35`). Its trigram
 *   index is rebuilt with it.
 *
 * One `alter table` for all of it, so the table is rewritten once. pg_trgm stays optional, as in 0004.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table tenants
       drop constraint tenants_cnpj_check,
       add constraint tenants_cnpj_check check (cnpj ~ '^[0-9A-Z]{2}\\.[0-9A-Z]{3}\\.[0-9A-Z]{3}/[0-9A-Z]{4}-[0-9]{2}$'),
       drop column cnpj_digits,
       add column cnpj_bare text generated always as (regexp_replace(cnpj, '[^0-9A-Z]', '', 'g')) stored,
       drop column search_text,
       add column search_text text generated always as (name || ' ' || lower(cnpj)) stored`,
    `do $$
    begin
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists tenants_cnpj_bare_trgm_idx on tenants using gin (cnpj_bare gin_trgm_ops);
        create index if not exists tenants_search_text_trgm_idx on tenants using gin (search_text gin_trgm_ops);
      end if;
    end
    $$`,
  ]);
}
