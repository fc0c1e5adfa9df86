import { GRAPHQL_OPERATIONS } from '../../../packages/conformance/src/kit.js';
import { PRINCIPALS, m, leaks, authorization, UNAUTHORIZED } from '../test-support/rbac-matrix';
import { GRAPHQL_TABLE, ISOLATION_TABLE } from '../test-support/rbac-graphql-table';
import { useMatrixApp, B_PLAN_AS_SET_UP, leakCheck, expectNothingLeaked } from '../test-support/rbac-matrix-setup';

/** The GraphQL half of the RBAC matrix (server/src/test-support/rbac-matrix.ts): every operation × every principal at tenant B's path, and tenant A naming tenant B's records in its own. */
useMatrixApp();

describe('RBAC and tenant-isolation matrix: GraphQL', () => {
  it('the GraphQL table covers every GraphQL operation of the contract', () => {
    const covered = new Set(GRAPHQL_TABLE.map(([name]) => name));
    expect(GRAPHQL_OPERATIONS.map((o) => o.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(GRAPHQL_TABLE)('GraphQL %s at /matrix-b/graphql', async (name, variables, row) => {
    const op = GRAPHQL_OPERATIONS.find((o) => o.name === name);
    if (!op) throw new Error(`no operations file for ${name}`);
    const mismatches: string[] = [];
    for (const [i, who] of PRINCIPALS.entries()) {
      const header = await authorization(who);
      const response = await m.t.app.fastify.inject({
        method: 'POST',
        url: '/matrix-b/graphql',
        headers: { 'content-type': 'application/json', ...(header ? { authorization: header } : {}) },
        payload: JSON.stringify({ query: op.source, operationName: name, variables: await variables() }),
      });
      m.requests += 1;
      const expected = row[i];
      const body = response.json<
        { data?: unknown; errors?: { extensions?: { code?: string } }[] } & Record<string, unknown>
      >();
      if (response.statusCode !== expected)
        mismatches.push(`${who}: ${response.statusCode}, expected ${expected}: ${response.body.slice(0, 160)}`);
      if (expected === 200 && body.errors)
        mismatches.push(`${who}: 200 with errors ${JSON.stringify(body.errors).slice(0, 160)}`);
      if (expected === 403 && body.errors?.[0]?.extensions?.code !== 'FORBIDDEN')
        mismatches.push(`${who}: 403 without FORBIDDEN: ${response.body.slice(0, 160)}`);
      if (expected === 401 && UNAUTHORIZED[who]) expect(body).toEqual(UNAUTHORIZED[who]);
      leakCheck(who, `GraphQL ${name}`, response.body);
    }
    expect(mismatches).toEqual([]);
  });

  it.each(ISOLATION_TABLE)(
    "GraphQL %s as tenant A in its own path, naming tenant B's records",
    async (name, variables, expected) => {
      const op = GRAPHQL_OPERATIONS.find((o) => o.name === name);
      if (!op) throw new Error(`no operations file for ${name}`);
      const response = await m.t.app.fastify.inject({
        method: 'POST',
        url: '/matrix-a/graphql',
        headers: { 'content-type': 'application/json', authorization: (await authorization('AtoB')) ?? '' },
        payload: JSON.stringify({ query: op.source, operationName: name, variables: await variables() }),
      });
      m.requests += 1;
      const body = response.json<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>();
      expect(response.statusCode).toBe(200);
      if (expected === 'NOT_FOUND') expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
      else expect(body.errors).toBeUndefined();
      leakCheck('AtoB', `GraphQL ${name} (own path)`, response.body);
    },
  );

  it('leaked nothing of tenant B to tenant A, and no refused call changed tenant B', async () => {
    await expectNothingLeaked(B_PLAN_AS_SET_UP);
    console.info(
      `RBAC matrix, GraphQL: ${GRAPHQL_TABLE.length} rows × ${PRINCIPALS.length} principals + ${ISOLATION_TABLE.length} isolation checks (${m.requests} requests), ${leaks.length} leaks`,
    );
  });
});
