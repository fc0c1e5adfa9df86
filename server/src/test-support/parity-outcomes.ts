import { isDeepStrictEqual } from 'node:util';
import type { DomainErrorKind } from '../base/domain-error';

/** How the parity harness (./parity.ts) reads each protocol's answers: requests, outcomes by domain kind, canonical values. */

// ------------------------------------------------------------------------------------------------------
// Wire: requests and the documents
// ------------------------------------------------------------------------------------------------------

export type Protocol = 'rest' | 'graphql';

export interface Answer {
  status: number;
  body: unknown;
}

export const USER_FIELDS =
  'id version name username email image isConnected blocked twoFactorEnabled twoFactorEnrolmentRequired tenantName origin_backoffice role { id name display_name has_permission_routes version } userDepartment { id name activated version } userInstances { id instance { id name activated version } }';

const CONNECTION_FIELDS = 'id instance_id instance_name name activated phone status last_seen_at version';

export const DOCS = {
  logIn: `mutation logIn($email: String!, $password: String!) { logIn(email: $email, password: $password) { token expires_in user { ${USER_FIELDS} } } }`,
  refreshToken: 'mutation refreshToken { refreshToken { token expires_in } }',
  newUser: `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!, $user_department_id: Int, $chosen_instances: [Int!]) {
    newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances) { ${USER_FIELDS} } }`,
  updateUser: `mutation updateUser($id: Int!, $username: String, $name: String, $image: String, $email: String, $role_id: Int, $user_department_id: Int, $chosen_instances: [Int!], $current_password: String, $version: Int) {
    updateUser(id: $id, username: $username, name: $name, image: $image, email: $email, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances, current_password: $current_password, version: $version) { ${USER_FIELDS} } }`,
  updateUserPassword: `mutation updateUserPassword($password: String!, $current_password: String) { updateUserPassword(password: $password, current_password: $current_password) { token expires_in user { ${USER_FIELDS} } } }`,
  deleteUser: 'mutation deleteUser($id: Int!) { deleteUser(id: $id) }',
  updateUserSettings: `mutation updateUserSettings($user_id: Int!, $two_factor_enabled: Boolean, $two_factor_enrolment_required: Boolean) {
    updateUserSettings(user_id: $user_id, two_factor_enabled: $two_factor_enabled, two_factor_enrolment_required: $two_factor_enrolment_required) { user_id two_factor_enabled two_factor_enrolment_required } }`,
  users: `query users { users { ${USER_FIELDS} } }`,
  usersPage: `query usersPage($filter: UserFilter, $sort: UserSort, $page: Int, $limit: Int) {
    usersPage(filter: $filter, sort: $sort, page: $page, limit: $limit) { data { ${USER_FIELDS} } total page limit last_page } }`,
  userInfos: `query userInfos { userInfos { ${USER_FIELDS} } }`,
  roles: 'query roles { roles { id name display_name has_permission_routes version } }',
  departments: 'query departments { departments { id name activated version } }',
  createDepartment:
    'mutation createDepartment($name: String!) { createDepartment(name: $name) { id name activated version } }',
  updateDepartment:
    'mutation updateDepartment($id: Int!, $name: String, $activated: Boolean, $version: Int) { updateDepartment(id: $id, name: $name, activated: $activated, version: $version) { id name activated version } }',
  createConnection: `mutation createConnection($instance_id: Int!, $name: String!) { createConnection(instance_id: $instance_id, name: $name) { ${CONNECTION_FIELDS} } }`,
  updateConnection: `mutation updateConnection($id: Int!, $name: String, $activated: Boolean, $version: Int) { updateConnection(id: $id, name: $name, activated: $activated, version: $version) { ${CONNECTION_FIELDS} } }`,
} as const;

export type GraphqlField = keyof typeof DOCS;

// ------------------------------------------------------------------------------------------------------
// Normalisation: each protocol's answer → domain kinds
// ------------------------------------------------------------------------------------------------------

