import type { Kysely } from 'kysely';
import type { App } from './app';
import type { Database } from './db/schema';
import { DEMO_PASSWORD } from './tooling/seed';
import { startTestApp, type TestApp } from './test-support/app';

let harness: TestApp;
let app: App;
let db: Kysely<Database>;

async function login(email: string, password = DEMO_PASSWORD) {
  return app.fastify.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password, ip: null } });
}

async function tokenOf(email: string): Promise<string> {
  const response = await login(email);
  expect(response.statusCode).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

beforeAll(async () => {
  harness = await startTestApp();
  app = harness.app;
  db = harness.db;
}, 120_000);

afterAll(async () => harness.close());

describe('reference server', () => {
  it('logs in the demo administrator and answers the contract shape', async () => {
    const response = await login('admin@demo.local');
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      access_token: string;
      origin_backoffice: boolean;
      has_permission_routes: string[];
      user: { email: string };
    }>();
    expect(body.access_token.split('.')).toHaveLength(3);
    expect(body.origin_backoffice).toBe(true);
    expect(body.has_permission_routes).toContain('tenants');
    expect(body.user.email).toBe('admin@demo.local');
  });

  it('answers unknown email and wrong password the same way, and records both', async () => {
    const before = await db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('success', '=', false)
      .executeTakeFirstOrThrow();
    const unknown = await login('nobody@demo.local', 'whatever');
    const wrong = await login('admin@demo.local', 'wrong-password');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    const after = await db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('success', '=', false)
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(2);
  });

  it('POST /api/tenant/paginated with defaults returns 4 active tenants, highest id first', async () => {
    const token = await tokenOf('admin@demo.local');
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    const page = response.json<{ data: { id: number; deleted_at: string | null }[]; total: number; limit: number }>();
    expect(page.limit).toBe(4);
    expect(page.data).toHaveLength(4);
    const ids = page.data.map((t) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const { max } = await db
      .selectFrom('tenants')
      .select((eb) => eb.fn.max('id').as('max'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(ids[0]).toBe(max);
    expect(page.data.every((t) => t.deleted_at === null)).toBe(true);
  });

  it('gives operador 403 on the tenants list and the administrador 200', async () => {
    const operador = await tokenOf('operador@demo.local');
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers: { authorization: `Bearer ${operador}` },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: 'Forbidden', required_permission: ['tenants'] });
  });

  it.each([
    ['no token', undefined, { status: 'Authorization Token not found' }],
    ['a malformed token', 'Bearer abc.def.ghi', { status: 'Token is Invalid' }],
  ])('answers %s with its 401 body', async (_label, authorization, body) => {
    const response = await app.fastify.inject({
      method: 'GET',
      url: '/api/auth/userInfo',
      headers: authorization ? { authorization } : {},
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(body);
  });

  it('revokes the token on logout', async () => {
    const token = await tokenOf('admin@demo.local');
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers })).statusCode).toBe(200);
    const out = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers,
      payload: { data: { email: 'admin@demo.local' }, ip: null },
    });
    expect(out.statusCode).toBe(200);
    const after = await app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ status: 'Unauthorized' });
  });

  it('rejects extra properties and wrong types with the contract 400 body naming the field', async () => {
    const token = await tokenOf('admin@demo.local');
    const headers = { authorization: `Bearer ${token}` };
    const extra = await app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers,
      payload: { sneaky: 1 },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toEqual({
      message: 'Validation failed',
      errors: [{ field: 'body/sneaky', message: 'is not allowed' }],
    });
    const wrong = await app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers,
      payload: { pagination_limit: 'lots' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('body/pagination_limit');
    const broken = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
  });

  it('sets the security headers on every response', async () => {
    const response = await app.fastify.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBeDefined();
  });
});
