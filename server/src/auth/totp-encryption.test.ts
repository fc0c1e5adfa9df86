import { sql } from 'kysely';
import { ensureBackofficeTenant, ensureRbac } from '../db/catalog';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import { seedDemo } from '../tooling/seed';
import { createTestUser } from '../test-support/users';
import { newTotpSecret, totp } from './totp';
import { parseTotpEncryptionKey } from '../base/totp-key';
import { initTotpEncryption, PLAIN_TOTP_SECRET_ROWS, TotpSecretCipher } from './totp-secrets';
import {
  KEY_A,
  MIGRATION,
  NEXT_STEP,
  expectOnlyEncrypted,
  rawSecrets,
  spyLog,
  useTotpEngine,
} from '../test-support/totp-at-rest';

/**
 * TOTP secrets encrypted at rest, on PGlite and on PostgreSQL: the start-up step (key kept in the
 * database or given, plain secrets encrypted in one go, idempotent across restarts and concurrent
 * starts), the upgrade of a database written before encryption (its users still sign in with their
 * codes, no plain value remains, the 0005 check still holds), and stored values that do not decrypt —
 * swapped between users, altered, under another key — answering the contract's 401
 * invalid_two_factor_code instead of a 500, logged once per user. The same upgrade through real server
 * processes (`main.ts`, as `npm start`) on PostgreSQL, and the start refused on a malformed key.
 */

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('TOTP secrets at rest on %s: start-up and upgrade', (_label, postgres) => {
  const e = useTotpEngine(postgres);
  const { freshDatabase, databaseBeforeEncryption, start, login, rest } = e;

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
      e.n += 1;
      const user = await createTestUser(db, {
        email: `totp-concurrent-${String(e.n)}@demo.local`,
        tenant: 'backoffice',
      });
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
    if (second) e.opened.push(second);
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
    e.n += 1;
    const enrolled = await createTestUser(db, {
      email: `totp-upgrade-on-${String(e.n)}@demo.local`,
      tenant: 'backoffice',
    });
    const pending = await createTestUser(db, {
      email: `totp-upgrade-pending-${String(e.n)}@demo.local`,
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
    // Two app starts on a database migrated from before encryption through every later migration: a
    // hang guard, not a speed budget (25 s on PGlite on a busy 2-core box).
  }, 90_000);
});
