import pg from 'pg';
import { ensureBackofficeTenant, ensureRbac } from '../db/catalog';
import { openDatabase } from '../db/connect';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { schemaUrl, startServerProcess, stopServerProcess } from '../test-support/processes';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';
import { newTotpSecret, totp } from './totp';
import { BEFORE, KEY_A, NEXT_STEP, migrateTo } from '../test-support/totp-at-rest';

/** The TOTP-at-rest upgrade through real server processes (server/src/auth/totp-encryption.test.ts has the in-process suites). */
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
