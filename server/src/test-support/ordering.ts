import { randomBytes } from 'node:crypto';
import { Kind, parse, print, visit, type FieldNode, type TypeNode } from 'graphql';
import { SignJWT, type JWTPayload } from 'jose';
import type { GraphqlOperationFile } from '../../../tests/contract/conformance/kit';
import { buildUrl, deref, sample, typeOf, wrongValues, type ContractOperation, type Schema } from './openapi-schema';

/**
 * The order of checks (contracts/openapi.yaml, conventions: identity, then permission, then input, then
 * state; contracts/schema.graphql, AUTHENTICATION FAILURES and FORBIDDEN): what the RBAC matrix and the
 * two fuzz suites share to prove it. Invalid requests derived from the contracts (each breaks one thing
 * a validator would refuse), tokens that must be refused as invalid, and the access an operation declares.
 */

// ------------------------------------------------------------------------------------------------------
// Bad tokens: all answer 401 {"status":"Token is Invalid"}
// ------------------------------------------------------------------------------------------------------

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Real claims signed with a key the server does not hold (a forged signature). */
export async function forgedToken(claims: JWTPayload, key: Uint8Array = randomBytes(32)): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

/** Real claims, unsigned (`alg: none`). */
export function unsignedToken(claims: JWTPayload): string {
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
}

/** A real token whose payload was changed after signing (another subject): the signature no longer matches. */
export function tamperedToken(token: string, claims: JWTPayload): string {
  const [header, , signature] = token.split('.');
  return `${header}.${base64url({ ...claims, sub: String(Number(claims.sub ?? 0) + 1) })}.${signature}`;
}

/** Headers that carry no bearer token at all: all answer 401 {"status":"Authorization Token not found"}. */
export const NO_TOKEN_HEADERS: readonly (string | undefined)[] = [
  undefined,
  '',
  'Bearer',
  'Bearer   ',
  'Basic bWF0cml4OnNlY3JldA==',
  'Token abc.def.ghi',
];

export const UNAUTHORIZED_BODIES = {
  noToken: { status: 'Authorization Token not found' },
  invalid: { status: 'Token is Invalid' },
} as const;

// ------------------------------------------------------------------------------------------------------
// Bodies every operation refuses
// ------------------------------------------------------------------------------------------------------

let oversized: string | undefined;
/** A JSON body over the 1 MiB limit (README: bodies over 1 MiB answer 413). */
export function oversizedBody(): string {
  oversized ??= JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 16) });
  return oversized;
}

export const MALFORMED_JSON = '{"oops": ';

// ------------------------------------------------------------------------------------------------------
// REST: what an operation requires (contracts/openapi.yaml extensions) and who lacks it
// ------------------------------------------------------------------------------------------------------

export interface DeclaredAccess {
  /** `x-permission`: 'public', or route names (any one suffices; [] means any signed-in user). */
  permission: 'public' | readonly string[];
  staffOnly: boolean;
  forOthers: readonly string[] | null;
}

export function declaredAccess(op: ContractOperation): DeclaredAccess {
  const declared = op.op as ContractOperation['op'] & {
    'x-staff-only'?: boolean;
    'x-permission-for-others'?: string[];
  };
  const permission = declared['x-permission'];
  if (permission === undefined) throw new Error(`${op.operationId}: no x-permission in contracts/openapi.yaml`);
  return {
    permission: permission === 'public' ? 'public' : typeof permission === 'string' ? [] : permission,
    staffOnly: declared['x-staff-only'] === true,
    forOthers: declared['x-permission-for-others'] ?? null,
  };
}

/** A signed-in caller as the contract's rules see it. */
export interface Caller {
  id: number;
  /** Role `administrador` passes every route check. */
  administrador: boolean;
  /** Back-office staff (`origin_backoffice`). */
  staff: boolean;
  routes: ReadonlySet<string>;
}

/**
 * Whether the contract's conventions refuse this caller before reading any input (403), for the
 * operation's declared access and the path's `id` (for `x-permission-for-others`).
 */
export function refusedBeforeInput(caller: Caller, access: DeclaredAccess, pathId: unknown): boolean {
  if (access.permission === 'public') return false;
  const holds = (routes: readonly string[]) =>
    caller.administrador || routes.length === 0 || routes.some((r) => caller.routes.has(r));
  if (!holds(access.permission)) return true;
  if (access.staffOnly && !caller.staff) return true;
  if (access.forOthers && String(pathId) !== String(caller.id) && !holds(access.forOthers)) return true;
  return false;
}

/**
 * contracts/openapi.yaml `userUpdate`: without the `users` permission a user may change only its OWN
 * name or e-mail; a body naming a field of the whole object that only `users` may change (role,
 * department, instances, password) is refused before it is validated, whatever its values.
 */
