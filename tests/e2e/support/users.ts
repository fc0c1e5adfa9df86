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
