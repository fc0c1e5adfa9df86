import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * An administrator may require a user to enrol in two-factor sign-in (contracts/openapi.yaml
 * `userSettingsUpdate`): while the flag is set and two-factor is off, a right password leads to
 * enrolment at sign-in instead of a session (docs/product.md, Two-factor sign-in). Enrolling clears it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table users add column two_factor_enrolment_required boolean not null default false`,
  ]);
}
