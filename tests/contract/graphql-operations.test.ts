import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  NoUnusedFragmentsRule,
  buildSchema,
  parse,
  specifiedRules,
  validate,
  validateSchema,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import * as generated from '../../src/generated/graphql';
import {
  OPERATION_FILE_NAME,
  fragmentsOf,
  isFragmentFile,
  operationDocument,
  readOperationFiles,
  spreadFragmentNames,
  type GraphqlFile,
} from '../../packages/conformance/src/graphql-documents.js';

/**
 * Static checks of the hand-written GraphQL contract: the schema builds and is valid; every operations
 * file is one named operation that validates against it together with the fragments it spreads; every
 * fragment file is one fragment that some operation spreads; and the generated documents are those
 * operations with their fragments (what the server receives). Codegen relies on all of it.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const schemaPath = join(root, 'contracts', 'schema.graphql');

/** The GraphQL operations the contract requires, with their kind. */
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
const EXTENSION_OPERATIONS = {
  roles: 'query',
  departments: 'query',
  createDepartment: 'mutation',
  updateDepartment: 'mutation',
  connections: 'query',
  createConnection: 'mutation',
  updateConnection: 'mutation',
  updateUserSettings: 'mutation',
  auditRecords: 'query',
  usersPage: 'query',
} as const;

const REQUIRED: Record<string, 'query' | 'mutation'> = { ...SPEC_OPERATIONS, ...EXTENSION_OPERATIONS };

const schemaSource = readFileSync(schemaPath, 'utf8');
const schema: GraphQLSchema = buildSchema(schemaSource);
const files = readOperationFiles();
const operationFiles = files.map((f) => f.file);

type Fragments = ReturnType<typeof fragmentsOf>;

const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** What is wrong with one operation file, given the fragment files: [] when nothing. */
function operationFileProblems(file: GraphqlFile, fragments: Fragments): string[] {
  const match = OPERATION_FILE_NAME.exec(file.file);
  const [, name, kind] = match ?? [];
  if (!match || kind === 'fragment') return [`${file.file}: not named <name>.<query|mutation>.graphql`];
  const problems: string[] = [];
  const [only, ...more] = file.document.definitions;
  if (only?.kind !== Kind.OPERATION_DEFINITION || more.length > 0)
    problems.push(`${file.file}: holds more than one operation (fragments go in <name>.fragment.graphql files)`);
  const op = operationDocument(file, fragments);
  if (!op) return [...problems, `${file.file}: no named operation`];
  if (op.name !== name) problems.push(`${file.file}: the operation is named ${op.name}`);
  if (op.operation.operation !== kind) problems.push(`${file.file}: the operation is a ${op.operation.operation}`);
  // The operation is named after the root field it calls.
  const fields = op.operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : s.kind));
  if (fields.join() !== name) problems.push(`${file.file}: selects ${fields.join(', ')} at the root, not ${name}`);
  for (const missing of op.undefinedFragments)
    problems.push(`${file.file}: spreads ${missing}, which no .fragment.graphql file defines`);
  // The operation together with exactly the fragments it needs (KnownFragmentNames, NoUnusedFragments…).
  problems.push(...validate(schema, op.document).map((e) => `${file.file}: ${e.message}`));
  return problems;
}

/** What is wrong with one fragment file, given every file: [] when nothing. */
function fragmentFileProblems(file: GraphqlFile, fragments: Fragments, all: readonly GraphqlFile[]): string[] {
  const match = OPERATION_FILE_NAME.exec(file.file);
  const [, stem, kind] = match ?? [];
  if (!match || kind !== 'fragment' || !stem) return [`${file.file}: not named <name>.fragment.graphql`];
  const name = upperFirst(stem);
  const [only, ...more] = file.document.definitions;
  if (only?.kind !== Kind.FRAGMENT_DEFINITION || more.length > 0)
    return [`${file.file}: is not one fragment definition`];
  const problems: string[] = [];
  if (only.name.value !== name) problems.push(`${file.file}: the fragment is named ${only.name.value}, not ${name}`);
  const spreadBy = all
    .filter((f) => !isFragmentFile(f.file))
    .filter((f) => spreadFragmentNames(f.document, fragments).includes(only.name.value));
  if (spreadBy.length === 0) problems.push(`${file.file}: no operation spreads ${only.name.value}`);
  // On its own (with the fragments it spreads), the fragment's type condition and fields exist in the schema.
  const needed = spreadFragmentNames(only, fragments).flatMap((n) => {
    const definition = fragments.get(n)?.fragment;
    return definition && definition !== only ? [definition] : [];
  });
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [only, ...needed] };
  const rules = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);
  problems.push(...validate(schema, document, rules).map((e) => `${file.file}: ${e.message}`));
  return problems;
}

/** Every problem of a set of operation and fragment files. */
function allProblems(all: readonly GraphqlFile[]): string[] {
  const fragments = fragmentsOf(all);
  return all.flatMap((f) =>
    isFragmentFile(f.file) ? fragmentFileProblems(f, fragments, all) : operationFileProblems(f, fragments),
  );
}

