import { startTestApp, type TestApp } from './app';
import { validateResponse } from './contract';
import { createTestUser, TEST_PASSWORD, type TestUser } from './users';
import { totp } from '../auth/totp';

/** The app of the two-factor tests (server/src/auth/two-factor*.test.ts), set up by {@link useTwoFactorApp}. */
export const tf = {} as { t: TestApp };
let n = 0;

export const MAX_FAILURES = 4;

/** Registers the app (2 days of demo seed, 4 failures before 429) in the calling test file. */
export function useTwoFactorApp(): void {
  beforeAll(async () => {
    tf.t = await startTestApp({ seed: { days: 2 }, config: { loginMaxFailures: MAX_FAILURES } });
  }, 120_000);

  afterAll(async () => {
    await tf.t?.close();
  });
}

/** A fresh user per test (own throttle counters and state); back-office staff unless said. */
export async function freshUser(
  role: 'administrador' | 'operador' = 'operador',
): Promise<TestUser & { address: string }> {
  n += 1;
  const user = await createTestUser(tf.t.db, { email: `tf-${n}@demo.local`, tenant: 'backoffice', role });
  return { ...user, address: `10.9.0.${n}` };
}

export async function call(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  operationId: string,
  options: { token?: string; body?: unknown; address?: string } = {},
) {
  const response = await tf.t.app.fastify.inject({
    method,
    url,
    remoteAddress: options.address ?? '10.9.255.1',
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  const body: unknown = response.json();
  const check = validateResponse(operationId, response.statusCode, body);
  expect(check.errors, `${operationId} ${response.statusCode} ${response.body}`).toEqual([]);
  return { status: response.statusCode, body: body as Record<string, unknown>, headers: response.headers };
}

export const login = (user: { email: string; address: string }, otp?: string) =>
  call('POST', '/api/auth/login', 'authLogin', {
    address: user.address,
    body: { email: user.email, password: TEST_PASSWORD, ip: null, ...(otp === undefined ? {} : { otp }) },
  });

export async function tokenOf(user: { email: string; address: string }): Promise<string> {
  const answer = await login(user);
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

/** Enrols and verifies; returns the secret, the code used to verify and the recovery codes. */
export async function enable(token: string) {
  const enrolment = await call('POST', '/api/two-factor/enrol', 'twoFactorEnrol', { token });
  expect(enrolment.status).toBe(200);
  const secret = enrolment.body.secret as string;
  const code = totp(secret, Date.now());
  const verified = await call('POST', '/api/two-factor/verify', 'twoFactorVerify', { token, body: { code } });
  expect(verified.status).toBe(200);
  return { secret, code, recovery: verified.body.recovery_codes as string[] };
}
