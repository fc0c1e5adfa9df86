import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { GRAPHQL_OPERATIONS } from '../../../packages/conformance/src/kit.js';
import { startTestApp } from './app';
import { createTestUser } from './users';
import { forgedToken } from './ordering';
import { mayBePublic } from './ordering-graphql';
import { mint, pools, refused, run } from './graphql-fuzz-state';
import type { GraphqlFuzzSize } from './graphql-fuzz-state';
import { caseArbitrary } from './graphql-fuzz-cases';
import { OVERFLOWING_NUMBERS } from './arbitraries';
import { problems, send, stats } from './graphql-fuzz-send';
import { orderingCases, orderingCheck, orderingStats, parsedBody } from './graphql-fuzz-ordering';

export { FULL_GRAPHQL_FUZZ, type GraphqlFuzzSize } from './graphql-fuzz-state';

/**
 * Contract fuzzing, GraphQL side: every operation of contracts/operations fuzzed through its variables
 * with fast-check, variables generated from their declared types (valid, and broken: wrong types, null
 * for non-null, missing, overflowing Int, hostile strings), on a random tenant path. Requests are
 * CLASSIFIED by graphql-js's own variable coercion against contracts/schema.graphql (the GraphQL specification's rules).
 * Oracle: no 5xx; invalid variables → 400 with errors and no data; valid variables → 200 whose errors
 * are only the codes the schema documents for that operation (BAD_USER_INPUT / NOT_FOUND naming one of
 * its arguments, INVALID_CREDENTIALS…), and whose data matches the operation's selection.
 * A second property proves the order of checks (contracts/schema.graphql): whatever the document, variables
 * or body (even one Fastify cannot parse), no token and a bad token get 401 with the REST body, and a caller
 * on another tenant's path or without a root field's route 403 FORBIDDEN, before the body is judged.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Registers the fuzz run in the calling test file (normal suite: small; reliability: {@link FULL_GRAPHQL_FUZZ}). */
