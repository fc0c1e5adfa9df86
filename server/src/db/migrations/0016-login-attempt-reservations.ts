import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Sign-in attempts are reserved before they are checked (server/src/auth/attempts.ts): the reservation
 * is the attempt's row, written with `success` null and counted as a failure until it resolves to true
 * or false (the login-failure report, server/src/reports/sheets.ts, reads only `success = false`).
 *
 * `address_key` is what the throttle counts an address by (IPv4 as is, IPv4-mapped IPv6 as its IPv4,
 * other IPv6 by its /64); `remote_address` stays the address itself, which the report shows. Existing
 * rows get their address back as the key, with the IPv4-mapped prefix taken off; an older IPv6 row keeps
 * its full address, so until it leaves the window it counts alone, as it did before.
 *
 * The throttle's counts read the unresolved and failed rows of an e-mail, or of an address key, in the
 * window: one partial index each. The index on `remote_address` for those counts is no longer read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table login_attempts alter column success drop not null`,
    `alter table login_attempts add column address_key text`,
    `update login_attempts
      set address_key = regexp_replace(remote_address, '^::ffff:([0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+)$', '\\1', 'i')
      where remote_address is not null`,
    `create index login_attempts_account_failures_idx on login_attempts (email, created_at) where success is not true`,
    `create index login_attempts_key_failures_idx on login_attempts (address_key, created_at) where success is not true`,
    `drop index login_attempts_address_failures_idx`,
  ]);
}
