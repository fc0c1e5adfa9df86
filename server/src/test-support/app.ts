import type { Kysely } from 'kysely';
import { buildApp, type App } from '../app';
import { loadConfig, type ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { DEMO_PASSWORD, seedDemo, type SeedOptions } from '../tooling/seed';
import { openTestDatabase } from './database';

export interface TestApp {
  app: App;
  db: Kysely<Database>;
  /** The database URL the app runs on (on PostgreSQL: scoped to the app's own schema). */
  databaseUrl: string;
  /** A bearer header for a demo login. */
  auth(email: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * `pglite://memory` (default) or a `postgres://…` server, where the app gets a fresh schema of its
   * own (dropped by `close()`) and its LISTEN/NOTIFY relay, like `npm start` on PostgreSQL.
   */
  databaseUrl?: string;
  config?: Partial<ServerConfig>;
  /** Demo seed options: e.g. `{ days: 3 }` when a test needs the organisation but not 90 days of activity. */
  seed?: SeedOptions;
}

/** The app in-process on a fresh migrated database with the demo seed (like `app.test.ts`). */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  process.env.LOG_LEVEL = 'silent';
  const databaseUrl = options.databaseUrl ?? 'pglite://memory';
  const database = await openTestDatabase(databaseUrl);
  await seedDemo(database.db, options.seed);
  const config = loadConfig({ databaseUrl, seedDemo: true, ...options.config });
  const app = await buildApp({ db: database.db, config, ...(database.pg ? { pg: database.pg } : {}) });
  return {
    app,
    db: database.db,
    databaseUrl: database.url,
    async auth(email) {
      const response = await app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: DEMO_PASSWORD, ip: null },
      });
      if (response.statusCode !== 200) throw new Error(`login ${email}: ${response.statusCode} ${response.body}`);
      return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
    },
    async close() {
      await app.fastify.close();
      await database.close();
    },
  };
}

/**
 * A bearer header for a user (by id, or by e-mail), issued directly at its current token version: for
 * tests about what a signed-in user may do, not about signing in (no throttle, no argon2).
 */
export async function issuedBearer(t: TestApp, user: number | string): Promise<{ authorization: string }> {
  const { id, token_version } = await t.db
    .selectFrom('users')
    .select(['id', 'token_version'])
    .where(typeof user === 'number' ? 'id' : 'email', '=', user)
    .executeTakeFirstOrThrow();
  return { authorization: `Bearer ${(await t.app.tokens.issue(id, token_version)).token}` };
}
