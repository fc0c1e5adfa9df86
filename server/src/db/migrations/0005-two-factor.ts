import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * TOTP two-factor (docs/product.md, Two-factor sign-in): the enrolled secret, a pending one between enrol and verify, the last
 * accepted time step (codes are single-use), and hashed recovery codes.
 *
 * `two_factor_enabled` now means "login asks for a second factor", which needs an enrolled secret.
 * Rows that had the flag without one (the flag did nothing before) are switched off, and a check keeps
 * the two consistent from here on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table users add column two_factor_secret text`,
    `alter table users add column two_factor_enrolled_at timestamptz`,
    `alter table users add column two_factor_pending_secret text`,
    `alter table users add column two_factor_pending_at timestamptz`,
    `alter table users add column two_factor_last_step bigint`,
    `update users set two_factor_enabled = false where two_factor_secret is null`,
    `alter table users add constraint users_two_factor_enrolled check (not two_factor_enabled or two_factor_secret is not null)`,
    `create table two_factor_recovery_codes (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      unique (user_id, code_hash)
    )`,
  ]);
}
