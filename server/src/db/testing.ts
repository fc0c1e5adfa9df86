import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type OpenDatabase } from './connect';
import { migrate } from './migrate';

/**
 * Test helpers: a migrated database that disappears afterwards.
 *
 * - `pglite://memory` (default): a fresh in-memory PGlite.
 * - a `postgres://…` URL: a fresh schema on that server (search_path pinned through the connection's
 *   `options`), dropped with everything in it by `close()`.
 */
export async function openTestDatabase(url = 'pglite://memory'): Promise<OpenDatabase & { url: string }> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    const database = await openDatabase(url);
    await migrate(database.db);
    return { ...database, url };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema},public`);
  const database = await openDatabase(scoped.toString());
  await migrate(database.db);
  return {
    ...database,
    /** The scoped URL: another connection (or process) opened with it sees the same schema. */
    url: scoped.toString(),
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      try {
        await cleanup.query(`drop schema ${schema} cascade`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
