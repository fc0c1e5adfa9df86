import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Kind, parse as parseGraphql } from 'graphql';
import { parse } from 'yaml';
import { graphqlSchema } from '../../../packages/conformance/src/kit-contract.js';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { formatResults, isExtension, runConformance, type Result } from '../../../packages/conformance/src/kit.js';
import type { RunOptions } from '../../../packages/conformance/src/kit.js';

/**
 * The kit's own fixtures (packages/conformance/src/kit-fixtures.ts) against the in-process reference
 * server on PGlite: it needs one back-office administrador and nothing of the demo data, and leaves the
 * data as it found it.
 *
 * Tables a run changes by signing in, left out of the comparison, and why:
 * - `audit_log`: every change the run makes is recorded, a purge included (the log keeps history).
 * - `login_attempts`: each sign-in (the caller's, the throwaway users') is a row of the throttle's
 *   history; rows of purged users stay with their user link cleared (server/src/db/migrations/0002-auth.ts).
 * - `token_families`, `socket_tickets`: each sign-in of the caller opens a token family (its sign-out
 *   revokes one), and the run asks a socket ticket; the throwaway users' go with them.
 * - `password_reset_requests`: the run asks for a reset link (for an e-mail nobody has), which the
 *   server counts per address for an hour (docs/support-desk.md, Forgot password).
 * - `users.last_sign_in_at`: each sign-in of the caller stamps it.
 * Every other table is compared row by row, every column.
 */

const EMAIL = 'admin@demo.local';
const PASSWORD = 'Back#Office!Demo';
const SIGN_IN_TABLES = new Set([
  'audit_log',
  'login_attempts',
  'token_families',
  'socket_tickets',
  'password_reset_requests',
]);

/** Every table's rows (sorted, as JSON), the sign-in tables aside. */
async function snapshot(t: TestApp): Promise<Record<string, string[]>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(t.db);
  const out: Record<string, string[]> = {};
  for (const { table_name: table } of tables.rows) {
    if (SIGN_IN_TABLES.has(table) || table.startsWith('kysely_')) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.db);
    // A user's last sign-in (migration 0019) is the sign-in's too: the caller signs in.
    out[table] = rows.rows.map((r) => JSON.stringify({ ...r, last_sign_in_at: undefined })).sort();
  }
  return out;
}

/** Differences between two snapshots, table by table (rows only in one of them). */
function differences(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = new Set(before[table] ?? []);
    const b = new Set(after[table] ?? []);
    for (const row of a) if (!b.has(row)) out.push(`${table} lost ${row.slice(0, 300)}`);
    for (const row of b) if (!a.has(row)) out.push(`${table} gained ${row.slice(0, 300)}`);
  }
  return out;
}

const failures = (results: Result[]): string[] => {
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) console.error(formatResults(failed));
  return failed.map((r) => `${r.operation}: ${r.problems.join(' | ')}`);
};

/** The contract's REST operations as path patterns, to name the operation a recorded request called. */
const openapi = parse(readFileSync('contracts/openapi.yaml', 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const REST_ROUTES = Object.entries(openapi.paths)
  .flatMap(
    ([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => typeof op.operationId === 'string')
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
          operationId: op.operationId as string,
          templated: path.includes('{'),
        })),
    // A literal path wins over a template it also matches (`/api/tenant/feature` is not `/api/tenant/{filterUsers}`).
  )
  .sort((a, b) => Number(a.templated) - Number(b.templated));

/** The operation a request called: a REST operationId, or the GraphQL operation its body names. */
function operationOf(method: string, url: URL, body: string | undefined): string {
  if (/^\/[^/]+\/graphql$/.test(url.pathname)) {
    const { operationName, query } = JSON.parse(body ?? '{}') as { operationName?: string; query?: string };
    if (operationName) return operationName;
    // A document of the kit's own (the 401 table): its root fields, each an extension or not by its description.
    const definition = parseGraphql(query ?? '').definitions[0];
    if (definition?.kind !== Kind.OPERATION_DEFINITION) return '(GraphQL without an operation)';
    const root = definition.operation === 'mutation' ? graphqlSchema.getMutationType() : graphqlSchema.getQueryType();
    const fields = definition.selectionSet.selections.flatMap((f) => (f.kind === Kind.FIELD ? [f.name.value] : []));
    const extension = fields.some((f) => /^\s*Extension\b/.test(root?.getFields()[f]?.description ?? ''));
    return extension ? `(GraphQL extension field of ${fields.join(', ')})` : `graphql{${fields.join(',')}}`;
  }
  const route = REST_ROUTES.find((r) => r.method === method && r.pattern.test(url.pathname));
  return route?.operationId ?? `(no operation: ${method} ${url.pathname})`;
}

