import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { startTestApp, type TestApp } from '../test-support/app';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';

/**
 * The attacker's read of the GraphQL door (docs/security.md, Who may do what): for every operation of
 * contracts/operations and every kind of caller, every shape a document can give the same root fields
 * (repeated, nested and inline fragments, aliases, `@include`/`@skip`, `__typename` beside them, several
 * operations with `operationName`) gets the decision the plain document gets. The plain document's
 * decision is whatever the server answers (it is not written here): what is checked is that no shape
 * changes it. Variables are chosen so that nothing is changed by a request the door lets through (ids
 * that name nothing, values the input rules refuse), so the plain and the shaped documents meet the
 * same state.
 */

const OPERATIONS_DIR = fileURLToPath(new URL('../../../contracts/operations', import.meta.url));
const NOWHERE = 2_147_483_647;

/** Variables for each operation that change nothing whoever runs it. */
const NEUTRAL: Readonly<Record<string, Record<string, unknown>>> = {
  attention: {},
  auditRecords: { limit: 1 },
  auditNames: { of: 'actor', limit: 1 },
  connected: {},
  disconnected: {},
  connections: {},
  departments: {},
  roles: {},
  users: {},
  usersPage: { limit: 1 },
  userInfos: {},
  instances: { remove_ids: [] },
  onlineUsers: { user_id: null, instance_id: null },
  createConnection: { instance_id: NOWHERE, name: 'Nenhuma' },
  createDepartment: { name: '   ' },
  deleteUser: { id: NOWHERE },
  deleteUserInstance: { id: NOWHERE },
  disconnectUser: { user_id: NOWHERE },
  logIn: { email: 'ninguem@shapes.test', password: 'Errada#1' },
  newUser: { username: '!', name: '', email: 'not-an-email', password: 'x', role_id: NOWHERE },
  refreshToken: {},
  updateConnection: { id: NOWHERE, name: 'Nenhuma' },
  updateDepartment: { id: NOWHERE, name: 'Nenhum' },
  updateUser: { id: NOWHERE, name: 'Ninguém' },
  updateUserPassword: { password: 'curta', current_password: 'Errada#1' },
  updateUserSettings: { user_id: NOWHERE, two_factor_enrolment_required: false },
  userInstances: { user_id: NOWHERE },
};

interface Operation {
  name: string;
  kind: 'query' | 'mutation';
  /** The variable definitions as written, `($a: Int!)` or ''. */
  definitions: string;
  /** The root selections as written. */
  selections: string[];
  /** The fragment definitions the operation spreads, as codegen appends them. */
  fragments: string;
}

function loadOperations(): Operation[] {
  const files = readdirSync(OPERATIONS_DIR);
  const fragmentText = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.fragment.graphql'))) {
    const doc = parse(readFileSync(join(OPERATIONS_DIR, file), 'utf8'));
    for (const definition of doc.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragmentText.set(definition.name.value, print(definition));
  }
  const fragmentsOf = (text: string): string => {
    const needed = new Set<string>();
    const visit = (source: string) => {
      for (const [, name] of source.matchAll(/\.\.\.\s*([A-Za-z_][A-Za-z0-9_]*)/g)) {
        if (!name || name === 'on' || needed.has(name) || !fragmentText.has(name)) continue;
        needed.add(name);
        visit(fragmentText.get(name) ?? '');
      }
    };
    visit(text);
    return [...needed].map((name) => fragmentText.get(name)).join('\n');
  };
  return files
    .filter((f) => /\.(query|mutation)\.graphql$/.test(f))
    .map((file) => {
      const doc = parse(readFileSync(join(OPERATIONS_DIR, file), 'utf8'));
      const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      if (!operation?.name) throw new Error(`${file}: no named operation`);
      const definitions = operation.variableDefinitions?.length
        ? `(${operation.variableDefinitions.map((v) => print(v)).join(', ')})`
        : '';
      const selections = operation.selectionSet.selections.map((s) => print(s));
      return {
        name: operation.name.value,
        kind: operation.operation as 'query' | 'mutation',
        definitions,
        selections,
        fragments: fragmentsOf(selections.join('\n')),
      };
    });
}

/** A shape: the document, its operationName, extra variables, and whether the root fields run at all. */
interface Shape {
  label: string;
  document: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  /** False when a directive skips the root fields: then only the door's decision is compared. */
  runs: boolean;
}

const withDirective = (selection: string, directive: string) =>
  selection.replace(/^(\w+(?:\s*:\s*\w+)?(?:\([^)]*\))?)/s, `$1 ${directive}`);

