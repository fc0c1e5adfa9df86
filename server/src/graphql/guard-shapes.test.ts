import { createTestUser, TEST_PASSWORD } from '../test-support/users';
import { loadConfig } from '../base/config';
import { extraApps, g, gql, makeApp, tokenOf, useGraphqlApp } from '../test-support/graphql-app';

/**
 * The GraphQL guard (server/src/graphql/index.ts) reads a document's root fields the way graphql-js
 * executes them: whatever shape a document gives a root field (repeated, nested or inline fragments,
 * an alias, `@include`/`@skip`, `__typename` beside it, several operations), the caller gets the
 * decision of the plain document. A small table for one query and one mutation, for a caller lacking
 * the permission (`operador`) and one holding it through a role that is not `administrador`.
 */
useGraphqlApp();

type Decision = { status: number; codes: string[] };
const decisionOf = (answer: { status: number; body: { errors?: { extensions?: { code?: string } }[] } }): Decision => ({
  status: answer.status,
  codes: [...new Set((answer.body.errors ?? []).map((e) => e.extensions?.code ?? '?'))].sort(),
});

/** A root selection, and how to wrap it: `kind` is the operation type, `root` the schema type the fragments name. */
interface Root {
  name: string;
  kind: 'query' | 'mutation';
  root: 'Query' | 'Mutation';
  /** The selection; `as` gives it an alias, `directives` are written after its arguments. */
  select(options?: { as?: string; directives?: string }): string;
  /** The variables its selection reads, fresh per request (a created user needs a unique name). */
  variables(): Record<string, unknown>;
  /** The operation's variable definitions, `($a: T, …)` or ''. */
  definitions: string;
}

let created = 0;
/** The role new users get: the holder's own (`users` only), which it may give (server/src/access/escalation.ts). */
let grantedRoleId = 0;
const USERS_ROOT: Root = {
  name: 'users',
  kind: 'query',
  root: 'Query',
  select: ({ as, directives = '' } = {}) => `${as ? `${as}: ` : ''}users ${directives} { id email }`,
  variables: () => ({}),
  definitions: '',
};
const NEW_USER_ROOT: Root = {
  name: 'newUser',
  kind: 'mutation',
  root: 'Mutation',
  select: ({ as, directives = '' } = {}) =>
    `${as ? `${as}: ` : ''}newUser(username: $username, name: "Shape", email: $email, password: "Shape#Pass-9t7q", role_id: $role) ${directives} { id }`,
  variables: () => {
    created += 1;
    const stamp = `${Date.now().toString(36)}${created}`;
    return { username: `shape.${stamp}`, email: `shape.${stamp}@demo.local`, role: grantedRoleId };
  },
  definitions: '($username: String!, $email: String!, $role: Int!)',
};

/** Document shapes around one root selection: [label, document, operationName, extra variables]. */
function shapes(r: Root): [string, string, string | undefined, Record<string, unknown>][] {
  const { kind, root, definitions: defs } = r;
  const withSkip = defs ? `${defs.slice(0, -1)}, $skip: Boolean!)` : '($skip: Boolean!)';
  return [
    [
      'repeated fragment spread',
      `${kind} ${defs} { ...F ...F } fragment F on ${root} { ${r.select()} }`,
      undefined,
      {},
    ],
    [
      'nested fragments',
      `${kind} ${defs} { ...A } fragment A on ${root} { ...B } fragment B on ${root} { ${r.select()} }`,
      undefined,
      {},
    ],
    [
      'a fragment spread directly and through another',
      `${kind} ${defs} { ...A ...B } fragment A on ${root} { ...B } fragment B on ${root} { ${r.select()} }`,
      undefined,
      {},
    ],
    ['inline fragment', `${kind} ${defs} { ... on ${root} { ${r.select()} } }`, undefined, {}],
    ['inline fragment without type', `${kind} ${defs} { ... { ... { ${r.select()} } } }`, undefined, {}],
    ['alias', `${kind} ${defs} { innocent: __typename ${r.select({ as: 'x' })} }`, undefined, {}],
    [
      '@include(if: false)',
      `${kind} ${defs} { __typename ${r.select({ directives: '@include(if: false)' })} }`,
      undefined,
      {},
    ],
    [
      '@skip(if: $skip) with skip true',
      `${kind} ${withSkip} { __typename ${r.select({ directives: '@skip(if: $skip)' })} }`,
      undefined,
      { skip: true },
    ],
    [
      'skipped fragment spread',
      `${kind} ${withSkip} { __typename ...F @skip(if: $skip) } fragment F on ${root} { ${r.select()} }`,
      undefined,
      { skip: true },
    ],
    ['__typename beside it', `${kind} ${defs} { __typename ${r.select()} }`, undefined, {}],
    [
      'selected among several operations',
      `query Other { __typename } ${kind} Chosen ${defs} { ${r.select()} } mutation Third { connected }`,
      'Chosen',
      {},
    ],
  ];
}

