import { Kind, type TypeNode } from 'graphql';
import { GRAPHQL_OPERATIONS } from '../../../packages/conformance/src/kit.js';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import {
  buildUrl,
  deref,
  METHODS,
  OPENAPI_DOCUMENT,
  sample,
  wrongValues,
  type Operation,
  type Parameter,
} from '../test-support/openapi-schema';

/**
 * Malformed bodies and params on every operation get 400 with the contract's error body, never 500
 * (docs/product.md, Errors). The cases are derived from each operation's own schemas in contracts/openapi.yaml, so a
 * new operation is covered without touching this file: broken JSON, a JSON value of the wrong kind,
 * each required property missing, an extra property, each property of the wrong type, each path and
 * query parameter of the wrong type or out of its range, each required query parameter missing.
 * Requests carry an administrator's token, so what answers is validation, not authorization.
 */
const doc = OPENAPI_DOCUMENT;

interface Case {
  name: string;
  method: string;
  url: string;
  payload?: string;
  /** 400 unless said: a body over the limit is 413, one that is not JSON by its media type 415. */
  status?: 400 | 413 | 415;
  contentType?: string;
}

function casesFor(path: string, method: string, op: Operation, shared: Parameter[]): Case[] {
  const params = [...shared, ...(op.parameters ?? [])].map(deref).filter((p) => p.in !== 'header');
  const pathValues = Object.fromEntries(
    params.filter((p) => p.in === 'path').map((p) => [p.name, p.example ?? sample(p.schema)]),
  );
  const query = Object.fromEntries(
    params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, p.example ?? sample(p.schema)]),
  );
  const content = op.requestBody ? deref(op.requestBody).content?.['application/json'] : undefined;
  const body = content
    ? (content.example ?? Object.values(content.examples ?? {})[0]?.value ?? sample(content.schema))
    : undefined;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const url = buildUrl(path, pathValues, query);
  const cases: Case[] = [];
  const M = method.toUpperCase();

  for (const p of params) {
    for (const wrong of wrongValues(p.schema, true)) {
      const target =
        p.in === 'path'
          ? buildUrl(path, { ...pathValues, [p.name]: wrong }, query)
          : buildUrl(path, pathValues, { ...query, [p.name]: wrong });
      cases.push({
        name: `${p.in} ${p.name}=${String(wrong)}`,
        method: M,
        url: target,
        ...(payload === undefined ? {} : { payload }),
      });
    }
    if (p.in === 'query' && p.required) {
      const { [p.name]: _dropped, ...rest } = query;
      cases.push({
        name: `query ${p.name} missing`,
        method: M,
        url: buildUrl(path, pathValues, rest),
        ...(payload === undefined ? {} : { payload }),
      });
    }
  }

  if (content) {
    const schema = deref(content.schema);
    cases.push({ name: 'body is not JSON', method: M, url, payload: '{"oops": ' });
    cases.push({
      name: 'body over 1 MiB',
      method: M,
      url,
      payload: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }),
      status: 413,
    });
    cases.push({
      name: 'body as text/plain',
      method: M,
      url,
      payload: payload ?? '{}',
      contentType: 'text/plain',
      status: 415,
    });
    cases.push({ name: 'body as text/csv', method: M, url, payload: 'a;b', contentType: 'text/csv', status: 415 });
    cases.push({ name: 'body is a JSON array', method: M, url, payload: '[]' });
    cases.push({ name: 'body is a JSON string', method: M, url, payload: '"text"' });
    const branches = schema.oneOf ?? schema.anyOf ?? [schema];
    const object =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    if (object) {
      cases.push({ name: 'extra property', method: M, url, payload: JSON.stringify({ ...object, sneaky: 1 }) });
      const properties = Object.fromEntries(branches.flatMap((b) => Object.entries(deref(b).properties ?? {})));
      const required = new Set(
        branches.map((b) => deref(b).required ?? []).reduce((a, b) => a.filter((k) => b.includes(k))),
      );
      for (const key of Object.keys(object)) {
        if (required.has(key)) {
          const { [key]: _dropped, ...rest } = object;
          cases.push({ name: `body ${key} missing`, method: M, url, payload: JSON.stringify(rest) });
        }
        for (const wrong of wrongValues(properties[key] ?? {}, false)) {
          cases.push({
            name: `body ${key}=${JSON.stringify(wrong)}`,
            method: M,
            url,
            payload: JSON.stringify({ ...object, [key]: wrong }),
          });
        }
      }
    }
  }
  return cases;
}

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => {
    const op = item[method] as Operation;
    return { path, method, op, cases: casesFor(path, method, op, item.parameters ?? []) };
  }),
);

let testApp: TestApp;
let authorization: string;

beforeAll(async () => {
  testApp = await startTestApp();
  ({ authorization } = await testApp.auth('admin@demo.local'));
}, 120_000);

afterAll(async () => {
  await testApp?.close();
});

