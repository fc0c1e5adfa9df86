import type { LightMyRequestResponse } from 'fastify';
import type * as PasswordModule from '../db/password';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';
import type * as TotpModule from './totp';
import { totp } from './totp';

/**
 * Sign-in throttling under bursts (docs/security.md §2, Throttling): an attempt is reserved before its
 * password or code is checked, so N attempts at once get at most the limit checked, whichever engine.
 * Checks are counted where they happen: every argon2 verification (server/src/db/password.ts
 * `verifyPassword`) and every TOTP comparison (server/src/auth/totp.ts `matchTotp`) goes through a
 * counting wrapper around the real function.
 */
const counted = vi.hoisted(() => ({ passwords: [] as string[], secrets: [] as string[] }));

vi.mock('../db/password', async (importOriginal) => {
  const real = await importOriginal<typeof PasswordModule>();
  return {
    ...real,
    verifyPassword: (hash: string, password: string) => {
      counted.passwords.push(password);
      return real.verifyPassword(hash, password);
    },
  };
});

vi.mock('./totp', async (importOriginal) => {
  const real = await importOriginal<typeof TotpModule>();
  return {
    ...real,
    matchTotp: (secret: string, code: string, at: number) => {
      counted.secrets.push(secret);
      return real.matchTotp(secret, code, at);
    },
  };
});

const MAX = 10;
const PER_ADDRESS = 30;
const PER_ACCOUNT = 15;
const BACKOFF = 60;
const WINDOW = 900;
const BURST = 40;

const passwordsChecked = (prefix: string) => counted.passwords.filter((p) => p.startsWith(prefix)).length;
const codesChecked = (secret: string) => counted.secrets.filter((s) => s === secret).length;

