import type { Kysely } from 'kysely';
import { buildApp, type App } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import type { Database } from '../db/schema';
import { DEMO_PASSWORD, seedDemo } from '../db/seed';

export interface TestApp {
  app: App;
  db: Kysely<Database>;
  /** A bearer header for a demo login. */
  auth(email: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/** The app in-process on a fresh in-memory database with the demo seed (like `app.test.ts`). */
export async function startTestApp(): Promise<TestApp> {
  process.env.LOG_LEVEL = 'silent';
  const database = await openDatabase('pglite://memory');
  await migrate(database.db);
  await seedDemo(database.db);
  const app = await buildApp({ db: database.db, config: loadConfig({ databaseUrl: 'pglite://memory', seedDemo: true }) });
  return {
    app,
    db: database.db,
    async auth(email) {
      const response = await app.fastify.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEMO_PASSWORD, ip: null } });
      if (response.statusCode !== 200) throw new Error(`login ${email}: ${response.statusCode} ${response.body}`);
      return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
    },
    async close() {
      await app.fastify.close();
      await database.close();
    },
  };
}
