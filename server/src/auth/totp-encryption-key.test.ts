import { sql, type Kysely } from 'kysely';
import type { App } from '../app';
import { ensureBackofficeTenant, ensureRbac } from '../db/catalog';
import type { Database } from '../db/schema';
import { createTestUser } from '../test-support/users';
import { totp } from './totp';
import { initTotpEncryption, PLAIN_TOTP_SECRET_ROWS, TotpSecretCipher, totpKeyId } from './totp-secrets';
import { parseTotpEncryptionKey } from '../base/totp-key';
import {
  KEY_A,
  KEY_B,
  NEXT_STEP,
  expectOnlyEncrypted,
  rawSecrets,
  spyLog,
  useTotpEngine,
} from '../test-support/totp-at-rest';

/** TOTP secrets under a given TOTP_ENCRYPTION_KEY (server/src/auth/totp-encryption.test.ts has the start-up and upgrade). */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('TOTP secrets at rest on %s', (_label, postgres) => {
  const e = useTotpEngine(postgres);
  const { freshDatabase, start, login, rest, enrolledUser } = e;

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
      suite = e.opened;
      e.opened = [];
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
      e.n += 1;
      const user = await createTestUser(db, { email: `totp-enrol-${String(e.n)}@demo.local`, tenant: 'backoffice' });
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
      e.n += 1;
      const enrolling = await createTestUser(db, {
        email: `totp-wrong-key-pending-${String(e.n)}@demo.local`,
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
