import { startTestApp, type TestApp } from '../test-support/app';
import { DEMO_PASSWORD } from '../tooling/seed';

/**
 * Sign-in (docs/security.md, section 2): unknown e-mail and wrong password get the same answer; every failed login is
 * recorded (time, e-mail, address); more than LOGIN_MAX_FAILURES failures per account and address in
 * the window → 429 with Retry-After, even for the right password, without locking out other
 * addresses or other accounts.
 */
let t: TestApp;
const MAX = 4;
const WINDOW = 600;

beforeAll(async () => {
  t = await startTestApp({ config: { loginMaxFailures: MAX, loginWindowSeconds: WINDOW } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function login(email: string, password: string, remoteAddress = '10.0.0.1', ip: string | null = '203.0.113.7') {
  return t.app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    payload: { email, password, ip },
  });
}

describe('POST /api/auth/login failures', () => {
  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const unknown = await login('nobody@demo.local', 'whatever-Pass#1', '10.0.0.50');
    const wrong = await login('operador@demo.local', 'whatever-Pass#1', '10.0.0.51');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(unknown.statusCode);
    expect(wrong.body).toBe(unknown.body);
  });

  it('records every failed login with time, e-mail and both addresses', async () => {
    const before = Date.now();
    await login('Admin@Demo.Local', 'wrong-Pass#1', '10.0.0.60', '198.51.100.4');
    const row = await t.db
      .selectFrom('login_attempts')
      .selectAll()
      .where('remote_address', '=', '10.0.0.60')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'admin@demo.local', ip: '198.51.100.4', success: false });
    expect(new Date(row.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it(`throttles after ${MAX} failures per account and address with 429 and Retry-After`, async () => {
    const address = '10.0.0.70';
    for (let i = 0; i < MAX; i += 1)
      expect((await login('admin@demo.local', `wrong-${i}`, address)).statusCode).toBe(401);

    // Now even the right password is refused from that address, with a wait that fits the window.
    const throttled = await login('admin@demo.local', DEMO_PASSWORD, address);
    expect(throttled.statusCode).toBe(429);
    const retryAfter = Number(throttled.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW);
    expect(throttled.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));

    // Another address, and another account from this address, are not locked out.
    expect((await login('admin@demo.local', DEMO_PASSWORD, '10.0.0.71')).statusCode).toBe(200);
    expect((await login('operador@demo.local', DEMO_PASSWORD, address)).statusCode).toBe(200);
  });

  it('lets the account in again once the failures leave the window', async () => {
    const address = '10.0.0.80';
    for (let i = 0; i < MAX; i += 1) await login('operador@demo.local', `wrong-${i}`, address);
    expect((await login('operador@demo.local', DEMO_PASSWORD, address)).statusCode).toBe(429);
    // Age the recorded failures past the window instead of waiting for it.
    await t.db
      .updateTable('login_attempts')
      .set({ created_at: new Date(Date.now() - (WINDOW + 1) * 1000) })
      .where('remote_address', '=', address)
      .execute();
    expect((await login('operador@demo.local', DEMO_PASSWORD, address)).statusCode).toBe(200);
  });
});
