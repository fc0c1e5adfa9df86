import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * TOTP secrets encrypted at rest (docs/security.md §2). The encryption itself is not done here: a
 * migration runs with the database only, and the key may live outside it (`TOTP_ENCRYPTION_KEY`). The
 * server start does it right after the migrations, in one transaction, before serving
 * (`initTotpEncryption` in server/src/auth/totp-secrets.ts, called by server/src/app.ts beside the JWT
 * key's initialisation); it also covers the demo seed, which writes plain secrets because it runs
 * without the key.
 *
 * What the schema gets:
 * - a partial index of the rows that still hold a plain value, so that step reads only those rows on
 *   every start (none once a database is upgraded) instead of scanning all users. Its predicate is
 *   the text of the step's query; a versioned stored value starts with `v<n>:`, a base32 secret never
 *   contains `:`;
 * - the stored format on the columns, for whoever reads the database directly.
 *
 * The check of 0005 (`users_two_factor_enrolled`: on only with a secret) is untouched: the step
 * replaces a non-null value by a non-null one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `create index users_two_factor_plain_idx on users (id)
      where two_factor_secret !~ '^v[0-9]+:' or two_factor_pending_secret !~ '^v[0-9]+:'`,
    `comment on column users.two_factor_secret is 'Enrolled TOTP secret, AES-256-GCM encrypted by the server: v1:<key id>:<iv>:<ciphertext+tag> (base64url parts)'`,
    `comment on column users.two_factor_pending_secret is 'Pending TOTP secret (enrol, not yet verified), encrypted like two_factor_secret'`,
  ]);
}
