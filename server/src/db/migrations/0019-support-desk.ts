import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * What the support desk reads and writes (docs/support-desk.md, Data).
 *
 * Sign-in attempts say why they failed (`reason`, null for a success, an attempt in flight or one made
 * before this migration) and whether "lift the throttle" released them (`lifted_at`). Which attempts
 * the throttle counts is one definition, `throttle_counted` (server/src/auth/attempts.ts reads it): not
 * a success, not lifted, and not one of the outcomes that are no failure of the person's credentials
 * (a sign-in step, a refusal of the throttle itself, a closed tenant or a tenant path of another tenant).
 * The two partial indexes of the throttle's counts (migration 0016) are rebuilt on it, so a burst of
 * recorded refusals is never read by the counts.
 *
 * Sessions (token families) say what the sign-in that began them said (`user_agent`, `address`,
 * `remember`) and when their refresh window ends (`refresh_until`, the `rxp` of their tokens); older
 * ones have none of it (a null `refresh_until` reads as the longest window). Users get the time of their
 * last successful sign-in.
 *
 * A deleted user keeps its e-mail (`email_reserved`): the e-mail index becomes unique among live users
 * and reserved deleted ones, so the e-mail cannot be given to another user until the deleted one is
 * restored or purged. Deleted users from before this rule are reserved when nobody else holds their
 * e-mail (of several deleted with one e-mail, the last deleted); the others stay unreserved, and their
 * restore is refused (server/src/support/service.ts).
 *
 * The support desk's search (server/src/support/search.ts) is a substring of e-mail, name or username
 * without case or accents: `support_search` holds the three folded by `support_fold` (lower case, the
 * accented Latin letters of Portuguese and its neighbours as plain ones, written out so the fold is the
 * same on every locale and needs no `unaccent` extension), separated by a line feed, which the search
 * never contains. A trigram index answers a rare substring from the index; the order index
 * (live first, then by name) answers a common one by walking users in the answer's order until the page
 * is full, and holds what the walk reads (an index-only scan: no table row is read for a user that does
 * not match). pg_trgm stays optional, as in migration 0004.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table login_attempts
       add column reason text constraint login_attempts_reason_check check (reason in (
         'unknown_account', 'wrong_password', 'blocked', 'throttled', 'invalid_two_factor_code',
         'two_factor_enrolment_expired', 'two_factor_required', 'two_factor_enrolment_required',
         'tenant_deleted', 'password_change_required', 'other_tenant'
       )),
       add column lifted_at timestamptz`,
    `alter table login_attempts
       add column throttle_counted boolean generated always as (
         success is not true and lifted_at is null and (reason is null or reason in (
           'unknown_account', 'wrong_password', 'blocked', 'invalid_two_factor_code'
         ))
       ) stored`,
    `create index login_attempts_account_counted_idx on login_attempts (email, created_at) where throttle_counted`,
    `create index login_attempts_key_counted_idx on login_attempts (address_key, created_at) where throttle_counted`,
    `drop index login_attempts_account_failures_idx`,
    `drop index login_attempts_key_failures_idx`,
    // The desk lists a person's newest attempts by e-mail.
    `create index login_attempts_email_idx on login_attempts (email, created_at desc, id desc)`,

    `alter table token_families
       add column user_agent text,
       add column address text,
       add column remember boolean not null default false,
       add column refresh_until timestamptz`,

    `alter table users
       add column last_sign_in_at timestamptz,
       add column email_reserved boolean not null default false`,
    `update users u set email_reserved = true
       where u.deleted_at is not null
         and not exists (
           select 1 from users o
            where lower(o.email) = lower(u.email) and o.id <> u.id
              and (o.deleted_at is null or o.deleted_at > u.deleted_at or (o.deleted_at = u.deleted_at and o.id > u.id))
         )`,
    `drop index users_email_lower_key`,
    `create unique index users_email_lower_key on users (lower(email)) where deleted_at is null or email_reserved`,

    `create function support_fold(value text) returns text
       language sql immutable strict parallel safe
       as $$
         select translate(lower(value),
           'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆČçćčĎďÈÉÊËĒĘĚèéêëēęěĞğÌÍÎÏĪìíîïīŁłÑŃŇñńňÒÓÔÕÖØŌŐòóôõöøōőŘřŚŠśšŤťÙÚÛÜŪŮŰùúûüūůűÝŸýÿŹŻŽźżž',
           'aaaaaaaaaaaaaaaaaaccccccddeeeeeeeeeeeeeeggiiiiiiiiiillnnnnnnoooooooooooooooorrssssttuuuuuuuuuuuuuuyyyyzzzzzz')
       $$`,
    `alter table users add column support_search text generated always as (
       support_fold(email) || E'\\n' || support_fold(name) || E'\\n' || support_fold(username)
     ) stored`,
    `create index users_support_order_idx on users ((deleted_at is not null), name, id) include (deleted_at, support_search)`,
    `do $$
    begin
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists users_support_search_trgm_idx on users using gin (support_search gin_trgm_ops);
      end if;
    end
    $$`,
  ]);
}
