import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { GRAPHQL_OPERATIONS, type GraphqlOperationFile } from '../../../packages/conformance/src/kit.js';
import { HOSTILE_STRINGS } from './arbitraries';
import { NO_TOKEN_HEADERS, oversizedBody, tamperedToken, UNAUTHORIZED_BODIES, unsignedToken } from './ordering';
import { pools, refused, run } from './graphql-fuzz-state';
import { caseArbitrary } from './graphql-fuzz-cases';

// ------------------------------------------------------------------------------------------------------
// Order of checks (contracts/schema.graphql, AUTHENTICATION FAILURES and FORBIDDEN): identity, the path's
// tenant, the root fields' route permission, and only then the body
// ------------------------------------------------------------------------------------------------------

/**
 * Root fields that need route `users` (or `roles-list`/`roles-edit`), `tenants` or `audit`, which operador lacks, whatever their
 * arguments (contracts/schema.graphql, PERMISSIONS). `updateUser` is not one: without the route a user may
 * still change its own profile, so its permission depends on the variables.
 */
const NEEDS_A_ROUTE = new Set([
  'roles',
  'users',
  'userInstances',
  'newUser',
  'disconnectUser',
  'deleteUser',
  'deleteUserInstance',
  'createDepartment',
  'updateDepartment',
  'connections',
  'createConnection',
  'updateConnection',
  'auditRecords',
  'auditNames',
]);

type Who = 'no token' | 'bad token' | 'other tenant' | 'no route';
interface OrderingCase {
  op: string;
  tenant: string;
  payload: string;
  contentType: string;
  who: Who;
  header: string | undefined;
}

/** Documents: the operation's own, broken (cut, with text inserted, holding NUL), or any text at all. */
function documentArbitrary(op: GraphqlOperationFile): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(op.source) },
    { weight: 1, arbitrary: fc.nat(op.source.length).map((n) => op.source.slice(0, n)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat(op.source.length), fc.string({ maxLength: 20 }))
        .map(([n, text]) => op.source.slice(0, n) + text + op.source.slice(n)),
    },
    { weight: 1, arbitrary: fc.constant(`${op.source}\n# nul\u0000byte\n`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 120 }) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  );
}

/** JSON request bodies around the operation: its document (or another), any variables, any extra properties. */
function bodyArbitrary(
  op: GraphqlOperationFile,
  document: fc.Arbitrary<string>,
): fc.Arbitrary<Record<string, unknown>> {
  const variables = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .boolean()
        .chain((valid) => caseArbitrary(op, valid))
        .map((c) => c.variables as unknown),
    },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
  const operationName = fc.oneof(
    { weight: 6, arbitrary: fc.constant<unknown>(op.name) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 12345, 'otherName') },
  );
  const extra = fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })) },
  );
  return fc
    .record({ query: document, operationName, variables, extra })
    .map(({ query, operationName: name, variables: v, extra: more }) => ({
      ...more,
      query,
      ...(name === undefined ? {} : { operationName: name }),
      variables: v,
    }));
}

/** Payloads Fastify may not parse: the JSON body, raw text, any JSON value, a body over 1 MiB. */
function payloadArbitrary(body: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: body.map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: body.map((b) => JSON.stringify({ ...b, pad: oversizedBody() })) },
  );
}

const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/graphql', 'application/x-www-form-urlencoded') },
);

/** What Fastify parses into a body the guard reads (JSON under the limit, no prototype poisoning), or undefined. */
export function parsedBody(payload: string, contentType: string): { value: unknown } | undefined {
  // Fastify refuses prototype-poisoning keys (not values: a username may be "constructor").
  if (
    contentType !== 'application/json' ||
    payload.length > 1024 * 1024 ||
    /"(__proto__|constructor)"\s*:/.test(payload)
  )
    return undefined;
  try {
    return { value: JSON.parse(payload) as unknown };
  } catch {
    return undefined;
  }
}

export const orderingStats = {
  requests: 0,
  noToken: 0,
  badToken: 0,
  otherTenant: 0,
  noRoute: 0,
  publicSkipped: 0,
  operations: new Set<string>(),
};

