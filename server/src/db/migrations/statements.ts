import { sql, type Kysely } from 'kysely';

/**
 * Runs DDL one statement at a time: PGlite's `query` uses the extended protocol, which refuses
 * several commands in one string, and running them one by one keeps PGlite and PostgreSQL on the
 * exact same SQL.
 */
export async function runStatements(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
