import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { newTotpSecret } from '../auth/totp';
import { buildApp, type App } from '../app';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { loadConfig } from '../config';
import type { Database } from '../db/schema';
import { DEMO_PASSWORD, seedDemo } from '../db/seed';
import { openTestDatabase } from '../db/testing';
import type { DomainErrorKind } from '../shared/domain-error';

/**
 * The cross-protocol differential harness (server/src/parity/*.test.ts): two apps built identically on
 * two databases seeded identically (the "twins"), one driven through REST (contracts/openapi.yaml), the
 * other through GraphQL (contracts/schema.graphql). A case is a sequence of steps; each step runs on
 * both twins, and the two answers, normalised to the domain kinds of server/src/shared/domain-error.ts
 * (table below), must agree, and so must the rows the step touched. Before every case both twins are
 * put back to their baseline, sequences included, so serial ids stay aligned across the twins.
 */

// ------------------------------------------------------------------------------------------------------
// Constants and fixture
// ------------------------------------------------------------------------------------------------------

/** Password of every user this harness inserts (strong by src/domain/password-strength.ts). */
export const FIXTURE_PASSWORD = 'Parity#Fixture-42';

/** The demo seed is deterministic for a fixed PRNG seed and `now`; both twins get the same. */
const SEED_NOW = new Date('2026-03-02T15:00:00Z');
const SEED_PRNG = 20_240_601;

/**
 * argon2id with small parameters for the users the harness and the cases create (server/src/app.ts
 * `hashPassword`); the product's parameters stay in server/src/db/password.ts. The demo logins keep
 * their real hashes (sign-in cost is per stored hash).
 */
export const cheapHash = (password: string): Promise<string> =>
  argon2Hash(password, { algorithm: 2 as Algorithm.Argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });

export type TenantKey = 'backoffice' | 'a' | 'b';
export const TENANT_NAMES: Readonly<Record<TenantKey, string>> = {
  backoffice: 'backoffice',
  a: 'farmacia-central',
  b: 'drogaria-sao-joao',
};

export type FixtureUserKey =
  'boAdmin' | 'boOp' | 'boSpare' | 'aAdmin' | 'aOp' | 'aPlain' | 'aBlocked' | 'aGone' | 'aTwoFactor' | 'bAdmin' | 'bOp';

interface FixtureUserSpec {
  tenant: TenantKey;
  role: string;
  email: string;
  username: string;
  name: string;
  blocked?: boolean;
  deleted?: boolean;
  twoFactor?: boolean;
  /** Linked to the tenant's first department and first instance. */
  linked?: boolean;
}

/** Users the harness adds to the demo seed (the back-office demo logins already exist). */
const FIXTURE_USERS: Readonly<Record<Exclude<FixtureUserKey, 'boAdmin' | 'boOp'>, FixtureUserSpec>> = {
  boSpare: {
    tenant: 'backoffice',
    role: OPERATOR_ROLE,
    email: 'spare.bo@parity.test',
    username: 'spare.bo',
    name: 'Sílvio Spare',
  },
  aAdmin: { tenant: 'a', role: ADMIN_ROLE, email: 'admin.a@parity.test', username: 'admin.a', name: 'Alice Admin A' },
  aOp: { tenant: 'a', role: OPERATOR_ROLE, email: 'op.a@parity.test', username: 'op.a', name: 'Otto Operador A' },
  aPlain: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'plain.a@parity.test',
    username: 'plain.a',
    name: 'Paula Plain A',
    linked: true,
  },
  aBlocked: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'blocked.a@parity.test',
    username: 'blocked.a',
    name: 'Bruno Blocked A',
    blocked: true,
  },
  aGone: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'gone.a@parity.test',
    username: 'gone.a',
    name: 'Gil Gone A',
    deleted: true,
  },
  aTwoFactor: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'tfa.a@parity.test',
    username: 'tfa.a',
    name: 'Tatiana TFA A',
    twoFactor: true,
  },
  // Same username as tenant A's administrator: usernames are unique per tenant only.
  bAdmin: { tenant: 'b', role: ADMIN_ROLE, email: 'admin.b@parity.test', username: 'admin.a', name: 'Beatriz Admin B' },
  bOp: { tenant: 'b', role: OPERATOR_ROLE, email: 'op.b@parity.test', username: 'op.b', name: 'Oscar Operador B' },
};