export async function orderingCheck(c: OrderingCase): Promise<void> {
  const response = await run.t.app.fastify.inject({
    method: 'POST',
    url: `/${c.tenant}/graphql`,
    headers: { 'content-type': c.contentType, ...(c.header === undefined ? {} : { authorization: c.header }) },
    payload: c.payload,
  });
  orderingStats.requests += 1;
  orderingStats.operations.add(c.op);
  const label = `${c.who} (${String(c.header).slice(0, 50)}): ${c.op} /${c.tenant}/graphql ${c.contentType} ${c.payload.slice(0, 200)}`;
  let body: { errors?: { extensions?: { code?: string } }[]; data?: unknown } | undefined;
  try {
    body = response.json();
  } catch {
    body = undefined;
  }
  if (c.who === 'no token' || c.who === 'bad token') {
    orderingStats[c.who === 'no token' ? 'noToken' : 'badToken'] += 1;
    const expected = c.who === 'no token' ? UNAUTHORIZED_BODIES.noToken : UNAUTHORIZED_BODIES.invalid;
    if (response.statusCode !== 401 || JSON.stringify(body) !== JSON.stringify(expected))
      throw new Error(
        `${label} → ${response.statusCode} ${response.body.slice(0, 200)}, expected 401 ${JSON.stringify(expected)}`,
      );
    return;
  }
  orderingStats[c.who === 'other tenant' ? 'otherTenant' : 'noRoute'] += 1;
  const forbidden =
    response.statusCode === 403 &&
    !!body?.errors?.length &&
    body.errors.every((e) => e.extensions?.code === 'FORBIDDEN') &&
    (body.data === undefined || body.data === null);
  if (!forbidden)
    throw new Error(
      `${label} → ${response.statusCode} ${response.body.slice(0, 200)}, expected 403 FORBIDDEN and no data`,
    );
}

/** The fuzzed requests of the order-of-checks property, for the principals the run knows. */
export function orderingCases(forged: readonly string[]): fc.Arbitrary<OrderingCase> {
  const claims = decodeJwt(run.token);
  const badTokens = fc.oneof(
    fc.constantFrom(...forged, unsignedToken(claims), tamperedToken(run.token, claims), 'not.a.jwt'),
    fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,300}$/),
  );
  const operations = GRAPHQL_OPERATIONS.filter((op) => op.name !== 'logIn');
  const live = [...pools.live];
  const outsiderTenant = refused.outsider.tenantName;
  const perOperation = operations.map((op) => {
    const anyBody = bodyArbitrary(op, documentArbitrary(op));
    const anyTenant = caseArbitrary(op, true).map((c) => c.tenant);
    const unauthenticated = fc
      .record({
        tenant: anyTenant,
        payload: payloadArbitrary(anyBody),
        contentType: contentTypes,
        who: fc.constantFrom<Who>('no token', 'bad token'),
        none: fc.constantFrom(...NO_TOKEN_HEADERS),
        bad: badTokens,
      })
      .map(({ none, bad, ...rest }): OrderingCase => ({
        op: op.name,
        ...rest,
        header: rest.who === 'no token' ? none : `Bearer ${bad}`,
      }));
    // The guard reads the path's tenant for any JSON body: another tenant's path refuses the outsider.
    const otherTenant = fc
      .record({ tenant: fc.constantFrom(...live.filter((name) => name !== outsiderTenant)), body: anyBody })
      .map(({ tenant, body }): OrderingCase => ({
        op: op.name,
        tenant,
        payload: JSON.stringify(body),
        contentType: 'application/json',
        who: 'other tenant',
        header: `Bearer ${refused.outsiderToken}`,
      }));
    // The operation's own document (root fields readable), whatever its variables and the rest of the body.
    const ownDocument = fc.constantFrom(
      op.source,
      `${op.source}\n# nul\u0000byte\n`,
      op.source.replace(/\{/, '{\n  notAField\n'),
    );
    const noRoute = fc
      .record({
        tenant: fc.constantFrom(...live),
        // Bodies Fastify parses (no prototype-poisoning keys): the guard must read the root fields.
        body: bodyArbitrary(op, ownDocument)
          .map((b) => ({ ...b, operationName: op.name }))
          .filter((b) => parsedBody(JSON.stringify(b), 'application/json') !== undefined),
      })
      .map(({ tenant, body }): OrderingCase => ({
        op: op.name,
        tenant,
        payload: JSON.stringify(body),
        contentType: 'application/json',
        who: 'no route',
        header: `Bearer ${refused.operadorToken}`,
      }));
    return fc.oneof(
      { weight: 2, arbitrary: unauthenticated },
      { weight: 1, arbitrary: otherTenant },
      ...(NEEDS_A_ROUTE.has(op.name) ? [{ weight: 1, arbitrary: noRoute }] : []),
    );
  });
  return fc.oneof(...perOperation);
}
