import {
  Kind,
  parse,
  visit,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACTS_DIR } from './contracts-dir.js';

/**
 * The files of `contracts/operations/`: `<name>.<query|mutation>.graphql` holds one named operation,
 * `<name>.fragment.graphql` one fragment its operations spread. An operation is complete only together with
 * the fragments it spreads (directly or through other fragments): `documentMode: 'string'` in codegen.ts
 * appends them to the operation's text in src/generated/graphql.ts, and `operationDocument` here does the
 * same for the tests that send or measure the contract's operations.
 */

export const OPERATIONS_DIR = join(CONTRACTS_DIR, 'operations');

/** `<name>.<query|mutation>.graphql` or `<name>.fragment.graphql`. */
export const OPERATION_FILE_NAME = /^([a-z][A-Za-z0-9]*)\.(query|mutation|fragment)\.graphql$/;

export interface GraphqlFile {
  file: string;
  source: string;
  document: DocumentNode;
}

/** Every `.graphql` file of `contracts/operations/`, sorted by name, parsed. */
export function readOperationFiles(): GraphqlFile[] {
  return readdirSync(OPERATIONS_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const source = readFileSync(join(OPERATIONS_DIR, file), 'utf8');
      return { file, source, document: parse(source) };
    });
}

export const isFragmentFile = (file: string): boolean => file.endsWith('.fragment.graphql');

/** The fragments that fragment files define, by name (the first file wins if two define one name). */
export function fragmentsOf(
  files: readonly GraphqlFile[],
): Map<string, { file: GraphqlFile; fragment: FragmentDefinitionNode }> {
  const fragments = new Map<string, { file: GraphqlFile; fragment: FragmentDefinitionNode }>();
  for (const file of files.filter((f) => isFragmentFile(f.file)))
    for (const definition of file.document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(definition.name.value))
        fragments.set(definition.name.value, { file, fragment: definition });
  return fragments;
}

/** The names a node spreads (`...Name`), not following them. */
function directSpreads(node: ASTNode): string[] {
  const names: string[] = [];
  visit(node, {
    FragmentSpread(spread) {
      names.push(spread.name.value);
    },
  });
  return names;
}

/**
 * The fragment names a node spreads, directly or through the fragments it spreads, in first-use order.
 * A name `fragments` does not define is listed but not followed.
 */
export function spreadFragmentNames(
  node: ASTNode,
  fragments: ReadonlyMap<string, { fragment: FragmentDefinitionNode }>,
): string[] {
  const seen = new Set<string>();
  const pending = directSpreads(node);
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const definition = fragments.get(name);
    if (definition) pending.push(...directSpreads(definition.fragment));
  }
  return [...seen];
}

export interface OperationDocument {
  /** The operation's name (the root field it calls). */
  name: string;
  /** The operation file. */
  file: string;
  /** The operation file's text followed by the text of each fragment file it needs: what a client sends. */
  source: string;
  /** `source` parsed: the operation and its fragments. */
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The fragments it spreads, directly or not; those no fragment file defines are in `undefinedFragments`. */
  fragments: string[];
  undefinedFragments: string[];
}

/** One operation file completed with the fragment files it needs (each file once, in name order). */
export function operationDocument(
  file: GraphqlFile,
  fragments: ReturnType<typeof fragmentsOf>,
): OperationDocument | undefined {
  const names = spreadFragmentNames(file.document, fragments);
  const needed = [...new Set(names.flatMap((name) => fragments.get(name)?.file ?? []))].sort((a, b) =>
    a.file.localeCompare(b.file),
  );
  const source = [file.source, ...needed.map((f) => f.source)].join('\n');
  const document = parse(source);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation?.name) return undefined;
  return {
    name: operation.name.value,
    file: file.file,
    source,
    document,
    operation,
    fragments: names,
    undefinedFragments: names.filter((name) => !fragments.has(name)),
  };
}
