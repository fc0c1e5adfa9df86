import { decodeJwt } from 'jose';
import {
  instanceIdsOf,
  isConnected,
  roleId,
  someDepartmentOf,
  someInstanceOutside,
  tenantId,
  userIdByEmail,
} from '../test-support/lookups';
import { USER_INFOS, g, gql, tokenOf, useGraphqlApp } from '../test-support/graphql-app';

/** The user operations and the reads through GraphQL (app: server/src/test-support/graphql-app.ts). */
useGraphqlApp();

describe('GraphQL /{tenant}/graphql: users, roles, departments, instances', () => {
  it('newUser checks its arguments per field', async () => {
    const token = await tokenOf(g.app, 'admin@demo.local');
    const role = { id: await roleId(g.db, 'operador') };
    const NEW_USER = `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!, $user_department_id: Int, $chosen_instances: [Int!]) {
      newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id, user_department_id: $user_department_id, chosen_instances: $chosen_instances) { id }
    }`;
    const base = {
      username: 'weak.pw',
      name: 'Weak Password',
      email: 'weak.pw@demo.local',
      password: 'short',
      role_id: role.id,
    };
    const weak = await gql(g.app, NEW_USER, { token, variables: base });
    expect(weak.status).toBe(200);
    expect(weak.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });

    const duplicate = await gql(g.app, NEW_USER, {
      token,
      variables: { ...base, password: 'long-enough-1', email: 'Admin@Demo.local' },
    });
    expect(duplicate.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
    const noRole = await gql(g.app, NEW_USER, {
      token,
      variables: { ...base, password: 'long-enough-1', role_id: 999_999 },
    });
    expect(noRole.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'role_id' });
    const foreignInstance = await someInstanceOutside(g.db, 'backoffice');
    const wrongInstance = await gql(g.app, NEW_USER, {
      token,
      variables: { ...base, password: 'long-enough-1', chosen_instances: [foreignInstance] },
    });
    expect(wrongInstance.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'chosen_instances' });
  });

  it('newUser, updateUser (omitted vs null), userInstances and deleteUserInstance', async () => {
    const token = await tokenOf(g.app, 'admin@demo.local');
    const role = { id: await roleId(g.db, 'operador') };
    const tenant = await tenantId(g.db, 'backoffice');
    const dep = { id: await someDepartmentOf(g.db, tenant) };
    const chosen = (await instanceIdsOf(g.db, tenant)).slice(0, 2);
    const created = await gql<{
      newUser: {
        id: number;
        image: string | null;
        userDepartment: { id: number } | null;
        userInstances: { id: number; instance: { id: number } }[];
      };
    }>(
      g.app,
      `mutation { newUser(username: "gql.user", name: " GraphQL User ", email: "gql.user@demo.local", password: "long-enough-1", role_id: ${role.id}, user_department_id: ${dep.id}, chosen_instances: [${[...chosen, ...chosen].join(',')}]) {
        id image userDepartment { id } userInstances { id instance { id } } } }`,
      { token },
    );
    expect(created.body.errors).toBeUndefined();
    const user = created.body.data?.newUser;
    expect(user?.userDepartment?.id).toBe(dep.id);
    expect(user?.userInstances.map((l) => l.instance.id).sort()).toEqual([...chosen].sort());
    const id = user?.id ?? 0;

    const UPDATE = `mutation updateUser($id: Int!, $image: String, $user_department_id: Int, $chosen_instances: [Int!], $name: String) {
      updateUser(id: $id, image: $image, user_department_id: $user_department_id, chosen_instances: $chosen_instances, name: $name) { name image userDepartment { id } userInstances { id instance { id } } }
    }`;
    type Updated = {
      updateUser: {
        name: string;
        image: string | null;
        userDepartment: { id: number } | null;
        userInstances: { instance: { id: number } }[];
      };
    };
    const withImage = await gql<Updated>(g.app, UPDATE, {
      token,
      variables: { id, image: 'https://example.com/a.png' },
    });
    expect(withImage.body.data?.updateUser).toMatchObject({
      name: 'GraphQL User',
      image: 'https://example.com/a.png',
      userDepartment: { id: dep.id },
    });
    expect(withImage.body.data?.updateUser.userInstances).toHaveLength(2);
    const cleared = await gql<Updated>(g.app, UPDATE, {
      token,
      variables: { id, image: null, user_department_id: null, chosen_instances: chosen.slice(0, 1) },
    });
    expect(cleared.body.data?.updateUser).toMatchObject({ image: null, userDepartment: null });
    expect(cleared.body.data?.updateUser.userInstances.map((l) => l.instance.id)).toEqual(chosen.slice(0, 1));
    const nullName = await gql(g.app, UPDATE, { token, variables: { id, name: null } });
    expect(nullName.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const badImage = await gql(g.app, UPDATE, { token, variables: { id, image: 'javascript:alert(1)' } });
    expect(badImage.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'image' });

    const links = await gql<{ userInstances: { id: number }[] }>(
      g.app,
      `query { userInstances(user_id: ${id}) { id instance { id } } }`,
      { token },
    );
    const linkId = links.body.data?.userInstances[0]?.id ?? 0;
    expect(linkId).toBeGreaterThan(0);
    const removed = await gql<{ deleteUserInstance: boolean }>(
      g.app,
      `mutation { deleteUserInstance(id: ${linkId}) }`,
      {
        token,
      },
    );
    expect(removed.body.data?.deleteUserInstance).toBe(true);
    const again = await gql(g.app, `mutation { deleteUserInstance(id: ${linkId}) }`, { token });
    expect(again.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'id' });

    const deleted = await gql<{ deleteUser: boolean }>(g.app, `mutation { deleteUser(id: ${id}) }`, { token });
    expect(deleted.body.data?.deleteUser).toBe(true);
    const me = await userIdByEmail(g.db, 'admin@demo.local');
    const self = await gql(g.app, `mutation { deleteUser(id: ${me}) }`, { token });
    expect(self.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
  });

  it('disconnectUser makes the target token 401 Unauthorized; presence shows in onlineUsers', async () => {
    const admin = await tokenOf(g.app, 'admin@demo.local');
    const target = await tokenOf(g.app, 'operador@demo.local');
    const targetId = await userIdByEmail(g.db, 'operador@demo.local');
    expect(
      (await gql<{ connected: boolean }>(g.app, 'mutation { connected }', { token: target })).body.data?.connected,
    ).toBe(true);
    const online = await gql<{ onlineUsers: { id: number }[] }>(g.app, 'query { onlineUsers { id } }', {
      token: admin,
    });
    expect(online.body.data?.onlineUsers.map((u) => u.id)).toContain(targetId);

    const done = await gql<{ disconnectUser: boolean }>(g.app, `mutation { disconnectUser(user_id: ${targetId}) }`, {
      token: admin,
    });
    expect(done.body.data?.disconnectUser).toBe(true);
    const after = await gql(g.app, USER_INFOS, { token: target });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ status: 'Unauthorized' });
    expect(await isConnected(g.db, targetId)).toBe(false);
  });

  it('updateUserPassword asks for the current password, ends the other sessions and keeps this one', async () => {
    const email = 'operador@demo.local';
    const first = await tokenOf(g.app, email);
    const other = await tokenOf(g.app, email);
    const change = (variables: Record<string, unknown>) =>
      gql<{ updateUserPassword: { token: string; user: { email: string } } }>(
        g.app,
        'mutation updateUserPassword($password: String!, $current: String) { updateUserPassword(password: $password, current_password: $current) { token expires_in user { email } } }',
        { token: first, variables },
      );
    const missing = await change({ password: 'Another#Password1' });
    expect(missing.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'current_password' });
    const wrong = await change({ password: 'Another#Password1', current: 'Not#The-Password9' });
    expect(wrong.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'current_password' });
    expect((await gql(g.app, USER_INFOS, { token: other })).status).toBe(200);
    const changed = await change({ password: 'Another#Password1', current: 'Back#Office!Demo' });
    expect(changed.status).toBe(200);
    const fresh = changed.body.data?.updateUserPassword.token ?? '';
    expect(changed.body.data?.updateUserPassword.user.email).toBe(email);
    // The other session ended; this one goes on, on a new token of the same session and refresh window.
    expect((await gql(g.app, USER_INFOS, { token: other })).body).toEqual({ status: 'Unauthorized' });
    expect((await gql(g.app, USER_INFOS, { token: fresh })).status).toBe(200);
    const claims = (token: string) => decodeJwt(token) as { fam: string; rxp: number };
    expect(claims(fresh).fam).toBe(claims(first).fam);
    expect(claims(fresh).rxp).toBe(claims(first).rxp);
    // Put the demo password back for the other tests.
    await gql(
      g.app,
      'mutation { updateUserPassword(password: "Back#Office!Demo", current_password: "Another#Password1") { token } }',
      { token: fresh },
    );
  });

  it('reads roles, departments and instances', async () => {
    const token = await tokenOf(g.app, 'admin@demo.local');
    const { status, body } = await gql<{
      roles: { id: number; name: string }[];
      departments: { name: string }[];
      instances: { id: number }[];
    }>(
      g.app,
      'query { roles { id name display_name has_permission_routes } departments { id name activated } instances { id name activated } }',
      { token },
    );
    expect(status).toBe(200);
    expect(body.data?.roles.map((r) => r.name)).toEqual(expect.arrayContaining(['administrador', 'operador']));
    const names = body.data?.departments.map((d) => d.name) ?? [];
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const all = body.data?.instances.map((i) => i.id) ?? [];
    const first = all[0];
    if (first !== undefined) {
      const rest = await gql<{ instances: { id: number }[] }>(
        g.app,
        `query { instances(remove_ids: [${first}]) { id } }`,
        { token },
      );
      expect(rest.body.data?.instances.map((i) => i.id)).toEqual(all.slice(1));
    }
  });
});
