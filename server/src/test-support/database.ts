import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { migrate } from '../db/migrate';

/**
 * Test helpers: a database that disappears afterwards.
 *
 * - `pglite://memory` (default): a fresh in-memory PGlite.
 * - a `postgres://…` URL: a fresh schema on that server (search_path pinned through the connection's
 *   `options`), dropped with everything in it by `close()`.
 */
export async function openTestDatabase(url = 'pglite://memory'): Promise<OpenDatabase & { url: string }> {
  const database = await openEmptyTestDatabase(url);
  await migrate(database.db);
  return database;
}

/**
 * The same, not migrated: for tests of a migration, which first bring the schema to the migration
 * before it (`new Migrator(…).migrateTo(…)`) and write the data it has to cope with.
 */
export async function openEmptyTestDatabase(url = 'pglite://memory'): Promise<OpenDatabase & { url: string }> {
  if (!/^postgres(ql)?:\/\//.test(url)) return { ...(await openDatabase(url)), url };
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await onServer(`create schema ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema},public`);
  const database = await openDatabase(scoped.toString());
  return {
    ...database,
    /** The scoped URL: another connection (or process) opened with it sees the same schema. */
    url: scoped.toString(),
    close: async () => {
      await database.close();
      await onServer(`drop schema ${schema} cascade`);
    },
  };
}
