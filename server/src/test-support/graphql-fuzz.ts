import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { buildSchema, getVariableValues, Kind, type TypeNode, type VariableDefinitionNode } from 'graphql';
import { readFileSync } from 'node:fs';
import {
  GRAPHQL_OPERATIONS,
  validateGraphqlData,
  type GraphqlOperationFile,
} from '../../../tests/contract/conformance/kit';
import { startTestApp, type TestApp } from './app';
import { HOSTILE_STRINGS, OVERFLOWING_NUMBERS } from './arbitraries';
import { createTestUser, type TestUser } from './users';
import { SCHEMA_PATH } from '../graphql/index';
import {
  forgedToken,
  mayBePublic,
  NO_TOKEN_HEADERS,
  oversizedBody,
  tamperedToken,
  UNAUTHORIZED_BODIES,
  unsignedToken,
} from './ordering';

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

export interface GraphqlFuzzSize {
  /** Requests per operation with valid and with broken variables. */
  validRuns: number;
  invalidRuns: number;
  /** Runs of the order-of-checks property (no token, a bad token, a caller without the permission). */
  orderingRuns: number;
}

/** `npm run test:reliability`. */
export const FULL_GRAPHQL_FUZZ: GraphqlFuzzSize = { validRuns: 90, invalidRuns: 70, orderingRuns: 2_000 };
const schema = buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));

/** Execution errors the schema documents per operation (contracts/schema.graphql descriptions). */
const DOCUMENTED: Record<string, string[]> = {
  logIn: ['INVALID_CREDENTIALS', 'TWO_FACTOR_REQUIRED', 'INVALID_TWO_FACTOR_CODE', 'BAD_USER_INPUT'],
  newUser: ['BAD_USER_INPUT', 'NOT_FOUND', 'USER_LIMIT_REACHED'],
  updateUser: ['BAD_USER_INPUT', 'NOT_FOUND'],
  updateUserPassword: ['BAD_USER_INPUT'],
  deleteUser: ['BAD_USER_INPUT', 'NOT_FOUND'],
  disconnectUser: ['NOT_FOUND'],
  deleteUserInstance: ['NOT_FOUND'],
  userInstances: ['NOT_FOUND'],
};

let t: TestApp;
let caller: TestUser;
let passwordUser: TestUser;
let token: string;
/** Callers the guard refuses before reading the body: a customer tenant's user on another tenant's path; staff without route `users`. */
const refused = {
  outsider: undefined as unknown as TestUser,
  outsiderToken: '',
  operador: undefined as unknown as TestUser,
  operadorToken: '',
};
const pools = { ids: [] as number[], tenants: [] as string[], live: new Set<string>() };

async function mint(user: TestUser): Promise<string> {
  const { token_version } = await t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return (await t.app.tokens.issue(user.id, token_version)).token;
}

// ------------------------------------------------------------------------------------------------------
// Arbitraries from variable types
// ------------------------------------------------------------------------------------------------------

/** Strings that satisfy the rules the schema states for arguments of these names (half the time). */
const NAMED_STRINGS: Record<string, fc.Arbitrary<string>> = {
  username: fc.stringMatching(/^[A-Za-z0-9._-]{3,40}$/),
  email: fc.emailAddress().filter((e) => e.length <= 254),
  password: fc.string({ minLength: 8, maxLength: 40 }),
  name: fc.string({ minLength: 1, maxLength: 120 }),
  image: fc.webUrl(),
};

function validValue(type: TypeNode, name: string): fc.Arbitrary<unknown> {
  if (type.kind === Kind.NON_NULL_TYPE) return validValue(type.type, name);
  const nullable = (arb: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });
  if (type.kind === Kind.LIST_TYPE) return nullable(fc.array(validValue(type.type, name), { maxLength: 4 }));
  switch (type.name.value) {
    case 'Int':
      return nullable(
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...pools.ids) },
          { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
        ),
      );
    case 'Boolean':
      return nullable(fc.boolean());
    case 'String': {
      const generic = fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.constantFrom(...HOSTILE_STRINGS),
        fc.constant('w'.repeat(5000)),
      );
      const named = NAMED_STRINGS[name];
      return nullable(named ? fc.oneof(named, generic) : generic);
    }
    default:
      throw new Error(`no generator for GraphQL type ${type.name.value}`);
  }
}

/** Values the variable's type refuses. */
function wrongValue(type: TypeNode): fc.Arbitrary<unknown> {
  if (type.kind === Kind.NON_NULL_TYPE) return fc.oneof(fc.constant(null), wrongValue(type.type));
  if (type.kind === Kind.LIST_TYPE)
    return fc.oneof(
      fc.constantFrom<unknown>({ not: 'a list' }),
      wrongValue(type.type).map((bad) => [bad]),
    );
  switch (type.name.value) {
    case 'Int':
      return fc.constantFrom<unknown>(
        'abc',
        '12',
        1.5,
        true,
        {},
        ...OVERFLOWING_NUMBERS.filter((n) => !Number.isInteger(n) || Math.abs(n) >= 2 ** 31),
      );
    case 'Boolean':
      return fc.constantFrom<unknown>('yes', 'true', 1, 0, {});
    case 'String':
      return fc.constantFrom<unknown>(12345, true, { s: 'x' }, ['x'], 'nul\u0000byte');
    default:
      return fc.constant({ unknown: true });
  }
}

