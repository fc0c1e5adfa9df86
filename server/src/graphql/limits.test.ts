import {
  buildSchema,
  getIntrospectionQuery,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { GRAPHQL_OPERATIONS } from '../../../packages/conformance/src/kit.js';
import { startTestApp, type TestApp } from '../test-support/app';
import { loginFragmentChain } from '../test-support/graphql-abuse';
import { SCHEMA_PATH } from './index';
import {
  FragmentCycle,
  LIST_FACTOR,
  MAX_ALIASES,
  MAX_COST,
  MAX_DEPTH,
  MAX_DIRECTIVES,
  MAX_DIRECTIVES_PER_PLACE,
  MAX_FRAGMENTS,
  MAX_FRAGMENT_NESTING,
  MAX_INTROSPECTION_DEPTH,
  MAX_OPERATIONS,
  MAX_SPREADS,
  MAX_TOKENS,
  limitBreaches,
  measurer,
} from './limits';

/**
 * GraphQL abuse limits (contracts/schema.graphql, LIMITS). The contract's own operations stay well inside them;
 * abusive documents (deep nesting, alias fan-out, fragment fan-out and chains, absurdly nested text) get a
 * clear 400 before identity is checked or any resolver runs, never a 500 or a slow answer; the measure is
 * linear in the document (its steps are counted here; its time is bench/graphql-limits.ts's).
 */
const SCHEMA_SOURCE = `
  type Query { node: Node, nodes: [Node!]!, leaf: Int }
  type Node { id: Int!, child: Node, children: [Node!]! }
`;
const recursive = buildSchema(SCHEMA_SOURCE);

const fragmentsOf = (document: DocumentNode) =>
  new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );

function measureSource(source: string, schema = recursive) {
  const document = parse(source);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error('no operation');
  const measure = measurer(schema, fragmentsOf(document));
  return { ...measure.operation(operation), visits: measure.visits };
}

/** `{ node { ...F0 } }`, F_i spreading F_{i+1} twice (through `child` when `nesting`), the last selecting `id`. */
function chain(links: number, { nesting = false, operation = '{ node { ...F0 } }' } = {}): string {
  const parts = [operation];
  for (let i = 0; i < links; i += 1) {
    const next = `...F${i + 1}`;
    parts.push(`fragment F${i} on Node { ${nesting ? `child { ${next} } children { ${next} }` : `${next} ${next}`} }`);
  }
  parts.push(`fragment F${links} on Node { id }`);
  return parts.join('\n');
}

