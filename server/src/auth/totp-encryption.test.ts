import { Migrator, sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type App } from '../app';
import { loadConfig } from '../config';
import { ensureBackofficeTenant, ensureRbac } from '../db/catalog';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { MIGRATIONS, migrate } from '../db/migrate';
import type { Database } from '../db/schema';
import { seedDemo } from '../db/seed';
import { openTestDatabase } from '../db/testing';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { schemaUrl, startServerProcess, stopServerProcess } from '../test-support/processes';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';
import { newTotpSecret, totp } from './totp';
import {
  initTotpEncryption,
  PLAIN_TOTP_SECRET_ROWS,
  TotpSecretCipher,
  totpKeyId,
  parseTotpEncryptionKey,
  type TotpSecretLog,
} from './totp-secrets';

/**
 * TOTP secrets encrypted at rest, on PGlite and on PostgreSQL: the start-up step (key kept in the
 * database or given, plain secrets encrypted in one go, idempotent across restarts and concurrent
 * starts), the upgrade of a database written before encryption (its users still sign in with their
 * codes, no plain value remains, the 0005 check still holds), and stored values that do not decrypt —
 * swapped between users, altered, under another key — answering the contract's 401
 * invalid_two_factor_code instead of a 500, logged once per user. The same upgrade through real server
 * processes (`main.ts`, as `npm start`) on PostgreSQL, and the start refused on a malformed key.
 */

const KEY_A = randomBytes(32).toString('base64url');
const KEY_B = randomBytes(32).toString('hex');
const NEXT_STEP = 30_000;
const MIGRATION = '0009-totp-encryption';
/** The last migration before this one: a database "written before encryption" stops there. */
const BEFORE = Object.keys(MIGRATIONS)[Object.keys(MIGRATIONS).indexOf(MIGRATION) - 1] ?? '';

function spyLog(): TotpSecretLog & { entries: { fields: Record<string, unknown>; message: string }[] } {
  const entries: { fields: Record<string, unknown>; message: string }[] = [];
  return { entries, error: (fields, message) => entries.push({ fields, message }) };
}

interface RawSecrets {
  id: number;
  two_factor_enabled: boolean;
  two_factor_secret: string | null;
  two_factor_pending_secret: string | null;
}

async function rawSecrets(db: Kysely<Database>): Promise<RawSecrets[]> {
  return db
    .selectFrom('users')
    .select(['id', 'two_factor_enabled', 'two_factor_secret', 'two_factor_pending_secret'])
    .where((eb) => eb.or([eb('two_factor_secret', 'is not', null), eb('two_factor_pending_secret', 'is not', null)]))
    .orderBy('id')
    .execute();
}

