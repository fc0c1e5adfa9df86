import {
  buildSchema,
  getIntrospectionQuery,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { GRAPHQL_OPERATIONS } from '../../../tests/contract/conformance/kit';
import { startTestApp, type TestApp } from '../test-support/app';
import { SCHEMA_PATH } from './index';
import { LIST_FACTOR, MAX_COST, MAX_DEPTH, MAX_INTROSPECTION_DEPTH, MAX_TOKENS, measure } from './limits';

/**
 * GraphQL depth and cost limits (contracts/schema.graphql, LIMITS). The contract's own operations stay well inside them;
 * abusive documents (deep nesting, alias fan-out, fragment fan-out, absurdly nested text) get a clear 400
 * before any resolver runs, never a 500 or a slow answer.
 */
const SCHEMA_SOURCE = `
  type Query { node: Node, nodes: [Node!]!, leaf: Int }
  type Node { id: Int!, child: Node, children: [Node!]! }
`;
const recursive = buildSchema(SCHEMA_SOURCE);

function measureSource(source: string, schema = recursive) {
  const document = parse(source);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error('no operation');
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return measure(schema, operation.selectionSet, schema.getQueryType() ?? undefined, (name) => fragments.get(name));
}

const nested = (field: string, levels: number, leaf = 'id') =>
  `${`${field} { `.repeat(levels)}${leaf}${' }'.repeat(levels)}`;

describe('measure', () => {
  it('counts depth in fields, through inline fragments and fragment spreads', () => {
    expect(measureSource('{ leaf }')).toEqual({ depth: 1, cost: 1, metaDepth: 0 });
    expect(measureSource(`{ ${nested('node', 1)} }`).depth).toBe(2);
    expect(measureSource(`{ node { ${nested('child', 6)} } }`).depth).toBe(8);
    expect(measureSource('{ node { ...F } } fragment F on Node { child { ... on Node { child { id } } } }').depth).toBe(
      4,
    );
  });

  it('costs 1 per field and multiplies what is below a list', () => {
    expect(measureSource('{ node { id child { id } } }').cost).toBe(4);
    expect(measureSource('{ nodes { id } }').cost).toBe(1 + LIST_FACTOR);
    expect(measureSource('{ nodes { children { id } } }').cost).toBe(1 + LIST_FACTOR * (1 + LIST_FACTOR));
    expect(measureSource('{ a: leaf b: leaf c: leaf }').cost).toBe(3);
  });

  it('stops at a fragment cycle instead of looping (graphql-js reports the cycle itself)', () => {
    // node → A → child → (A again: not expanded): two fields deep, two fields of cost.
    expect(measureSource('{ node { ...A } } fragment A on Node { child { ...A } }')).toEqual({
      depth: 2,
      cost: 2,
      metaDepth: 0,
    });
  });

  it('keeps every operation of the contract well inside both limits', () => {
    const schema = buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));
    const measured = GRAPHQL_OPERATIONS.map((op) => {
      const root = op.operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
      const fragments = new Map(
        op.document.definitions
          .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
          .map((d) => [d.name.value, d]),
      );
      return {
        name: op.name,
        ...measure(schema, op.operation.selectionSet, root ?? undefined, (name) => fragments.get(name)),
      };
    });
    expect(measured.length).toBeGreaterThan(10);
    for (const m of measured) {
      expect(m.depth, m.name).toBeLessThanOrEqual(MAX_DEPTH - 2);
      expect(m.cost, m.name).toBeLessThanOrEqual(MAX_COST * 0.8);
    }
  });
});

describe('limits over HTTP', () => {
  let t: TestApp;
  let authorization: string;

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    ({ authorization } = await t.auth('admin@demo.local'));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  async function post(query: string) {
    const started = performance.now();
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      payload: JSON.stringify({ query }),
    });
    return {
      status: response.statusCode,
      body: response.json<{ data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] }>(),
      ms: performance.now() - started,
    };
  }

  it('lets the standard introspection query (GraphiQL) through outside production', async () => {
    const answer = await post(getIntrospectionQuery());
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });

  it.each([
    [
      'introspection nested too deep',
      `{ __schema { types { ${nested('ofType', MAX_INTROSPECTION_DEPTH + 2, 'name')} } } }`,
      /too deep/,
    ],
    [
      'alias fan-out over the cost limit',
      `{ ${Array.from({ length: 20 }, (_, i) => `u${i}: users { id name role { name } userInstances { id instance { id name } } }`).join(' ')} }`,
      /too expensive/,
    ],
    [
      'fragment fan-out over the cost limit',
      `{ users { ...U } a: users { ...U } b: users { ...U } } fragment U on User { id name email role { id name has_permission_routes } userInstances { id instance { id name activated } } userDepartment { id name } }`,
      /too expensive/,
    ],
  ])('%s → 400 naming the limit, before any resolver runs', async (_name, query, message) => {
    const answer = await post(query);
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors?.[0]?.message).toMatch(message);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it.each([
    ['over the token limit', `{ users ${'{ userInstances '.repeat(20_000)}${'}'.repeat(20_001)}`],
    [
      'under the token limit but deeper than the stack',
      `{ users ${'{ userInstances '.repeat(MAX_TOKENS / 2 - 10)}${'}'.repeat(MAX_TOKENS / 2 - 9)}`,
    ],
  ])('answers absurdly nested text (%s) with a 400, quickly, not a 500 or a stack overflow', async (_name, query) => {
    const answer = await post(query);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.length).toBeGreaterThan(0);
    expect(answer.ms).toBeLessThan(5_000);
  });
});