describe('malformed input on every REST operation', () => {
  it('derives at least one malformed case for every operation that takes input', () => {
    const withoutCases = operations.filter((o) => o.cases.length === 0).map((o) => o.op.operationId);
    // Only operations with no parameters and no body have nothing to malform.
    const inputless = operations
      .filter(
        (o) => !o.op.requestBody && !(o.op.parameters ?? []).length && !(doc.paths[o.path]?.parameters ?? []).length,
      )
      .map((o) => o.op.operationId);
    expect(withoutCases.sort()).toEqual(inputless.sort());
    expect(operations.reduce((n, o) => n + o.cases.length, 0)).toBeGreaterThan(200);
  });

  it.each(operations.filter((o) => o.cases.length > 0).map((o) => [o.op.operationId, o] as const))(
    '%s answers 400 (413, 415) with the contract body',
    async (_id, o) => {
      const problems: string[] = [];
      for (const c of o.cases) {
        const status = c.status ?? 400;
        const response = await testApp.app.fastify.inject({
          method: c.method as 'GET',
          url: c.url,
          headers: {
            authorization,
            ...(c.payload === undefined ? {} : { 'content-type': c.contentType ?? 'application/json' }),
          },
          ...(c.payload === undefined ? {} : { payload: c.payload }),
        });
        if (response.statusCode !== status) {
          problems.push(
            `${c.name} (${c.method} ${c.url}): ${response.statusCode}, not ${status}: ${response.body.slice(0, 160)}`,
          );
          continue;
        }
        const check = validateResponse(o.op.operationId, status, response.json());
        if (!check.valid)
          problems.push(`${c.name}: ${status} body breaks the contract: ${JSON.stringify(check.errors).slice(0, 200)}`);
      }
      expect(problems).toEqual([]);
    },
  );
});

/** A value a GraphQL variable of this type accepts, so each case breaks exactly one variable. */
/**
 * Valid values chosen by the variable's name where the type's sample would be refused before its input
 * is read: one's own two-factor settings are refused whatever their values (server/src/access/self-service.ts),
 * and the caller (admin@demo.local) may be user 1, so the user acted on is one that does not exist (404
 * comes after 400).
 */
const VALID_BY_NAME: Readonly<Record<string, unknown>> = { user_id: 2_000_000 };

function validVariable(type: TypeNode): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return validVariable(type.type);
  if (type.kind === Kind.LIST_TYPE) return [];
  switch (type.name.value) {
    case 'Int':
      return 1;
    case 'Boolean':
      return true;
    case 'String':
      return 'x';
    // The users list's filter and sort (contracts/schema.graphql `usersPage`).
    case 'UserFilter':
      return { q: 'x', blocked: false };
    case 'UserSort':
      return { field: 'email', direction: 'desc' };
    default:
      throw new Error(`no valid sample for GraphQL type ${type.name.value}: extend validVariable`);
  }
}

/** Values a GraphQL variable of this type refuses (coercion errors), by the type's named leaf. */
function wrongVariables(type: TypeNode): unknown[] {
  if (type.kind === Kind.NON_NULL_TYPE) return [null, ...wrongVariables(type.type)];
  if (type.kind === Kind.LIST_TYPE) return [{ not: 'a list' }];
  switch (type.name.value) {
    case 'Int':
      return ['abc', 1.5, 2 ** 31];
    case 'Float':
      return ['abc'];
    case 'Boolean':
      return ['yes', 1];
    case 'String':
    case 'ID':
      return [{ an: 'object' }, ['x', 'y']];
    default:
      return ['not-an-input-object-or-enum', 12345];
  }
}

describe('malformed variables on every GraphQL operation', () => {
  const withVariables = GRAPHQL_OPERATIONS.filter((op) => (op.operation.variableDefinitions ?? []).length > 0);

  it.each(withVariables.map((op) => [op.name, op] as const))(
    '%s answers 400 with GraphQL errors',
    async (_name, op) => {
      const definitions = op.operation.variableDefinitions ?? [];
      const problems: string[] = [];
      const valid = Object.fromEntries(
        definitions.map((def) => [
          def.variable.name.value,
          VALID_BY_NAME[def.variable.name.value] ?? validVariable(def.type),
        ]),
      );
      const cases: { name: string; variables: Record<string, unknown> }[] = [];
      for (const def of definitions) {
        const name = def.variable.name.value;
        for (const wrong of wrongVariables(def.type))
          cases.push({ name: `$${name}=${JSON.stringify(wrong)}`, variables: { ...valid, [name]: wrong } });
        if (def.type.kind === Kind.NON_NULL_TYPE && !def.defaultValue) {
          const { [name]: _dropped, ...rest } = valid;
          cases.push({ name: `$${name} missing`, variables: rest });
        }
      }
      for (const c of cases) {
        const response = await testApp.app.fastify.inject({
          method: 'POST',
          url: '/backoffice/graphql',
          headers: { authorization, 'content-type': 'application/json' },
          payload: JSON.stringify({ query: op.source, operationName: op.name, variables: c.variables }),
        });
        const body = response.json<{ errors?: { message: string }[]; data?: unknown }>();
        if (response.statusCode !== 400 || !body.errors?.length || body.data !== undefined) {
          problems.push(`${c.name}: ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
      }
      expect(cases.length).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    },
  );
});
