import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { TEST_PASSWORD, createTestRole, createTestUser } from '../../../server/src/test-support/users';
import { runConformance } from '../../../packages/conformance/src/kit.js';
import { main } from '../../../packages/conformance/src/cli.js';

/**
 * The kit leaves nothing behind (docs/conformance.md, Principals) even when the run does not go to its
 * end: interrupted half way (the command's SIGINT), it stops calling, removes what it created and exits
 * 130; run with a staff user who is not an administrador, it says so at sign-in and creates nothing
 * (such a user could create tenants but not purge them).
 */
const TABLES = ['tenants', 'users', 'roles', 'instances', 'departments', 'connections', 'user_instances'];

let t: TestApp;
let baseUrl: string;

async function counts(): Promise<Record<string, number>> {
  const entries = await Promise.all(
    TABLES.map(async (table) => {
      const result = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db);
      return [table, result.rows[0]?.n ?? -1] as const;
    }),
  );
  return Object.fromEntries(entries);
}

beforeAll(async () => {
  t = await startTestApp();
  await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.fastify.server.address() as AddressInfo).port}`;
  await createTestRole(t.db, 'tenant_editor', ['tenants', 'users']);
  await createTestUser(t.db, {
    email: 'editor@leave-nothing.local',
    tenant: 'backoffice',
    role: 'tenant_editor',
    originBackoffice: true,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a whole conformance run', () => {
  it('leaves no tenant, instance, connection, department, role or live user of its own behind', async () => {
    const before = await counts();
    const live = async (): Promise<number> =>
      (await sql<{ n: number }>`select count(*)::int as n from users where deleted_at is null`.execute(t.db)).rows[0]
        ?.n ?? -1;
    const liveBefore = await live();
    const results = await runConformance({ baseUrl, email: 'admin@demo.local', password: 'Back#Office!Demo' });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const after = await counts();
    // Users the kit made in the back office's own tenant stay soft-deleted: the API has no way to remove a
    // user for good (contracts/openapi.yaml userDelete); every other user goes with its purged tenant.
    expect({ ...after, users: before.users }).toEqual(before);
    expect(await live()).toBe(liveBefore);
  }, 120_000);
});

describe('a conformance run that does not go to its end', () => {
  it('interrupted after it created its fixtures: stops, removes them, and says so', async () => {
    const before = await counts();
    const interrupt = new AbortController();
    const seen: string[] = [];
    // Interrupted as the roles group starts: the tenants group has made its tenants, users and instances.
    const watching: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      if (url.pathname === '/api/roles' && init?.method === 'POST') interrupt.abort();
      return fetch(input, init);
    };
    const results = await runConformance({
      baseUrl,
      email: 'admin@demo.local',
      password: 'Back#Office!Demo',
      fetch: watching,
      interrupt: interrupt.signal,
    });
    expect(interrupt.signal.aborted).toBe(true);
    expect(seen.filter((call) => call === 'POST /api/tenant').length).toBeGreaterThan(0);
    expect(results.some((r) => r.operation === 'interrupted')).toBe(true);
    const cleanup = results.filter((r) => r.group === 'cleanup');
    expect(cleanup.length).toBeGreaterThan(0);
    expect(cleanup.filter((r) => !r.ok)).toEqual([]);
    // No group after the interruption ran, and the coverage list does not blame the server for them.
    expect(results.some((r) => r.group === 'socket' || r.group === 'coverage')).toBe(false);
    expect(await counts()).toEqual(before);
  }, 120_000);

  it('exits 130 when interrupted, after the cleanup', async () => {
    const interrupt = new AbortController();
    interrupt.abort();
    const out: string[] = [];
    const code = await main(['--base-url', baseUrl, '--email', 'admin@demo.local', '--password', 'Back#Office!Demo'], {
      env: {},
      out: (text) => out.push(text),
      err: (text) => out.push(text),
      interrupt: interrupt.signal,
    });
    expect(code).toBe(130);
  });

  it('with a staff user who is not an administrador: a clear sign-in failure, exit 3, nothing created', async () => {
    const before = await counts();
    const out: string[] = [];
    const code = await main(
      ['--base-url', baseUrl, '--email', 'editor@leave-nothing.local', '--password', TEST_PASSWORD, '--quiet'],
      { env: {}, out: (text) => out.push(text), err: (text) => out.push(text) },
    );
    expect(code).toBe(3);
    expect(out.join('\n')).toContain(
      'editor@leave-nothing.local is not a back-office administrador (role "tenant_editor", origin_backoffice true)',
    );
    expect(await counts()).toEqual(before);
  }, 60_000);
});
