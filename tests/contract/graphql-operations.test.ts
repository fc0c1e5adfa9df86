import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  buildSchema,
  parse,
  validate,
  validateSchema,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/**
 * Static checks of the hand-written GraphQL contract: the schema builds and is valid, and every
 * operations file is one named operation that validates against it (codegen relies on both).
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const schemaPath = join(root, 'contracts', 'schema.graphql');
const operationsDir = join(root, 'contracts', 'operations');

const FILE_NAME = /^([a-z][A-Za-z0-9]*)\.(query|mutation)\.graphql$/;

/** SPEC §7 GraphQL operations, with their kind. */
const SPEC_OPERATIONS = {
  logIn: 'mutation',
  refreshToken: 'mutation',
  connected: 'mutation',
  disconnected: 'mutation',
  users: 'query',
  newUser: 'mutation',
  updateUser: 'mutation',
  updateUserPassword: 'mutation',
  deleteUser: 'mutation',
  userInfos: 'query',
  userInstances: 'query',
  disconnectUser: 'mutation',
  deleteUserInstance: 'mutation',
  instances: 'query',
  onlineUsers: 'query',
} as const;

/** Extensions the screens need, marked `Extension:` in the schema. */
const EXTENSION_OPERATIONS = { roles: 'query', departments: 'query' } as const;

const REQUIRED: Record<string, 'query' | 'mutation'> = { ...SPEC_OPERATIONS, ...EXTENSION_OPERATIONS };

const schemaSource = readFileSync(schemaPath, 'utf8');
const schema: GraphQLSchema = buildSchema(schemaSource);
const operationFiles = readdirSync(operationsDir)
  .filter((f) => f.endsWith('.graphql'))
  .sort();

function rootFields(kind: 'query' | 'mutation'): Record<string, unknown> {
  const type = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  return type ? type.getFields() : {};
}

describe('contracts/schema.graphql', () => {
  it('builds into a valid schema', () => {
    expect(validateSchema(schema)).toEqual([]);
  });

  it('uses Int, never ID, for identifiers', () => {
    expect(schemaSource).not.toMatch(/:\s*\[?ID!?/);
  });

  it.each(Object.entries(REQUIRED))('has root field %s on %s', (name, kind) => {
    expect(Object.keys(rootFields(kind))).toContain(name);
  });

  it.each(Object.keys(EXTENSION_OPERATIONS))('marks %s as an Extension', (name) => {
    const field = schema.getQueryType()?.getFields()[name];
    expect(field?.description ?? '').toMatch(/Extension:/);
  });

  it('describes every type, field and argument', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !('getFields' in type)) continue;
      if (!['Boolean', 'Int', 'String'].includes(type.name) && !type.description) missing.push(type.name);
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) {
          if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('contracts/operations', () => {
  it('holds one file per required operation', () => {
    const expected = Object.entries(REQUIRED).map(([name, kind]) => `${name}.${kind}.graphql`);
    expect(operationFiles).toEqual(expect.arrayContaining(expected));
  });

  it('holds only files named <name>.<query|mutation>.graphql', () => {
    expect(operationFiles.filter((f) => !FILE_NAME.test(f))).toEqual([]);
  });

  it.each(operationFiles)('%s is one named operation that validates against the schema', (file) => {
    const match = FILE_NAME.exec(file);
    expect(match).not.toBeNull();
    const [, name, kind] = match ?? [];

    const doc = parse(readFileSync(join(operationsDir, file), 'utf8'));
    const operations = doc.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    expect(doc.definitions).toHaveLength(1); // no fragments: each file stands alone
    expect(operations).toHaveLength(1);
    const [operation] = operations;
    expect(operation?.name?.value).toBe(name);
    expect(operation?.operation).toBe(kind);

    // The operation is named after the root field it calls.
    const fields = operation?.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : s.kind));
    expect(fields).toEqual([name]);

    expect(validate(schema, doc)).toEqual([]);
  });
});
