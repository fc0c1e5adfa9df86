import { TEST_PASSWORD } from './users';
import { AUDIT_LEAK_OPERATIONS, freshBLink, freshBUser, ids, m, users } from './rbac-matrix';
import type { Row } from './rbac-matrix';

// ------------------------------------------------------------------------------------------------------
// THE GRAPHQL TABLE at /matrix-b/graphql: operation × principal → status
// ------------------------------------------------------------------------------------------------------

//                          anon malf  exp  rev   op  A→B admin
export const G_PUBLIC: Row = [200, 200, 200, 200, 200, 200, 200];
export const G_SIGNED_IN: Row = [401, 401, 401, 401, 200, 403, 200]; // any signed-in staff; A may not use tenant B's path
export const G_USERS: Row = [401, 401, 401, 401, 403, 403, 200]; // route `users`
export const G_TENANTS: Row = [401, 401, 401, 401, 403, 403, 200]; // route `tenants`
export const G_AUDIT: Row = [401, 401, 401, 401, 403, 403, 200]; // route `audit`
export const G_REFRESH: Row = [401, 401, 200, 401, 200, 403, 200]; // an expired token inside its window may refresh

export const GRAPHQL_TABLE: [string, () => Record<string, unknown> | Promise<Record<string, unknown>>, Row][] = [
  ['logIn', () => ({ email: users.login.email, password: TEST_PASSWORD }), G_PUBLIC],
  ['refreshToken', () => ({}), G_REFRESH],
  ['connected', () => ({}), G_SIGNED_IN],
  ['disconnected', () => ({}), G_SIGNED_IN],
  ['userInfos', () => ({}), G_SIGNED_IN],
  // What needs attention: any signed-in user, each kind null without the permission that fixes it.
  ['attention', () => ({}), G_SIGNED_IN],
  ['instances', () => ({ remove_ids: [] }), G_SIGNED_IN],
  ['onlineUsers', () => ({ user_id: null, instance_id: null }), G_SIGNED_IN],
  ['departments', () => ({}), G_USERS],
  ['createDepartment', () => ({ name: `Matrix GraphQL ${Date.now().toString(36)}${m.counter++}` }), G_USERS],
  ['updateDepartment', () => ({ id: ids.bDepartment, name: 'Departamento Secreto B', activated: true }), G_USERS],
  ['connections', () => ({}), G_TENANTS],
  ['auditRecords', () => ({ tenantId: ids.b, limit: 200, operation: AUDIT_LEAK_OPERATIONS }), G_AUDIT],
  ['auditNames', () => ({ of: 'actor', limit: 50 }), G_AUDIT],
  [
    'createConnection',
    () => ({ instance_id: ids.bInstance, name: `Matrix GraphQL ${Date.now().toString(36)}${m.counter++}` }),
    G_TENANTS,
  ],
  ['updateConnection', () => ({ id: ids.bConnection, name: 'Conexão Secreta B', activated: true }), G_TENANTS],
  // Each principal's user changes its own password once, proven with the one it has (./users.ts TEST_PASSWORD).
  ['updateUserPassword', () => ({ password: 'Changed#Pass-4Q8', current_password: TEST_PASSWORD }), G_SIGNED_IN],
  ['roles', () => ({}), G_USERS],
  ['users', () => ({}), G_USERS],
  ['usersPage', () => ({ filter: { blocked: false }, sort: { field: 'email' }, limit: 100 }), G_USERS],
  ['userInstances', () => ({ user_id: ids.bUser }), G_USERS],
  [
    'newUser',
    () => ({
      username: `g.${Date.now().toString(36)}${m.counter++}`,
      name: 'Matrix GraphQL',
      email: `g-${Date.now().toString(36)}${m.counter++}@demo.local`,
      password: 'Matrix#Pass-9Z7',
      role_id: ids.role,
    }),
    G_USERS,
  ],
  ['updateUser', () => ({ id: ids.bUser, name: 'Bruno Segredo' }), G_USERS],
  ['disconnectUser', () => ({ user_id: ids.bUser }), G_USERS],
  ['deleteUser', async () => ({ id: await freshBUser() }), G_USERS],
  ['deleteUserInstance', async () => ({ id: await freshBLink() }), G_USERS],
  ['updateUserSettings', () => ({ user_id: ids.bUser, two_factor_enrolment_required: false }), G_USERS],
];

/** Tenant A's user in its OWN tenant path, naming tenant B's records: not found, and lists without B. */
export const ISOLATION_TABLE: [
  string,
  () => Record<string, unknown> | Promise<Record<string, unknown>>,
  'NOT_FOUND' | 'OK',
][] = [
  ['userInstances', () => ({ user_id: ids.bUser }), 'NOT_FOUND'],
  ['updateUser', () => ({ id: ids.bUser, name: 'pwned-AtoB' }), 'NOT_FOUND'],
  ['deleteUser', () => ({ id: ids.bUser }), 'NOT_FOUND'],
  ['disconnectUser', () => ({ user_id: ids.bUser }), 'NOT_FOUND'],
  ['deleteUserInstance', () => ({ id: ids.bLink }), 'NOT_FOUND'],
  ['updateUserSettings', () => ({ user_id: ids.bUser, two_factor_enrolment_required: true }), 'NOT_FOUND'],
  [
    'newUser',
    () => ({
      username: `a.${Date.now().toString(36)}`,
      name: 'A user',
      email: `a-${Date.now().toString(36)}@demo.local`,
      password: 'Matrix#Pass-9Z7',
      role_id: ids.role,
      chosen_instances: [ids.bInstance],
    }),
    'NOT_FOUND',
  ],
  ['users', () => ({}), 'OK'],
  ['usersPage', () => ({ filter: { q: 'bruno' }, limit: 100 }), 'OK'],
  ['onlineUsers', () => ({ user_id: null, instance_id: ids.bInstance }), 'OK'],
  ['instances', () => ({ remove_ids: [] }), 'OK'],
  ['departments', () => ({}), 'OK'],
  ['attention', () => ({}), 'OK'],
  ['updateDepartment', () => ({ id: ids.bDepartment, name: 'pwned-AtoB' }), 'NOT_FOUND'],
  ['connections', () => ({}), 'OK'],
  ['auditRecords', () => ({ tenantId: ids.b, limit: 200, operation: AUDIT_LEAK_OPERATIONS }), 'OK'],
  ['auditNames', () => ({ of: 'actor', limit: 50 }), 'OK'],
  ['auditNames', () => ({ of: 'target', targetType: 'user', limit: 50 }), 'OK'],
  ['createConnection', () => ({ instance_id: ids.bInstance, name: 'pwned-AtoB' }), 'NOT_FOUND'],
  ['updateConnection', () => ({ id: ids.bConnection, name: 'pwned-AtoB' }), 'NOT_FOUND'],
  // With a version (docs/lists.md, Versions), B's record is as unknown: no STALE tells its version.
  ['updateUser', () => ({ id: ids.bUser, name: 'pwned-AtoB', version: 1 }), 'NOT_FOUND'],
  ['updateDepartment', () => ({ id: ids.bDepartment, name: 'pwned-AtoB', version: 1 }), 'NOT_FOUND'],
  ['updateConnection', () => ({ id: ids.bConnection, name: 'pwned-AtoB', version: 1 }), 'NOT_FOUND'],
];
