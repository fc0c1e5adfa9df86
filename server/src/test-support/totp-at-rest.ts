import { Migrator, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type App } from '../app';
import { loadConfig } from '../base/config';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { MIGRATIONS } from '../db/migrate';
import type { Database } from '../db/schema';
import { openTestDatabase } from './database';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres';
import { schemaUrl } from './processes';
import { createTestUser, TEST_PASSWORD } from './users';
import { totp } from '../auth/totp';
import type { TotpSecretLog } from '../auth/totp-secrets';

export const KEY_A = randomBytes(32).toString('base64url');
export const KEY_B = randomBytes(32).toString('hex');
export const NEXT_STEP = 30_000;
export const MIGRATION = '0009-totp-encryption';
/** The last migration before this one: a database "written before encryption" stops there. */
export const BEFORE = Object.keys(MIGRATIONS)[Object.keys(MIGRATIONS).indexOf(MIGRATION) - 1] ?? '';

export function spyLog(): TotpSecretLog & { entries: { fields: Record<string, unknown>; message: string }[] } {
  const entries: { fields: Record<string, unknown>; message: string }[] = [];
  return { entries, error: (fields, message) => entries.push({ fields, message }) };
}

interface RawSecrets {
  id: number;
  two_factor_enabled: boolean;
  two_factor_secret: string | null;
  two_factor_pending_secret: string | null;
}

export async function rawSecrets(db: Kysely<Database>): Promise<RawSecrets[]> {
  return db
    .selectFrom('users')
    .select(['id', 'two_factor_enabled', 'two_factor_secret', 'two_factor_pending_secret'])
    .where((eb) => eb.or([eb('two_factor_secret', 'is not', null), eb('two_factor_pending_secret', 'is not', null)]))
    .orderBy('id')
    .execute();
}

/** Every stored secret is in the v1 form; returns how many there are. */
export function expectOnlyEncrypted(rows: RawSecrets[]): number {
  const values = rows
    .flatMap((r) => [r.two_factor_secret, r.two_factor_pending_secret])
    .filter((v): v is string => v !== null);
  expect(values.filter((v) => !v.startsWith('v1:'))).toEqual([]);
  return values.length;
}

/**
 * The hooks and helpers of one engine's suite (PGlite, or PostgreSQL in a throwaway cluster), for the
 * TOTP-at-rest tests (server/src/auth/totp-encryption*.test.ts).
 */
export function useTotpEngine(postgres: boolean) {
  const e = {
    cluster: undefined as ThrowawayPostgres | undefined,
    /**
     * What a test opened, closed after it in reverse order (apps before their database). On PostgreSQL
     * this also drops the test's schema before the next one is created: Kysely's migrator looks for its
     * lock table in every schema of the database, so a second schema holding one would confuse it.
     */
    opened: [] as { close(): Promise<void> }[],
    n: 0,
  };

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'silent';
    if (postgres) e.cluster = await startThrowawayPostgres();
  }, 120_000);

  const closeOpened = async () => {
    const handles = e.opened.reverse();
    e.opened = [];
    for (const handle of handles) await handle.close();
  };
  afterEach(closeOpened);

  afterAll(async () => {
    await e.cluster?.stop();
  });

  const engineUrl = () => e.cluster?.url ?? 'pglite://memory';

  /** A fresh, fully migrated database of this engine. */
  async function freshDatabase(): Promise<OpenDatabase & { url: string }> {
    const database = await openTestDatabase(engineUrl());
    e.opened.push(database);
    return database;
  }

  /** A fresh database migrated only up to the migration before 0009, as a deployment before the upgrade. */
  async function databaseBeforeEncryption(): Promise<{ db: Kysely<Database>; url: string }> {
    if (!e.cluster) {
      const database = await openDatabase('pglite://memory');
      e.opened.push(database);
      await migrateTo(database.db, BEFORE);
      return { db: database.db, url: 'pglite://memory' };
    }
    const url = await schemaUrl(e.cluster.url, 'totp_upgrade');
    const database = await openDatabase(url);
    e.opened.push({ close: () => dropSchema(database, url) });
    await migrateTo(database.db, BEFORE);
    return { db: database.db, url };
  }

  async function start(db: Kysely<Database>, url: string, totpEncryptionKey: string | undefined): Promise<App> {
    const app = await buildApp({ db, config: loadConfig({ databaseUrl: url, seedDemo: false, totpEncryptionKey }) });
    e.opened.push({ close: () => app.fastify.close() });
    return app;
  }

  async function login(app: App, email: string, otp?: string) {
    e.n += 1;
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: `10.77.${String(postgres ? 1 : 0)}.${String(e.n)}`,
      payload: { email, password: TEST_PASSWORD, ip: null, ...(otp === undefined ? {} : { otp }) },
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  async function rest(app: App, url: string, token: string, body?: Record<string, unknown>) {
    const response = await app.fastify.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { payload: body } : {}),
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  /** A back-office user with two-factor on through the API: its secret and recovery codes. */
  async function enrolledUser(app: App, db: Kysely<Database>) {
    e.n += 1;
    const user = await createTestUser(db, { email: `totp-at-rest-${String(e.n)}@demo.local`, tenant: 'backoffice' });
    const token = (await login(app, user.email)).body.access_token as string;
    const enrolment = await rest(app, '/api/two-factor/enrol', token);
    expect(enrolment.status).toBe(200);
    const secret = enrolment.body.secret as string;
    const verified = await rest(app, '/api/two-factor/verify', token, { code: totp(secret, Date.now()) });
    expect(verified.status).toBe(200);
    return { ...user, token, secret, recovery: verified.body.recovery_codes as string[] };
  }

  return Object.assign(e, { engineUrl, freshDatabase, databaseBeforeEncryption, start, login, rest, enrolledUser });
}

export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) } });
  const { error } = await migrator.migrateTo(name);
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
}

async function dropSchema(database: OpenDatabase, url: string): Promise<void> {
  await database.close();
  const schema = new URL(url).searchParams.get('options')?.match(/search_path=([^,\s]+)/)?.[1];
  if (!schema) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop schema ${schema} cascade`);
  } finally {
    await admin.end();
  }
}