const fake = (file: string, source: string): GraphqlFile => ({ file, source, document: parse(source) });

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

  it.each(Object.entries(EXTENSION_OPERATIONS))('marks %s as an Extension', (name, kind) => {
    const field = rootFields(kind)[name] as { description?: string | null } | undefined;
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
  const fragments = fragmentsOf(files);
  const operations = files.filter((f) => !isFragmentFile(f.file));

  it('holds one file per required operation', () => {
    const expected = Object.entries(REQUIRED).map(([name, kind]) => `${name}.${kind}.graphql`);
    expect(operationFiles).toEqual(expect.arrayContaining(expected));
  });

  it('holds only files named <name>.<query|mutation|fragment>.graphql', () => {
    expect(operationFiles.filter((f) => !OPERATION_FILE_NAME.test(f))).toEqual([]);
  });

  it.each(operations.map((f) => f.file))(
    '%s is one named operation that validates against the schema with its fragments',
    (file) => {
      const found = operations.find((f) => f.file === file);
      expect(found && operationFileProblems(found, fragments)).toEqual([]);
    },
  );

  it.each(files.filter((f) => isFragmentFile(f.file)).map((f) => f.file))(
    '%s is one fragment, named after its file, that validates against the schema and some operation spreads',
    (file) => {
      const found = files.find((f) => f.file === file);
      expect(found && fragmentFileProblems(found, fragments, files)).toEqual([]);
    },
  );

  it('shares the user row, session user and department selections as fragments', () => {
    expect([...fragments.keys()]).toEqual(expect.arrayContaining(['UserRow', 'SessionUser', 'Department']));
  });

  describe('refuses', () => {
    const department = fake('department.fragment.graphql', 'fragment Department on Department { id name }');
    const departments = fake('departments.query.graphql', 'query departments { departments { ...Department } }');

    it('nothing in a consistent set (the baseline of the cases below)', () => {
      expect(allProblems([department, departments])).toEqual([]);
    });

    it('an operation that spreads a fragment no file defines', () => {
      const problems = allProblems([
        fake('departments.query.graphql', 'query departments { departments { ...Dept } }'),
      ]);
      expect(problems).toEqual(
        expect.arrayContaining([expect.stringContaining('spreads Dept, which no .fragment.graphql file defines')]),
      );
    });

    it('a fragment that no operation spreads', () => {
      const problems = allProblems([
        department,
        fake('departments.query.graphql', 'query departments { departments { id } }'),
      ]);
      expect(problems).toEqual([expect.stringContaining('no operation spreads Department')]);
    });

    it('a fragment only another unused fragment spreads', () => {
      const wrapper = fake('wrapper.fragment.graphql', 'fragment Wrapper on Department { ...Department }');
      const problems = allProblems([department, wrapper, fake('roles.query.graphql', 'query roles { roles { id } }')]);
      expect(problems).toEqual([
        expect.stringContaining('no operation spreads Department'),
        expect.stringContaining('no operation spreads Wrapper'),
      ]);
    });

    it('a fragment defined inside an operation file', () => {
      const inline = fake(
        'departments.query.graphql',
        'query departments { departments { ...Department } } fragment Department on Department { id }',
      );
      expect(allProblems([inline])).toEqual(
        expect.arrayContaining([expect.stringContaining('holds more than one operation')]),
      );
    });

    it('a fragment on a field its type does not have', () => {
      const wrong = fake('department.fragment.graphql', 'fragment Department on Department { id display_name }');
      expect(allProblems([wrong, departments])).toEqual(
        expect.arrayContaining([expect.stringContaining('Cannot query field "display_name" on type "Department"')]),
      );
    });

    it('a fragment file named otherwise than its fragment', () => {
      const misnamed = fake('dept.fragment.graphql', 'fragment Department on Department { id }');
      expect(allProblems([misnamed, departments])).toEqual([
        expect.stringContaining('the fragment is named Department, not Dept'),
      ]);
    });
  });
});

describe('src/generated/graphql.ts', () => {
  const fragments = fragmentsOf(files);
  const operations = files.filter((f) => !isFragmentFile(f.file)).flatMap((f) => operationDocument(f, fragments) ?? []);
  const documents = generated as unknown as Record<string, unknown>;

  it.each(operations.map((op) => [op.name, op] as const))(
    "%s's document is the operation with exactly the fragments it spreads (what the server receives)",
    (name, op) => {
      const text = String(documents[`${upperFirst(name)}Document`]);
      const sent = parse(text);
      expect(validate(schema, sent)).toEqual([]);
      const defined = (doc: DocumentNode) =>
        doc.definitions
          .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
          .map((d) => d.name.value)
          .sort();
      expect(defined(sent)).toEqual([...op.fragments].sort());
      expect(defined(sent)).toEqual(defined(op.document));
    },
  );
});