async function listening(t: TestApp): Promise<string> {
  await t.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(t.app.fastify.server.address() as AddressInfo).port}`;
}

describe('conformance kit fixtures on the seeded reference server (PGlite)', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 2 } });
    baseUrl = await listening(t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  const run = (options: Partial<RunOptions> = {}) =>
    runConformance({ baseUrl, email: EMAIL, password: PASSWORD, ...options });

  it('passes twice in a row and leaves every table as it was (the sign-in tables aside)', async () => {
    const before = await snapshot(t);
    const first = await run();
    expect(failures(first)).toEqual([]);
    // The tenants group's two, the negative group's other tenant.
    const purged = first.filter((r) => r.group === 'cleanup' && /^cleanup: tenant conf-.* purged$/.test(r.operation));
    expect(purged).toHaveLength(3);
    expect(differences(before, await snapshot(t))).toEqual([]);
    const second = await run();
    expect(failures(second)).toEqual([]);
    expect(differences(before, await snapshot(t))).toEqual([]);
    // The run did write: its changes are in the audit log, the purges included.
    const purges = await t.db
      .selectFrom('audit_log')
      .select('target_name')
      .where('operation', '=', 'tenant.purge')
      .execute();
    expect(purges).toHaveLength(2 * purged.length);
  }, 240_000);

  it('cleans up when checks fail and a group stops half-way (a network failure mid-group)', async () => {
    const before = await snapshot(t);
    // Every instance listing fails at the network: instanceList fails its check, and the sync wait of
    // the instances group (a raw request) throws, which stops the group after it created its records.
    const failing: typeof globalThis.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if ((init?.method ?? 'GET') === 'GET' && url.pathname === '/api/instance') throw new TypeError('network down');
      return globalThis.fetch(input, init);
    };
    const results = await run({ only: ['instances'], fetch: failing });
    expect(failures(results)).toEqual([
      'instanceList: request failed: network down',
      'instances (group): the group stopped: network down',
    ]);
    expect(results.some((r) => r.operation === 'instanceCreate' && r.ok)).toBe(true);
    expect(results.filter((r) => r.group === 'cleanup' && r.ok).map((r) => r.operation)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^cleanup: tenant conf-.* purged$/)]),
    );
    expect(differences(before, await snapshot(t))).toEqual([]);
  }, 120_000);

  it('base profile: passes, calls no extension operation, exercises every base one, says what it left', async () => {
    const called: string[] = [];
    const recording: typeof globalThis.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const body = typeof init?.body === 'string' ? init.body : undefined;
      called.push(operationOf((init?.method ?? 'GET').toUpperCase(), url, body));
      return globalThis.fetch(input, init);
    };
    const results = await run({ profile: 'base', fetch: recording });
    expect(failures(results)).toEqual([]);
    expect(called.length).toBeGreaterThan(50);
    expect([...new Set(called.filter((op) => op.startsWith('(') || isExtension(op)))]).toEqual([]);
    // Every base operation was called (the run's coverage check fails an unreached one too).
    const baseOps = REST_ROUTES.map((r) => r.operationId).filter((id) => !isExtension(id));
    expect(baseOps.filter((id) => !called.includes(id))).toEqual([]);
    const left = results.filter((r) => /left soft-deleted \(the base profile has no purge\)$/.test(r.operation));
    // What it says is so: the run's three tenants (two of the tenants group, the negative group's other
    // one) and its user of the caller's tenant, soft-deleted, and nothing else of it live.
    const names = left.flatMap((r) => /^cleanup: tenant (\S+) left/.exec(r.operation)?.[1] ?? []);
    expect(names).toHaveLength(3);
    const rows = await t.db.selectFrom('tenants').select(['name', 'deleted_at']).where('name', 'in', names).execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.deleted_at).not.toBeNull();
    const users = left.flatMap((r) => Number(/^cleanup: user (\d+) left/.exec(r.operation)?.[1] ?? NaN) || []);
    expect(users.length).toBe(left.length - names.length);
    const userRows = await t.db.selectFrom('users').select(['id', 'deleted_at']).where('id', 'in', users).execute();
    expect(userRows).toHaveLength(users.length);
    for (const row of userRows) expect(row.deleted_at).not.toBeNull();
  }, 240_000);
});

describe('conformance kit without the demo data it once relied on (PGlite)', () => {
  let t: TestApp;
  let baseUrl: string;
  const OWN = 'sede-conformidade';

  beforeAll(async () => {
    // The back-office tenant under another name (the server is configured for it), no customer tenant,
    // no `chatbot` feature option, no template of the demo's names.
    t = await startTestApp({ seed: { days: 1 }, config: { backofficeTenant: OWN } });
    await t.db.deleteFrom('tenants').where('name', '<>', 'backoffice').execute();
    await t.db.updateTable('tenants').set({ name: OWN, template: 'sede', pool: 'sede' }).execute();
    await t.db.deleteFrom('feature_options').where('option', '=', 'chatbot').execute();
    baseUrl = await listening(t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('the fixture is what it says: one tenant, renamed, no chatbot option, no demo template', async () => {
    expect(await t.db.selectFrom('tenants').select(['name', 'template']).execute()).toEqual([
      { name: OWN, template: 'sede' },
    ]);
    const options = (await t.db.selectFrom('feature_options').select('option').execute()).map((r) => r.option);
    expect(options).not.toContain('chatbot');
    expect(options.length).toBeGreaterThan(0);
  });

  it('passes with the full profile and leaves every table as it was', async () => {
    const before = await snapshot(t);
    const results = await runConformance({ baseUrl, email: EMAIL, password: PASSWORD });
    expect(failures(results)).toEqual([]);
    expect(differences(before, await snapshot(t))).toEqual([]);
  }, 240_000);
});
