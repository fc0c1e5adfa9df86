import { GRAPHQL_OPERATIONS } from '../../../packages/conformance/src/kit.js';
import { validateResponse } from '../test-support/contract';
import { declaredAccess, namesManagedUserFields, refusedBeforeInput } from '../test-support/ordering';
import { invalidGraphqlCases } from '../test-support/ordering-graphql';
import { invalidRestCases, type InvalidRestCase } from '../test-support/ordering-invalid-rest';
import { m, ids, users, leaks } from '../test-support/rbac-matrix';
import { REST_TABLE } from '../test-support/rbac-rest-table';
import { GRAPHQL_TABLE } from '../test-support/rbac-graphql-table';
import type { SignedIn } from '../test-support/rbac-ordering';
import {
  UNAUTHENTICATED,
  UNAUTHENTICATED_BODY,
  NOWHERE,
  callerOf,
  G_ROUTE_FIELDS,
  ordering,
} from '../test-support/rbac-ordering';
import {
  useMatrixApp,
  B_PLAN_AS_SET_UP,
  operation,
  signedInHeaders,
  expectNothingLeaked,
} from '../test-support/rbac-matrix-setup';

/** The order of checks of the RBAC matrix (server/src/test-support/rbac-matrix.ts): who is refused before the input is read, through REST and GraphQL. */
useMatrixApp();

