import { asArray, asRecord } from './kit-client.js';
import { GRAPHQL_OPERATIONS, listedStatuses, validateRestResponse } from './kit-contract.js';
import type { ConformanceClient } from './kit-client.js';
import { tenantBody, type RunContext } from './kit-rest-steps.js';
import {
  GRAPHQL_ACCESS,
  REST_ACCESS,
  base64url,
  expectGraphqlRefusal,
  fixture,
  graphqlAt,
  idOf,
  jwtParts,
} from './checks-access.js';

/**
 * The negative cases of the contract (./kit.ts group `negative`), each check named by its kind: `400 …`
 * (each kind of bad body), `401 …` (no token, malformed, tampered), `403 …` (the permission matrix of a
 * restricted principal, REST and GraphQL, and another tenant's principal), `404 …` (another tenant's
 * ids), `409 …` (uniqueness and state), `order …` (401 before 403 before 400) and `agree …` (REST and
 * GraphQL answer the same records). contracts/openapi.yaml (info: order of checks, 401 bodies, unknown
 * properties), contracts/schema.graphql (ERRORS, PERMISSIONS), docs/security.md §3.
 *
 * The kit makes its own principals through the API: a role holding one route permission (`roles-list`)
 * and a user holding it in the caller's tenant (the restricted principal); a tenant of its own with a
 * user there whose role holds `users` and a route of every `x-staff-only` operation (the other tenant's
 * principal: refused this tenant, other tenants' ids and every staff-only operation); a department, an
 * instance and a connection of that tenant. Only what the profile offers: the base API creates no role,
 * department or connection, so a base run skips what needs them and the other tenant's user holds the
 * caller's role. At the end it removes the users (blocked, moved to the caller's role so that its own
 * roles are held by nobody, deleted) and the roles, and leaves its tenant deleted.
 *
 * An expired token is not checked here: over HTTP the only way to one is to wait out its lifetime
 * (`ACCESS_TOKEN_TTL`, 15 minutes, docs/product.md Sessions); the kit checks tampered `exp` claims instead.
 */

const STRONG_PASSWORD = 'Conf#Ng8!Vx3@Rb';

interface Principals {
  adminTenant: string;
  adminId: number;
  adminRoleId: number;
  held: string | undefined;
  /** The routes the other tenant's user holds: every route, when it holds the caller's role. */
  otherRoutes: string[] | 'all';
  /**
   * Absent when the profile has no operation that creates a role (`roleCreate` is an extension): the
   * base API cannot make a principal short of a permission, so a base run skips what needs one.
   */
  restricted?: { id: number; email: string; username: string; token: string; roleId: number; roleName: string };
  otherTenant: string;
  other: { id: number; email: string; token: string };
  /** Absent when the profile has no operation that creates one (departments are an extension). */
  department?: { id: number; name: string };
  instance: { id: number; name: string };
  /** Absent when the profile has no operation that creates one (connections are an extension). */
  connection?: { id: number; name: string };
}

/** What the clean-up removes: users, roles and tenants the group created, whatever step stopped it. */
interface Created {
  /** As the whole-object edit needs them (contracts/openapi.yaml userUpdate). */
  users: { id: number; username: unknown; name: unknown; email: unknown }[];
  roles: number[];
  tenants: number[];
  /** The names of the tenants it made on purpose (a wrong server's stray records have none). */
  tenantNames: Map<number, string>;
  /** The caller's role, which its users are given before they are deleted. */
  callerRole?: number;
}