export interface FixtureUser {
  key: FixtureUserKey;
  id: number;
  email: string;
  username: string;
  name: string;
  tenant: TenantKey;
  roleId: number;
  password: string;
}

export interface TenantInfo {
  key: TenantKey;
  id: number;
  name: string;
  /** Department ids, ascending. */
  departments: number[];
  /** Instance ids, ascending. */
  instances: number[];
}

export interface Fixture {
  tenants: Readonly<Record<TenantKey, TenantInfo>>;
  users: Readonly<Record<FixtureUserKey, FixtureUser>>;
  roles: { admin: number; operator: number };
}

/** Who calls: a signed-in fixture user, or a request without a usable token. */
export type PrincipalName = 'boAdmin' | 'boOp' | 'aAdmin' | 'aOp' | 'bAdmin' | 'anon' | 'malformed' | 'revoked';
export const SIGNED_IN: readonly PrincipalName[] = ['boAdmin', 'boOp', 'aAdmin', 'aOp', 'bAdmin'];
/** The tenant whose GraphQL path a principal calls (its own; for tokenless requests tenant A's). */
export const HOME: Readonly<Record<PrincipalName, TenantKey>> = {
  boAdmin: 'backoffice',
  boOp: 'backoffice',
  aAdmin: 'a',
  aOp: 'a',
  bAdmin: 'b',
  anon: 'a',
  malformed: 'a',
  revoked: 'a',
};
/** The fixture user behind a signed-in principal (`revoked` is a logged-out session of aAdmin). */
export const PRINCIPAL_USER: Readonly<Partial<Record<PrincipalName, FixtureUserKey>>> = {
  boAdmin: 'boAdmin',
  boOp: 'boOp',
  aAdmin: 'aAdmin',
  aOp: 'aOp',
  bAdmin: 'bAdmin',
  revoked: 'aAdmin',
};

// ------------------------------------------------------------------------------------------------------
// Wire: requests and the documents
// ------------------------------------------------------------------------------------------------------

export type Protocol = 'rest' | 'graphql';

export interface Answer {
  status: number;
  body: unknown;
}

export const USER_FIELDS =
  'id name username email image isConnected blocked twoFactorEnabled tenantName origin_backoffice role { id name display_name has_permission_routes } userDepartment { id name activated } userInstances { id instance { id name activated } }';

