import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Temporary passwords and reset links by e-mail (docs/support-desk.md, Data):
 *
 * - `users.must_change_password`: set when support staff set a temporary password; sign-in then asks
 *   for a new one (server/src/auth/login.ts) and the change, or a reset link, clears it.
 * - `password_reset_tokens`: one row per link sent. The token (32 random bytes and their HMAC) is given
 *   once in the e-mail and kept only as its SHA-256 (hex), unique. `used_at` is set by the one confirm
 *   that wins (an `UPDATE … WHERE used_at IS NULL AND voided_at IS NULL`), `voided_at` by a newer link, a
 *   confirm of another link or a temporary password. The rows of the last hour also count the links sent
 *   per account (3 an hour).
 * - `password_reset_requests`: one row per request from an address, whether or not the e-mail belongs to
 *   anyone, so the per-address limit (10 an hour) says nothing about which e-mails exist. Rows older than
 *   the hour are deleted as new ones come.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table users add column must_change_password boolean not null default false`,
    `create table password_reset_tokens (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      voided_at timestamptz,
      requested_address text
    )`,
    `create index password_reset_tokens_user_idx on password_reset_tokens (user_id, created_at)`,
    `create index password_reset_tokens_expires_idx on password_reset_tokens (expires_at)`,
    `create table password_reset_requests (
      id serial primary key,
      address_key text not null,
      created_at timestamptz not null default now()
    )`,
    `create index password_reset_requests_address_idx on password_reset_requests (address_key, created_at)`,
    `create index password_reset_requests_created_idx on password_reset_requests (created_at)`,
  ]);
}
