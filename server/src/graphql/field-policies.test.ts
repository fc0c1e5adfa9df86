import { buildSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { policyOf } from '../access/policies';
import { accessOf } from '../test-support/graphql-permission-prose';
import { assertEveryFieldMapped, FIELD_OPERATIONS } from './field-policies';
import { SCHEMA_PATH } from './index';

/**
 * The GraphQL door decides each root field by the policy of the service operation it runs
 * (./field-policies.ts); the schema's "Permission:" lines are what readers of contracts/schema.graphql
 * see. They must say the same thing, or the contract would lie.
 */

const schema = buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));

const fields = (['query', 'mutation'] as const).flatMap((type) =>
  Object.values((type === 'query' ? schema.getQueryType() : schema.getMutationType())?.getFields() ?? {}).map(
    (field) => [`${type} ${field.name}`, type, field.name, field.description] as const,
  ),
);

describe('GraphQL root fields and their service policies agree', () => {
  it('maps every root field of the schema, and nothing else', () => {
    expect(() => assertEveryFieldMapped(schema)).not.toThrow();
  });

  it.each(fields)('%s', (_label, type, name, description) => {
    const operation = (FIELD_OPERATIONS[type] as Record<string, Parameters<typeof policyOf>[0]>)[name];
    if (!operation) throw new Error(`${type} ${name} is not mapped`);
    const policy = policyOf(operation);
    const stated = accessOf(description);
    if (policy.caller === 'anyone') return expect(stated).toEqual({ kind: 'public' });
    expect(policy.caller).toBe('user');
    if (policy.caller !== 'user') return;
    if (policy.anyOf.length === 0 || policy.selfService !== undefined)
      return expect(stated, `${operation}`).toEqual({ kind: 'signed-in' });
    expect(stated.kind).toBe('routes');
    if (stated.kind === 'routes') expect([...stated.routes].sort()).toEqual([...policy.anyOf].sort());
  });

  it('refuses a schema with a root field no operation runs', () => {
    const extra = buildSchema(`${readFileSync(SCHEMA_PATH, 'utf8')}\nextend type Query { secret: Int }`);
    expect(() => assertEveryFieldMapped(extra)).toThrow(/unmapped secret/);
  });
});