export const DOCS = {
  logIn: `mutation logIn($email: String!, $password: String!) { logIn(email: $email, password: $password) { token expires_in user { ${USER_FIELDS} } } }`,
  refreshToken: 'mutation refreshToken { refreshToken { token expires_in } }',
  newUser: `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!, $user_department_id: Int, $chosen_instances: [Int!]) {
    newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances) { ${USER_FIELDS} } }`,
  updateUser: `mutation updateUser($id: Int!, $username: String, $name: String, $image: String, $email: String, $role_id: Int, $user_department_id: Int, $chosen_instances: [Int!]) {
    updateUser(id: $id, username: $username, name: $name, image: $image, email: $email, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances) { ${USER_FIELDS} } }`,
  updateUserPassword: `mutation updateUserPassword($password: String!) { updateUserPassword(password: $password) { token expires_in user { ${USER_FIELDS} } } }`,
  deleteUser: 'mutation deleteUser($id: Int!) { deleteUser(id: $id) }',
  users: `query users { users { ${USER_FIELDS} } }`,
  userInfos: `query userInfos { userInfos { ${USER_FIELDS} } }`,
  roles: 'query roles { roles { id name display_name has_permission_routes } }',
  departments: 'query departments { departments { id name activated } }',
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
  | { ok: false; kinds: readonly Kind[]; fields: readonly string[] | null; unauthorized?: unknown; wire: string };

const LOGIN_ERRORS: Readonly<Record<string, DomainErrorKind>> = {
  invalid_credentials: 'invalid_credentials',
  two_factor_required: 'two_factor_required',
  invalid_two_factor_code: 'invalid_two_factor_code',
};

/** ajv's messages for shape rules (server/src/app.ts keeps ajv's text, "is not allowed" for an unknown property). */
const SHAPE_ERROR =
  /^(is not allowed|must have required property|must match exactly one schema in oneOf|must match a schema in anyOf|must be (null|integer|string|number|boolean|object|array)$)/;

/** Arguments that name the operation's target record, and arguments that name other records (contracts: `Id`, `role_id`…). */
const TARGET_FIELDS: ReadonlySet<string> = new Set(['id', 'user_id']);
const REFERENCE_FIELDS: ReadonlySet<string> = new Set(['role_id', 'user_department_id', 'chosen_instances']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
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
    case 'TOO_MANY_REQUESTS':
      return { ok: false, kinds: ['throttled'], fields: null, wire };
    case 'INVALID_CREDENTIALS':
      return { ok: false, kinds: ['invalid_credentials'], fields: null, wire };
    case 'TWO_FACTOR_REQUIRED':
      return { ok: false, kinds: ['two_factor_required'], fields: null, wire };
    case 'INVALID_TWO_FACTOR_CODE':
      return { ok: false, kinds: ['invalid_two_factor_code'], fields: null, wire };
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

// ------------------------------------------------------------------------------------------------------
// Twins
// ------------------------------------------------------------------------------------------------------

interface UserState {
  row: unknown[];
  hash: string;
}

interface State {
  users: Map<number, UserState>;
  links: unknown[];
  tenants: unknown[];
  attempts: unknown[];
  families: [string, number, boolean][];
}

export class Twin {
  /** The Authorization header of each principal on this twin, as of now in the case. */
  auth: Record<PrincipalName, string | undefined>;
  /** Token families the comparison leaves out (GraphQL `updateUserPassword`'s fresh session: REST's PUT answers none). */
  readonly ignoredFamilies = new Set<string>();
  /** Last compared state (per case). */
  state: State | undefined;
  /** Whether a step since the last reset may have written. */
  dirty = true;
  private baselineAttempt = 0;
  private baselineAuth: Record<PrincipalName, string | undefined> | undefined;

  constructor(
    readonly protocol: Protocol,
    readonly app: App,
    readonly db: Kysely<Database>,
    private readonly closeDatabase: () => Promise<void>,
  ) {
    this.auth = {
      boAdmin: undefined,
      boOp: undefined,
      aAdmin: undefined,
      aOp: undefined,
      bAdmin: undefined,
      anon: undefined,
      malformed: 'Bearer not.a.jwt',
      revoked: undefined,
    };
  }

  async rest(
    authorization: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization;
    const response = await this.app.fastify.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: parse(response.body) };
  }

  async graphql(
    authorization: string | undefined,
    tenant: string,
    field: GraphqlField,
    variables: Record<string, unknown> = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
    };
    if (authorization) headers.authorization = authorization;
    const response = await this.app.fastify.inject({
      method: 'POST',
      url: `/${encodeURIComponent(tenant)}/graphql`,
      headers,
      payload: JSON.stringify({ query: DOCS[field], operationName: field, variables }),
    });
    return { status: response.statusCode, body: parse(response.body) };
  }

  /** Signs in through this twin's own protocol; the token, or null with the answer. */
  async signIn(email: string, password: string, tenant: string): Promise<{ token: string | null; answer: Answer }> {
    if (this.protocol === 'rest') {
      const answer = await this.rest(undefined, 'POST', '/api/auth/login', { email, password, ip: null });
      const token = answer.status === 200 && isRecord(answer.body) ? String(answer.body.access_token) : null;
      return { token, answer };
    }
    const answer = await this.graphql(undefined, tenant, 'logIn', { email, password });
    const data =
      isRecord(answer.body) && isRecord(answer.body.data) && isRecord(answer.body.data.logIn)
        ? answer.body.data.logIn
        : null;
    return { token: data ? String(data.token) : null, answer };
  }

  /**
   * Records the baseline that `reset` returns to: the principals' tokens here, and in the database a
   * table `parity_baseline` (the rows the cases may change, as JSON, and the ids the sequences had)
   * with a function `parity_reset()` that puts them back in one call. Test scaffolding only, in the
   * twin's throwaway database (an in-memory PGlite, or a schema dropped at the end).
   */
  async recordBaseline(): Promise<void> {
    const columns = await sql<{
      column_name: string;
    }>`select column_name from information_schema.columns where table_name = 'users' and table_schema = current_schema() order by ordinal_position`.execute(
      this.db,
    );
    const set = columns.rows
      .map((c) => c.column_name)
      .filter((c) => c !== 'id' && /^[a-z_][a-z0-9_]*$/.test(c))
      .map((c) => `"${c}" = s."${c}"`)
      .join(', ');
    await sql`create table parity_baseline (name text primary key, value json not null)`.execute(this.db);
    await sql`insert into parity_baseline (name, value)
      select 'users', coalesce((select json_agg(u) from users u), '[]'::json)
      union all select 'links', coalesce((select json_agg(l) from user_instances l), '[]'::json)
      union all select 'families', coalesce((select json_agg(f) from token_families f), '[]'::json)
      union all select 'tenants', coalesce((select json_agg(t) from (select id, plan, user_limit, ticket_limit from tenants) t), '[]'::json)
      union all select 'max', json_build_object('user', (select coalesce(max(id), 0) from users), 'link', (select coalesce(max(id), 0) from user_instances),
        'attempt', (select coalesce(max(id), 0) from login_attempts))`.execute(this.db);
    await sql
      .raw(
        `create function parity_reset() returns void language plpgsql as $parity$
      declare
        max_user bigint := (select (value->>'user')::bigint from parity_baseline where name = 'max');
        max_link bigint := (select (value->>'link')::bigint from parity_baseline where name = 'max');
        max_attempt bigint := (select (value->>'attempt')::bigint from parity_baseline where name = 'max');
      begin
        delete from users where id > max_user;
        -- Two users may have swapped e-mails or usernames during the case: free them first, or the
        -- unique indexes would refuse the restore row by row.
        update users u set email = 'parity.reset.' || u.id || '@reset.invalid', username = 'parity.reset.' || u.id
          from json_populate_recordset(null::users, (select value from parity_baseline where name = 'users')) s
          where u.id = s.id and u is distinct from s;
        update users u set ${set}
          from json_populate_recordset(null::users, (select value from parity_baseline where name = 'users')) s
          where u.id = s.id and u is distinct from s;
        delete from user_instances where id > max_link;
        insert into user_instances select s.* from json_populate_recordset(null::user_instances, (select value from parity_baseline where name = 'links')) s
          where not exists (select 1 from user_instances l where l.id = s.id);
        delete from token_families f where not exists (
          select 1 from json_populate_recordset(null::token_families, (select value from parity_baseline where name = 'families')) s where s.id = f.id);
        update token_families f set current_jti = s.current_jti, previous_jti = s.previous_jti, previous_valid_until = s.previous_valid_until,
            revoked_at = s.revoked_at, refreshed_at = s.refreshed_at
          from json_populate_recordset(null::token_families, (select value from parity_baseline where name = 'families')) s
          where f.id = s.id and f is distinct from s;
        delete from login_attempts where id > max_attempt;
        update tenants t set plan = s.plan, user_limit = s.user_limit, ticket_limit = s.ticket_limit
          from json_to_recordset((select value from parity_baseline where name = 'tenants')) as s(id int, plan text, user_limit int, ticket_limit int)
          where t.id = s.id and (t.plan, t.user_limit, t.ticket_limit) is distinct from (s.plan, s.user_limit, s.ticket_limit);
        perform setval(pg_get_serial_sequence('users', 'id'), greatest(max_user, 1), max_user > 0);
        perform setval(pg_get_serial_sequence('user_instances', 'id'), greatest(max_link, 1), max_link > 0);
        perform setval(pg_get_serial_sequence('login_attempts', 'id'), greatest(max_attempt, 1), max_attempt > 0);
      end
      $parity$`,
      )
      .execute(this.db);
    const max = await sql<{ value: { attempt: number } }>`select value from parity_baseline where name = 'max'`.execute(
      this.db,
    );
    this.baselineAttempt = Number(max.rows[0]?.value.attempt ?? 0);
    this.baselineAuth = { ...this.auth };
  }

  /**
   * Back to the baseline: rows the cases touch, the sequences behind their ids, the principals' tokens.
   * The database part is skipped when no step since the last reset could have written (`dirty`).
   */
  async reset(): Promise<void> {
    const auth = this.baselineAuth;
    if (!auth) throw new Error('recordBaseline() first');
    if (this.dirty || !this.state) {
      await sql`select parity_reset()`.execute(this.db);
      this.state = await this.readState();
      this.dirty = false;
    }
    this.auth = { ...auth };
    this.ignoredFamilies.clear();
  }

  /** The rows the cases may change, timestamps left out; password hashes kept apart (compared by verification). */
  async readState(): Promise<State> {
    const base = this.baselineAttempt;
    const result = await sql<{
      state: {
        users: unknown[][];
        links: unknown[];
        tenants: unknown[];
        attempts: unknown[];
        families: [string, number, boolean][];
      };
    }>`
      select json_build_object(
        'users', (select coalesce(json_agg(json_build_array(id, tenant_id, role_id, department_id, name, username, email, image, blocked, two_factor_enabled,
                    is_connected, origin_backoffice, token_version, deleted_at is not null, password_hash) order by id), '[]'::json) from users),
        'links', (select coalesce(json_agg(json_build_array(id, user_id, instance_id) order by id), '[]'::json) from user_instances),
        'tenants', (select coalesce(json_agg(json_build_array(id, plan, user_limit, ticket_limit) order by id), '[]'::json) from tenants),
        'attempts', (select coalesce(json_agg(json_build_array(id, email, ip, remote_address, user_id, success) order by id), '[]'::json) from login_attempts where id > ${base}),
        'families', (select coalesce(json_agg(json_build_array(id, user_id, revoked_at is not null) order by id), '[]'::json) from token_families)
      ) as state`.execute(this.db);
    const state = result.rows[0]?.state;
    if (!state) throw new Error('no state');
    const users = new Map<number, UserState>();
    for (const row of state.users)
      users.set(Number(row[0]), { row: row.slice(0, -1), hash: String(row[row.length - 1]) });
    return { users, links: state.links, tenants: state.tenants, attempts: state.attempts, families: state.families };
  }

  async close(): Promise<void> {
    await this.app.fastify.close();
    await this.closeDatabase();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Live and revoked token families per user, leaving out the ignored ones. */
function familyCounts(twin: Twin, families: [string, number, boolean][]): Record<string, [number, number]> {
  const counts: Record<string, [number, number]> = {};
  for (const [id, userId, revoked] of families) {
    if (twin.ignoredFamilies.has(id)) continue;
    const entry = (counts[String(userId)] ??= [0, 0]);
    entry[revoked ? 1 : 0] += 1;
  }
  return counts;
}

/** Where two states differ, or null. */
function stateDiff(rest: State, graphql: State, restTwin: Twin, graphqlTwin: Twin): string | null {
  const restIds = [...rest.users.keys()];
  const graphqlIds = [...graphql.users.keys()];
  if (!isDeepStrictEqual(restIds, graphqlIds))
    return `user ids differ: REST-only ${restIds.filter((id) => !graphql.users.has(id)).join(',')}; GraphQL-only ${graphqlIds.filter((id) => !rest.users.has(id)).join(',')}`;
  for (const [id, r] of rest.users) {
    const g = graphql.users.get(id);
    if (!g || !isDeepStrictEqual(r.row, g.row))
      return `users row ${id} differs:\n    REST:    ${JSON.stringify(r.row)}\n    GraphQL: ${JSON.stringify(g?.row)}`;
  }
  if (!isDeepStrictEqual(rest.links, graphql.links))
    return `user_instances differ:\n    REST:    ${JSON.stringify(rest.links)}\n    GraphQL: ${JSON.stringify(graphql.links)}`;
  if (!isDeepStrictEqual(rest.tenants, graphql.tenants)) return 'tenants (plan, limits) differ';
  if (!isDeepStrictEqual(rest.attempts, graphql.attempts))
    return `login_attempts differ:\n    REST:    ${JSON.stringify(rest.attempts)}\n    GraphQL: ${JSON.stringify(graphql.attempts)}`;
  const rf = familyCounts(restTwin, rest.families);
  const gf = familyCounts(graphqlTwin, graphql.families);
  if (!isDeepStrictEqual(rf, gf))
    return `token families (live, revoked) per user differ:\n    REST:    ${JSON.stringify(rf)}\n    GraphQL: ${JSON.stringify(gf)}`;
  return null;
}

export interface Twins {
  rest: Twin;
  graphql: Twin;
  fixture: Fixture;
  /** Both twins back to the baseline. */
  reset(): Promise<void>;
  /**
   * Reads both twins' rows and compares them; a password hash that changed (or a new user's) must verify
   * with `passwords` (user id → the password the case last set), on each twin. Throws on a difference.
   */
  compare(passwords: ReadonlyMap<number, string>): Promise<void>;
  close(): Promise<void>;
}

async function hashesCheck(
  twin: Twin,
  before: State,
  after: State,
  passwords: ReadonlyMap<number, string>,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [id, now] of after.users) {
    const was = before.users.get(id);
    if (was && was.hash === now.hash) continue;
    changed.push(String(id));
    const expected = passwords.get(id);
    if (expected === undefined)
      throw new Error(
        `${twin.protocol} twin: the password hash of user ${id} changed, but no step set a password for it`,
      );
    if (!(await argon2Verify(now.hash, expected)))
      throw new Error(
        `${twin.protocol} twin: user ${id}'s stored hash does not verify the password the case set (${JSON.stringify(expected)})`,
      );
  }
  return changed;
}

async function insertFixtureUsers(db: Kysely<Database>, hashOf: string): Promise<void> {
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  for (const spec of Object.values(FIXTURE_USERS)) {
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', TENANT_NAMES[spec.tenant])
      .executeTakeFirstOrThrow();
    const department = spec.linked
      ? await db
          .selectFrom('departments')
          .select('id')
          .where('tenant_id', '=', tenant.id)
          .orderBy('id')
          .executeTakeFirst()
      : undefined;
    const { id } = await db
      .insertInto('users')
      .values({
        tenant_id: tenant.id,
        role_id: roles.get(spec.role) ?? 0,
        department_id: department?.id ?? null,
        name: spec.name,
        username: spec.username,
        email: spec.email,
        password_hash: hashOf,
        blocked: spec.blocked ?? false,
        two_factor_enabled: spec.twoFactor ?? false,
        two_factor_secret: spec.twoFactor ? newTotpSecret() : null,
        two_factor_enrolled_at: spec.twoFactor ? SEED_NOW : null,
        origin_backoffice: spec.tenant === 'backoffice',
        created_at: SEED_NOW,
        deleted_at: spec.deleted ? SEED_NOW : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (spec.linked) {
      const instance = await db
        .selectFrom('instances')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('user_instances').values({ user_id: id, instance_id: instance.id }).execute();
    }
  }
}

async function readFixture(db: Kysely<Database>): Promise<Fixture> {
  const tenants = {} as Record<TenantKey, TenantInfo>;
  for (const key of Object.keys(TENANT_NAMES) as TenantKey[]) {
    const row = await db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '=', TENANT_NAMES[key])
      .executeTakeFirstOrThrow();
    const departments = await db
      .selectFrom('departments')
      .select('id')
      .where('tenant_id', '=', row.id)
      .orderBy('id')
      .execute();
    const instances = await db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '=', row.id)
      .orderBy('id')
      .execute();
    tenants[key] = {
      key,
      id: row.id,
      name: row.name,
      departments: departments.map((d) => d.id),
      instances: instances.map((i) => i.id),
    };
  }
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const specs: Record<FixtureUserKey, FixtureUserSpec & { password: string }> = {
    boAdmin: {
      tenant: 'backoffice',
      role: ADMIN_ROLE,
      email: 'admin@demo.local',
      username: '',
      name: '',
      password: DEMO_PASSWORD,
    },
    boOp: {
      tenant: 'backoffice',
      role: OPERATOR_ROLE,
      email: 'operador@demo.local',
      username: '',
      name: '',
      password: DEMO_PASSWORD,
    },
    ...(Object.fromEntries(
      Object.entries(FIXTURE_USERS).map(([k, v]) => [k, { ...v, password: FIXTURE_PASSWORD }]),
    ) as Record<Exclude<FixtureUserKey, 'boAdmin' | 'boOp'>, FixtureUserSpec & { password: string }>),
  };
  const users = {} as Record<FixtureUserKey, FixtureUser>;
  for (const [key, spec] of Object.entries(specs) as [FixtureUserKey, FixtureUserSpec & { password: string }][]) {
    const row = await db
      .selectFrom('users')
      .select(['id', 'email', 'username', 'name', 'role_id'])
      .where('email', '=', spec.email)
      .executeTakeFirstOrThrow();
    users[key] = {
      key,
      id: row.id,
      email: row.email,
      username: row.username,
      name: row.name,
      tenant: spec.tenant,
      roleId: row.role_id,
      password: spec.password,
    };
  }
  return { tenants, users, roles: { admin: roles.get(ADMIN_ROLE) ?? 0, operator: roles.get(OPERATOR_ROLE) ?? 0 } };
}

/**
 * On PostgreSQL each twin gets a database of its own in the cluster (openTestDatabase then makes its
 * schema in it): Kysely's Migrator looks for its lock table in every schema of a database, so a second
 * migrated schema in the same database would find the first one's and fail.
 */
async function ownDatabase(url: string, protocol: Protocol): Promise<{ url: string; drop(): Promise<void> }> {
  if (!/^postgres(ql)?:\/\//.test(url)) return { url, drop: async () => undefined };
  const name = `parity_${randomBytes(5).toString('hex')}_${protocol}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  return { url: scoped.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function startTwin(protocol: Protocol, serverUrl: string, fixtureHash: string): Promise<Twin> {
  process.env.LOG_LEVEL = 'silent';
  const own = await ownDatabase(serverUrl, protocol);
  const databaseUrl = own.url;
  const opened = await openTestDatabase(databaseUrl);
  const database = {
    ...opened,
    close: async () => {
      await opened.close();
      await own.drop();
    },
  };
  await seedDemo(database.db, { days: 1, now: SEED_NOW, seed: SEED_PRNG });
  await insertFixtureUsers(database.db, fixtureHash);
  const config = loadConfig({
    databaseUrl,
    seedDemo: true,
    // Two failed sign-ins per account and address, then 429: short cases reach `throttled`.
    loginMaxFailures: 2,
    accessTokenTtl: 3600,
  });
  // No `pg` relay: the twins share a cluster on PostgreSQL, and NOTIFY would cross between them.
  const app = await buildApp({ db: database.db, config, hashPassword: cheapHash });
  return new Twin(protocol, app, database.db, database.close);
}

/**
 * Two twins on `databaseUrl` (`pglite://memory`: two in-memory databases; `postgres://…`: two schemas of
 * that server), the fixture users added, every signed-in principal signed in once through its twin's
 * protocol (and `revoked` signed in, then logged out), and the baseline recorded.
 */
export async function startTwins(databaseUrl: string): Promise<Twins> {
  const fixtureHash = await cheapHash(FIXTURE_PASSWORD);
  const [rest, graphql] = await Promise.all([
    startTwin('rest', databaseUrl, fixtureHash),
    startTwin('graphql', databaseUrl, fixtureHash),
  ]);
  const fixture = await readFixture(rest.db);
  const other = await readFixture(graphql.db);
  if (!isDeepStrictEqual(fixture, other)) throw new Error('the twins were not seeded alike');

  for (const twin of [rest, graphql]) {
    for (const principal of SIGNED_IN) {
      const user = fixture.users[PRINCIPAL_USER[principal] ?? 'aAdmin'];
      const { token, answer } = await twin.signIn(user.email, user.password, TENANT_NAMES[user.tenant]);
      if (!token) throw new Error(`${twin.protocol}: sign-in of ${principal} failed: ${JSON.stringify(answer)}`);
      twin.auth[principal] = `Bearer ${token}`;
    }
    const admin = fixture.users.aAdmin;
    const { token } = await twin.signIn(admin.email, admin.password, TENANT_NAMES.a);
    const logout = await twin.rest(`Bearer ${token}`, 'POST', '/api/auth/logout', {
      data: { email: admin.email },
      ip: null,
    });
    if (logout.status !== 200) throw new Error(`logout: ${JSON.stringify(logout)}`);
    twin.auth.revoked = `Bearer ${token}`;
    await twin.recordBaseline();
  }

  const twins: Twins = {
    rest,
    graphql,
    fixture,
    async reset() {
      await Promise.all([rest.reset(), graphql.reset()]);
    },
    async compare(passwords) {
      const [r, g] = await Promise.all([rest.readState(), graphql.readState()]);
      const diff = stateDiff(r, g, rest, graphql);
      if (diff) throw new Error(`rows differ between the twins: ${diff}`);
      const [rc, gc] = await Promise.all([
        hashesCheck(rest, rest.state ?? r, r, passwords),
        hashesCheck(graphql, graphql.state ?? g, g, passwords),
      ]);
      if (!isDeepStrictEqual(rc, gc))
        throw new Error(`password hashes changed for different users: REST ${rc.join(',')} vs GraphQL ${gc.join(',')}`);
      rest.state = r;
      graphql.state = g;
    },
    async close() {
      await Promise.all([rest.close(), graphql.close()]);
    },
  };
  await twins.reset();
  await twins.compare(new Map());
  return twins;
}

// ------------------------------------------------------------------------------------------------------
// Counting
// ------------------------------------------------------------------------------------------------------

/** Cases, steps and agreed kinds per capability, printed by the suites for the closing note. */
export class Tally {
  private readonly rows = new Map<
    string,
    { cases: number; runs: number; steps: number; seconds: number; cpuSeconds: number; kinds: Map<string, number> }
  >();

  private entry(capability: string) {
    let row = this.rows.get(capability);
    if (!row) {
      row = { cases: 0, runs: 0, steps: 0, seconds: 0, cpuSeconds: 0, kinds: new Map() };
      this.rows.set(capability, row);
    }
    return row;
  }

  /** A case that ran to its end (shrinking runs included). */
  case(capability: string): void {
    this.entry(capability).cases += 1;
  }

  /** The property's own count of the cases it generated (fast-check `numRuns`), and what it took: wall and this process's CPU seconds. */
  ran(capability: string, runs: number, seconds: number, cpuSeconds: number): void {
    const row = this.entry(capability);
    row.runs += runs;
    row.seconds += seconds;
    row.cpuSeconds += cpuSeconds;
  }

  step(capability: string, kind: string): void {
    const row = this.entry(capability);
    row.steps += 1;
    row.kinds.set(kind, (row.kinds.get(kind) ?? 0) + 1);
  }

  kinds(capability: string): ReadonlyMap<string, number> {
    return this.entry(capability).kinds;
  }

  cases(capability: string): number {
    return this.entry(capability).cases;
  }

  lines(database: string): string[] {
    return [...this.rows.entries()].map(([capability, row]) => {
      const kinds = [...row.kinds.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      return `parity[${database}] ${capability}: ${row.runs} cases, ${row.steps} compared answers, ${row.seconds.toFixed(1)} s (${row.cpuSeconds.toFixed(1)} s CPU in this process) — ${kinds}`;
    });
  }
}
