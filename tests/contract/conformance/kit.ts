import { GRAPHQL_OPERATIONS, REST_OPERATION_IDS } from './kit-contract';
import { conformanceClient, isoDay } from './kit-client';
import type { ConformanceClient, ConformanceOptions, Result } from './kit-client';
import {
  instancesAndConnections,
  permissionsAndRoles,
  sheetsAndDashboards,
  signIn,
  throwawayTenant,
  unauthorizedTable,
} from './kit-rest-steps';
import type { RunContext } from './kit-rest-steps';
import { deleteUserAndLogOut, graphqlOperations, restUsers, softDeleteAndRestore } from './kit-user-steps';

/**
 * Conformance kit: drives ANY server that claims to implement the contracts (REST `contracts/openapi.yaml`,
 * GraphQL `contracts/schema.graphql` + `contracts/operations/`) over HTTP and checks every answer against
 * them. It imports nothing from `server/`: it discovers ids and names from the server itself and only
 * mutates throwaway records it creates (unique names).
 */

export { conformanceClient, type ConformanceClient, type ConformanceOptions, type Result } from './kit-client';
export {
  GRAPHQL_OPERATIONS,
  REST_OPERATION_IDS,
  validateRestResponse,
  type GraphqlOperationFile,
} from './kit-contract';
export { validateGraphqlData } from './kit-graphql-data';

/** Runs every operation of the contracts once against the server at `options.baseUrl`; one result per check. */
export async function runConformance(options: ConformanceOptions): Promise<Result[]> {
  const c = conformanceClient(options);
  const today = new Date();
  const run: RunContext = {
    stamp: `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
    finishAt: isoDay(today),
    startAt: isoDay(new Date(today.getTime() - 29 * 86_400_000)),
  };
  const me = await signIn(c);
  if (me) {
    await unauthorizedTable(c);
    const tenants = await throwawayTenant(c, run);
    await instancesAndConnections(c, run, tenants);
    await sheetsAndDashboards(c, run, tenants);
    const roleId = await permissionsAndRoles(c, run);
    const userId = await restUsers(c, run, me, roleId);
    await graphqlOperations(c, run, roleId);
    await softDeleteAndRestore(c, tenants);
    await deleteUserAndLogOut(c, userId);
  }
  return finish(c);
}

/** Every operation of the contracts the run did not reach is a failed check of its own. */
function finish({ results, check }: ConformanceClient): Result[] {
  const seen = new Set(results.map((r) => r.operation));
  for (const id of REST_OPERATION_IDS)
    if (!seen.has(id)) check(id, 'rest', 0, ['not exercised by the conformance kit']);
  for (const op of GRAPHQL_OPERATIONS)
    if (!seen.has(op.name)) check(op.name, 'graphql', 0, ['not exercised by the conformance kit']);
  return results;
}

/** A fixed-width table of results (one row per check, problems indented below). */
export function formatResults(results: Result[]): string {
  const rows = results.map((r) => [r.operation, r.kind, String(r.status), r.ok ? 'ok' : 'FAIL']);
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(['operation', 'kind', 'status', 'ok'][i]?.length ?? 0, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(['operation', 'kind', 'status', 'ok']), line(widths.map((w) => '-'.repeat(w)))];
  results.forEach((r, i) => {
    out.push(line(rows[i] ?? []));
    for (const p of r.problems) out.push(`    - ${p}`);
  });
  const failed = results.filter((r) => !r.ok).length;
  out.push('', `${results.length} checks, ${failed} with problems`);
  return out.join('\n');
}