export async function negativeCases(c: ConformanceClient, run: RunContext, me: Record<string, unknown>): Promise<void> {
  const created: Created = { users: [], roles: [], tenants: [], tenantNames: new Map() };
  let principals: Principals | undefined;
  try {
    principals = await makePrincipals(c, run, me, created);
    await unauthorizedKinds(c);
    await badBodies(c, run, principals, created);
    await permissionMatrix(c, principals);
    await otherTenantIds(c, principals);
    await conflicts(c, run, principals, created);
    await orderOfChecks(c, principals);
    await restAndGraphqlAgree(c, principals);
  } finally {
    // What the group cannot remove itself (deleted users, deleted tenants) the run's clean-up purges
    // (./kit-fixtures.ts); its own clean-up first checks what blocking and deleting do.
    run.fixtures.users.push(...created.users.map((u) => u.id));
    run.fixtures.tenants.push(
      ...created.tenants.map((id) => {
        const name = created.tenantNames.get(id);
        return name === undefined ? { id } : { id, name };
      }),
    );
    run.fixtures.roles.push(...created.roles);
    await cleanUp(c, created, principals);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Principals and fixtures
// ---------------------------------------------------------------------------------------------------------

async function makePrincipals(
  c: ConformanceClient,
  run: RunContext,
  me: Record<string, unknown>,
  created: Created,
): Promise<Principals> {
  const { stamp } = run;
  const adminTenant = typeof me.tenantName === 'string' ? me.tenantName : c.tenant;
  const adminId = idOf(me, 'the signed-in user');
  const adminRoleId = idOf(asRecord(me.role), "the signed-in user's role");
  created.callerRole = adminRoleId;
  const routes = asArray(await (await c.http('GET', '/api/permission')).json)
    .map((p) => asRecord(p).route_name)
    .filter((r): r is string => typeof r === 'string');
  if (!routes.includes('users')) throw new Error('the permission catalogue (GET /api/permission) has no route users');
  const held = routes.includes('roles-list') ? 'roles-list' : undefined;

  // The other tenant's user holds `users` and a route of each staff-only operation (so that only its not
  // being back-office staff refuses those), through a role of the kit's; the caller's role when the
  // profile cannot create one.
  const staffRoutes = REST_ACCESS.filter((op) => op.staffOnly && Array.isArray(op.permission))
    .map((op) => (Array.isArray(op.permission) ? op.permission[0] : undefined))
    .filter((r): r is string => r !== undefined && routes.includes(r));
  const otherRoutesGiven = [...new Set(['users', ...staffRoutes])].sort();
  let otherRoutes: string[] | 'all' = 'all';
  let otherRoleId = adminRoleId;
  let restricted: Omit<NonNullable<Principals['restricted']>, 'token'> | undefined;
  if (c.inProfile('roleCreate')) {
    const roleName = `conf_r_${stamp}`;
    const roleId = idOf(
      await fixture(c, 'the restricted role', 'POST', '/api/roles', 201, {
        body: { name: roleName, display_name: `Conformance restricted ${stamp}` },
      }),
      'the restricted role',
    );
    created.roles.push(roleId);
    await fixture(c, 'the restricted role’s permission', 'POST', '/api/permission/update', 200, {
      body: { roleId, permissions: held ? [held] : [] },
    });
    otherRoleId = idOf(
      await fixture(c, 'the other tenant’s role', 'POST', '/api/roles', 201, {
        body: { name: `conf_o_${stamp}`, display_name: `Conformance other tenant ${stamp}` },
      }),
      'the other tenant’s role',
    );
    created.roles.push(otherRoleId);
    await fixture(c, 'the other tenant’s role permission', 'POST', '/api/permission/update', 200, {
      body: { roleId: otherRoleId, permissions: otherRoutesGiven },
    });
    otherRoutes = otherRoutesGiven;
    const email = `conf-r-${stamp}@example.com`;
    const username = `conf.r.${stamp}`;
    const name = 'Conformance Restricted';
    const id = idOf(
      await fixture(c, 'the restricted user', 'POST', '/api/users', 201, {
        body: { username, name, email, password: STRONG_PASSWORD, role_id: roleId },
      }),
      'the restricted user',
    );
    created.users.push({ id, username, name, email });
    restricted = { id, email, username, roleId, roleName };
  }

  const otherTenant = `conf-o-${stamp}`;
  const otherTenantId = idOf(
    await fixture(c, 'the other tenant', 'POST', '/api/tenant', 201, {
      body: tenantBody(otherTenant, ['chat'], 'pharmacy', 'pool-a'),
    }),
    'the other tenant',
  );
  created.tenants.push(otherTenantId);
  created.tenantNames.set(otherTenantId, otherTenant);
  // A user lands in the tenant of the request: GraphQL at the other tenant's path (back-office staff).
  const otherEmail = `conf-o-${stamp}@example.com`;
  const newUser = await graphqlAt(
    c,
    otherTenant,
    'newUser',
    {
      username: `conf.o.${stamp}`,
      name: 'Conformance Other Tenant',
      email: otherEmail,
      password: STRONG_PASSWORD,
      role_id: otherRoleId,
      user_department_id: null,
      chosen_instances: [],
    },
    c.session.token,
  );
  const otherUser = asRecord(asRecord(newUser.body.data).newUser);
  const otherId = idOf(otherUser, `newUser at /${otherTenant}/graphql`);
  keepUser(created, otherUser);

  const departmentName = `Conformance ${stamp} other`;
  const department = c.inProfile('departmentCreate')
    ? idOf(
        await fixture(c, 'a department of the other tenant', 'POST', '/api/departments', 201, {
          query: { tenantName: otherTenant },
          body: { name: departmentName },
        }),
        'a department of the other tenant',
      )
    : undefined;
  const instanceName = `Conformance ${stamp} other`;
  const instance = idOf(
    await fixture(c, 'an instance of the other tenant', 'POST', '/api/instance', 201, {
      body: { name: instanceName, tenantName: otherTenant, isOfficial: false, isUnlimited: false },
    }),
    'an instance of the other tenant',
  );
  const connectionName = `Conformance ${stamp} other`;
  const connection = c.inProfile('connectionCreate')
    ? idOf(
        await fixture(c, 'a connection of the other tenant', 'POST', '/api/connection', 201, {
          body: { tenantName: otherTenant, instance_id: instance, name: connectionName },
        }),
        'a connection of the other tenant',
      )
    : undefined;

  const restrictedToken = restricted ? await c.loginToken(restricted.email, STRONG_PASSWORD) : null;
  const otherToken = await c.loginToken(otherEmail, STRONG_PASSWORD);
  if ((restricted && !restrictedToken) || !otherToken) throw new Error('the kit’s own users could not sign in');
  return {
    adminTenant,
    adminId,
    adminRoleId,
    held,
    otherRoutes,
    ...(restricted && restrictedToken ? { restricted: { ...restricted, token: restrictedToken } } : {}),
    otherTenant,
    other: { id: otherId, email: otherEmail, token: otherToken },
    ...(department === undefined ? {} : { department: { id: department, name: departmentName } }),
    instance: { id: instance, name: instanceName },
    ...(connection === undefined ? {} : { connection: { id: connection, name: connectionName } }),
  };
}

/** A user the group created (or a wrong server created from a body it should have refused), for the clean-up. */
function keepUser(created: Created, user: Record<string, unknown>): void {
  if (typeof user.id === 'number')
    created.users.push({ id: user.id, username: user.username, name: user.name, email: user.email });
}

/**
 * Users blocked (their sessions end: 401 Unauthorized), given the caller's role so that the kit's roles
 * are held by nobody (a role a deleted user holds cannot be deleted: contracts/openapi.yaml roleDelete),
 * deleted; then the roles; the tenant is left deleted.
 */
async function cleanUp(c: ConformanceClient, created: Created, principals: Principals | undefined): Promise<void> {
  const problems: string[] = [];
  const attempt = async (what: string, step: () => Promise<unknown>): Promise<void> => {
    try {
      await step();
    } catch (error) {
      problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  for (const { id, ...whole } of created.users) {
    await attempt(`block user ${id}`, () =>
      fixture(c, 'block', 'PATCH', `/api/users/${id}`, 200, { body: { blocked: true } }),
    );
    if (principals?.restricted && id === principals.restricted.id)
      await c.expect401(
        '401 revoked: a blocked user’s token (REST)',
        'GET',
        '/api/auth/userInfo',
        principals.restricted.token,
        {
          status: 'Unauthorized',
        },
      );
    const { callerRole } = created;
    if (callerRole !== undefined && created.roles.length > 0)
      await attempt(`move user ${id} off the kit's roles`, () =>
        fixture(c, 'role', 'PUT', `/api/users/${id}`, 200, { body: { ...whole, role_id: callerRole } }),
      );
    await attempt(`delete user ${id}`, () => fixture(c, 'delete', 'DELETE', `/api/users/${id}`, 200));
  }
  for (const id of created.roles)
    await attempt(`delete role ${id}`, () => fixture(c, 'delete', 'DELETE', `/api/roles/${id}`, 200));
  for (const id of created.tenants)
    await attempt(`delete tenant ${id}`, () =>
      fixture(c, 'delete', 'POST', '/api/tenant/delete', 200, { body: { id } }),
    );
  if (problems.length > 0) c.check('negative (clean-up)', 'rest', 0, problems);
}

// ---------------------------------------------------------------------------------------------------------
// 401: each kind the contract tells apart (docs/product.md Sessions; contracts/openapi.yaml info)
// ---------------------------------------------------------------------------------------------------------

async function unauthorizedKinds(c: ConformanceClient): Promise<void> {
  const graphqlPath = `/${encodeURIComponent(c.tenant)}/graphql`;
  const usersQuery = { query: 'query users { users { id } }', operationName: 'users' };
  const notFound = { status: 'Authorization Token not found' };
  const invalid = { status: 'Token is Invalid' };
  await c.expect401('401 no token: userList', 'GET', '/api/users', null, notFound);
  await c.expect401('401 no token: userCreate', 'POST', '/api/users', null, notFound, {
    username: 'conf.none',
    name: 'Conformance None',
    email: 'conf-none@example.com',
    password: STRONG_PASSWORD,
    role_id: 1,
  });
  await c.expect401('401 no token: users (GraphQL)', 'POST', graphqlPath, null, notFound, usersQuery);
  await c.expect401('401 malformed: not a JWT', 'GET', '/api/users', 'not-a-token', invalid);
  await c.expect401('401 malformed: three parts, not base64url JSON', 'GET', '/api/users', 'a.b.c', invalid);
  await c.expect401('401 malformed (GraphQL)', 'POST', graphqlPath, 'a.b.c', invalid, usersQuery);

  // Tampered copies of a token the server issued (a session of its own, then signed out).
  const token = await c.loginToken();
  if (!token) {
    c.check('401 tampered tokens', 'auth', 0, ['could not sign in for a separate session']);
    return;
  }
  const parts = jwtParts(token);
  if (!parts) {
    c.check('401 tampered tokens', 'auth', 0, [
      'the access token is not a JWT (docs/security.md §1: one HS256 JWT per session)',
    ]);
    return;
  }
  const { header, claims, signature } = parts;
  const now = Math.floor(Date.now() / 1000);
  const withClaims = (changes: Record<string, unknown>): string =>
    `${header}.${base64url({ ...claims, ...changes })}.${signature}`;
  const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
  await c.expect401(
    '401 tampered: signature',
    'GET',
    '/api/users',
    `${header}.${token.split('.')[1]}.${flipped}`,
    invalid,
  );
  await c.expect401('401 tampered: exp in the past', 'GET', '/api/users', withClaims({ exp: now - 3600 }), invalid);
  await c.expect401(
    '401 tampered: exp far ahead',
    'GET',
    '/api/users',
    withClaims({ exp: now + 86_400 * 365 }),
    invalid,
  );
  await c.expect401('401 tampered: sub', 'GET', '/api/users', withClaims({ sub: `${String(claims.sub)}0` }), invalid);
  await c.expect401(
    '401 tampered: alg none, no signature',
    'GET',
    '/api/users',
    `${base64url({ alg: 'none', typ: 'JWT' })}.${token.split('.')[1]}.`,
    invalid,
  );
  await c.expect401(
    '401 tampered: exp in the past (GraphQL refreshToken)',
    'POST',
    graphqlPath,
    withClaims({ exp: now - 3600 }),
    invalid,
    { query: 'mutation refreshToken { refreshToken { token expires_in } }', operationName: 'refreshToken' },
  );
  // The untampered token still works, so the refusals above were about the tampering.
  await c.rest(
    'authUserInfo',
    'GET',
    '/api/auth/userInfo',
    200,
    { token },
    '401 tampered: the original token still works',
  );
  await c.http('POST', '/api/auth/logout', { token, body: { data: { email: c.email }, ip: null } });
}

// ---------------------------------------------------------------------------------------------------------
// 400: each kind of bad body on a representative set of operations
// ---------------------------------------------------------------------------------------------------------

interface BodyCase {
  operationId: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  valid: Record<string, unknown>;
  required: string;
  wrongType: [string, unknown];
  /** Undoes what a server that wrongly accepted the body created. */
  created?: (record: Record<string, unknown>) => void;
}

async function badBodies(c: ConformanceClient, run: RunContext, p: Principals, created: Created): Promise<void> {
  const { stamp } = run;
  const cases: BodyCase[] = [
    {
      operationId: 'authLogin',
      method: 'POST',
      path: '/api/auth/login',
      valid: { email: p.other.email, password: STRONG_PASSWORD, ip: null },
      required: 'password',
      wrongType: ['email', 42],
    },
    {
      operationId: 'userCreate',
      method: 'POST',
      path: '/api/users',
      valid: {
        username: `conf.bad.${stamp}`,
        name: 'Conformance Bad Body',
        email: `conf-bad-${stamp}@example.com`,
        password: STRONG_PASSWORD,
        role_id: p.restricted?.roleId ?? p.adminRoleId,
      },
      required: 'email',
      wrongType: ['role_id', 'one'],
      created: (r) => keepUser(created, r),
    },
    {
      operationId: 'userSetBlocked',
      method: 'PATCH',
      path: `/api/users/${p.other.id}`,
      valid: { blocked: false },
      required: 'blocked',
      wrongType: ['blocked', 'no'],
    },
    {
      operationId: 'roleCreate',
      method: 'POST',
      path: '/api/roles',
      valid: { name: `conf_bad_${stamp}`, display_name: 'Conformance bad body' },
      required: 'display_name',
      wrongType: ['name', ['conf']],
      created: (r) => typeof r.id === 'number' && created.roles.push(r.id),
    },
    ...(p.restricted
      ? [
          {
            operationId: 'permissionUpdate',
            method: 'POST',
            path: '/api/permission/update',
            valid: { roleId: p.restricted.roleId, permissions: p.held ? [p.held] : [] },
            required: 'permissions',
            wrongType: ['roleId', String(p.restricted.roleId)] as [string, unknown],
          },
        ]
      : []),
    {
      operationId: 'tenantCreate',
      method: 'POST',
      path: '/api/tenant',
      valid: tenantBody(`conf-bad-${stamp}`, ['chat'], 'pharmacy', 'pool-a'),
      required: 'plan',
      wrongType: ['userLimit', '5'],
      created: (r) => typeof r.id === 'number' && created.tenants.push(r.id),
    },
    {
      operationId: 'departmentCreate',
      method: 'POST',
      path: '/api/departments',
      query: { tenantName: p.otherTenant },
      valid: { name: `Conformance ${stamp} bad body` },
      required: 'name',
      wrongType: ['name', 7],
    },
    {
      operationId: 'instanceCreate',
      method: 'POST',
      path: '/api/instance',
      valid: {
        name: `Conformance ${stamp} bad body`,
        tenantName: p.otherTenant,
        isOfficial: false,
        isUnlimited: false,
      },
      required: 'isOfficial',
      wrongType: ['isUnlimited', 'false'],
    },
    ...(p.connection
      ? [
          {
            operationId: 'connectionUpdate',
            method: 'POST',
            path: '/api/connection/update',
            valid: { id: p.connection.id, tenantName: p.otherTenant, name: p.connection.name },
            required: 'id',
            wrongType: ['activated', 'yes'] as [string, unknown],
          },
        ]
      : []),
  ];
  for (const bad of cases) {
    if (!c.inProfile(bad.operationId)) continue;
    const { [bad.required]: _dropped, ...missing } = bad.valid;
    const [wrongField, wrongValue] = bad.wrongType;
    const variants: { kind: string; opts: { body?: unknown; raw?: string }; field?: string }[] = [
      { kind: `missing ${bad.required}`, opts: { body: missing }, field: `body/${bad.required}` },
      {
        kind: `${wrongField} of the wrong type`,
        opts: { body: { ...bad.valid, [wrongField]: wrongValue } },
        field: `body/${wrongField}`,
      },
      { kind: 'an unknown property', opts: { body: { ...bad.valid, conformance_unknown: 1 } } },
      { kind: 'malformed JSON', opts: { raw: '{"name": ' } },
    ];
    for (const variant of variants) {
      const label = `400 ${variant.kind}: ${bad.operationId}`;
      const answer = await c.http(bad.method, bad.path, { query: bad.query, ...variant.opts });
      // Whatever a wrong server created from a body it should have refused, the clean-up removes.
      if (answer.status >= 200 && answer.status < 300) bad.created?.(asRecord(answer.json));
      const errors = asRecord(answer.json).errors;
      recordRest(c, bad.operationId, label, answer, 400, () => {
        const fields = asArray(errors).map((e) => asRecord(e).field);
        if (variant.field !== undefined && !fields.includes(variant.field))
          return [`errors do not name ${variant.field}: ${JSON.stringify(errors)}`];
        if (!fields.some((f) => typeof f === 'string' && f.startsWith('body')))
          return [`no error names the body: ${JSON.stringify(errors)}`];
        return [];
      });
    }
  }
}

/** Records an answer already received as one check of `operationId`, validated like `c.rest` does. */
function recordRest(
  c: ConformanceClient,
  operationId: string,
  label: string,
  answer: { status: number; contentType: string; json: unknown; text: string },
  expected: number,
  more: () => string[] = () => [],
): void {
  const problems: string[] = [];
  if (answer.status !== expected)
    problems.push(`expected HTTP ${expected}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
  else if (!listedStatuses(operationId).includes(String(expected)))
    problems.push(`the contract lists no ${expected} answer for ${operationId}`);
  else {
    if (!answer.contentType.includes('application/json'))
      problems.push(`content-type ${answer.contentType || '(none)'} is not application/json`);
    if (answer.json === undefined) problems.push('body is not JSON');
    else problems.push(...validateRestResponse(operationId, expected, answer.json), ...more());
  }
  c.check(label, 'rest', answer.status, problems);
}

// ---------------------------------------------------------------------------------------------------------
// 403: the permission matrix of the restricted principal, and another tenant's principal
// ---------------------------------------------------------------------------------------------------------

async function permissionMatrix(c: ConformanceClient, p: Principals): Promise<void> {
  if (p.restricted) await restrictedMatrix(c, p, p.restricted);
  await otherTenantPrincipal(c, p);
}

async function restrictedMatrix(
  c: ConformanceClient,
  p: Principals,
  restricted: NonNullable<Principals['restricted']>,
): Promise<void> {
  const held = new Set(p.held ? [p.held] : []);
  for (const op of REST_ACCESS) {
    const permission = op.permission;
    if (!c.inProfile(op.operationId) || permission === 'public') continue;
    const lacks = permission.length > 0 && !permission.some((r) => held.has(r));
    const lacksForOthers = op.forOthers !== null && !op.forOthers.some((r) => held.has(r));
    if (!lacks && !lacksForOthers) continue;
    // Another user than the caller for x-permission-for-others; any id otherwise (403 comes before 404).
    const path = op.path.replace('{id}', String(p.adminId)).replace('{filterUsers}', 'false');
    const answer = await c.http(op.method, path, { token: restricted.token, ...(op.hasBody ? { body: {} } : {}) });
    const wanted = lacks ? permission : (op.forOthers ?? []);
    const label = `403 without ${wanted.join(' or ')}: ${op.operationId}`;
    recordRest(c, op.operationId, label, answer, 403, () => {
      const body = asRecord(answer.json);
      const required = asArray(body.required_permission);
      return body.required_permission === undefined || wanted.every((r) => required.includes(r))
        ? []
        : [`required_permission ${JSON.stringify(required)} does not name ${JSON.stringify(wanted)}`];
    });
  }
  // What the one permission held opens is not refused (the matrix is about the permission, not the user).
  if (p.held === 'roles-list' && c.inProfile('permissionList'))
    await c.rest(
      'permissionList',
      'GET',
      '/api/permission',
      200,
      { token: restricted.token },
      '403 not for the permission held (roles-list): permissionList',
    );

  const at = { tenant: c.tenant, token: restricted.token };
  for (const op of GRAPHQL_ACCESS) {
    if (!c.inProfile(op.name)) continue;
    const refused = op.fields.find((f) => f.routes.length > 0 && !f.routes.some((r) => held.has(r)));
    if (!refused) continue;
    // The self-service rule decides by the target: another user than the caller.
    const variables = refused.selfService ? { id: p.adminId, user_id: p.adminId } : {};
    await expectGraphqlRefusal(
      c,
      `403 without ${refused.routes.join(' or ')}: ${op.name} (GraphQL)`,
      at,
      op.name,
      variables,
      {
        code: 'FORBIDDEN',
      },
    );
  }
  if (p.held === 'roles-list' && c.inProfile('roles')) {
    const answer = await graphqlAt(c, c.tenant, 'roles', {}, restricted.token);
    c.check(
      '403 not for the permission held (roles-list): roles (GraphQL)',
      'graphql',
      answer.status,
      answer.status === 200 && !('errors' in answer.body)
        ? []
        : [`expected the roles, got ${answer.status}: ${answer.text.slice(0, 300)}`],
    );
  }
}

/** The other tenant's user (not back-office staff, holding `users`): in this tenant, and where only staff may act. */
async function otherTenantPrincipal(c: ConformanceClient, p: Principals): Promise<void> {
  const other = { tenant: c.tenant, token: p.other.token };
  await expectGraphqlRefusal(
    c,
    '403 another tenant’s user at this tenant’s path: userInfos (GraphQL)',
    other,
    'userInfos',
    {},
    { code: 'FORBIDDEN' },
  );
  await expectGraphqlRefusal(
    c,
    '403 another tenant’s user at this tenant’s path: users (GraphQL)',
    other,
    'users',
    {},
    { code: 'FORBIDDEN' },
  );
  for (const [operationId, path] of [
    ['userList', '/api/users'],
    ['departmentList', '/api/departments'],
  ] as const) {
    if (!c.inProfile(operationId)) continue;
    const answer = await c.http('GET', path, { token: p.other.token, query: { tenantName: p.adminTenant } });
    recordRest(c, operationId, `403 another tenant’s user naming this tenant: ${operationId}`, answer, 403);
  }
  // `x-staff-only`: whatever the role, a customer's user may not (contracts/openapi.yaml info), and the
  // refusal says why (Forbidden.reason: no permission of its role would lift it).
  for (const op of REST_ACCESS) {
    const { permission } = op;
    if (!op.staffOnly || !c.inProfile(op.operationId) || permission === 'public') continue;
    const { otherRoutes } = p;
    if (otherRoutes !== 'all' && !permission.some((r) => otherRoutes.includes(r))) continue;
    const path = op.path.replace('{id}', String(p.other.id));
    const answer = await c.http(op.method, path, { token: p.other.token, ...(op.hasBody ? { body: {} } : {}) });
    recordRest(c, op.operationId, `403 not back-office staff: ${op.operationId}`, answer, 403, () =>
      typeof asRecord(answer.json).reason === 'string'
        ? []
        : [`a refusal no permission lifts carries a reason (Forbidden.reason), got ${answer.text.slice(0, 200)}`],
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// 404: another tenant's ids (docs/security.md §3: a foreign record's id is 404, its existence not revealed)
// ---------------------------------------------------------------------------------------------------------

async function otherTenantIds(c: ConformanceClient, p: Principals): Promise<void> {
  const rest404 = async (
    operationId: string,
    who: string,
    method: string,
    path: string,
    token: string | null | undefined,
    opts: { body?: unknown; query?: Record<string, string> },
  ): Promise<void> => {
    if (!c.inProfile(operationId)) return;
    const answer = await c.http(method, path, { token, ...opts });
    recordRest(c, operationId, `404 another tenant’s id (${who}): ${operationId}`, answer, 404);
  };
  // Back-office staff acting in its own tenant on the other tenant's records.
  const { department, connection } = p;
  if (department)
    await rest404('departmentUpdate', 'staff', 'PATCH', `/api/departments/${department.id}`, undefined, {
      body: { name: `${department.name} moved` },
    });
  await rest404('instanceUpdate', 'staff', 'POST', '/api/instance/update', undefined, {
    body: { id: p.instance.id, tenantName: p.adminTenant, name: `${p.instance.name} moved` },
  });
  if (connection)
    await rest404('connectionUpdate', 'staff', 'POST', '/api/connection/update', undefined, {
      body: { id: connection.id, tenantName: p.adminTenant, name: `${connection.name} moved` },
    });
  // The other tenant's user (holding `users`) on this tenant's user: the kit's own restricted user, so a
  // server that wrongly lets it through changes nobody else.
  const mine = p.restricted;
  if (mine) {
    const target = `/api/users/${mine.id}`;
    await rest404('userUpdate', 'other tenant', 'PUT', target, p.other.token, { body: { name: 'Conformance Moved' } });
    await rest404('userSetBlocked', 'other tenant', 'PATCH', target, p.other.token, { body: { blocked: true } });
    await rest404('userSettingsUpdate', 'other tenant', 'PATCH', `/api/user-settings/${mine.id}`, p.other.token, {
      body: { two_factor_enabled: false },
    });
    await rest404('userFindByEmail', 'other tenant', 'POST', '/api/users/email', p.other.token, {
      body: { email: mine.email },
    });
  }

  const staff = { tenant: c.tenant, token: c.session.token };
  const notFound = async (
    who: string,
    at: typeof staff,
    name: string,
    variables: Record<string, unknown>,
    field: string,
  ) => {
    if (c.inProfile(name))
      await expectGraphqlRefusal(c, `404 another tenant’s id (${who}): ${name} (GraphQL)`, at, name, variables, {
        code: 'NOT_FOUND',
        field,
      });
  };
  if (department)
    await notFound('staff', staff, 'updateDepartment', { id: department.id, name: `${department.name} moved` }, 'id');
  if (connection)
    await notFound('staff', staff, 'updateConnection', { id: connection.id, name: `${connection.name} moved` }, 'id');
  await notFound('staff', staff, 'userInstances', { user_id: p.other.id }, 'user_id');
  await notFound('staff', staff, 'updateUser', { id: p.other.id, name: 'Conformance Moved' }, 'id');
  const other = { tenant: p.otherTenant, token: p.other.token };
  if (mine) {
    await notFound('other tenant', other, 'updateUser', { id: mine.id, name: 'Conformance Moved' }, 'id');
    await notFound('other tenant', other, 'userInstances', { user_id: mine.id }, 'user_id');
    await notFound('other tenant', other, 'disconnectUser', { user_id: mine.id }, 'user_id');
  }
}

// ---------------------------------------------------------------------------------------------------------
// 409: uniqueness and state
// ---------------------------------------------------------------------------------------------------------

async function conflicts(c: ConformanceClient, run: RunContext, p: Principals, created: Created): Promise<void> {
  const { stamp } = run;
  const conflict = async (
    operationId: string,
    what: string,
    method: string,
    path: string,
    opts: { body?: unknown; query?: Record<string, string>; token?: string },
    field: string | undefined,
    undo?: (record: Record<string, unknown>) => void,
  ): Promise<void> => {
    if (!c.inProfile(operationId)) return;
    const answer = await c.http(method, path, opts);
    if (answer.status >= 200 && answer.status < 300) undo?.(asRecord(answer.json));
    recordRest(c, operationId, `409 ${what}: ${operationId}`, answer, 409, () => {
      const got = asRecord(answer.json).field;
      return field === undefined || got === field
        ? []
        : [`expected field ${field}, got ${JSON.stringify(got ?? null)}`];
    });
  };
  const userBody = {
    name: 'Conformance Duplicate',
    password: STRONG_PASSWORD,
    role_id: p.restricted?.roleId ?? p.adminRoleId,
  };
  await conflict(
    'userCreate',
    'duplicate e-mail (other case)',
    'POST',
    '/api/users',
    { body: { ...userBody, username: `conf.dup.${stamp}`, email: p.other.email.toUpperCase() } },
    'email',
    (r) => keepUser(created, r),
  );
  if (p.restricted) {
    // Usernames are unique within a tenant: the restricted user's, in the caller's tenant where this lands.
    await conflict(
      'userCreate',
      'duplicate username (other case)',
      'POST',
      '/api/users',
      {
        body: {
          ...userBody,
          username: p.restricted.username.toUpperCase(),
          email: `conf-dup-${stamp}@example.com`,
        },
      },
      'username',
      (r) => keepUser(created, r),
    );
    await conflict(
      'roleCreate',
      'duplicate role name',
      'POST',
      '/api/roles',
      { body: { name: p.restricted.roleName, display_name: 'Conformance duplicate' } },
      'name',
      (r) => typeof r.id === 'number' && created.roles.push(r.id),
    );
    await conflict('roleDelete', 'a role a user holds', 'DELETE', `/api/roles/${p.restricted.roleId}`, {}, 'id');
  }
  await conflict(
    'tenantCreate',
    'duplicate tenant name',
    'POST',
    '/api/tenant',
    {
      body: tenantBody(p.otherTenant, ['chat'], 'pharmacy', 'pool-a'),
    },
    'name',
    (r) => typeof r.id === 'number' && created.tenants.push(r.id),
  );
  const { department, connection } = p;
  if (department)
    await conflict(
      'departmentCreate',
      'duplicate department name (other case)',
      'POST',
      '/api/departments',
      { query: { tenantName: p.otherTenant }, body: { name: department.name.toUpperCase() } },
      'name',
    );
  if (connection)
    await conflict(
      'connectionCreate',
      'duplicate connection name in the instance (other case)',
      'POST',
      '/api/connection',
      { body: { tenantName: p.otherTenant, instance_id: p.instance.id, name: connection.name.toUpperCase() } },
      'name',
    );
  await conflict(
    'userDelete',
    'deleting oneself',
    'DELETE',
    `/api/users/${p.other.id}`,
    { token: p.other.token },
    undefined,
  );
  if (department && c.inProfile('createDepartment'))
    await expectGraphqlRefusal(
      c,
      '409 duplicate department name (other case): createDepartment (GraphQL, BAD_USER_INPUT)',
      { tenant: p.otherTenant, token: c.session.token },
      'createDepartment',
      { name: department.name.toUpperCase() },
      { code: 'BAD_USER_INPUT', field: 'name' },
    );
}

// ---------------------------------------------------------------------------------------------------------
// The order of checks: identity (401), then permission (403), then input (400)
// ---------------------------------------------------------------------------------------------------------

async function orderOfChecks(c: ConformanceClient, p: Principals): Promise<void> {
  const restricted = p.restricted;
  const bodies: [string, string, string, { body?: unknown; raw?: string }][] = [
    ['userCreate', 'POST', '/api/users', { raw: '{"username": ' }],
    ['roleCreate', 'POST', '/api/roles', { body: { unknown_property: true } }],
    ['tenantCreate', 'POST', '/api/tenant', { body: { name: 42 } }],
    ['permissionUpdate', 'POST', '/api/permission/update', { raw: '[' }],
  ];
  for (const [operationId, method, path, opts] of bodies) {
    if (!c.inProfile(operationId)) continue;
    const noToken = await c.http(method, path, { token: null, ...opts });
    recordRest(c, operationId, `order 401 before 400 (no token, bad body): ${operationId}`, noToken, 401, () =>
      asRecord(noToken.json).status === 'Authorization Token not found'
        ? []
        : [`expected {"status":"Authorization Token not found"}, got ${noToken.text.slice(0, 200)}`],
    );
    if (!restricted) continue;
    const refused = await c.http(method, path, { token: restricted.token, ...opts });
    recordRest(c, operationId, `order 403 before 400 (no permission, bad body): ${operationId}`, refused, 403);
  }
  // Required query parameters missing: still 403 for who lacks the permission.
  if (restricted && c.inProfile('sheetOrders')) {
    const answer = await c.http('GET', '/api/tenant/sheets/orders', { token: restricted.token });
    recordRest(c, 'sheetOrders', 'order 403 before 400 (no permission, query missing): sheetOrders', answer, 403);
  }
  if (c.inProfile('newUser')) {
    const wrong = { username: 1, name: null, email: false, password: [], role_id: 'x' };
    const graphqlPath = `/${encodeURIComponent(c.tenant)}/graphql`;
    const document = GRAPHQL_OPERATIONS.find((o) => o.name === 'newUser')?.source ?? '';
    await c.expect401(
      'order 401 before 400 (no token, bad variables): newUser (GraphQL)',
      'POST',
      graphqlPath,
      null,
      { status: 'Authorization Token not found' },
      { query: document, operationName: 'newUser', variables: wrong },
    );
    if (restricted)
      await expectGraphqlRefusal(
        c,
        'order 403 before 400 (no permission, bad variables): newUser (GraphQL)',
        { tenant: c.tenant, token: restricted.token },
        'newUser',
        wrong,
        { code: 'FORBIDDEN' },
      );
  }
}

// ---------------------------------------------------------------------------------------------------------
// REST and GraphQL agree where both offer a capability
// ---------------------------------------------------------------------------------------------------------

/** Fields both answers carry, compared: scalars by value, objects by their `id`. */
function disagreements(rest: unknown[], graphql: unknown[]): string[] {
  const problems: string[] = [];
  const byId = (rows: unknown[]) => new Map(rows.map(asRecord).map((r) => [r.id, r]));
  const r = byId(rest);
  const g = byId(graphql);
  const restIds = [...r.keys()].sort();
  const graphqlIds = [...g.keys()].sort();
  if (JSON.stringify(restIds) !== JSON.stringify(graphqlIds))
    problems.push(`ids differ: REST ${JSON.stringify(restIds)}, GraphQL ${JSON.stringify(graphqlIds)}`);
  for (const [id, restRow] of r) {
    const graphqlRow = g.get(id);
    if (!graphqlRow) continue;
    for (const [key, value] of Object.entries(restRow)) {
      if (!(key in graphqlRow)) continue;
      const other = graphqlRow[key];
      const same =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? asRecord(value).id === asRecord(other).id
          : Array.isArray(value)
            ? JSON.stringify(value) === JSON.stringify(other)
            : value === other;
      if (!same)
        problems.push(`record ${String(id)}.${key}: REST ${JSON.stringify(value)}, GraphQL ${JSON.stringify(other)}`);
    }
  }
  return problems;
}

async function restAndGraphqlAgree(c: ConformanceClient, p: Principals): Promise<void> {
  const pairs: [string, string, string, Record<string, unknown>, string][] = [
    ['userList', '/api/users', 'users', {}, p.otherTenant],
    ['departmentList', '/api/departments', 'departments', {}, p.otherTenant],
    ['instanceList', '/api/instance', 'instances', { remove_ids: [] }, p.otherTenant],
    ['connectionList', '/api/connection', 'connections', {}, p.otherTenant],
    ['roleList', '/api/roles', 'roles', {}, c.tenant],
  ];
  for (const [operationId, path, name, variables, tenant] of pairs) {
    if (!c.inProfile(operationId) || !c.inProfile(name)) continue;
    const label = `agree ${operationId} and ${name} (GraphQL)`;
    const rest = await c.http('GET', path, { query: operationId === 'roleList' ? {} : { tenantName: tenant } });
    const graphql = await graphqlAt(c, tenant, name, variables, c.session.token);
    const problems: string[] = [];
    if (rest.status !== 200) problems.push(`REST answered ${rest.status}: ${rest.text.slice(0, 200)}`);
    if (graphql.status !== 200 || 'errors' in graphql.body)
      problems.push(`GraphQL answered ${graphql.status}: ${graphql.text.slice(0, 200)}`);
    const restRows = asArray(rest.json);
    const graphqlRows = asArray(asRecord(graphql.body.data)[name]);
    if (problems.length === 0) {
      if (tenant === p.otherTenant && restRows.length === 0)
        problems.push('the kit’s tenant has a record of this kind, and neither lists it');
      problems.push(...disagreements(restRows, graphqlRows));
    }
    c.check(label, 'graphql', graphql.status, problems);
  }
}
