// Only instance-free parts of graphql-js here (parse, AST, the error type for its JSON), as in ./yoga-plugins.ts:
// yoga may load another copy.
/**
 * What the GraphQL guard (./index.ts) reads off a request body before yoga does: the limits the document
 * is over, the root fields it would run and their arguments, and what the guard cannot read.
 */
import {
  BREAK,
  GraphQLError,
  Kind,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { NUL_MESSAGE } from '../plugins/nul';
import { isParseLimit, limitBreaches, parseLimited } from './limits';

export type OperationKind = OperationDefinitionNode['operation'];

/**
 * Root fields that need no token, by operation type: `logIn` ignores any token sent; introspection is
 * public (and off in production); `__typename` names the root type.
 */
const PUBLIC_FIELDS: Readonly<Record<OperationKind, ReadonlySet<string>>> = {
  query: new Set(['__schema', '__type', '__typename']),
  mutation: new Set(['logIn', '__typename']),
  subscription: new Set(['__typename']),
};

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

/**
 * The root fields an operation can run, the way graphql-js collects them: through inline fragments and
 * fragment spreads, each named fragment once (its fields are the same wherever it is spread), whatever
 * its type condition, and whatever `@include`/`@skip` say (authorization never depends on variables).
 * `unknown` names the spread fragments the document does not define.
 */
function rootFields(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  collected: { fields: FieldNode[]; unknown: string[] } = { fields: [], unknown: [] },
  expanded = new Set<string>(),
): { fields: FieldNode[]; unknown: string[] } {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      collected.fields.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      rootFields(selection.selectionSet, fragments, collected, expanded);
    } else {
      const name = selection.name.value;
      if (expanded.has(name)) continue;
      expanded.add(name);
      const definition = fragments.get(name);
      if (definition) rootFields(definition.selectionSet, fragments, collected, expanded);
      else collected.unknown.push(name);
    }
  }
  return collected;
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

/** A root field the request would run, with the type of its operation. */
export interface RootField {
  operation: OperationKind;
  field: FieldNode;
}

/** An error of the contract's `errors` array, as the guard answers it itself. */
export interface RequestError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  extensions: { code: string; limit?: true };
}

/**
 * What the guard reads off a request body before execution:
 * - `over-limit`: the document is over a limit of contracts/schema.graphql (LIMITS); refused with 400
 *   before anything else, identity included.
 * - `read`: what it needs (`plan`), the root fields it would run (permissions are checked on them),
 *   and `refusal` when the guard cannot read the request whole (400 after identity, the path's tenant
 *   and the permissions of the fields it could read: the request never reaches yoga); `nul` when a string
 *   literal of the document holds U+0000 (400 at the same point as a NUL in the JSON body).
 */
export type Reading =
  | { kind: 'over-limit'; errors: RequestError[] }
  | { kind: 'read'; plan: Plan; fields: RootField[]; refusal: RequestError[] | null; nul?: RequestError };

const toRequestError = (error: GraphQLError, code: string, limit = false): RequestError => ({
  message: error.message,
  ...(error.locations ? { locations: error.locations } : {}),
  extensions: { code, ...(limit ? { limit: true as const } : {}) },
});

const unreadable = (fields: RootField[], refusal: RequestError[]): Extract<Reading, { kind: 'read' }> => ({
  kind: 'read',
  plan: 'authenticated',
  fields,
  refusal,
});

/**
 * Reads a request body (contracts/schema.graphql, AUTHENTICATION FAILURES and LIMITS). The plan: no
 * token when every root field of the operation that will run is public; an expired-but-refreshable
 * token only when `refreshToken` is its sole root field, in a mutation; a live token otherwise,
 * including every request the guard cannot read whole. When no operation can be chosen (several and no
 * `operationName`, or a name the document does not define) the root fields of every operation are read,
 * so that a caller lacking a permission gets its 403 before the 400.
 */