function shapesOf(op: Operation): Shape[] {
  const root = op.kind === 'query' ? 'Query' : 'Mutation';
  const body = op.selections.join('\n');
  const doc = (selection: string, extra = '', defs = op.definitions) =>
    `${op.kind} ${op.name}${defs} { ${selection} } ${extra} ${op.fragments}`;
  const skipDefs = op.definitions ? `${op.definitions.slice(0, -1)}, $skip: Boolean!)` : '($skip: Boolean!)';
  return [
    { label: 'plain', document: doc(body), runs: true },
    {
      label: 'repeated fragment spread',
      document: doc('...F ...F', `fragment F on ${root} { ${body} }`),
      runs: true,
    },
    {
      label: 'nested fragments',
      document: doc('...A', `fragment A on ${root} { ...B } fragment B on ${root} { ${body} }`),
      runs: true,
    },
    {
      label: 'spread directly and through another',
      document: doc('...A ...B', `fragment A on ${root} { ...B } fragment B on ${root} { ${body} }`),
      runs: true,
    },
    { label: 'inline fragment', document: doc(`... on ${root} { ${body} }`), runs: true },
    { label: 'inline fragment without type', document: doc(`... { ${body} }`), runs: true },
    {
      label: 'spread inside an inline fragment',
      document: doc(`... on ${root} { ...F }`, `fragment F on ${root} { ${body} }`),
      runs: true,
    },
    {
      label: 'aliases',
      document: doc(op.selections.map((s, i) => `alias${i}: ${s}`).join('\n')),
      runs: true,
    },
    {
      label: '@include(if: true)',
      document: doc(op.selections.map((s) => withDirective(s, '@include(if: true)')).join('\n')),
      runs: true,
    },
    {
      label: '@skip(if: $skip) with skip false',
      document: doc(op.selections.map((s) => withDirective(s, '@skip(if: $skip)')).join('\n'), '', skipDefs),
      variables: { skip: false },
      runs: true,
    },
    {
      label: '@skip(if: $skip) with skip true',
      document: doc(op.selections.map((s) => withDirective(s, '@skip(if: $skip)')).join('\n'), '', skipDefs),
      variables: { skip: true },
      runs: false,
    },
    {
      label: 'skipped fragment spread',
      document: doc('...F @include(if: false)', `fragment F on ${root} { ${body} }`),
      runs: false,
    },
    { label: '__typename beside', document: doc(`__typename ${body}`), runs: true },
    {
      label: 'chosen among several operations',
      document: `query Decoy { __typename } ${doc(body)}`,
      operationName: op.name,
      runs: true,
    },
  ];
}

type Who = 'anonymous' | 'revoked' | 'operador' | 'usersOnly' | 'customerAdmin' | 'admin';
const WHO: readonly Who[] = ['anonymous', 'revoked', 'operador', 'usersOnly', 'customerAdmin', 'admin'];

/** The door's decision and, when the fields run, what they answered. */
interface Decision {
  door: 'identity' | 'tenant' | 'forbidden' | 'unreadable' | 'passed';
  status: number;
  codes: string[];
  body401?: unknown;
}

function decisionOf(status: number, body: { errors?: { extensions?: { code?: string } }[] }): Decision {
  const codes = [...new Set((body.errors ?? []).map((e) => e.extensions?.code ?? '?'))].sort();
  if (status === 401) return { door: 'identity', status, codes, body401: body };
  if (status === 403 && codes.includes('FORBIDDEN') && !('data' in body && body.data !== null))
    return { door: 'forbidden', status, codes };
  if (status === 400 && codes.some((c) => c === 'BAD_REQUEST' || c.startsWith('GRAPHQL_')))
    return { door: 'unreadable', status, codes };
  return { door: 'passed', status, codes };
}