/** Every stored secret is in the v1 form; returns how many there are. */
function expectOnlyEncrypted(rows: RawSecrets[]): number {
  const values = rows
    .flatMap((r) => [r.two_factor_secret, r.two_factor_pending_secret])
    .filter((v): v is string => v !== null);
  expect(values.filter((v) => !v.startsWith('v1:'))).toEqual([]);
  return values.length;
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('TOTP secrets at rest on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  /**
   * What a test opened, closed after it in reverse order (apps before their database). On PostgreSQL
   * this also drops the test's schema before the next one is created: Kysely's migrator looks for its
   * lock table in every schema of the database, so a second schema holding one would confuse it.
   */
  let opened: { close(): Promise<void> }[] = [];
  let n = 0;

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'silent';
    if (postgres) cluster = await startThrowawayPostgres();
  }, 120_000);

  const closeOpened = async () => {
    const handles = opened.reverse();
    opened = [];
    for (const handle of handles) await handle.close();
  };
  afterEach(closeOpened);

  afterAll(async () => {
    await cluster?.stop();
  });

  const engineUrl = () => cluster?.url ?? 'pglite://memory';

  /** A fresh, fully migrated database of this engine. */
  async function freshDatabase(): Promise<OpenDatabase & { url: string }> {
    const database = await openTestDatabase(engineUrl());
    opened.push(database);
    return database;
  }

  /** A fresh database migrated only up to the migration before 0009, as a deployment before the upgrade. */
  async function databaseBeforeEncryption(): Promise<{ db: Kysely<Database>; url: string }> {
    if (!cluster) {
      const database = await openDatabase('pglite://memory');
      opened.push(database);
      await migrateTo(database.db, BEFORE);
      return { db: database.db, url: 'pglite://memory' };
    }
    const url = await schemaUrl(cluster.url, 'totp_upgrade');
    const database = await openDatabase(url);
    opened.push({ close: () => dropSchema(database, url) });
    await migrateTo(database.db, BEFORE);
    return { db: database.db, url };
  }

  async function start(db: Kysely<Database>, url: string, totpEncryptionKey: string | undefined): Promise<App> {
    const app = await buildApp({ db, config: loadConfig({ databaseUrl: url, seedDemo: false, totpEncryptionKey }) });
    opened.push({ close: () => app.fastify.close() });
    return app;
  }

  async function login(app: App, email: string, otp?: string) {
    n += 1;
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: `10.77.${String(postgres ? 1 : 0)}.${String(n)}`,
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
    n += 1;
    const user = await createTestUser(db, { email: `totp-at-rest-${String(n)}@demo.local`, tenant: 'backoffice' });
    const token = (await login(app, user.email)).body.access_token as string;
    const enrolment = await rest(app, '/api/two-factor/enrol', token);
    expect(enrolment.status).toBe(200);
    const secret = enrolment.body.secret as string;
    const verified = await rest(app, '/api/two-factor/verify', token, { code: totp(secret, Date.now()) });
    expect(verified.status).toBe(200);
    return { ...user, token, secret, recovery: verified.body.recovery_codes as string[] };
  }

  it('a fresh database started as `npm start` does (migrate, demo seed, app): the seeded secrets are stored encrypted under a key kept in the database', async () => {
    const { db, url } = await freshDatabase();
    await seedDemo(db, { days: 1 });
    const seeded = await rawSecrets(db);
    // The seed runs without the key, so it writes plain secrets; the start encrypts them.
    expect(seeded.length).toBeGreaterThan(0);
    expect(seeded.every((r) => r.two_factor_secret !== null && !r.two_factor_secret.startsWith('v1:'))).toBe(true);

    await start(db, url, undefined);
    const stored = await rawSecrets(db);
    expect(stored.map((r) => r.id)).toEqual(seeded.map((r) => r.id));
    expect(expectOnlyEncrypted(stored)).toBe(seeded.length);
    const kept = await db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'totp')
      .executeTakeFirstOrThrow();
    const cipher = new TotpSecretCipher(parseTotpEncryptionKey(kept.value));
    for (const [i, row] of stored.entries()) {
      expect(cipher.decrypt(row.id, 'two_factor_secret', row.two_factor_secret ?? '')).toBe(
        seeded[i]?.two_factor_secret,
      );
    }

    // A restart finds nothing to do and the same key.
    const again = await initTotpEncryption(db, { totpEncryptionKey: undefined }, spyLog());
    expect(again).toMatchObject({ encrypted: 0, cipher: { keyId: cipher.keyId } });
    expect(await rawSecrets(db)).toEqual(stored);
  });

  it('processes starting together agree on one database-kept key and encrypt each plain secret once', async () => {
    const { db, url } = await freshDatabase();
    await ensureRbac(db);
    await ensureBackofficeTenant(db, 'backoffice');
    const plain = new Map<number, string>();
    for (let i = 0; i < 20; i += 1) {
      n += 1;
      const user = await createTestUser(db, { email: `totp-concurrent-${String(n)}@demo.local`, tenant: 'backoffice' });
      const secret = newTotpSecret();
      plain.set(user.id, secret);
      await db
        .updateTable('users')
        .set({ two_factor_enabled: true, two_factor_secret: secret, two_factor_enrolled_at: new Date() })
        .where('id', '=', user.id)
        .execute();
    }
    // On PostgreSQL each start has a pool of its own, like separate processes.
    const second = postgres ? await openDatabase(url) : undefined;
    if (second) opened.push(second);
    const results = await Promise.all([
      initTotpEncryption(db, { totpEncryptionKey: undefined }, spyLog()),
      initTotpEncryption(second?.db ?? db, { totpEncryptionKey: undefined }, spyLog()),
    ]);
    expect(results[0].cipher.keyId).toBe(results[1].cipher.keyId);
    expect(results[0].encrypted + results[1].encrypted).toBe(20);
    expect(await db.selectFrom('server_secrets').select('name').where('name', '=', 'totp').execute()).toHaveLength(1);
    const stored = await rawSecrets(db);
    expect(expectOnlyEncrypted(stored)).toBe(20);
    for (const row of stored)
      expect(results[0].cipher.decrypt(row.id, 'two_factor_secret', row.two_factor_secret ?? '')).toBe(
        plain.get(row.id),
      );
  });

  it('upgrade: a database written before encryption gets its plain secrets encrypted at start; the users sign in with their codes, before and after a restart', async () => {
    const { db, url } = await databaseBeforeEncryption();
    await ensureRbac(db);
    await ensureBackofficeTenant(db, 'backoffice');
    n += 1;
    const enrolled = await createTestUser(db, {
      email: `totp-upgrade-on-${String(n)}@demo.local`,
      tenant: 'backoffice',
    });
    const pending = await createTestUser(db, {
      email: `totp-upgrade-pending-${String(n)}@demo.local`,
      tenant: 'backoffice',
    });
    const plainOn = newTotpSecret();
    const plainPending = newTotpSecret();
    await db
      .updateTable('users')
      .set({ two_factor_enabled: true, two_factor_secret: plainOn, two_factor_enrolled_at: new Date() })
      .where('id', '=', enrolled.id)
      .execute();
    await db
      .updateTable('users')
      .set({ two_factor_pending_secret: plainPending, two_factor_pending_at: new Date() })
      .where('id', '=', pending.id)
      .execute();

    // The migration itself leaves the values alone (it has no key) and indexes the rows still plain.
    expect((await migrate(db)).applied).toContain(MIGRATION);
    expect((await rawSecrets(db)).map((r) => [r.two_factor_secret, r.two_factor_pending_secret])).toEqual([
      [plainOn, null],
      [null, plainPending],
    ]);
    const { rows: indexed } = await sql<{
      id: number;
    }>`select id from users where ${sql.raw(PLAIN_TOTP_SECRET_ROWS)} order by id`.execute(db);
    expect(indexed.map((r) => r.id)).toEqual([enrolled.id, pending.id]);

    const app = await start(db, url, KEY_A);
    const after = await rawSecrets(db);
    expect(expectOnlyEncrypted(after)).toBe(2);
    expect(JSON.stringify(after)).not.toContain(plainOn);
    expect(JSON.stringify(after)).not.toContain(plainPending);
    const { rows: leftPlain } = await sql<{
      id: number;
    }>`select id from users where ${sql.raw(PLAIN_TOTP_SECRET_ROWS)}`.execute(db);
    expect(leftPlain).toEqual([]);

    // The 0005 check still holds: still there and validated, and still refuses "on" without a secret.
    const { rows: check } = await sql<{
      convalidated: boolean;
    }>`select convalidated from pg_constraint where conname = 'users_two_factor_enrolled'`.execute(db);
    expect(check).toEqual([{ convalidated: true }]);
    await expect(
      db.updateTable('users').set({ two_factor_enabled: true }).where('id', '=', pending.id).execute(),
    ).rejects.toThrow(/users_two_factor_enrolled/);

    expect((await login(app, enrolled.email)).body.error).toBe('two_factor_required');
    expect((await login(app, enrolled.email, totp(plainOn, Date.now()))).status).toBe(200);
    const token = (await login(app, pending.email)).body.access_token as string;
    expect((await rest(app, '/api/two-factor/verify', token, { code: totp(plainPending, Date.now()) })).status).toBe(
      200,
    );

    // Restart: nothing is re-encrypted (same stored values, IVs included) and the codes still work.
    const before = await rawSecrets(db);
    await app.fastify.close();
    const restarted = await start(db, url, KEY_A);
    expect(await rawSecrets(db)).toEqual(before);
    expect((await login(restarted, enrolled.email, totp(plainOn, Date.now() + NEXT_STEP))).status).toBe(200);
    expect((await login(restarted, pending.email, totp(plainPending, Date.now() + NEXT_STEP))).status).toBe(200);
  });

  describe('a database started with TOTP_ENCRYPTION_KEY', () => {
    let db: Kysely<Database>;
    let app: App;
    let suite: { close(): Promise<void> }[] = [];

    beforeAll(async () => {
      const database = await freshDatabase();
      db = database.db;
      await ensureRbac(db);
      await ensureBackofficeTenant(db, 'backoffice');
      app = await start(db, database.url, KEY_A);
      // One database and app for the whole group: closed after it, not after each test.
      suite = opened;
      opened = [];
    }, 120_000);

    afterAll(async () => {
      for (const handle of suite.reverse()) await handle.close();
    });

    /** Re-runs the start-up step with a spy logger (and optionally another key), as a restart would. */
    async function restartStep(totpEncryptionKey: string) {
      const log = spyLog();
      await initTotpEncryption(db, { totpEncryptionKey }, log);
      return log;
    }

    it('keeps no key in the database', async () => {
      expect(await db.selectFrom('server_secrets').select('name').where('name', '=', 'totp').execute()).toEqual([]);
      const { cipher } = await initTotpEncryption(db, { totpEncryptionKey: KEY_A }, spyLog());
      expect(cipher.keyId).toBe(totpKeyId(Buffer.from(KEY_A, 'base64url')));
      expect(await db.selectFrom('server_secrets').select('name').where('name', '=', 'totp').execute()).toEqual([]);
    });

    it('the start-up step reads the rows still plain through the partial index of 0009', async () => {
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{
          'QUERY PLAN': string;
        }>`explain select id from users where ${sql.raw(PLAIN_TOTP_SECRET_ROWS)} order by id for update`.execute(trx);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('users_two_factor_plain_idx');
    });

    it('enrol and verify store only encrypted values; the enrolled one is encrypted afresh for its column', async () => {
      n += 1;
      const user = await createTestUser(db, { email: `totp-enrol-${String(n)}@demo.local`, tenant: 'backoffice' });
      const token = (await login(app, user.email)).body.access_token as string;
      const enrolment = await rest(app, '/api/two-factor/enrol', token);
      const secret = enrolment.body.secret as string;
      const [pendingRow] = await rawSecrets(db).then((rows) => rows.filter((r) => r.id === user.id));
      expect(pendingRow?.two_factor_pending_secret).toMatch(/^v1:/);
      expect(pendingRow?.two_factor_pending_secret).not.toContain(secret);
      expect((await rest(app, '/api/two-factor/verify', token, { code: totp(secret, Date.now()) })).status).toBe(200);
      const [row] = await rawSecrets(db).then((rows) => rows.filter((r) => r.id === user.id));
      expect(row?.two_factor_pending_secret).toBeNull();
      expect(row?.two_factor_secret).toMatch(/^v1:/);
      expect(row?.two_factor_secret).not.toBe(pendingRow?.two_factor_pending_secret);
      // The pending value moved as it was would not decrypt in the enrolled column.
      const cipher = new TotpSecretCipher(parseTotpEncryptionKey(KEY_A), spyLog());
      expect(cipher.decrypt(user.id, 'two_factor_secret', pendingRow?.two_factor_pending_secret ?? '')).toBeNull();
      expect(cipher.decrypt(user.id, 'two_factor_secret', row?.two_factor_secret ?? '')).toBe(secret);
    });

    it('secrets swapped between two users: neither decrypts, both logins are 401 invalid_two_factor_code, logged once per user', async () => {
      const one = await enrolledUser(app, db);
      const two = await enrolledUser(app, db);
      const stored = new Map((await rawSecrets(db)).map((r) => [r.id, r.two_factor_secret]));
      const put = async (id: number, value: string | null | undefined) => {
        await db
          .updateTable('users')
          .set({ two_factor_secret: value ?? null })
          .where('id', '=', id)
          .execute();
      };
      await put(one.id, stored.get(two.id));
      await put(two.id, stored.get(one.id));
      const log = await restartStep(KEY_A);
      expect(log.entries).toEqual([]);
      for (const user of [one, two]) {
        for (const secret of [one.secret, two.secret]) {
          const answer = await login(app, user.email, totp(secret, Date.now() + NEXT_STEP));
          expect(answer).toEqual({
            status: 401,
            body: { error: 'invalid_two_factor_code', message: expect.any(String) },
          });
        }
      }
      expect(log.entries.map((e) => [e.fields.userId, e.fields.reason])).toEqual([
        [one.id, 'authentication'],
        [two.id, 'authentication'],
      ]);
      expect(JSON.stringify(log.entries)).not.toContain(one.secret);
      expect(JSON.stringify(log.entries)).not.toContain(two.secret);

      // Put back, both work: the refusal came from the binding, not from damage.
      await put(one.id, stored.get(one.id));
      await put(two.id, stored.get(two.id));
      expect((await login(app, one.email, totp(one.secret, Date.now() + NEXT_STEP))).status).toBe(200);
      expect((await login(app, two.email, totp(two.secret, Date.now() + NEXT_STEP))).status).toBe(200);
    });

    it('an altered stored value: login is 401 invalid_two_factor_code and a recovery code still signs in', async () => {
      const user = await enrolledUser(app, db);
      const [row] = await rawSecrets(db).then((rows) => rows.filter((r) => r.id === user.id));
      const value = row?.two_factor_secret ?? '';
      const last = value.at(-2) === 'A' ? 'B' : 'A';
      await db
        .updateTable('users')
        .set({ two_factor_secret: `${value.slice(0, -2)}${last}${value.slice(-1)}` })
        .where('id', '=', user.id)
        .execute();
      const log = await restartStep(KEY_A);
      const answer = await login(app, user.email, totp(user.secret, Date.now() + NEXT_STEP));
      expect(answer).toEqual({ status: 401, body: { error: 'invalid_two_factor_code', message: expect.any(String) } });
      expect(log.entries.map((e) => [e.fields.userId, e.fields.reason])).toEqual([[user.id, 'authentication']]);
      expect((await login(app, user.email, user.recovery[0])).status).toBe(200);
    });

    it('another key after a restart: the start reports it, login is 401 invalid_two_factor_code (not a 500), pending enrolments are gone, recovery codes work', async () => {
      const user = await enrolledUser(app, db);
      n += 1;
      const enrolling = await createTestUser(db, {
        email: `totp-wrong-key-pending-${String(n)}@demo.local`,
        tenant: 'backoffice',
      });
      const enrollingToken = (await login(app, enrolling.email)).body.access_token as string;
      const enrolment = await rest(app, '/api/two-factor/enrol', enrollingToken);
      const pendingSecret = enrolment.body.secret as string;
      const stored = await rawSecrets(db);

      const log = await restartStep(KEY_B);
      try {
        // The start says how many values are under which other key, before anyone tries to sign in.
        expect(log.entries).toHaveLength(1);
        expect(log.entries[0]?.fields).toEqual({
          keyId: totpKeyId(Buffer.from(KEY_B, 'hex')),
          otherKeys: { [totpKeyId(parseTotpEncryptionKey(KEY_A))]: expectOnlyEncrypted(stored) },
        });
        expect(log.entries[0]?.message).toMatch(
          /encrypted under another key than the configured TOTP key \(TOTP_ENCRYPTION_KEY\)/,
        );
        // Nothing was rewritten: with the right key back the values work again.
        expect(await rawSecrets(db)).toEqual(stored);

        for (let i = 0; i < 3; i += 1) {
          const answer = await login(app, user.email, totp(user.secret, Date.now() + NEXT_STEP));
          expect(answer).toEqual({
            status: 401,
            body: { error: 'invalid_two_factor_code', message: expect.any(String) },
          });
        }
        const verify = await rest(app, '/api/two-factor/verify', enrollingToken, {
          code: totp(pendingSecret, Date.now()),
        });
        expect(verify.status).toBe(409);
        expect(log.entries.slice(1).map((e) => [e.fields.userId, e.fields.column, e.fields.reason])).toEqual([
          [user.id, 'two_factor_secret', 'key'],
          [enrolling.id, 'two_factor_pending_secret', 'key'],
        ]);
        expect((await login(app, user.email, user.recovery[1])).status).toBe(200);
      } finally {
        const restored = await restartStep(KEY_A);
        expect(restored.entries).toEqual([]);
      }
      expect((await login(app, user.email, totp(user.secret, Date.now() + NEXT_STEP))).status).toBe(200);
      expect(
        (await rest(app, '/api/two-factor/verify', enrollingToken, { code: totp(pendingSecret, Date.now()) })).status,
      ).toBe(200);
    });
  });
});