describe('the guard decides every document shape as the plain document', () => {
  const tokens = { lacking: '', holding: '' };

  beforeAll(async () => {
    // A role holding `users` and nothing else: its holder passes by the permission, not by being administrador.
    const role = await g.db
      .insertInto('roles')
      .values({ name: 'shapes_users', display_name: 'Shapes users' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const permission = await g.db
      .selectFrom('permissions')
      .select('id')
      .where('route_name', '=', 'users')
      .executeTakeFirstOrThrow();
    await g.db.insertInto('role_permissions').values({ role_id: role.id, permission_id: permission.id }).execute();
    grantedRoleId = role.id;
    await createTestUser(g.db, { email: 'shapes-holder@demo.local', tenant: 'backoffice', role: 'shapes_users' });
    tokens.holding = await tokenOf(g.app, 'shapes-holder@demo.local', TEST_PASSWORD);
    tokens.lacking = await tokenOf(g.app, 'operador@demo.local');
  });

  describe.each([USERS_ROOT, NEW_USER_ROOT])('$name', (r) => {
    it.each(shapes(r))('%s', async (_label, document, operationName, extra) => {
      const plainDocument = `${r.kind} ${r.definitions} { ${r.select()} }`;
      const plain = {
        lacking: decisionOf(await gql(g.app, plainDocument, { token: tokens.lacking, variables: r.variables() })),
        holding: decisionOf(await gql(g.app, plainDocument, { token: tokens.holding, variables: r.variables() })),
      };
      // The table means something only if the two callers are decided apart.
      expect(plain.lacking).toEqual({ status: 403, codes: ['FORBIDDEN'] });
      expect(plain.holding).toEqual({ status: 200, codes: [] });
      for (const who of ['lacking', 'holding'] as const) {
        const answer = await gql(g.app, document, {
          token: tokens[who],
          operationName,
          variables: { ...r.variables(), ...extra },
        });
        expect(decisionOf(answer), `${who}: ${JSON.stringify(answer.body).slice(0, 300)}`).toEqual(plain[who]);
      }
    });
  });

  it('a repeated spread lets no user be created by a caller lacking `users`', async () => {
    const variables = NEW_USER_ROOT.variables();
    const answer = await gql(
      g.app,
      `mutation ${NEW_USER_ROOT.definitions} { ...M ...M } fragment M on Mutation { ${NEW_USER_ROOT.select()} }`,
      { token: tokens.lacking, variables },
    );
    expect(answer.status).toBe(403);
    const row = await g.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', String(variables.email))
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('only the selected operation counts', async () => {
    const document = `query Other { __typename } query Chosen { users { id } }`;
    const other = await gql<{ __typename: string }>(g.app, document, { token: tokens.lacking, operationName: 'Other' });
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual({ __typename: 'Query' });
    const chosen = await gql(g.app, document, { token: tokens.lacking, operationName: 'Chosen' });
    expect(chosen.status).toBe(403);
  });

  it.each([
    ['several operations and no operationName', 'query A { __typename } query B { connected }', undefined],
    ['an operationName the document does not define', 'query A { __typename }', 'B'],
    ['an anonymous operation and an operationName', '{ __typename }', 'A'],
    ['an unknown fragment at the root', 'query { __typename ...Missing }', undefined],
  ])('%s: needs a token (401), then is refused as unreadable (400)', async (_label, document, operationName) => {
    const anonymous = await gql(g.app, document, { operationName });
    expect(anonymous.status).toBe(401);
    const refused = await gql(g.app, document, { token: tokens.holding, operationName });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('what it cannot read wholly, it still refuses for the fields it can read (403 before 400)', async () => {
    const unknown = await gql(g.app, 'query { users { id } ...Missing }', { token: tokens.lacking });
    expect(unknown.status).toBe(403);
    const ambiguous = await gql(g.app, 'query A { __typename } query B { users { id } }', { token: tokens.lacking });
    expect(ambiguous.status).toBe(403);
  });

  it('a public root field beside a conditional one still needs a token: authorization never depends on variables', async () => {
    const document = `mutation($skip: Boolean!) { logIn(email: "x@demo.local", password: "nope") { token } newUser(username: "never", name: "N", email: "never@demo.local", password: "Never#Pass-9t7q", role_id: 1) @skip(if: $skip) { id } }`;
    const anonymous = await gql(g.app, document, { variables: { skip: true } });
    expect(anonymous.status).toBe(401);
    const lacking = await gql(g.app, document, { token: tokens.lacking, variables: { skip: true } });
    expect(lacking.status).toBe(403);
  });

  it('refreshToken spread twice is still the sole root field: an expired-but-refreshable token is accepted for it', async () => {
    const short = await makeApp(loadConfig({ databaseUrl: 'pglite://memory', accessTokenTtl: 60 }));
    extraApps.push(short);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const old = await tokenOf(short, 'shapes-holder@demo.local', TEST_PASSWORD);
      vi.setSystemTime(Date.now() + 61_000);
      const answer = await gql<{ refreshToken: { token: string } }>(
        short,
        'mutation { ...R ...R } fragment R on Mutation { refreshToken { token } }',
        { token: old },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data?.refreshToken.token.split('.')).toHaveLength(3);
      // Beside another root field it is not: the contract's 401 that sends the client to refresh.
      const mixed = await gql(short, 'mutation { ...R connected } fragment R on Mutation { refreshToken { token } }', {
        token: old,
      });
      expect(mixed.status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});
