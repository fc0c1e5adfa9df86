import { startTestApp, type TestApp } from '../test-support/app';
import { ARGON2_PARAMS, hashPassword, verifyPassword } from '../db/password';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';

/**
 * No user enumeration through login, and the password hash parameters.
 * - Same status, body and header names for an unknown e-mail, a wrong password and a blocked user.
 * - Similar time: the medians of interleaved attempts (unknown vs known e-mail) stay within a factor of
 *   2. An unknown e-mail that skipped argon2 would answer 20–100× faster, so the bound catches the leak
 *   and still holds on a loaded 2-core machine (interleaving cancels load drift; medians ignore spikes).
 * - argon2id with at least OWASP's minimum (m = 19 MiB, t = 2, p = 1), a fresh 16-byte salt per hash.
 */
let t: TestApp;
let address = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: { days: 1 }, config: { loginMaxFailures: 1000 } });
  const blocked = await createTestUser(t.db, { email: 'blocked-enum@demo.local', tenant: 'backoffice' });
  await t.db.updateTable('users').set({ blocked: true }).where('id', '=', blocked.id).execute();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function login(email: string, password: string) {
  address += 1;
  const started = performance.now();
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: `10.77.${Math.floor(address / 250)}.${address % 250}`,
    payload: { email, password, ip: null },
  });
  return {
    ms: performance.now() - started,
    status: response.statusCode,
    body: response.body,
    headers: Object.keys(response.headers)
      .filter((h) => !['date', 'content-length'].includes(h))
      .sort(),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

describe('login does not reveal which e-mails exist', () => {
  it('answers an unknown e-mail, a wrong password and a blocked user alike (status, body, headers)', async () => {
    const unknown = await login('nobody-at-all@demo.local', 'Whatever#123');
    const wrong = await login('admin@demo.local', 'Whatever#123');
    const blocked = await login('blocked-enum@demo.local', TEST_PASSWORD);
    expect(unknown.status).toBe(401);
    for (const other of [wrong, blocked]) {
      expect(other.status).toBe(unknown.status);
      expect(other.body).toBe(unknown.body);
      expect(other.headers).toEqual(unknown.headers);
    }
  });

  it('takes a similar time for an unknown e-mail and a known one (median ratio < 2 over interleaved attempts)', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    // Warm-up: the dummy hash, JIT and the database's plans.
    await login('warm-up@demo.local', 'x');
    await login('admin@demo.local', 'x');
    for (let i = 0; i < 15; i += 1) {
      const [first, second] = i % 2 === 0 ? ['known', 'unknown'] : ['unknown', 'known'];
      for (const which of [first, second]) {
        const attempt =
          which === 'known'
            ? await login('admin@demo.local', `Wrong#${i}`)
            : await login(`nobody-${i}@demo.local`, `Wrong#${i}`);
        (which === 'known' ? known : unknown).push(attempt.ms);
      }
    }
    const k = median(known);
    const u = median(unknown);
    console.info(
      `login timing: known e-mail median ${k.toFixed(1)} ms, unknown e-mail median ${u.toFixed(1)} ms, ratio ${(Math.max(k, u) / Math.min(k, u)).toFixed(2)}`,
    );
    expect(Math.max(k, u) / Math.min(k, u)).toBeLessThan(2);
  }, 60_000);
});

describe('password hashing', () => {
  const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

  it('stores argon2id with at least m = 19 MiB, t = 2, p = 1 (OWASP) and a 16-byte salt', async () => {
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    for (const hash of [row.password_hash, await hashPassword('Another#Password-1')]) {
      const match = PHC.exec(hash);
      expect(match, hash).not.toBeNull();
      const [, m, time, p, salt, digest] = match ?? [];
      expect(Number(m)).toBeGreaterThanOrEqual(19 * 1024);
      expect(Number(time)).toBeGreaterThanOrEqual(2);
      expect(Number(p)).toBeGreaterThanOrEqual(1);
      expect(Buffer.from(salt ?? '', 'base64').length).toBeGreaterThanOrEqual(16);
      expect(Buffer.from(digest ?? '', 'base64').length).toBeGreaterThanOrEqual(32);
    }
    expect(ARGON2_PARAMS).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('salts every hash afresh and verifies only the right password; a corrupt hash is a mismatch, not an error', async () => {
    const [a, b] = await Promise.all([hashPassword('Same#Password-1'), hashPassword('Same#Password-1')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'Same#Password-1')).toBe(true);
    expect(await verifyPassword(a, 'Same#Password-2')).toBe(false);
    expect(await verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$broken', 'x')).toBe(false);
  });
});