const nested = (field: string, levels: number, leaf = 'id') =>
  `${`${field} { `.repeat(levels)}${leaf}${' }'.repeat(levels)}`;

describe('measure', () => {
  it('counts depth in fields, through inline fragments and fragment spreads', () => {
    expect(measureSource('{ leaf }')).toEqual({ depth: 1, cost: 1, metaDepth: 0, fragmentNesting: 0, visits: 1 });
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

  it('refuses a fragment cycle instead of looping', () => {
    expect(() => measureSource('{ node { ...A } } fragment A on Node { child { ...A } }')).toThrow(FragmentCycle);
    expect(() =>
      measureSource('{ node { ...A } } fragment A on Node { ...B } fragment B on Node { child { ...A } }'),
    ).toThrow(/Cannot spread fragment "A" within itself/);
  });

  it('counts a fragment once per level of a selection, as graphql-js runs it, and at every level it is spread', () => {
    // Spread twice side by side, or again through another fragment or an inline fragment: graphql-js
    // collects it once, so it costs once (a repeated spread must not change a document's decision).
    const once = measureSource('{ node { ...F } } fragment F on Node { id child { id } }').cost;
    expect(once).toBe(1 + 3);
    expect(measureSource('{ node { ...F ...F } } fragment F on Node { id child { id } }').cost).toBe(once);
    expect(
      measureSource('{ node { ...G ...F } } fragment G on Node { ...F } fragment F on Node { id child { id } }').cost,
    ).toBe(once);
    expect(measureSource('{ node { ...F ... on Node { ...F } } } fragment F on Node { id child { id } }').cost).toBe(
      once,
    );
    // The same field twice under one response key is counted twice: an overestimate, on the safe side.
    expect(measureSource('{ node { id id } }').cost).toBe(3);
    // Spread at two depths: the deeper one sets the depth.
    expect(measureSource('{ node { ...F child { child { ...F } } } } fragment F on Node { child { id } }').depth).toBe(
      5,
    );
    // Spread under a list: multiplied like any selection there.
    expect(measureSource('{ nodes { ...F } } fragment F on Node { id }').cost).toBe(1 + LIST_FACTOR);
  });

  it('measures a chain of fragments each spreading the next twice in linear steps, however exponential its expansion', () => {
    for (const links of [10, 100, 1000]) {
      const flat = measureSource(chain(links));
      // graphql-js collects each fragment of the chain once per level: `node` and one `id`.
      expect(flat.cost).toBe(2);
      expect(flat.depth).toBe(2);
      expect(flat.fragmentNesting).toBe(links + 1);
      // Two spreads per link, `id`, `node` and its spread: each selection written is visited once.
      expect(flat.visits).toBe(2 * links + 3);

      const deep = measureSource(chain(links, { nesting: true }));
      expect(deep.depth).toBe(links + 2);
      // Under two different fields each link doubles what runs: 2^links copies of `id`, counted exactly.
      if (links <= 100) expect(deep.cost).toBeGreaterThan(2 ** links);
      expect(deep.fragmentNesting).toBe(links + 1);
      // Per link: `child`, `children` and a spread under each; then `id`, `node` and its spread.
      expect(deep.visits).toBe(4 * links + 3);
    }
  });

  it('keeps every operation of the contract well inside both limits', () => {
    const schema = buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));
    const measured = GRAPHQL_OPERATIONS.map((op) => ({
      name: op.name,
      ...measurer(schema, fragmentsOf(op.document)).operation(op.operation),
      breaches: limitBreaches(op.document, schema),
    }));
    expect(measured.length).toBeGreaterThan(10);
    for (const m of measured) {
      expect(m.depth, m.name).toBeLessThanOrEqual(MAX_DEPTH - 2);
      expect(m.cost, m.name).toBeLessThanOrEqual(MAX_COST * 0.8);
      expect(m.breaches, m.name).toEqual([]);
    }
  });
});

describe('limitBreaches', () => {
  const schema = recursive;
  const messages = (source: string) => limitBreaches(parse(source), schema).map((b) => b.message);
  const many = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(' ');

  it.each([
    [
      'operations',
      `${many(MAX_OPERATIONS, (i) => `query Q${i} { leaf }`)}`,
      `${many(MAX_OPERATIONS + 1, (i) => `query Q${i} { leaf }`)}`,
      /too many operations: 11, the limit is 10/,
    ],
    [
      'fragment definitions',
      `{ node { ${many(MAX_FRAGMENTS, (i) => `...F${i}`)} } } ${many(MAX_FRAGMENTS, (i) => `fragment F${i} on Node { id }`)}`,
      `{ node { ${many(MAX_FRAGMENTS + 1, (i) => `...F${i}`)} } } ${many(MAX_FRAGMENTS + 1, (i) => `fragment F${i} on Node { id }`)}`,
      /too many fragment definitions: 51, the limit is 50/,
    ],
    [
      'fragment spreads',
      `{ node { ${many(MAX_SPREADS, () => 'child { ...F }')} } } fragment F on Node { id }`,
      `{ node { ${many(MAX_SPREADS + 1, () => '...F')} } } fragment F on Node { id }`,
      /too many fragment spreads: 101, the limit is 100/,
    ],
    [
      'aliases (fragments expanded)',
      `{ ${many(MAX_ALIASES, (i) => `a${i}: leaf`)} }`,
      `{ ...F ...G } fragment F on Query { ${many(8, (i) => `a${i}: leaf`)} } fragment G on Query { ...F }`,
      /Aliases limit of 15 exceeded, found 16/,
    ],
    [
      'directives',
      `{ ${many(MAX_DIRECTIVES / 2, () => 'leaf @include(if: true) @skip(if: false)')} }`,
      `{ ${many(MAX_DIRECTIVES + 1, () => 'leaf @include(if: true)')} }`,
      /too many directives: 51, the limit is 50/,
    ],
    [
      'directives on one place',
      `{ leaf ${'@include(if: true) '.repeat(MAX_DIRECTIVES_PER_PLACE)} }`,
      `{ node { ...F ${'@skip(if: false) '.repeat(MAX_DIRECTIVES_PER_PLACE + 1)} } } fragment F on Node { id }`,
      /A fragment spread has too many directives: 5, the limit is 4/,
    ],
  ])('%s: at the limit passes, one more is refused naming it', (_what, atLimit, over, message) => {
    expect(messages(atLimit)).toEqual([]);
    expect(messages(over)).toEqual([expect.stringMatching(message)]);
  });

  it('refuses a fragment cycle and a fragment defined twice (neither can be measured)', () => {
    expect(messages('{ node { ...A } } fragment A on Node { child { ...A } }')).toEqual([
      'Cannot spread fragment "A" within itself',
    ]);
    expect(messages('{ node { ...A } } fragment A on Node { id } fragment A on Node { child { id } }')).toEqual([
      'Fragment "A" is defined more than once: the document cannot be measured',
    ]);
  });

  it('names every limit a document is over, in every operation', () => {
    expect(
      messages(`query A { ${nested('node', MAX_DEPTH)} } query B { nodes { children { children { id } } } }`),
    ).toEqual([
      `Query is too deep: ${MAX_DEPTH + 1} levels of fields, the limit is ${MAX_DEPTH}`,
      `Query is too expensive: estimated cost ${1 + LIST_FACTOR * (1 + LIST_FACTOR * (1 + LIST_FACTOR))}, the limit is ${MAX_COST}`,
    ]);
  });

  it('refuses the 30-link chain by its nesting of fragments, measured, not expanded', () => {
    expect(messages(chain(30))).toEqual([
      `Fragments are nested too deeply: 31 levels, the limit is ${MAX_FRAGMENT_NESTING}`,
    ]);
    // Under two fields per link it is refused for what it would run too.
    expect(messages(chain(30, { nesting: true }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Fragments are nested too deeply: 31 levels/)]),
    );
  });

  it('lets a chain as deep as the limit through, and refuses one link more', () => {
    expect(messages(chain(MAX_FRAGMENT_NESTING - 1))).toEqual([]);
    expect(messages(chain(MAX_FRAGMENT_NESTING))).toEqual([
      `Fragments are nested too deeply: ${MAX_FRAGMENT_NESTING + 1} levels, the limit is ${MAX_FRAGMENT_NESTING}`,
    ]);
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

  async function post(query: string, headers: Record<string, string> = { authorization }) {
    const started = performance.now();
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      payload: JSON.stringify({ query }),
    });
    return {
      status: response.statusCode,
      body: response.json<{ data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] }>(),
      ms: performance.now() - started,
    };
  }

  it('refuses the 30-link fragment chain under logIn without a token (400), and /healthz answers while four run', async () => {
    const chains = Array.from({ length: 4 }, () => post(loginFragmentChain(30), {}));
    const health = t.app.fastify.inject({ method: 'GET', url: '/healthz' });
    // A safety net against the exponential walk coming back (it blocked the process for good at 30 links), not a
    // timing: the time is bench/graphql-limits.ts's.
    const answers = await Promise.race([
      Promise.all([...chains, health]),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 30 s')), 30_000)),
    ]);
    const healthz = answers.pop() as Awaited<typeof health>;
    expect(healthz.statusCode).toBe(200);
    for (const answer of answers as Awaited<ReturnType<typeof post>>[]) {
      expect(answer.status).toBe(400);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          // logIn, then 31 fragments spread one inside the other.
          message: `Fragments are nested too deeply: 31 levels, the limit is ${MAX_FRAGMENT_NESTING}`,
          extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
        }),
      ]);
    }
  });

  it('refuses a document over a limit before identity: 400 without a token, or with a bad one, and at an unknown tenant', async () => {
    const deep = `{ users ${'{ userInstances '.repeat(MAX_DEPTH)}{ id }${' }'.repeat(MAX_DEPTH)} }`;
    for (const headers of [{}, { authorization: 'Bearer abc.def.ghi' }] as Record<string, string>[]) {
      const answer = await post(deep, headers);
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.[0]?.message).toMatch(/too deep/);
    }
    const elsewhere = await t.app.fastify.inject({
      method: 'POST',
      url: '/no-such-tenant/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: loginFragmentChain(30) }),
    });
    expect(elsewhere.statusCode).toBe(400);
    // The text's limits too, whichever of the two a deeply nested text meets first (it depends on how far
    // the engine has optimized the parser): after a hundred other documents, as before the first.
    for (const query of [`{ ${'id '.repeat(MAX_TOKENS)} }`, '{ a '.repeat(3000)]) {
      for (let round = 0; round < 3; round += 1) {
        const answer = await post(query, {});
        expect(answer.status, query.slice(0, 20)).toBe(400);
        expect(answer.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
        expect(answer.body.errors?.[0]?.message).toMatch(/more than 5000 tokens|nested too deeply/);
        for (let warm = 0; warm < 50; warm += 1) await post(`{ a ${'{ a '.repeat(9)}${'}'.repeat(9)} }`, {});
      }
    }
    // Within the limits, identity comes first as before.
    expect((await post('{ users { id } }', {})).status).toBe(401);
  });

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
      // Ten aliases (within their limit), each 451: users 1 + 10 × (id, name, role and its name, userInstances 1 + 10 × 4).
      `{ ${Array.from({ length: 10 }, (_, i) => `u${i}: users { id name role { name } userInstances { id instance { id name } } }`).join(' ')} }`,
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
