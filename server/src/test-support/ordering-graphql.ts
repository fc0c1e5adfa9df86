import { Kind, parse, print, visit, type FieldNode, type TypeNode } from 'graphql';
import type { GraphqlOperationFile } from '../../../packages/conformance/src/kit.js';
import { MALFORMED_JSON } from './ordering';

/** GraphQL bodies each operation must refuse as invalid, and which documents are public, for the order-of-checks suites (./ordering.ts). */

// ------------------------------------------------------------------------------------------------------
// GraphQL: invalid bodies per operation
// ------------------------------------------------------------------------------------------------------

export interface InvalidGraphqlCase {
  name: string;
  payload: string;
  contentType: string;
  status: 400 | 413 | 415;
  /** Fastify parses the body (JSON): the guard sees it and checks the path's tenant. */
  parsed: boolean;
  /** The guard can read the operation's root fields, so their route permission is checked first. */
  readable: boolean;
}

function wrongVariable(type: TypeNode): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return wrongVariable(type.type);
  if (type.kind === Kind.LIST_TYPE) return { not: 'a list' };
  switch (type.name.value) {
    case 'Int':
      return 'abc';
    case 'Boolean':
      return 'yes';
    default:
      return { an: 'object' };
  }
}

const namedLeaf = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : namedLeaf(type.type));

/** The operation's document with an argument its root field does not declare: fails validation (400). */
function withUnknownArgument(op: GraphqlOperationFile): string {
  let done = false;
  const changed = visit(op.document, {
    Field(node: FieldNode) {
      if (done) return undefined;
      done = true;
      return {
        ...node,
        arguments: [
          ...(node.arguments ?? []),
          {
            kind: Kind.ARGUMENT,
            name: { kind: Kind.NAME, value: 'notAnArgument' },
            value: { kind: Kind.INT, value: '1' },
          },
        ],
      };
    },
  });
  return print(changed);
}

/**
 * Bodies that break one thing, for an operation file and variables it accepts: a variable of the wrong
 * type, a required one missing, NUL in a variable or in the document, a document that does not validate,
 * an unknown body property, variables that are not an object (root fields still readable); a document
 * that does not parse, an operationName that is not a string (JSON, root fields unreadable); bad JSON,
 * another media type, a body over the limit (Fastify cannot parse them).
 */
export function invalidGraphqlCases(
  op: GraphqlOperationFile,
  variables: Record<string, unknown>,
): InvalidGraphqlCase[] {
  const definitions = op.operation.variableDefinitions ?? [];
  const json = (name: string, body: Record<string, unknown>, readable: boolean): InvalidGraphqlCase => ({
    name,
    payload: JSON.stringify(body),
    contentType: 'application/json',
    status: 400,
    parsed: true,
    readable,
  });
  const request = { query: op.source, operationName: op.name, variables };
  const cases: InvalidGraphqlCase[] = [];
  const first = definitions[0];
  if (first)
    cases.push(
      json(
        `$${first.variable.name.value} of the wrong type`,
        { ...request, variables: { ...variables, [first.variable.name.value]: wrongVariable(first.type) } },
        true,
      ),
    );
  const required = definitions.find((d) => d.type.kind === Kind.NON_NULL_TYPE && !d.defaultValue);
  if (required) {
    const { [required.variable.name.value]: _dropped, ...rest } = variables;
    cases.push(json(`$${required.variable.name.value} missing`, { ...request, variables: rest }, true));
  }
  const text = definitions.find((d) => namedLeaf(d.type) === 'String');
  if (text)
    cases.push(
      json(
        `$${text.variable.name.value} holds NUL`,
        { ...request, variables: { ...variables, [text.variable.name.value]: 'nul\u0000byte' } },
        true,
      ),
    );
  cases.push(json('document holds NUL (in a comment)', { ...request, query: `${op.source}\n# nul\u0000byte\n` }, true));
  cases.push(
    json('document does not validate (unknown argument)', { ...request, query: withUnknownArgument(op) }, true),
  );
  cases.push(json('body has an unknown property', { ...request, sneaky: 1 }, true));
  cases.push(json('variables is not an object', { ...request, variables: 'not-an-object' }, true));
  cases.push(json('document does not parse', { ...request, query: `${op.source} {` }, false));
  cases.push(json('operationName is not a string', { ...request, operationName: 12345 }, false));
  cases.push({
    name: 'body is not JSON',
    payload: MALFORMED_JSON,
    contentType: 'application/json',
    status: 400,
    parsed: false,
    readable: false,
  });
  cases.push({
    name: 'body as text/plain',
    payload: JSON.stringify(request),
    contentType: 'text/plain',
    status: 415,
    parsed: false,
    readable: false,
  });
  cases.push({
    name: 'body over 1 MiB',
    payload: JSON.stringify({ ...request, variables: { ...variables, pad: 'x'.repeat(1024 * 1024) } }),
    contentType: 'application/json',
    status: 413,
    parsed: false,
    readable: false,
  });
  return cases;
}

// ------------------------------------------------------------------------------------------------------
// GraphQL: public documents (exempt from the identity check)
// ------------------------------------------------------------------------------------------------------

/** Root fields that need no token (contracts/schema.graphql: `logIn` "Permission: none"; introspection). */
const PUBLIC_ROOT_FIELDS = new Set(['logIn', '__schema', '__type', '__typename']);

/**
 * Whether a request body MIGHT be served without a token: a JSON object whose document parses and
 * whose chosen operation selects only public root fields (or fragments, which this does not expand).
 * Anything else must meet the identity check first.
 */
export function mayBePublic(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  let document;
  try {
    document = parse(query);
  } catch {
    return false;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const chosen =
    typeof operationName === 'string' ? operations.filter((o) => o.name?.value === operationName) : operations;
  return chosen.some((o) =>
    o.selectionSet.selections.every((s) => s.kind !== Kind.FIELD || PUBLIC_ROOT_FIELDS.has(s.name.value)),
  );
}
