import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Failed sign-ins are also counted per address across e-mails (server/src/auth/login.ts `throttled`):
 * an index on the address and time of the failures alone, so that count reads only them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create index login_attempts_address_failures_idx on login_attempts (remote_address, created_at) where not success`,
  ]);
}