/**
 * THE NORMALISATION TABLE, read off the two mappings of one DomainError (server/src/rest/domain-errors.ts
 * `restAnswerOf`, server/src/graphql/domain-errors.ts `graphqlErrorOf`) and the refusals that happen
 * before a service runs (identity and permission checks: server/src/plugins/auth.ts, the GraphQL guard
 * in server/src/graphql/index.ts; the contracts' validation and NUL refusals: server/src/app.ts).
 *
 *   domain kind          REST answer                                      GraphQL answer
 *   -------------------  -----------------------------------------------  ----------------------------------------------
 *   unauthenticated      401 {status…} / {error:"Token has expired"}       HTTP 401 with the same REST body (guard), or
 *                                                                         UNAUTHENTICATED during execution
 *   forbidden            403 {message, required_permission}               FORBIDDEN (HTTP 403; guard or execution)
 *   invalid              400 errors[].field body/<x> (schema, NUL or      BAD_USER_INPUT extensions.field <x>; a NUL in a
 *                        service)                                         variable: HTTP 400 BAD_USER_INPUT, message
 *                                                                         "body.variables.<x> …", no field
 *   unknown_reference    400 errors[].field body/<x>                      NOT_FOUND extensions.field <x>
 *   not_found            404 {message} (no field)                         NOT_FOUND extensions.field <x> (id, user_id)
 *   conflict             409 {message, field <x>}                         BAD_USER_INPUT extensions.field <x>
 *   limit_reached        409 {message, field "role_id"}                   USER_LIMIT_REACHED (no field)
 *   throttled            429 {message, retry_after}                       TOO_MANY_REQUESTS (HTTP 429)
 *   invalid_credentials  401 {error:"invalid_credentials"}                INVALID_CREDENTIALS
 *   two_factor_required  401 {error:"two_factor_required"}                TWO_FACTOR_REQUIRED
 *   invalid_two_factor…  401 {error:"invalid_two_factor_code"}            INVALID_TWO_FACTOR_CODE
 *
 * Each wire format merges some kinds: REST 400 is invalid OR unknown_reference (the latter only when it
 * names a reference argument: role_id, user_department_id, chosen_instances), GraphQL BAD_USER_INPUT is
 * invalid OR conflict, GraphQL NOT_FOUND is not_found when it names the operation's target (id,
 * user_id; or no field: the path's tenant) and unknown_reference when it names a reference, REST 409 is
 * conflict unless its field is role_id (limitReached is the only 409 naming role_id). So an answer
 * normalises to the SET of kinds it can stand for, plus the set of fields it names (null when the
 * format names none); two answers agree when their kind sets intersect and, where both name fields,
 * the fields are the same. The intersection is the agreed kind. 401 bodies must be equal as well (the
 * contracts share them). Anything else (a 5xx, GRAPHQL_VALIDATION_FAILED…) normalises to `unexpected`
 * and agrees with nothing.
 */
export type Kind = DomainErrorKind | 'unexpected';

export type Outcome =
  | { ok: true; value: unknown; wire: string }
  | {
      ok: false;
      kinds: readonly Kind[];
      fields: readonly string[] | null;
      unauthorized?: unknown;
      /** A stale save's current version and changes since, without the records' ids and instants (./versions.ts). */
      stale?: unknown;
      wire: string;
    };

/** What two stale answers must share: the current version and each change but its record's id and instant. */
function staleDetail(body: Record<string, unknown>): unknown {
  const changes = Array.isArray(body.changes) ? (body.changes as unknown[]).filter(isRecord) : [];
  return {
    version: body.version,
    changes: changes.map(({ id: _id, at: _at, ...change }) => change),
  };
}

const LOGIN_ERRORS: Readonly<Record<string, DomainErrorKind>> = {
  invalid_credentials: 'invalid_credentials',
  two_factor_required: 'two_factor_required',
  invalid_two_factor_code: 'invalid_two_factor_code',
  two_factor_enrolment_required: 'two_factor_enrolment_required',
  two_factor_enrolment_expired: 'two_factor_enrolment_expired',
};

/** ajv's messages for shape rules (server/src/app.ts keeps ajv's text, "is not allowed" for an unknown property). */
const SHAPE_ERROR =
  /^(is not allowed|must have required property|must match exactly one schema in oneOf|must match a schema in anyOf|must be (null|integer|string|number|boolean|object|array)$)/;

/** Arguments that name the operation's target record, and arguments that name other records (contracts: `Id`, `role_id`…). */
const TARGET_FIELDS: ReadonlySet<string> = new Set(['id', 'user_id']);
const REFERENCE_FIELDS: ReadonlySet<string> = new Set([
  'role_id',
  'user_department_id',
  'chosen_instances',
  'instance_id',
]);

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `body/chosen_instances.0` → `chosen_instances`; `path/id` → `id`. */
const topField = (field: string): string =>
  (field.replace(/^(body|query|path|variables)(\/|\.|$)/, '').split(/[./]/)[0] ?? '') || 'body';

const uniqueSorted = (values: readonly string[]): string[] => [...new Set(values)].sort();

