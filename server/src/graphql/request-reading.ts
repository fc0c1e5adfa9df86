// Only instance-free parts of graphql-js here (parse, AST), as in ./yoga-plugins.ts: yoga may load another copy.
/** What the GraphQL guard (./index.ts) reads off a request body before yoga does: its root fields and arguments. */
import {
  getOperationAST,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { parseLimited } from './limits';

/** Root fields that need no token: `logIn` ignores any token sent; introspection is public (and off in production). */
const PUBLIC_FIELDS = new Set(['logIn', '__schema', '__type', '__typename']);

interface RequestBody {
  query: string;
  operationName?: string | null;
}

export function isRequestBody(body: unknown): body is RequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { query, operationName } = body as Record<string, unknown>;
  return (
    typeof query === 'string' &&
    (operationName === undefined || operationName === null || typeof operationName === 'string')
  );
}

/** The operation's root fields, looking through fragments at the root; null when a fragment is unknown. */
function rootFields(
  document: DocumentNode,
  selectionSet: SelectionSetNode,
  seen = new Set<string>(),
): FieldNode[] | null {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push(selection);
      continue;
    }
    let inner: SelectionSetNode | undefined;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = selection.selectionSet;
    } else {
      const name = selection.name.value;
      if (seen.has(name)) return null;
      seen.add(name);
      inner = document.definitions.find(
        (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name,
      )?.selectionSet;
    }
    if (!inner) return null;
    const nested = rootFields(document, inner, seen);
    if (!nested) return null;
    fields.push(...nested);
  }
  return fields;
}

/**
 * The arguments a field is given, as far as can be told before validation: literals as they are
 * written, variables from the request's `variables` (an argument whose variable is not sent is
 * omitted, as GraphQL treats it).
 */
export function givenArguments(field: FieldNode, variables: unknown): Record<string, unknown> {
  const values = typeof variables === 'object' && variables !== null ? (variables as Record<string, unknown>) : {};
  const given: Record<string, unknown> = {};
  for (const argument of field.arguments ?? []) {
    if (argument.value.kind === Kind.VARIABLE) {
      const name = argument.value.name.value;
      if (Object.prototype.hasOwnProperty.call(values, name)) given[argument.name.value] = values[name];
    } else {
      given[argument.name.value] = valueFromASTUntyped(argument.value);
    }
  }
  return given;
}

export type Plan = 'public' | 'refresh' | 'authenticated';

/** What the guard reads off a request body before execution: its plan, and its root fields when they are known. */
export interface Reading {
  plan: Plan;
  operation: 'query' | 'mutation' | 'subscription' | null;
  fields: FieldNode[] | null;
}

/**
 * What the request needs before execution (contracts/schema.graphql, AUTHENTICATION FAILURES): no
 * token when every root field is public; an expired-but-refreshable token only when `refreshToken` is
 * the sole root field of a mutation; a live token otherwise (including documents that do not parse).
 */
export function readingOf(body: unknown): Reading {
  const unknown: Reading = { plan: 'authenticated', operation: null, fields: null };
  if (!isRequestBody(body)) return unknown;
  let document: DocumentNode;
  try {
    document = parseLimited(body.query);
  } catch {
    return unknown;
  }
  const operation = getOperationAST(document, body.operationName ?? undefined);
  if (!operation) return unknown;
  const fields = rootFields(document, operation.selectionSet);
  if (!fields || fields.length === 0) return unknown;
  const reading = { operation: operation.operation, fields };
  const names = fields.map((field) => field.name.value);
  if (names.every((name) => PUBLIC_FIELDS.has(name))) return { ...reading, plan: 'public' };
  if (operation.operation === 'mutation' && names.length === 1 && names[0] === 'refreshToken')
    return { ...reading, plan: 'refresh' };
  return { ...reading, plan: 'authenticated' };
}
