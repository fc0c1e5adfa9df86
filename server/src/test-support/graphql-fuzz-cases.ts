import fc from 'fast-check';
import { getVariableValues, Kind, type TypeNode, type VariableDefinitionNode } from 'graphql';
import type { GraphqlOperationFile } from '../../../packages/conformance/src/kit.js';
import { HOSTILE_STRINGS, OVERFLOWING_NUMBERS } from './arbitraries';
import { pools, run, schema, TEST_PASSWORD } from './graphql-fuzz-state';

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
  // The password the run's callers have (./graphql-fuzz-state.ts): one's own changes then succeed too.
  current_password: fc.constant(TEST_PASSWORD),
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
          // The caller's own record, often: the rules on one's own (its role, its e-mail, itself) get met.
          ...(name === 'id' ? [{ weight: 1, arbitrary: fc.constant(run.caller.id) }] : []),
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
    // The users list's filter and sort (contracts/schema.graphql `usersPage`; docs/lists.md).
    case 'UserFilter':
      return nullable(
        fc.record(
          {
            q: validValue(STRING, 'q'),
            role: validValue(INT, 'role'),
            department: nullable(fc.oneof(fc.constant('none'), fc.constantFrom(...pools.ids).map(String), fc.string())),
            blocked: validValue(BOOLEAN, 'blocked'),
            online: validValue(BOOLEAN, 'online'),
            twoFactor: validValue(BOOLEAN, 'twoFactor'),
          },
          { requiredKeys: [] },
        ),
      );
    case 'UserSort':
      return nullable(
        fc.record(
          {
            field: nullable(fc.constantFrom('name', 'email', 'role', 'department', 'presence')),
            direction: nullable(fc.constantFrom('asc', 'desc')),
          },
          { requiredKeys: [] },
        ),
      );
    default:
      throw new Error(`no generator for GraphQL type ${type.name.value}`);
  }
}

const named = (value: string): TypeNode => ({ kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value } });
const STRING = named('String');
const INT = named('Int');
const BOOLEAN = named('Boolean');

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

export interface Case {
  tenant: string;
  variables: Record<string, unknown>;
}

export function caseArbitrary(op: GraphqlOperationFile, valid: boolean): fc.Arbitrary<Case> {
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
export function variablesValid(op: GraphqlOperationFile, variables: Record<string, unknown>): boolean {
  if (JSON.stringify(variables).includes('\\u0000')) return false;
  const coerced = getVariableValues(schema, [...(op.operation.variableDefinitions ?? [])], variables);
  return !coerced.errors;
}