export function readingOf(body: unknown, schema: GraphQLSchema): Reading {
  if (!isRequestBody(body)) {
    return unreadable(
      [],
      [{ message: 'The body must be a JSON object with a "query" string', extensions: { code: 'BAD_REQUEST' } }],
    );
  }
  let document: DocumentNode;
  try {
    document = parseLimited(body.query);
  } catch (error) {
    // A limit's error may come from yoga's copy of graphql-js (./limits.ts): read it by its marks, not its class.
    const parseError =
      error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : String(error));
    if (isParseLimit(error))
      return { kind: 'over-limit', errors: [toRequestError(parseError, 'GRAPHQL_PARSE_FAILED', true)] };
    return unreadable([], [toRequestError(parseError, 'GRAPHQL_PARSE_FAILED')]);
  }
  const breaches = limitBreaches(document, schema);
  if (breaches.length > 0) {
    return {
      kind: 'over-limit',
      errors: breaches.map((breach) =>
        toRequestError(new GraphQLError(breach.message, { nodes: breach.nodes }), 'GRAPHQL_VALIDATION_FAILED', true),
      ),
    };
  }

  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d] as const),
  );
  const read = (operation: OperationDefinitionNode) => {
    const { fields, unknown } = rootFields(operation.selectionSet, fragments);
    return { fields: fields.map((field) => ({ operation: operation.operation, field })), unknown };
  };

  // As graphql-js chooses (execute's buildExecutionContext): by name when one is given, else the only one.
  const name = body.operationName ?? undefined;
  const chosen =
    name === undefined
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((operation) => operation.name?.value === name);
  if (!chosen) {
    const message =
      operations.length === 0
        ? 'The document has no operation'
        : name === undefined
          ? 'The document has several operations: name the one to run in "operationName"'
          : `Unknown operation named "${name}"`;
    return unreadable(
      operations.flatMap((operation) => read(operation).fields),
      [{ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
    );
  }
  const { fields, unknown } = read(chosen);
  const reading = readChosen(chosen, fields, unknown);
  const nul = nulLiteral(document);
  return nul ? { ...reading, nul } : reading;
}

/**
 * The first string literal of the document (an argument, a list's item, a variable's default, a directive's
 * argument) whose value holds U+0000, which only its escape `\u0000` can write: the JSON body's check
 * (server/src/plugins/nul.ts) never sees it, and PostgreSQL cannot store it (a 500 where a 400 is due).
 */
function nulLiteral(document: DocumentNode): RequestError | undefined {
  let found: RequestError | undefined;
  visit(document, {
    StringValue(node) {
      if (!node.value.includes('\u0000')) return undefined;
      found = toRequestError(
        new GraphQLError(`A string in the document ${NUL_MESSAGE}`, { nodes: node }),
        'BAD_USER_INPUT',
      );
      return BREAK;
    },
  });
  return found;
}

function readChosen(
  chosen: OperationDefinitionNode,
  fields: RootField[],
  unknown: string[],
): Extract<Reading, { kind: 'read' }> {
  // The schema has no subscription type: such a document is read (its fields' permissions are checked
  // like any) and refused, never passed on to yoga, which would answer 200 with a codeless error.
  if (chosen.operation === 'subscription')
    return unreadable(fields, [
      { message: 'The schema has no subscriptions', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
    ]);
  if (unknown.length > 0) {
    return unreadable(
      fields,
      unknown.map((fragment) => ({
        message: `Unknown fragment "${fragment}"`,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      })),
    );
  }
  if (fields.length === 0)
    return unreadable(fields, [
      { message: 'The operation selects nothing', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
    ]);
  const names = new Set(fields.map(({ field }) => field.name.value));
  const publicFields = PUBLIC_FIELDS[chosen.operation];
  if ([...names].every((field) => publicFields.has(field)))
    return { kind: 'read', plan: 'public', fields, refusal: null };
  // One field node, however often its fragment is spread: the one graphql-js runs.
  if (chosen.operation === 'mutation' && fields.length === 1 && names.has('refreshToken'))
    return { kind: 'read', plan: 'refresh', fields, refusal: null };
  return { kind: 'read', plan: 'authenticated', fields, refusal: null };
}