describe('server processes (main.ts, as `npm start`)', () => {
  let cluster: ThrowawayPostgres;

  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('refuses to start on a malformed TOTP_ENCRYPTION_KEY, saying why and without printing it', async () => {
    const value = 'tooShortToBeAKey0123';
    const failure = await startServerProcess('pglite://memory', { env: { TOTP_ENCRYPTION_KEY: value } }).then(
      () => new Error('the server started'),
      (error: unknown) => error as Error,
    );
    expect(failure.message).toMatch(/^server exited with 1:/);
    expect(failure.message).toMatch(
      /TOTP_ENCRYPTION_KEY must be 32 bytes written as 64 hexadecimal characters or as base64\/base64url/,
    );
    expect(failure.message).not.toContain(value);
  }, 60_000);

  it('upgrade on PostgreSQL: plain secrets written before 0009 are encrypted by the first start; users sign in with their codes across a restart', async () => {
    const url = await schemaUrl(cluster.url, 'totp_process');
    const database = await openDatabase(url);
    const plain = newTotpSecret();
    let email: string;
    try {
      await migrateTo(database.db, BEFORE);
      await ensureRbac(database.db);
      await ensureBackofficeTenant(database.db, 'backoffice');
      const user = await createTestUser(database.db, { email: 'totp-process@demo.local', tenant: 'backoffice' });
      email = user.email;
      await database.db
        .updateTable('users')
        .set({ two_factor_enabled: true, two_factor_secret: plain, two_factor_enrolled_at: new Date() })
        .where('id', '=', user.id)
        .execute();
    } finally {
      await database.close();
    }

    const signIn = async (base: string, otp: string) => {
      const response = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: TEST_PASSWORD, ip: null, otp }),
      });
      return response.status;
    };
    const stored = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ two_factor_secret: string | null }>(
          'select two_factor_secret from users where two_factor_secret is not null',
        );
        return rows.map((r) => r.two_factor_secret);
      } finally {
        await client.end();
      }
    };

    const first = await startServerProcess(url, { env: { TOTP_ENCRYPTION_KEY: KEY_A } });
    try {
      expect(await signIn(first.base, totp(plain, Date.now()))).toBe(200);
    } finally {
      await stopServerProcess(first);
    }
    const encrypted = await stored();
    expect(encrypted).toEqual([expect.stringMatching(/^v1:/)]);

    const second = await startServerProcess(url, { env: { TOTP_ENCRYPTION_KEY: KEY_A } });
    try {
      expect(await stored()).toEqual(encrypted);
      expect(await signIn(second.base, totp(plain, Date.now() + NEXT_STEP))).toBe(200);
    } finally {
      await stopServerProcess(second);
    }
  }, 120_000);
});

async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
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
