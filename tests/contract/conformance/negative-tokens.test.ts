import { buildSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { fieldAccessTable } from '../../../server/src/test-support/graphql-permission-prose';
import { METHODS, OPENAPI_DOCUMENT } from '../../../server/src/test-support/openapi-schema';
import {
  GRAPHQL_OPERATIONS,
  formatResults,
  isExtension,
  runConformance,
  type Result,
} from '../../../packages/conformance/src/kit.js';

/**
 * The kit's negative cases and token protocol (groups `negative` and `tokens`) alone against the
 * in-process reference server on PGlite: every check passes, each kind of check ran as often as the kit
 * lists cases for it, and the permission matrix covers exactly the operations the contracts say its
 * restricted principal (a role holding only `roles-list`) may not call — read here by the server's own
 * test readers of contracts/openapi.yaml and contracts/schema.graphql, not by the kit's.
 */
let testApp: TestApp | undefined;
let results: Result[] = [];
let baseResults: Result[] = [];

beforeAll(async () => {
  testApp = await startTestApp({ databaseUrl: 'pglite://memory' });
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = testApp.app.fastify.server.address() as AddressInfo;
  const options = {
    baseUrl: `http://127.0.0.1:${address.port}`,
    email: 'admin@demo.local',
    password: 'Back#Office!Demo',
    only: ['negative', 'tokens'],
  };
  results = await runConformance(options);
  // Again with the base profile, on the same server: what the group made the first time is gone.
  baseResults = await runConformance({ ...options, profile: 'base' });
}, 180_000);

afterAll(async () => {
  await testApp?.close();
});

const KINDS = ['400', '401', '403', '404', '409', 'order', 'token', 'agree'] as const;
const kindOf = (r: Result): string => r.operation.split(' ')[0] ?? '';
const HELD = 'roles-list';

/** REST operations whose `x-permission` (or `x-permission-for-others`) a holder of HELD alone lacks. */
function restRefused(): string[] {
  return Object.values(OPENAPI_DOCUMENT.paths).flatMap((item) =>
    METHODS.flatMap((method) => {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) return [];
      const permission = op['x-permission'];
      const forOthers = op['x-permission-for-others'];
      const lacks = Array.isArray(permission) && permission.length > 0 && !permission.includes(HELD);
      const lacksForOthers = Array.isArray(forOthers) && !forOthers.includes(HELD);
      return lacks || lacksForOthers ? [op.operationId as string] : [];
    }),
  );
}

/** REST operations marked `x-staff-only`. */
function staffOnly(): string[] {
  return Object.values(OPENAPI_DOCUMENT.paths).flatMap((item) =>
    METHODS.flatMap((method) => {
      const op = item[method] as Record<string, unknown> | undefined;
      return op?.['x-staff-only'] === true ? [op.operationId as string] : [];
    }),
  );
}

/** GraphQL operations files with a root field whose "Permission:" names routes other than HELD. */
function graphqlRefused(): string[] {
  const schema = buildSchema(readFileSync(join(process.cwd(), 'contracts/schema.graphql'), 'utf8'));
  const table = fieldAccessTable(schema);
  const fields = {
    query: schema.getQueryType()?.getFields() ?? {},
    mutation: schema.getMutationType()?.getFields() ?? {},
  };
  return GRAPHQL_OPERATIONS.filter((op) => {
    const kind = op.operation.operation === 'mutation' ? 'mutation' : 'query';
    return op.operation.selectionSet.selections.some((s) => {
      if (s.kind !== 'Field') return false;
      const access = table[kind].get(s.name.value);
      // "route `users`; without it, a signed-in user may still …": refused on another user's record.
      const selfService = /Permission:[^\n]*without it/.test(fields[kind][s.name.value]?.description ?? '');
      return (access?.kind === 'routes' && !access.routes.includes(HELD)) || selfService;
    });
  }).map((op) => op.name);
}

