import { validateResponse } from '../test-support/contract';
import { OPERATIONS } from '../test-support/openapi-schema';
import { PRINCIPALS, m, leaks, authorization, UNAUTHORIZED } from '../test-support/rbac-matrix';
import { range, REST_TABLE } from '../test-support/rbac-rest-table';
import { useMatrixApp, leakCheck, expectNothingLeaked } from '../test-support/rbac-matrix-setup';

/** The REST half of the RBAC matrix (server/src/test-support/rbac-matrix.ts): every REST operation × every principal. */
useMatrixApp();

describe('RBAC and tenant-isolation matrix: REST', () => {
  it('the REST table covers every REST operation of the contract', () => {
    const covered = new Set(REST_TABLE.map(([id]) => id));
    expect(OPERATIONS.map((o) => o.operationId).filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(REST_TABLE.map(([id, label, build, row]) => [`${id}${label ? ` (${label})` : ''}`, id, build, row] as const))(
    'REST %s',
    async (label, operationId, build, row) => {
      const mismatches: string[] = [];
      for (const [i, who] of PRINCIPALS.entries()) {
        const request = await build(who, i);
        const url = request.url.replace('STARTFINISH', range());
        const header = await authorization(who);
        const response = await m.t.app.fastify.inject({
          method: request.method,
          url,
          headers: header ? { authorization: header } : {},
          ...(request.body === undefined ? {} : { payload: request.body as Record<string, unknown> }),
        });
        m.requests += 1;
        const expected = row[i];
        if (response.statusCode !== expected)
          mismatches.push(`${who}: ${response.statusCode}, expected ${expected}: ${response.body.slice(0, 160)}`);
        // The lists' exports answer CSV only (contracts/openapi.yaml userExport, tenantExport).
        const csv = String(response.headers['content-type']).startsWith('text/csv');
        const body: unknown = csv ? response.body : response.json();
        const check = validateResponse(operationId, response.statusCode, body, csv ? 'text/csv' : 'application/json');
        if (!check.valid)
          mismatches.push(
            `${who}: ${response.statusCode} body breaks the contract: ${JSON.stringify(check.errors).slice(0, 160)}`,
          );
        if (response.statusCode === 401 && UNAUTHORIZED[who]) expect(body).toEqual(UNAUTHORIZED[who]);
        leakCheck(who, `REST ${label}`, response.body);
      }
      expect(mismatches).toEqual([]);
    },
  );

  it('leaked nothing of tenant B to tenant A, and no refused call changed tenant B', async () => {
    // The administrator's tenantSetPlan row is the one call allowed to change tenant B's plan.
    await expectNothingLeaked({ plan: 'professional', user_limit: 50 });
    console.info(
      `RBAC matrix, REST: ${REST_TABLE.length} rows × ${PRINCIPALS.length} principals = ${REST_TABLE.length * PRINCIPALS.length} cells (${m.requests} requests), ${leaks.length} leaks`,
    );
  });
});
