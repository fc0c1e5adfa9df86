import type { Api } from './api';

interface Role {
  id: string;
  name: string;
  display_name: string;
}

export async function operatorRole(api: Api): Promise<Role> {
  const { roles } = await api.graphql<{ roles: Role[] }>('query roles { roles { id name display_name } }', {}, 'roles');
  const role = roles.find((r) => r.name === 'operador');
  if (!role) throw new Error(`no operador role in ${JSON.stringify(roles)}`);
  return role;
}

/** A user made through the API for journeys that act on an existing one. */
export async function createUser(
  api: Api,
  tag: string,
  password: string,
): Promise<{ id: number; name: string; email: string }> {
  const role = await operatorRole(api);
  const stamp = `${tag}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const { newUser } = await api.graphql<{ newUser: { id: string; name: string; email: string } }>(
    'mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id name email } }',
    { username: stamp, name: `E2E ${stamp}`, email: `${stamp}@e2e.local`, password, role_id: Number(role.id) },
    'newUser',
  );
  return { id: Number(newUser.id), name: newUser.name, email: newUser.email };
}

/**
 * A role of the journey's own with exactly `routes` (POST /api/roles, then its permissions), named
 * with `unique` (a fresh stamp unless given: a test on a server of its own may name it the same on
 * every run).
 */
export async function createRoleWith(
  api: Api,
  tag: string,
  routes: string[],
  unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`,
): Promise<{ id: number; name: string; display_name: string }> {
  const role = await api.rest<{ id: number; name: string; display_name: string }>('POST', '/api/roles', {
    name: `pw_${tag}_${unique}`,
    display_name: `PW ${tag} ${unique}`,
  });
  if (routes.length) await api.rest('POST', '/api/permission/update', { roleId: role.id, permissions: routes });
  return role;
}

/**
 * A user holding the role named `roleName` (or of id `roleId`), made through GraphQL `newUser` in the
 * tenant of `api`'s GraphQL path (apiLogin's `tenant`); its username, name and e-mail carry `tag` and
 * a fresh stamp, or `stamp` when given (a test on a server of its own).
 */
export async function createUserWithRole(
  api: Api,
  tag: string,
  password: string,
  role: { name: string } | { id: number },
  stamp = `${tag}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`,
): Promise<{ id: number; name: string; email: string }> {
  let roleId: number;
  if ('id' in role) roleId = role.id;
  else {
    const { roles } = await api.graphql<{ roles: Role[] }>(
      'query roles { roles { id name display_name } }',
      {},
      'roles',
    );
    const found = roles.find((r) => r.name === role.name);
    if (!found) throw new Error(`no ${role.name} role in ${JSON.stringify(roles)}`);
    roleId = Number(found.id);
  }
  const { newUser } = await api.graphql<{ newUser: { id: string; name: string; email: string } }>(
    'mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id name email } }',
    { username: stamp, name: `E2E ${stamp}`, email: `${stamp}@e2e.local`, password, role_id: roleId },
    'newUser',
  );
  return { id: Number(newUser.id), name: newUser.name, email: newUser.email };
}