describe('conformance kit: negative cases and the token protocol against the reference server', () => {
  it('finds no contract violation', () => {
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) console.error(formatResults(failed));
    expect(failed.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
  });

  it('with the base profile: passes, and calls no extension operation', () => {
    const failed = baseResults.filter((r) => !r.ok);
    if (failed.length > 0) console.error(formatResults(failed));
    expect(failed.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
    // A check names its operation last ("403 without users: userList", "… : users (GraphQL)").
    const named = baseResults
      .filter((r) => r.group !== 'sign-in')
      .map((r) => /: (\w+)(?: \(GraphQL[^)]*\))?$/.exec(r.operation)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => isExtension(name))).toEqual([]);
    console.info(`base profile: ${baseResults.length} checks, full: ${results.length}`);
  });

  it('leaves none of its users or roles behind, and its tenants deleted', async () => {
    const db = testApp?.db;
    if (!db) throw new Error('no server');
    const users = await db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'conf-%')
      .where('deleted_at', 'is', null)
      .execute();
    expect(users).toEqual([]);
    const roles = await db.selectFrom('roles').select('name').where('name', 'like', 'conf\\_%').execute();
    expect(roles).toEqual([]);
    const tenants = await db
      .selectFrom('tenants')
      .select('name')
      .where('name', 'like', 'conf-%')
      .where('deleted_at', 'is', null)
      .execute();
    expect(tenants).toEqual([]);
    // It made some: two runs, each a tenant and its user; the full run's cleanup purged its tenant, the
    // base run's stays soft-deleted (the base API has no purge).
    const made = await db.selectFrom('tenants').select('name').where('name', 'like', 'conf-o-%').execute();
    expect(made).toHaveLength(1);
  });

  it('refuses the restricted principal exactly the operations the contracts say it lacks, REST and GraphQL, and another tenant’s user every staff-only one', () => {
    const matrix = (kind: Result['kind']) =>
      results
        .filter((r) => r.kind === kind && /^403 without /.test(r.operation))
        .map((r) => r.operation.replace(/^403 without [^:]+: /, '').replace(/ \(GraphQL\)$/, ''))
        .sort();
    expect(matrix('rest')).toEqual(restRefused().sort());
    expect(matrix('graphql')).toEqual(graphqlRefused().sort());
    const notStaff = results
      .filter((r) => r.operation.startsWith('403 not back-office staff: '))
      .map((r) => r.operation.replace('403 not back-office staff: ', ''))
      .sort();
    expect(notStaff).toEqual(staffOnly().sort());
  });

  it('runs every kind of check, as often as the kit lists cases for it', () => {
    const counts = Object.fromEntries(
      KINDS.map((kind) => [kind, results.filter((r) => r.group !== 'sign-in' && kindOf(r) === kind).length]),
    );
    const ms = (group: string) =>
      results.filter((r) => r.group === group).reduce((sum, r) => sum + (r.durationMs ?? 0), 0);
    console.info(
      `negative and token checks per kind: ${JSON.stringify(counts)}; ms: negative ${ms('negative')}, tokens ${ms('tokens')}`,
    );
    expect(counts).toEqual({
      // 9 operations × (missing field, wrong type, unknown property, malformed JSON).
      '400': 36,
      // 12 of the negative group (no token, malformed, tampered, a blocked user's), 13 of the token protocol.
      '401': 25,
      // The matrix, 2 operations its one permission opens, 4 of another tenant's user in this tenant, and
      // that user on every staff-only operation.
      '403': restRefused().length + graphqlRefused().length + 2 + 4 + staffOnly().length,
      '404': 14,
      '409': 9,
      order: 11,
      token: 11,
      agree: 5,
    });
    // Nothing else, and nothing unnamed.
    expect(
      results.filter(
        (r) => r.group !== 'sign-in' && r.group !== 'cleanup' && !KINDS.includes(kindOf(r) as (typeof KINDS)[number]),
      ),
    ).toEqual([]);
  });
});