function tally(responses: readonly LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: sign-in bursts', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let n = 0;
  // Counters and e-mails are shared by both engines' runs: every name carries the engine.
  const engine = postgres ? 'pg' : 'lite';

  beforeAll(async () => {
    cluster = postgres ? await startThrowawayPostgres() : undefined;
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: {
        loginMaxFailures: MAX,
        loginMaxFailuresPerAddress: PER_ADDRESS,
        loginMaxFailuresPerAccount: PER_ACCOUNT,
        loginBackoffSeconds: BACKOFF,
        loginWindowSeconds: WINDOW,
      },
    });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const fresh = async (): Promise<TestUser> => {
    n += 1;
    return createTestUser(t.db, { email: `burst-${engine}-${n}@demo.local`, tenant: 'backoffice' });
  };

  const login = (email: string, password: string, remoteAddress: string, otp?: string) =>
    t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      payload: { email, password, ip: null, ...(otp === undefined ? {} : { otp }) },
    });

  it(`${BURST} wrong passwords for one account at once: at most ${MAX} verified, the rest 429, then the right one is 429 too`, async () => {
    const user = await fresh();
    const prefix = `burst-wrong-${engine}-${n}-`;
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => login(user.email, `${prefix}${i}`, '10.40.0.1')),
    );
    const verified = passwordsChecked(prefix);
    const statuses = tally(answers);
    // The first MAX reserved are checked; the rest wait for them, then find MAX failures.
    expect(verified, JSON.stringify(statuses)).toBe(MAX);
    expect(statuses).toEqual({ 401: verified, 429: BURST - verified });
    for (const refused of answers.filter((a) => a.statusCode === 429))
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(user.email, TEST_PASSWORD, '10.40.0.1')).statusCode).toBe(429);
    // GraphQL signs in through the same throttle: TOO_MANY_REQUESTS, HTTP 429 with Retry-After.
    const graphql = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      remoteAddress: '10.40.0.1',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        query:
          'mutation logIn($email: String!, $password: String!) { logIn(email: $email, password: $password) { token } }',
        variables: { email: user.email, password: TEST_PASSWORD },
      }),
    });
    expect(graphql.statusCode).toBe(429);
    expect(Number(graphql.headers['retry-after'])).toBeGreaterThan(0);
    expect(graphql.json<{ errors: { extensions: { code: string } }[] }>().errors[0]?.extensions.code).toBe(
      'TOO_MANY_REQUESTS',
    );
  });

  it(`${BURST} wrong passwords on as many e-mails from one address at once: at most ${PER_ADDRESS} verified`, async () => {
    const prefix = `burst-spray-${engine}-${n}-`;
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        login(`spray-${engine}-${n}-${i}@demo.local`, `${prefix}${i}`, '10.40.0.2'),
      ),
    );
    const verified = passwordsChecked(prefix);
    expect(verified, JSON.stringify(tally(answers))).toBe(PER_ADDRESS);
    expect(tally(answers)).toEqual({ 401: verified, 429: BURST - verified });
  });

  it('the right password 20 times at once from one address, for one account and for 20 accounts: every one 200', async () => {
    const one = await fresh();
    const same = await Promise.all(Array.from({ length: 20 }, () => login(one.email, TEST_PASSWORD, '10.40.0.3')));
    expect(tally(same)).toEqual({ 200: 20 });
    const many = await Promise.all(Array.from({ length: 20 }, () => fresh()));
    const each = await Promise.all(many.map((user) => login(user.email, TEST_PASSWORD, '10.40.0.4')));
    expect(tally(each)).toEqual({ 200: 20 });
  });

  it(`${BURST} wrong second-factor codes at once after the right password: at most ${MAX} checked`, async () => {
    const user = await fresh();
    const token = (await login(user.email, TEST_PASSWORD, '10.40.0.5')).json<{ access_token: string }>().access_token;
    const headers = { authorization: `Bearer ${token}` };
    const enrolment = await t.app.fastify.inject({ method: 'POST', url: '/api/two-factor/enrol', headers });
    const secret = enrolment.json<{ secret: string }>().secret;
    const verified = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/two-factor/verify',
      headers,
      remoteAddress: '10.40.0.5',
      payload: { code: totp(secret, Date.now()) },
    });
    expect(verified.statusCode).toBe(200);
    const before = { codes: codesChecked(secret), passwords: passwordsChecked(TEST_PASSWORD) };
    const wrong = wrongCode(secret);
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => login(user.email, TEST_PASSWORD, '10.40.0.6', wrong)),
    );
    const checked = codesChecked(secret) - before.codes;
    expect(checked, JSON.stringify(tally(answers))).toBe(MAX);
    // One reservation covers the password and the code: the password was verified as often.
    expect(passwordsChecked(TEST_PASSWORD) - before.passwords).toBe(MAX);
    expect(tally(answers)).toEqual({ 401: checked, 429: BURST - checked });
  });

  it.each(['verify', 'disable'] as const)(
    `${BURST} wrong codes at once to /api/two-factor/%s: at most ${MAX} checked`,
    async (route) => {
      const user = await fresh();
      const address = route === 'verify' ? '10.40.0.7' : '10.40.0.8';
      const token = (await login(user.email, TEST_PASSWORD, address)).json<{ access_token: string }>().access_token;
      const headers = { authorization: `Bearer ${token}` };
      const enrolment = await t.app.fastify.inject({ method: 'POST', url: '/api/two-factor/enrol', headers });
      const secret = enrolment.json<{ secret: string }>().secret;
      if (route === 'disable') {
        const on = await t.app.fastify.inject({
          method: 'POST',
          url: '/api/two-factor/verify',
          headers,
          remoteAddress: '10.40.0.99',
          payload: { code: totp(secret, Date.now()) },
        });
        expect(on.statusCode).toBe(200);
      }
      const before = codesChecked(secret);
      const wrong = wrongCode(secret);
      const answers = await Promise.all(
        Array.from({ length: BURST }, () =>
          t.app.fastify.inject({
            method: 'POST',
            url: `/api/two-factor/${route}`,
            headers,
            remoteAddress: address,
            payload: { code: wrong },
          }),
        ),
      );
      const checked = codesChecked(secret) - before;
      expect(checked, JSON.stringify(tally(answers))).toBe(MAX);
      expect(tally(answers)).toEqual({ 400: checked, 429: BURST - checked });
    },
  );

  const failuresOf = (email: string) =>
    t.db
      .selectFrom('login_attempts')
      .select(['remote_address', 'address_key', 'success', 'reason'])
      .where('email', '=', email)
      .orderBy('id')
      .execute();

  it(`${BURST} wrong passwords for one account from ${BURST} addresses at once: at most ${PER_ACCOUNT} verified, then it backs off`, async () => {
    const user = await fresh();
    const prefix = `burst-account-${engine}-${n}-`;
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => login(user.email, `${prefix}${i}`, `10.41.${n}.${i + 1}`)),
    );
    const verified = passwordsChecked(prefix);
    expect(verified, JSON.stringify(tally(answers))).toBe(PER_ACCOUNT);
    expect(tally(answers)).toEqual({ 401: PER_ACCOUNT, 429: BURST - PER_ACCOUNT });
    // The owner, from an address of its own, waits out the first back-off, not the window.
    const owner = await login(user.email, TEST_PASSWORD, '10.42.0.1');
    expect(owner.statusCode).toBe(429);
    const wait = Number(owner.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(BACKOFF);
    await t.db
      .updateTable('login_attempts')
      .set({ created_at: new Date(Date.now() - (BACKOFF + 1) * 1000) })
      .where('email', '=', user.email)
      .execute();
    expect((await login(user.email, TEST_PASSWORD, '10.42.0.1')).statusCode).toBe(200);
  });

  it(`past ${PER_ACCOUNT} failures of one account the wait doubles per failure, at most the window`, async () => {
    const user = await fresh();
    let address = 0;
    const next = () => `10.43.${n}.${(address += 1)}`;
    for (let i = 0; i < PER_ACCOUNT; i += 1)
      expect((await login(user.email, `wrong-${i}`, next())).statusCode).toBe(401);
    const waits: number[] = [];
    for (let step = 0; step < 5; step += 1) {
      const refused = await login(user.email, TEST_PASSWORD, next());
      expect(refused.statusCode).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      waits.push(wait);
      // The last failure moves back past the wait (the older ones stay put, inside the window).
      await t.db
        .updateTable('login_attempts')
        .set({ created_at: new Date(Date.now() - (wait + 1) * 1000) })
        .where('email', '=', user.email)
        .where('created_at', '>', new Date(Date.now() - (wait + 1) * 1000))
        .execute();
      if (wait >= WINDOW) break;
      expect((await login(user.email, `wrong-after-${step}`, next())).statusCode).toBe(401);
    }
    const expected = [BACKOFF, 2 * BACKOFF, 4 * BACKOFF, 8 * BACKOFF, WINDOW];
    expect(waits).toHaveLength(expected.length);
    // Each wait is its step's, less the time since the last failure: more than half of it, so it doubled.
    waits.forEach((wait, i) => {
      expect(wait).toBeLessThanOrEqual(expected[i] ?? 0);
      expect(wait).toBeGreaterThan((expected[i] ?? 0) / 2);
    });
  });

  it('counts an IPv6 address by its /64 and an IPv4-mapped one as its IPv4, and stores the address itself', async () => {
    const user = await fresh();
    const hosts = Array.from({ length: MAX }, (_, i) => `2001:db8:40:1:${(i + 1).toString(16)}::${n}`);
    for (const host of hosts) expect((await login(user.email, 'wrong-Pass#1', host)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, '2001:db8:40:1:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, '2001:db8:40:2::1')).statusCode).toBe(200);
    const rows = await failuresOf(user.email);
    const wrong = rows.filter((row) => row.success === false && row.reason === 'wrong_password');
    expect(wrong.map((row) => row.remote_address)).toEqual(hosts);
    expect(new Set(wrong.map((row) => row.address_key))).toEqual(new Set(['2001:db8:40:1::/64']));
    // The refused attempt is recorded for the support desk, with its own address, and not counted.
    expect(rows.filter((row) => row.reason === 'throttled').map((row) => row.remote_address)).toEqual([
      '2001:db8:40:1:ffff:ffff:ffff:ffff',
    ]);

    const mapped = await fresh();
    for (let i = 0; i < MAX; i += 1) {
      const host = i % 2 === 0 ? '::ffff:192.0.2.40' : '192.0.2.40';
      expect((await login(mapped.email, 'wrong-Pass#1', host)).statusCode).toBe(401);
    }
    expect((await login(mapped.email, TEST_PASSWORD, '192.0.2.40')).statusCode).toBe(429);
    expect((await login(mapped.email, TEST_PASSWORD, '::ffff:192.0.2.40')).statusCode).toBe(429);
    expect((await login(mapped.email, TEST_PASSWORD, '192.0.2.41')).statusCode).toBe(200);
    expect(new Set((await failuresOf(mapped.email)).map((row) => row.remote_address))).toEqual(
      new Set(['::ffff:192.0.2.40', '192.0.2.40', '192.0.2.41']),
    );
  });

  it('a reservation never resolved (a process that died) counts as a failure inside the window only', async () => {
    const user = await fresh();
    const address = `10.44.0.${n}`;
    const reserve = (ageSeconds: number) =>
      t.db
        .insertInto('login_attempts')
        .values(
          Array.from({ length: MAX }, () => ({
            email: user.email,
            ip: null,
            remote_address: address,
            address_key: address,
            user_id: null,
            success: null,
            created_at: new Date(Date.now() - ageSeconds * 1000),
          })),
        )
        .execute();
    // Older than an attempt in flight: plain failures, refused for the rest of the window.
    await reserve(60);
    const refused = await login(user.email, TEST_PASSWORD, address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(WINDOW - 120);
    await t.db
      .updateTable('login_attempts')
      .set({ created_at: new Date(Date.now() - (WINDOW + 1) * 1000) })
      .where('email', '=', user.email)
      .execute();
    expect((await login(user.email, TEST_PASSWORD, address)).statusCode).toBe(200);
  });

  it.each([
    ['success', 200, true],
    ['failure', 429, false],
  ] as const)(
    'an attempt waits for attempts in flight (another process) to resolve: each a %s, it gets %i',
    async (_outcome, status, success) => {
      const user = await fresh();
      const address = `10.45.${success ? 1 : 2}.${n}`;
      const inFlight = await t.db
        .insertInto('login_attempts')
        .values(
          Array.from({ length: MAX }, () => ({
            email: user.email,
            ip: null,
            remote_address: address,
            address_key: address,
            user_id: null,
            success: null,
            created_at: new Date(Date.now() - 1000),
          })),
        )
        .returning('id')
        .execute();
      let answered = false;
      const answer = login(user.email, TEST_PASSWORD, address).then((response) => {
        answered = true;
        return response;
      });
      // Not answered while they are in flight: neither refused nor let in.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(answered).toBe(false);
      await t.db
        .updateTable('login_attempts')
        .set({ success })
        .where(
          'id',
          'in',
          inFlight.map((row) => row.id),
        )
        .execute();
      expect((await answer).statusCode).toBe(status);
    },
  );
});

/** A six-digit code that none of the steps the server accepts (now ± one) gives. */
function wrongCode(secret: string): string {
  const now = Date.now();
  const right = new Set([-2, -1, 0, 1, 2].map((step) => totp(secret, now + step * 30_000)));
  for (let code = 100_000; ; code += 1) if (!right.has(String(code))) return String(code);
}
