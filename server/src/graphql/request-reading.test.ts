import { buildSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { SCHEMA_PATH } from './index';
import { MAX_TOKENS } from './limits';
import { readingOf, type Reading } from './request-reading';

/**
 * What the guard reads off a body (./request-reading.ts), without a server: the plan, the root fields
 * of the operation that would run, and what it refuses. The HTTP side is ./guard-shapes.test.ts.
 */
const schema = buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));
const read = (query: string, operationName?: string) => readingOf({ query, operationName }, schema);
const summary = (reading: Reading) =>
  reading.kind === 'over-limit'
    ? { kind: reading.kind, codes: reading.errors.map((e) => e.extensions.code) }
    : {
        plan: reading.plan,
        fields: reading.fields.map(({ operation, field }) => `${operation} ${field.name.value}`),
        refused: reading.refusal?.map((e) => e.extensions.code) ?? null,
      };

describe('readingOf', () => {
  it.each([
    ['{ users { id } }', undefined, 'authenticated', ['query users']],
    ['{ ...F ...F } fragment F on Query { users { id } }', undefined, 'authenticated', ['query users']],
    [
      '{ ... { ...A } } fragment A on Query { ...B ...B } fragment B on Query { u: users { id } }',
      undefined,
      'authenticated',
      ['query users'],
    ],
    [
      '{ users @include(if: false) { id } __typename }',
      undefined,
      'authenticated',
      ['query users', 'query __typename'],
    ],
    [
      'query($s: Boolean!) { ...F @skip(if: $s) } fragment F on Query { users { id } }',
      undefined,
      'authenticated',
      ['query users'],
    ],
    ['{ __typename __schema { types { name } } }', undefined, 'public', ['query __typename', 'query __schema']],
    ['mutation { logIn(email: "a", password: "b") { token } }', undefined, 'public', ['mutation logIn']],
    // `logIn` is public as a mutation only: a query of that name is not read as one.
    ['query { logIn }', undefined, 'authenticated', ['query logIn']],
    [
      'mutation { ...R ...R } fragment R on Mutation { refreshToken { token } }',
      undefined,
      'refresh',
      ['mutation refreshToken'],
    ],
    [
      'mutation { refreshToken { token } connected }',
      undefined,
      'authenticated',
      ['mutation refreshToken', 'mutation connected'],
    ],
    [
      'query A { users { id } } mutation B { logIn(email: "a", password: "b") { token } }',
      'B',
      'public',
      ['mutation logIn'],
    ],
  ] as const)('%s (operationName %s): %s, %j', (query, operationName, plan, fields) => {
    expect(summary(read(query, operationName))).toEqual({ plan, fields, refused: null });
  });

  it.each([
    ['query A { __typename } query B { users { id } }', undefined, ['query __typename', 'query users']],
    ['query A { __typename } query B { users { id } }', 'C', ['query __typename', 'query users']],
    ['{ __typename }', 'A', ['query __typename']],
    ['{ users { id } ...Missing }', undefined, ['query users']],
  ] as const)(
    'cannot read %s (operationName %s) whole: a token, the permissions of %j, then a 400',
    (query, operationName, fields) => {
      expect(summary(read(query, operationName))).toEqual({
        plan: 'authenticated',
        fields,
        refused: ['GRAPHQL_VALIDATION_FAILED'],
      });
    },
  );

  it('a syntax error or a body that is not a request: a token, then a 400', () => {
    expect(summary(read('{ users { '))).toEqual({
      plan: 'authenticated',
      fields: [],
      refused: ['GRAPHQL_PARSE_FAILED'],
    });
    expect(summary(readingOf({ query: 42 }, schema))).toEqual({
      plan: 'authenticated',
      fields: [],
      refused: ['BAD_REQUEST'],
    });
  });

  it('over a limit of the text or of the document: refused before anything else', () => {
    expect(summary(read(`{ ${'id '.repeat(MAX_TOKENS)} }`))).toEqual({
      kind: 'over-limit',
      codes: ['GRAPHQL_PARSE_FAILED'],
    });
    expect(summary(read('{ a '.repeat(20_000)))).toEqual({ kind: 'over-limit', codes: ['GRAPHQL_PARSE_FAILED'] });
    expect(summary(read('mutation { ...A } fragment A on Mutation { ...A }'))).toEqual({
      kind: 'over-limit',
      codes: ['GRAPHQL_VALIDATION_FAILED'],
    });
  });
});