interface Case {
  tenant: string;
  variables: Record<string, unknown>;
}

function caseArbitrary(op: GraphqlOperationFile, valid: boolean): fc.Arbitrary<Case> {
  const definitions = [...(op.operation.variableDefinitions ?? [])];
  const tenant = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...pools.tenants) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9]{1,12}$/) },
  );
  const model = Object.fromEntries(
    definitions.map((d) => [d.variable.name.value, validValue(d.type, d.variable.name.value)]),
  );
  const required = definitions.filter((d) => d.type.kind === Kind.NON_NULL_TYPE).map((d) => d.variable.name.value);
  const variables = fc.record(model, { requiredKeys: required });
  if (valid || definitions.length === 0) return fc.record({ tenant, variables });
  const breaker = fc.constantFrom(...definitions).chain((d: VariableDefinitionNode) => {
    const name = d.variable.name.value;
    const options: fc.Arbitrary<(v: Record<string, unknown>) => Record<string, unknown>>[] = [
      wrongValue(d.type).map((bad) => (v) => ({ ...v, [name]: bad })),
    ];
    if (d.type.kind === Kind.NON_NULL_TYPE) {
      options.push(
        fc.constant((v) => {
          const { [name]: _dropped, ...rest } = v;
          return rest;
        }),
      );
    }
    return fc.oneof(...options);
  });
  return fc
    .record({ tenant, variables, breaker })
    .map(({ tenant: path, variables: v, breaker: b }) => ({ tenant: path, variables: b(v) }));
}

/** The GraphQL specification's variable coercion against the contract schema, plus the contract's NUL rule. */
function variablesValid(op: GraphqlOperationFile, variables: Record<string, unknown>): boolean {
  if (JSON.stringify(variables).includes('\\u0000')) return false;
  const coerced = getVariableValues(schema, [...(op.operation.variableDefinitions ?? [])], variables);
  return !coerced.errors;
}

// ------------------------------------------------------------------------------------------------------
// The run
// ------------------------------------------------------------------------------------------------------

const stats = { requests: 0, server5xx: 0, valid: 0, invalid: 0, ok: 0, documentedErrors: 0, tenantNotFound: 0 };
const problems: string[] = [];

async function keepCallerIntact(): Promise<void> {
  const verified = await t.app.tokens.verify(token);
  const row = await t.db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['r.name', 'u.blocked', 'u.deleted_at'])
    .where('u.id', '=', caller.id)
    .executeTakeFirstOrThrow();
  if (verified.ok && row.name === 'administrador' && !row.blocked && !row.deleted_at) return;
  const admin = await t.db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'administrador')
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('users')
    .set({ role_id: admin.id, blocked: false, deleted_at: null })
    .where('id', '=', caller.id)
    .execute();
  token = await mint(caller);
}

async function send(op: GraphqlOperationFile, c: Case): Promise<void> {
  // Operations that end or rotate the caller's session get one of their own. The password user may have
  // been deleted or blocked by an earlier fuzzed call (its id is in the pool): bring it back first, or
  // every later updateUserPassword answers 401 for a reason the case did not choose.
  if (op.name === 'updateUserPassword')
    await t.db
      .updateTable('users')
      .set({ blocked: false, deleted_at: null })
      .where('id', '=', passwordUser.id)
      .execute();
  const bearer =
    op.name === 'updateUserPassword'
      ? await mint(passwordUser)
      : op.name === 'refreshToken'
        ? await mint(caller)
        : token;
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: `/${c.tenant}/graphql`,
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
    },
    payload: JSON.stringify({ query: op.source, operationName: op.name, variables: c.variables }),
  });
  stats.requests += 1;
  const label = `${op.name} /${c.tenant}/graphql ${JSON.stringify(c.variables).slice(0, 200)}`;
  const status = response.statusCode;
  let body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string; field?: string } }[];
  };
  try {
    body = response.json();
  } catch {
    problems.push(`not JSON: ${label} → ${status} ${response.body.slice(0, 160)}`);
    return;
  }
  if (status >= 500) {
    stats.server5xx += 1;
    problems.push(`5xx: ${label} → ${status} ${response.body.slice(0, 200)}`);
    return;
  }
  const valid = variablesValid(op, c.variables);
  if (valid) stats.valid += 1;
  else stats.invalid += 1;
  const codes = (body.errors ?? []).map((e) => e.extensions?.code ?? '(none)');
  if (status === 404 && codes.join() === 'NOT_FOUND' && !pools.live.has(c.tenant)) {
    stats.tenantNotFound += 1; // an unknown tenant in the path, whatever the variables
  } else if (!valid) {
    if (status !== 400 || !body.errors?.length || body.data !== undefined)
      problems.push(`invalid accepted: ${label} → ${status} ${response.body.slice(0, 200)}`);
  } else if (status !== 200) {
    problems.push(`valid refused: ${label} → ${status} ${response.body.slice(0, 240)}`);
  } else if (body.errors?.length) {
    const names = new Set((op.operation.variableDefinitions ?? []).map((d) => d.variable.name.value));
    const documented = DOCUMENTED[op.name] ?? [];
    const bad = (body.errors ?? []).filter(
      (e) =>
        !documented.includes(e.extensions?.code ?? '') ||
        (['BAD_USER_INPUT', 'NOT_FOUND'].includes(e.extensions?.code ?? '') && !names.has(e.extensions?.field ?? '')),
    );
    if (bad.length) problems.push(`undocumented error: ${label} → ${JSON.stringify(bad).slice(0, 240)}`);
    else stats.documentedErrors += 1;
  } else {
    stats.ok += 1;
    const check = validateGraphqlData(op, body.data);
    if (check.length) problems.push(`data breaks the selection: ${label} → ${check.slice(0, 3).join('; ')}`);
  }
  if (['updateUser', 'deleteUser', 'disconnectUser'].includes(op.name)) await keepCallerIntact();
}