/** A REST answer, normalised; `value` shapes a 2xx body for comparison. */
export function restOutcome(answer: Answer, value: (body: unknown) => unknown = (body) => body): Outcome {
  const { status, body } = answer;
  const wire = `REST ${status} ${JSON.stringify(body)?.slice(0, 300)}`;
  if (status >= 200 && status < 300) return { ok: true, value: value(body), wire };
  const b = isRecord(body) ? body : {};
  switch (status) {
    case 400: {
      const all = Array.isArray(b.errors) ? (b.errors as unknown[]).filter(isRecord) : [];
      // The steps send bodies of the right shape for the form they mean; a shape error (unknown or
      // missing property, wrong type, "oneOf") then only comes from the OTHER forms of a oneOf body
      // (contracts/openapi.yaml PUT /api/users/{id}: whole object, e-mail only, name only), which ajv
      // reports too. Shape rules are protocol-level; the value errors are what both protocols share.
      const values = all.filter((e) => !SHAPE_ERROR.test(String(e.message ?? '')));
      const errors = values.length > 0 ? values : all;
      const fields = uniqueSorted(errors.map((e) => topField(String(e.field ?? 'body'))));
      // Only an argument that names another record can be an unknown reference.
      return {
        ok: false,
        kinds: fields.some((f) => REFERENCE_FIELDS.has(f)) ? ['invalid', 'unknown_reference'] : ['invalid'],
        fields,
        wire,
      };
    }
    case 401: {
      const login = typeof b.error === 'string' ? LOGIN_ERRORS[b.error] : undefined;
      if (login) return { ok: false, kinds: [login], fields: null, wire };
      return { ok: false, kinds: ['unauthenticated'], fields: null, unauthorized: body, wire };
    }
    case 403:
      return { ok: false, kinds: ['forbidden'], fields: null, wire };
    case 404:
      return { ok: false, kinds: ['not_found'], fields: null, wire };
    case 409: {
      if (b.error === 'stale') return { ok: false, kinds: ['stale'], fields: ['version'], stale: staleDetail(b), wire };
      const field = typeof b.field === 'string' ? b.field : null;
      if (field === 'role_id') return { ok: false, kinds: ['limit_reached'], fields: null, wire };
      return { ok: false, kinds: ['conflict'], fields: field === null ? null : [field], wire };
    }
    case 429:
      return { ok: false, kinds: ['throttled'], fields: null, wire };
    default:
      return { ok: false, kinds: ['unexpected'], fields: null, wire };
  }
}

/** A GraphQL answer for the root field `field`, normalised; `value` shapes the field's data. */
export function graphqlOutcome(
  answer: Answer,
  field: string,
  value: (data: unknown) => unknown = (data) => data,
): Outcome {
  const { status, body } = answer;
  const wire = `GraphQL ${status} ${JSON.stringify(body)?.slice(0, 300)}`;
  if (status === 401) return { ok: false, kinds: ['unauthenticated'], fields: null, unauthorized: body, wire };
  const b = isRecord(body) ? body : {};
  const errors = Array.isArray(b.errors) ? (b.errors as unknown[]).filter(isRecord) : [];
  const first = errors[0];
  if (!first) {
    const data = isRecord(b.data) ? b.data[field] : undefined;
    if (status === 200 && data !== undefined && data !== null) return { ok: true, value: value(data), wire };
    return { ok: false, kinds: ['unexpected'], fields: null, wire };
  }
  const extensions = isRecord(first.extensions) ? first.extensions : {};
  const code = String(extensions.code ?? '');
  const named = typeof extensions.field === 'string' ? [extensions.field] : null;
  switch (code) {
    case 'UNAUTHENTICATED':
      return { ok: false, kinds: ['unauthenticated'], fields: null, unauthorized: { status: 'Unauthorized' }, wire };
    case 'FORBIDDEN':
      return { ok: false, kinds: ['forbidden'], fields: null, wire };
    case 'BAD_USER_INPUT': {
      // One error per bad field (contracts/schema.graphql): every field they name.
      const all = errors.flatMap((e) =>
        isRecord(e.extensions) && typeof e.extensions.field === 'string' ? [e.extensions.field] : [],
      );
      if (named) return { ok: false, kinds: ['invalid', 'conflict'], fields: all, wire };
      // The guard's NUL refusal names the variable in its message only ("body.variables.name must not…").
      const variable = /^body\.variables\.([^.\s]+)/.exec(String(first.message ?? ''))?.[1];
      return { ok: false, kinds: ['invalid'], fields: variable ? [variable] : null, wire };
    }
    case 'NOT_FOUND':
      // The operation's own target (`id`, `user_id`; none: the path's tenant) is not_found; another
      // record an argument names is an unknown reference.
      return {
        ok: false,
        kinds: named && !TARGET_FIELDS.has(named[0] ?? '') ? ['unknown_reference'] : ['not_found'],
        fields: named,
        wire,
      };
    case 'USER_LIMIT_REACHED':
      return { ok: false, kinds: ['limit_reached'], fields: null, wire };
    case 'STALE':
      return { ok: false, kinds: ['stale'], fields: named, stale: staleDetail(extensions), wire };
    case 'TOO_MANY_REQUESTS':
      return { ok: false, kinds: ['throttled'], fields: null, wire };
    case 'INVALID_CREDENTIALS':
      return { ok: false, kinds: ['invalid_credentials'], fields: null, wire };
    case 'TWO_FACTOR_REQUIRED':
      return { ok: false, kinds: ['two_factor_required'], fields: null, wire };
    case 'INVALID_TWO_FACTOR_CODE':
      return { ok: false, kinds: ['invalid_two_factor_code'], fields: null, wire };
    case 'TWO_FACTOR_ENROLMENT_REQUIRED':
      return { ok: false, kinds: ['two_factor_enrolment_required'], fields: null, wire };
    case 'TWO_FACTOR_ENROLMENT_EXPIRED':
      return { ok: false, kinds: ['two_factor_enrolment_expired'], fields: null, wire };
    default:
      return { ok: false, kinds: ['unexpected'], fields: null, wire };
  }
}

