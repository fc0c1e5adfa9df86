import {
  Kind,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';
import { graphqlSchema } from './kit-contract.js';
import type { GraphqlOperationFile } from './kit-contract.js';

// ---------------------------------------------------------------------------------------------------------
// GraphQL result validation: walk the operation's selection against the schema
// ---------------------------------------------------------------------------------------------------------

function checkScalar(typeName: string, value: unknown): boolean {
  switch (typeName) {
    case 'Int':
      return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'String':
      return typeof value === 'string';
    case 'Boolean':
      return typeof value === 'boolean';
    case 'ID':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    default:
      return value !== undefined; // custom scalars: any JSON value
  }
}

function checkValue(
  value: unknown,
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  path: string,
  fragments: Map<string, FragmentDefinitionNode>,
  problems: string[],
): void {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) {
      problems.push(`graphql: ${path} is null but ${String(type)} is non-null`);
      return;
    }
    checkValue(value, type.ofType, selection, path, fragments, problems);
    return;
  }
  if (value === null) return;
  if (isListType(type)) {
    if (!Array.isArray(value)) {
      problems.push(`graphql: ${path} is not a list`);
      return;
    }
    value.forEach((item, i) =>
      checkValue(item, type.ofType as GraphQLOutputType, selection, `${path}[${i}]`, fragments, problems),
    );
    return;
  }
  if (isScalarType(type)) {
    if (!checkScalar(type.name, value))
      problems.push(`graphql: ${path} is ${JSON.stringify(value)}, not a ${type.name}`);
    return;
  }
  if (isEnumType(type)) {
    if (typeof value !== 'string' || !type.getValue(value))
      problems.push(`graphql: ${path} is ${JSON.stringify(value)}, not a ${type.name}`);
    return;
  }
  if (isObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`graphql: ${path} is not an object`);
      return;
    }
    if (selection) checkSelection(value as Record<string, unknown>, type, selection, path, fragments, problems);
    return;
  }
  // Interfaces and unions do not occur in this contract; accept any object.
  if (typeof value !== 'object') problems.push(`graphql: ${path} is not an object (${getNamedType(type).name})`);
}

function checkSelection(
  object: Record<string, unknown>,
  parent: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  path: string,
  fragments: Map<string, FragmentDefinitionNode>,
  problems: string[],
  seen = new Set<string>(),
  top = true,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(selection.name.value);
      if (fragment) checkSelection(object, parent, fragment.selectionSet, path, fragments, problems, seen, false);
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      checkSelection(object, parent, selection.selectionSet, path, fragments, problems, seen, false);
      continue;
    }
    const name = selection.name.value;
    const key = selection.alias?.value ?? name;
    seen.add(key);
    if (name === '__typename') {
      if (object[key] !== parent.name) problems.push(`graphql: ${path}.${key} is not ${parent.name}`);
      continue;
    }
    const field = parent.getFields()[name];
    if (!field) {
      problems.push(`graphql: ${parent.name}.${name} is not in the schema`);
      continue;
    }
    if (!(key in object)) {
      problems.push(`graphql: ${path}.${key} is missing`);
      continue;
    }
    checkValue(object[key], field.type, selection.selectionSet, `${path}.${key}`, fragments, problems);
  }
  if (top) {
    for (const key of Object.keys(object))
      if (!seen.has(key)) problems.push(`graphql: ${path}.${key} was not selected`);
  }
}

/** Problems of a GraphQL `data` object against the operation's selection; [] when it matches. */
export function validateGraphqlData(operation: GraphqlOperationFile, data: unknown): string[] {
  const root =
    operation.operation.operation === 'mutation' ? graphqlSchema.getMutationType() : graphqlSchema.getQueryType();
  if (!root) return [`graphql: the schema has no ${operation.operation.operation} type`];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['graphql: data is not an object'];
  const fragments = new Map(
    operation.document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const problems: string[] = [];
  checkSelection(data as Record<string, unknown>, root, operation.operation.selectionSet, 'data', fragments, problems);
  return problems;
}