// ------------------------------------------------------------------------------------------------------
// Order of checks (contracts/schema.graphql, AUTHENTICATION FAILURES and FORBIDDEN): identity, the path's
// tenant, the root fields' route permission, and only then the body
// ------------------------------------------------------------------------------------------------------

/**
 * Root fields that need route `users` (or `roles-list`/`roles-edit`), which operador lacks, whatever their
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
function parsedBody(payload: string, contentType: string): { value: unknown } | undefined {
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

const orderingStats = {
  requests: 0,
  noToken: 0,
  badToken: 0,
  otherTenant: 0,
  noRoute: 0,
  publicSkipped: 0,
  operations: new Set<string>(),
};

async function orderingCheck(c: OrderingCase): Promise<void> {
  const response = await t.app.fastify.inject({
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
function orderingCases(forged: readonly string[]): fc.Arbitrary<OrderingCase> {
  const claims = decodeJwt(token);
  const badTokens = fc.oneof(
    fc.constantFrom(...forged, unsignedToken(claims), tamperedToken(token, claims), 'not.a.jwt'),
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

/** Registers the fuzz run in the calling test file (normal suite: small; reliability: {@link FULL_GRAPHQL_FUZZ}). */
export function describeGraphqlFuzz(size: GraphqlFuzzSize): void {
  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 }, config: { loginMaxFailures: 1_000_000 } });
    caller = await createTestUser(t.db, {
      email: 'gql-fuzz-admin@demo.local',
      tenant: 'backoffice',
      role: 'administrador',
    });
    passwordUser = await createTestUser(t.db, { email: 'gql-fuzz-password@demo.local', tenant: 'backoffice' });
    token = await mint(caller);
    const tenants = await t.db.selectFrom('tenants').select(['name', 'deleted_at']).execute();
    pools.tenants = tenants.map((r) => r.name);
    pools.live = new Set(tenants.filter((r) => !r.deleted_at).map((r) => r.name));
    const ids = new Set<number>();
    for (const table of ['users', 'roles', 'instances', 'departments', 'user_instances'] as const) {
      for (const row of await t.db.selectFrom(table).select('id').execute()) ids.add(row.id);
    }
    pools.ids = [...ids];
    // After the pools: no fuzzed id names these users, so no fuzzed call can delete or change them.
    const customer = await t.db
      .selectFrom('tenants')
      .select('name')
      .where('name', '!=', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    refused.outsider = await createTestUser(t.db, {
      email: 'gql-fuzz-outsider@demo.local',
      tenant: customer.name,
      role: 'administrador',
      originBackoffice: false,
    });
    refused.outsiderToken = await mint(refused.outsider);
    refused.operador = await createTestUser(t.db, {
      email: 'gql-fuzz-operador@demo.local',
      tenant: 'backoffice',
      role: 'operador',
    });
    refused.operadorToken = await mint(refused.operador);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('contract fuzzing of every GraphQL operation', () => {
    // First, while the fuzz has changed nothing: every request below is refused before its body is read.
    it("refuses any body without a token (401), with a bad token (401), on another tenant's path or without the route (403)", async () => {
      const started = Date.now();
      const forged = await Promise.all([0, 1, 2].map(() => forgedToken(decodeJwt(token))));
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
          `${stats.valid} valid (${stats.ok} with data, ${stats.documentedErrors} with documented errors), ${stats.invalid} invalid, ${stats.tenantNotFound} on an unknown tenant (404)`,
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
  });
}
