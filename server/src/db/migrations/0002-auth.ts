import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/** Login attempts (throttling and the login-failure report), token families, server secrets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create table login_attempts (
      id bigserial primary key,
      email text not null,
      ip text,
      remote_address text,
      user_id integer references users (id) on delete set null,
      success boolean not null,
      created_at timestamptz not null default now()
    )`,
    `create index login_attempts_throttle_idx on login_attempts (email, remote_address, created_at)`,
    `create index login_attempts_created_idx on login_attempts (created_at)`,
    `create index login_attempts_user_idx on login_attempts (user_id, created_at)`,

    // One row per sign-in; refresh rotates by compare-and-swap on current_jti.
    `create table token_families (
      id text primary key,
      user_id integer not null references users (id) on delete cascade,
      current_jti text not null,
      previous_jti text,
      previous_valid_until timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      refreshed_at timestamptz not null default now()
    )`,
    `create index token_families_user_idx on token_families (user_id) where revoked_at is null`,

    `create table server_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    )`,
  ]);
}