describe('GraphQL: every document shape gets the plain document’s decision', () => {
  let t: TestApp;
  const bearer = {} as Record<Who, string | undefined>;
  const path = {} as Record<Who, string>;
  const operations = loadOperations();
  let requests = 0;

  async function signIn(email: string, tenant = 'backoffice'): Promise<string> {
    const answer = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenant}/graphql`,
      payload: { query: `mutation { logIn(email: "${email}", password: "${TEST_PASSWORD}") { token } }` },
    });
    const token = answer.json<{ data?: { logIn?: { token?: string } } }>().data?.logIn?.token;
    if (!token) throw new Error(`sign-in of ${email}: ${answer.body}`);
    return token;
  }

  beforeAll(async () => {
    t = await startTestApp({
      seed: { days: 1 },
      config: { loginMaxFailures: 1_000_000, loginMaxFailuresPerAddress: 1_000_000 },
    });
    const role = await t.db
      .insertInto('roles')
      .values({ name: 'shapes_users_only', display_name: 'Só usuários' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const users = await t.db
      .selectFrom('permissions')
      .select('id')
      .where('route_name', '=', 'users')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('role_permissions').values({ role_id: role.id, permission_id: users.id }).execute();
    await t.db
      .insertInto('tenants')
      .values({
        name: 'farmacia-formas',
        cnpj: '11.444.777/0001-61',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 50,
        ticket_limit: 10,
      })
      .execute();
    const people: [Who, string, string][] = [
      ['revoked', 'backoffice', ADMIN_ROLE],
      ['operador', 'backoffice', OPERATOR_ROLE],
      ['usersOnly', 'backoffice', 'shapes_users_only'],
      ['customerAdmin', 'farmacia-formas', ADMIN_ROLE],
      ['admin', 'backoffice', ADMIN_ROLE],
    ];
    path.anonymous = 'backoffice';
    for (const [who, tenant, roleName] of people) {
      await createTestUser(t.db, { email: `shapes-${who.toLowerCase()}@demo.local`, tenant, role: roleName });
      bearer[who] = await signIn(`shapes-${who.toLowerCase()}@demo.local`, tenant);
      path[who] = tenant;
    }
    // A session that ended: its token is refused whatever the document.
    await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${bearer.revoked}` },
      payload: { data: null, ip: null },
    });
  });

  afterAll(async () => {
    console.info(
      `GraphQL shapes: ${operations.length} operations × ${shapesOf(operations[0]!).length} shapes × ${WHO.length} callers = ${requests} requests`,
    );
    await t?.close();
  });

  async function send(who: Who, op: Operation, shape: Shape): Promise<Decision> {
    requests += 1;
    // A refresh rotates the session: each one gets a session of its own, so every shape meets the same state.
    const token =
      op.name === 'refreshToken' && bearer[who] && who !== 'revoked'
        ? await signIn(`shapes-${who.toLowerCase()}@demo.local`, path[who])
        : bearer[who];
    const answer = await t.app.fastify.inject({
      method: 'POST',
      url: `/${path[who]}/graphql`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: {
        query: shape.document,
        variables: { ...NEUTRAL[op.name], ...shape.variables },
        ...(shape.operationName ? { operationName: shape.operationName } : {}),
      },
    });
    return decisionOf(answer.statusCode, answer.json());
  }

  it('covers every operation of contracts/operations with neutral variables', () => {
    expect(operations.map((op) => op.name).sort()).toEqual(Object.keys(NEUTRAL).sort());
  });

  describe.each(WHO.map((who) => [who] as const))('%s', (who) => {
    it.each(loadOperations().map((op) => [op.name, op] as const))('%s', async (_name, op) => {
      const [plain, ...others] = shapesOf(op);
      const expected = await send(who, op, plain!);
      // A document the door could not read is a fault of this table, not a decision to compare.
      expect(expected.door, `${who} ${op.name} plain`).not.toBe('unreadable');
      for (const shape of others) {
        const got = await send(who, op, shape);
        if (shape.runs) expect(got, `${who} ${op.name}: ${shape.label}`).toEqual(expected);
        else if (expected.door === 'passed')
          expect(got.door === 'passed' && got.status === 200, `${who} ${op.name}: ${shape.label}`).toBe(true);
        else
          expect({ door: got.door, status: got.status }, `${who} ${op.name}: ${shape.label}`).toEqual({
            door: expected.door,
            status: expected.status,
          });
      }
    });
  });

  it('refuses what the door must refuse: a caller without a permission is told so for each shape', async () => {
    // The plain decisions are the server's own; this pins the few every reader expects, so the table
    // above cannot pass by the server letting everything through.
    const users = operations.find((op) => op.name === 'users')!;
    const newUser = operations.find((op) => op.name === 'newUser')!;
    expect((await send('operador', users, shapesOf(users)[1]!)).door).toBe('forbidden');
    expect((await send('operador', newUser, shapesOf(newUser)[1]!)).door).toBe('forbidden');
    expect((await send('anonymous', users, shapesOf(users)[1]!)).door).toBe('identity');
    expect((await send('revoked', users, shapesOf(users)[2]!)).body401).toEqual({ status: 'Unauthorized' });
    expect((await send('usersOnly', users, shapesOf(users)[1]!)).door).toBe('passed');
    expect((await send('admin', newUser, shapesOf(newUser)[3]!)).codes).toEqual(['BAD_USER_INPUT']);
  });
});