describe('RBAC matrix: order of checks', () => {
  const restOrdering = [...new Set(REST_TABLE.map(([id]) => id))].filter(
    (id) => declaredAccess(operation(id)).permission !== 'public',
  );
  it.each(restOrdering)('REST %s: 401 before 403 before 400, whatever the input', async (operationId) => {
    const op = operation(operationId);
    const access = declaredAccess(op);
    const hasId = op.params.some((p) => p.in === 'path' && p.name === 'id');
    // x-permission-for-others decides by the path's id: another user (B's) for everyone, op's own for opSelf.
    const target = (who: SignedIn) =>
      !hasId ? {} : access.forOthers ? { id: who === 'opSelf' ? users.op.id : ids.bUser } : { id: NOWHERE };
    const callers: SignedIn[] = ['op', 'none', 'AtoB', 'admin', ...(access.forOthers ? (['opSelf'] as const) : [])];
    const headers = await signedInHeaders();
    const mismatches: string[] = [];
    const cases = invalidRestCases(op, target('admin'));
    if (cases.length === 0) ordering.inputless.push(operationId);
    const refusals = { unauthenticated: 0, forbidden: 0, invalid: 0 };

    const check = async (
      who: string,
      c: InvalidRestCase,
      header: string | undefined,
      expected: number,
      unauthorized?: unknown,
    ) => {
      const response = await m.t.app.fastify.inject({
        method: c.method,
        url: c.url,
        headers: {
          ...(header === undefined ? {} : { authorization: header }),
          ...(c.payload === undefined ? {} : { 'content-type': c.contentType ?? 'application/json' }),
        },
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      m.requests += 1;
      ordering.rest += 1;
      const label = `${who}, ${c.name} (${c.method} ${c.url.slice(0, 80)})`;
      if (response.statusCode !== expected) {
        mismatches.push(`${label}: ${response.statusCode}, expected ${expected}: ${response.body.slice(0, 160)}`);
        return;
      }
      const body: unknown = response.json();
      if (op.op.responses?.[String(expected)]) {
        const contract = validateResponse(operationId, expected, body);
        if (!contract.valid)
          mismatches.push(
            `${label}: ${expected} body breaks the contract: ${JSON.stringify(contract.errors).slice(0, 160)}`,
          );
      } else {
        // A body sent to an operation that takes none: the contract lists no answer for it; the server's own.
        ordering.unlisted.add(`${operationId} ${expected}`);
        if ((body as { message?: unknown }).message !== 'Validation failed')
          mismatches.push(`${label}: ${expected} body ${response.body.slice(0, 160)}`);
      }
      if (unauthorized !== undefined && JSON.stringify(body) !== JSON.stringify(unauthorized))
        mismatches.push(`${label}: 401 body ${response.body}, expected ${JSON.stringify(unauthorized)}`);
      if (expected === 403 && (body as { message?: unknown }).message !== 'Forbidden')
        mismatches.push(`${label}: 403 body ${response.body}`);
    };

    for (const c of cases) {
      for (const who of UNAUTHENTICATED) {
        await check(who, c, headers[who], 401, UNAUTHENTICATED_BODY[who]);
        refusals.unauthenticated += 1;
      }
    }
    for (const who of callers) {
      for (const c of invalidRestCases(op, target(who))) {
        const caller = callerOf(who);
        const refused =
          refusedBeforeInput(caller, access, c.pathId) ||
          // A body the server parses (JSON of an accepted size) shows the fields it asks to change.
          (operationId === 'userUpdate' &&
            !caller.administrador &&
            !caller.routes.has('users') &&
            c.status === 400 &&
            namesManagedUserFields(c.payload));
        await check(who, c, headers[who], refused ? 403 : c.status);
        refusals[refused ? 'forbidden' : 'invalid'] += 1;
      }
    }
    ordering.unauthenticated += refusals.unauthenticated;
    ordering.forbidden += refusals.forbidden;
    ordering.invalid += refusals.invalid;
    expect(mismatches).toEqual([]);
    // An operation that takes input and declares a permission someone lacks has cells of all three kinds.
    const restricted =
      access.permission !== 'public' && (access.permission.length > 0 || access.staffOnly || access.forOthers !== null);
    if (cases.length > 0)
      expect({
        unauthenticated: refusals.unauthenticated > 0,
        forbidden: refusals.forbidden > 0 || !restricted,
        invalid: refusals.invalid > 0,
      }).toEqual({ unauthenticated: true, forbidden: true, invalid: true });
  });

  it.each(GRAPHQL_TABLE.filter(([name]) => name !== 'logIn'))(
    'GraphQL %s at /matrix-b/graphql: 401 before 403 before 400, whatever the body',
    async (name, variables) => {
      const op = GRAPHQL_OPERATIONS.find((o) => o.name === name);
      if (!op) throw new Error(`no operations file for ${name}`);
      const headers = await signedInHeaders();
      const mismatches: string[] = [];
      const cases = invalidGraphqlCases(op, await variables());
      const check = async (who: string, c: (typeof cases)[number], expected: number, unauthorized?: unknown) => {
        const header = headers[who as keyof typeof headers];
        const response = await m.t.app.fastify.inject({
          method: 'POST',
          url: '/matrix-b/graphql',
          headers: { 'content-type': c.contentType, ...(header === undefined ? {} : { authorization: header }) },
          payload: c.payload,
        });
        m.requests += 1;
        ordering.graphql += 1;
        const label = `${who}, ${c.name}`;
        if (response.statusCode !== expected) {
          mismatches.push(`${label}: ${response.statusCode}, expected ${expected}: ${response.body.slice(0, 160)}`);
          return;
        }
        const body = response.json<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>();
        if (unauthorized !== undefined && JSON.stringify(body) !== JSON.stringify(unauthorized))
          mismatches.push(`${label}: 401 body ${response.body}, expected ${JSON.stringify(unauthorized)}`);
        if (expected === 403 && (!body.errors?.length || body.errors.some((e) => e.extensions?.code !== 'FORBIDDEN')))
          mismatches.push(`${label}: 403 without FORBIDDEN: ${response.body.slice(0, 160)}`);
        // A refused document never ran: no data of any field.
        if (expected === 403 && body.data !== undefined && body.data !== null)
          mismatches.push(`${label}: 403 with data: ${response.body.slice(0, 160)}`);
        if (expected === 400 && c.parsed && (!body.errors?.length || body.data !== undefined))
          mismatches.push(`${label}: 400 without errors, or with data: ${response.body.slice(0, 160)}`);
      };
      for (const c of cases) {
        for (const who of UNAUTHENTICATED) {
          await check(who, c, 401, UNAUTHENTICATED_BODY[who]);
          ordering.unauthenticated += 1;
        }
        // Tenant B's path refuses A→B before the body is looked at, also for bodies Fastify cannot parse
        // (bodyErrorHandler in server/src/graphql/index.ts checks identity, then the path's tenant).
        await check('AtoB', c, 403);
        ordering.forbidden += 1;
        if (G_ROUTE_FIELDS.has(name)) {
          if (c.readable) {
            await check('op', c, 403);
            ordering.forbidden += 1;
          }
        } else {
          await check('op', c, c.status);
          ordering.invalid += 1;
        }
        await check('admin', c, c.status);
        ordering.invalid += 1;
      }
      expect(mismatches).toEqual([]);
    },
  );

  it('leaked nothing of tenant B to tenant A, and no refused call changed tenant B', async () => {
    await expectNothingLeaked(B_PLAN_AS_SET_UP);
    const orderingCells = ordering.rest + ordering.graphql;
    console.info(
      `RBAC ordering: ${orderingCells} cells (${ordering.rest} REST + ${ordering.graphql} GraphQL: ${ordering.unauthenticated} → 401, ${ordering.forbidden} → 403, ${ordering.invalid} → 400/413/415)` +
        ` (${m.requests} requests), ${leaks.length} leaks`,
    );
    console.info(
      `  ordering: REST operations without input to break (no cells): ${ordering.inputless.join(', ') || 'none'}`,
    );
    console.info(
      `  ordering: answers the contract does not list (a body sent where it defines none): ${[...ordering.unlisted].join(', ') || 'none'}`,
    );
  });
});