export function describeGraphqlFuzz(size: GraphqlFuzzSize): void {
  beforeAll(async () => {
    run.t = await startTestApp({ seed: { days: 1 }, config: { loginMaxFailures: 1_000_000 } });
    run.caller = await createTestUser(run.t.db, {
      email: 'gql-fuzz-admin@demo.local',
      tenant: 'backoffice',
      role: 'administrador',
    });
    run.passwordUser = await createTestUser(run.t.db, { email: 'gql-fuzz-password@demo.local', tenant: 'backoffice' });
    const stored = await run.t.db
      .selectFrom('users')
      .select(['password_hash', 'role_id', 'id'])
      .where('id', 'in', [run.caller.id, run.passwordUser.id])
      .execute();
    run.passwordHash = stored.find((r) => r.id === run.passwordUser.id)?.password_hash ?? '';
    run.callerRole = stored.find((r) => r.id === run.caller.id)?.role_id ?? 0;
    run.token = await mint(run.caller);
    const tenants = await run.t.db.selectFrom('tenants').select(['name', 'deleted_at']).execute();
    pools.tenants = tenants.map((r) => r.name);
    pools.live = new Set(tenants.filter((r) => !r.deleted_at).map((r) => r.name));
    const ids = new Set<number>();
    for (const table of ['users', 'roles', 'instances', 'departments', 'user_instances'] as const) {
      for (const row of await run.t.db.selectFrom(table).select('id').execute()) ids.add(row.id);
    }
    pools.ids = [...ids];
    // After the pools: no fuzzed id names these users, so no fuzzed call can delete or change them.
    const customer = await run.t.db
      .selectFrom('tenants')
      .select('name')
      .where('name', '!=', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    refused.outsider = await createTestUser(run.t.db, {
      email: 'gql-fuzz-outsider@demo.local',
      tenant: customer.name,
      role: 'administrador',
      originBackoffice: false,
    });
    refused.outsiderToken = await mint(refused.outsider);
    refused.operador = await createTestUser(run.t.db, {
      email: 'gql-fuzz-operador@demo.local',
      tenant: 'backoffice',
      role: 'operador',
    });
    refused.operadorToken = await mint(refused.operador);
  }, 120_000);

  afterAll(async () => {
    await run.t?.close();
  });

  describe('contract fuzzing of every GraphQL operation', () => {
    // First, while the fuzz has changed nothing: every request below is refused before its body is read.
    it("refuses any body without a token (401), with a bad token (401), on another tenant's path or without the route (403)", async () => {
      const started = Date.now();
      const forged = await Promise.all([0, 1, 2].map(() => forgedToken(decodeJwt(run.token))));
      await fc.assert(
        fc.asyncProperty(orderingCases(forged), async (c) => {
          // Documents that may select only public fields (logIn, introspection) need no token: not this property's.
          const parsed = parsedBody(c.payload, c.contentType);
          if (parsed && mayBePublic(parsed.value)) {
            orderingStats.publicSkipped += 1;
            return;
          }
          // Another tenant's path is refused whatever the body, even one Fastify cannot parse; a missing
          // route needs the document's root fields, so those cases must parse.
          if (c.who === 'no route' && !parsed)
            throw new Error(`generator: a ${c.who} case Fastify would not parse: ${c.payload.slice(0, 120)}`);
          await orderingCheck(c);
        }),
        { numRuns: size.orderingRuns, seed: SEED },
      );
      console.info(
        `GraphQL order of checks (seed ${SEED}): ${orderingStats.requests} fuzzed requests on ${orderingStats.operations.size} operations in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
          `${orderingStats.noToken} without a token → 401, ${orderingStats.badToken} with a bad token → 401, ${orderingStats.otherTenant} on another tenant's path → 403, ` +
          `${orderingStats.noRoute} without route \`users\` → 403; ${orderingStats.publicSkipped} public documents left out`,
      );
      expect(orderingStats.operations.size).toBe(GRAPHQL_OPERATIONS.length - 1);
      expect(
        Math.min(orderingStats.noToken, orderingStats.badToken, orderingStats.otherTenant, orderingStats.noRoute),
      ).toBeGreaterThan(size.orderingRuns / 20);
    }, 600_000);

    it('answers no 5xx, refuses invalid variables with 400, and answers valid ones with documented errors or conforming data', async () => {
      const started = Date.now();
      expect(GRAPHQL_OPERATIONS.length).toBeGreaterThan(15);
      for (const [index, op] of GRAPHQL_OPERATIONS.entries()) {
        for (const valid of [true, false]) {
          if (!valid && (op.operation.variableDefinitions ?? []).length === 0) continue;
          const cases = fc.sample(caseArbitrary(op, valid), {
            numRuns: valid ? size.validRuns : size.invalidRuns,
            seed: SEED + index * 2 + (valid ? 0 : 1),
          });
          for (const c of cases) await send(op, c);
        }
      }
      console.info(
        `GraphQL contract fuzz (seed ${SEED}): ${stats.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${stats.server5xx} answered 5xx; ` +
          `${stats.valid} valid (${stats.ok} with data, ${stats.documentedErrors} with documented errors, ${stats.ownRoleRefused} own-role and own two-factor changes refused 403), ${stats.invalid} invalid, ${stats.tenantNotFound} on an unknown tenant (404)`,
      );
      const kinds = new Map<string, { n: number; example: string }>();
      for (const problem of problems) {
        const key = /^([^:]+): (\w+)/.exec(problem)?.slice(1).join(' ') ?? problem.slice(0, 60);
        const seen = kinds.get(key);
        kinds.set(key, { n: (seen?.n ?? 0) + 1, example: seen?.example ?? problem });
      }
      expect([...kinds].map(([key, { n, example }]) => `${n}× ${key} — e.g. ${example}`)).toEqual([]);
      expect(stats.server5xx).toBe(0);
      expect(stats.ok).toBeGreaterThan(stats.valid / 3);
      expect(stats.invalid).toBeGreaterThan(stats.requests * 0.25);
    }, 600_000);

    // A broken case the random seeds reach only now and then: one's own role given as a number no
    // GraphQL Int is. The oracle must classify it (400) without asking the database about it.
    it("classifies one's own role given as a number outside Int without asking the database", async () => {
      const updateUser = GRAPHQL_OPERATIONS.find((op) => op.name === 'updateUser');
      if (!updateUser) throw new Error('contracts/operations has no updateUser');
      const before = { invalid: stats.invalid, problems: problems.length };
      const broken = OVERFLOWING_NUMBERS.filter((n) => !Number.isInteger(n) || Math.abs(n) >= 2 ** 31);
      expect(broken).toContain(-1e308);
      for (const roleId of broken)
        await send(updateUser, { tenant: run.caller.tenantName, variables: { id: run.caller.id, role_id: roleId } });
      expect(problems.slice(before.problems)).toEqual([]);
      expect(stats.invalid - before.invalid).toBe(broken.length);
    });
  });
}