/** The agreed kind (`ok` for two successes), or a description of the disagreement. */
export function agree(rest: Outcome, graphql: Outcome): { kind: Kind | 'ok' } | { mismatch: string } {
  const both = `\n    REST:    ${rest.wire}\n    GraphQL: ${graphql.wire}`;
  if (rest.ok && graphql.ok) {
    if (isDeepStrictEqual(rest.value, graphql.value)) return { kind: 'ok' };
    return {
      mismatch: `both succeeded with different results:\n    REST:    ${JSON.stringify(rest.value)}\n    GraphQL: ${JSON.stringify(graphql.value)}`,
    };
  }
  if (rest.ok || graphql.ok) return { mismatch: `one succeeded, the other refused:${both}` };
  const common = rest.kinds.filter((kind) => graphql.kinds.includes(kind) && kind !== 'unexpected');
  const kind = common[0];
  if (kind === undefined)
    return { mismatch: `different kinds (${rest.kinds.join('|')} vs ${graphql.kinds.join('|')}):${both}` };
  if (rest.fields && graphql.fields && !isDeepStrictEqual(uniqueSorted(rest.fields), uniqueSorted(graphql.fields))) {
    return {
      mismatch: `different fields (${rest.fields.join(',')} vs ${graphql.fields.join(',')}; kinds ${rest.kinds.join('|')} vs ${graphql.kinds.join('|')}):${both}`,
    };
  }
  if (
    rest.unauthorized !== undefined &&
    graphql.unauthorized !== undefined &&
    !isDeepStrictEqual(rest.unauthorized, graphql.unauthorized)
  ) {
    return { mismatch: `different 401 bodies:${both}` };
  }
  if (!rest.ok && !graphql.ok && !isDeepStrictEqual(rest.stale, graphql.stale))
    return { mismatch: `different stale answers (version and changes since):${both}` };
  return { kind };
}

// ------------------------------------------------------------------------------------------------------
// Canonical shapes of successful answers
// ------------------------------------------------------------------------------------------------------

interface WireUser {
  id: number;
  role: { has_permission_routes: string[] } & Record<string, unknown>;
  userInstances: { id: number }[];
  [key: string]: unknown;
}

/** A User of either contract with its lists as sets (route names sorted, links by id). */
export function canonicalUser(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const user = value as unknown as WireUser;
  return {
    ...user,
    role: { ...user.role, has_permission_routes: [...user.role.has_permission_routes].sort() },
    userInstances: [...user.userInstances].sort((x, y) => x.id - y.id),
  };
}

/** A list of records compared as a set: sorted by id. */
export function canonicalList(value: unknown, item: (v: unknown) => unknown = (v) => v): unknown {
  if (!Array.isArray(value)) return value;
  return value.map(item).sort((x, y) => Number((x as { id?: number }).id) - Number((y as { id?: number }).id));
}

/** A role with its route names as a set. */
export function canonicalRole(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const routes = Array.isArray(value.has_permission_routes)
    ? [...(value.has_permission_routes as string[])].sort()
    : value.has_permission_routes;
  return { ...value, has_permission_routes: routes };
}