export function namesManagedUserFields(payload: string | undefined): boolean {
  let body: unknown;
  try {
    body = payload === undefined ? undefined : JSON.parse(payload);
  } catch {
    return false;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  return ['role_id', 'user_department_id', 'chosen_instances', 'password'].some((field) => field in body);
}

// ------------------------------------------------------------------------------------------------------
// REST: invalid requests per operation, from its own schemas
// ------------------------------------------------------------------------------------------------------

export interface InvalidRestCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** The path's `id`, when the operation has one (for `x-permission-for-others`). */
  pathId: unknown;
  payload?: string;
  contentType?: string;
  /** What a caller allowed to call the operation gets: 400, or 413 (size) / 415 (media type). */
  status: 400 | 413 | 415;
  /** No body at all where the contract requires one. */
  absentBody?: true;
}

const isString = (schema: Schema) => typeOf(schema) === 'string';

/**
 * Requests the contract calls invalid, each broken in one place, built on the operation's examples:
 * path and query parameters of the wrong type, holding NUL, or missing; bodies of the wrong type,
 * missing a required property, with an unknown property, holding NUL, not JSON, of another media type
 * or over the size limit. `pathValues` chooses path parameters (the target of the call).
 */
export function invalidRestCases(op: ContractOperation, pathValues: Record<string, unknown> = {}): InvalidRestCase[] {
  const method = op.method.toUpperCase() as InvalidRestCase['method'];
  const path = Object.fromEntries(
    op.params.filter((p) => p.in === 'path').map((p) => [p.name, pathValues[p.name] ?? p.example ?? sample(p.schema)]),
  );
  const query = Object.fromEntries(
    op.params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, p.example ?? sample(p.schema)]),
  );
  const example = op.body?.example;
  const payload = example === undefined ? undefined : JSON.stringify(example);
  const cases: InvalidRestCase[] = [];
  const add = (
    name: string,
    url: string,
    body: string | undefined,
    status: InvalidRestCase['status'] = 400,
    contentType?: string,
    id: unknown = path.id,
  ) =>
    cases.push({
      name,
      method,
      url,
      pathId: id,
      status,
      ...(body === undefined ? {} : { payload: body }),
      ...(contentType ? { contentType } : {}),
    });
  const url = buildUrl(op.path, path, query);

  for (const p of op.params) {
    const wrong = wrongValues(p.schema, true)[0];
    const at = (value: unknown) =>
      p.in === 'path'
        ? buildUrl(op.path, { ...path, [p.name]: value }, query)
        : buildUrl(op.path, path, { ...query, [p.name]: value });
    const id = (value: unknown) => (p.in === 'path' && p.name === 'id' ? value : path.id);
    if (wrong !== undefined)
      add(`${p.in} ${p.name}=${JSON.stringify(wrong)}`, at(wrong), payload, 400, undefined, id(wrong));
    if (isString(p.schema)) {
      const nul = `${String(p.in === 'path' ? path[p.name] : (query[p.name] ?? p.example ?? sample(p.schema)))}\u0000`;
      add(`${p.in} ${p.name} holds NUL`, at(nul), payload, 400, undefined, id(nul));
    }
    if (p.in === 'query' && p.required) {
      const { [p.name]: _dropped, ...rest } = query;
      add(`query ${p.name} missing`, buildUrl(op.path, path, rest), payload);
    }
  }

  if (op.body) {
    const schema = deref(op.body.schema);
    const branches = (schema.oneOf ?? schema.anyOf ?? [schema]).map(deref);
    const properties = Object.fromEntries(branches.flatMap((b) => Object.entries(b.properties ?? {})));
    const required = branches.map((b) => b.required ?? []).reduce((a, b) => a.filter((k) => b.includes(k)));
    const object =
      example !== null && typeof example === 'object' && !Array.isArray(example)
        ? (example as Record<string, unknown>)
        : {};
    add('body is not JSON', url, MALFORMED_JSON);
    add('body is a JSON array', url, '[]');
    add('body as text/plain', url, payload ?? '{}', 415, 'text/plain');
    add('body over 1 MiB', url, oversizedBody(), 413);
    add('body has an unknown property', url, JSON.stringify({ ...object, sneaky: 1 }));
    if (op.body.required)
      cases.push({ name: 'body missing', method, url, pathId: path.id, status: 400, absentBody: true });
    const missing = required.find((key) => key in object);
    if (missing) {
      const { [missing]: _dropped, ...rest } = object;
      add(`body ${missing} missing`, url, JSON.stringify(rest));
    }
    const typed = Object.keys(object).find((key) => wrongValues(properties[key] ?? {}, false).length > 0);
    if (typed)
      add(
        `body ${typed} of the wrong type`,
        url,
        JSON.stringify({ ...object, [typed]: wrongValues(properties[typed] ?? {}, false)[0] }),
      );
    const text = Object.keys(properties).find((key) => isString(properties[key] ?? {}));
    if (text) add(`body ${text} holds NUL`, url, JSON.stringify({ ...object, [text]: 'nul\u0000byte' }));
  } else if (method !== 'GET') {
    // No body in the contract, but whatever is sent is read as JSON or refused.
    add('body is not JSON', url, MALFORMED_JSON);
    add('body as text/plain', url, '{}', 415, 'text/plain');
    add('body over 1 MiB', url, oversizedBody(), 413);
  }
  return cases;
}

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
