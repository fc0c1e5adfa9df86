import { startTestApp, type TestApp } from '../test-support/app';
import { createTestUser } from '../test-support/users';

/**
 * DELETE /api/roles/{id} (contracts/openapi.yaml roleDelete): back-office staff delete a role no user
 * holds; a role held by a live or a deleted user, and `administrador`, are refused with 409 on `id`
 * and stay as they were; an unknown id is 404.
 */
describe('role delete', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let counter = 0;

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  const createRole = async () => {
    counter += 1;
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name: `apagar_${counter}`, display_name: `Apagar ${counter}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number; name: string }>();
  };
  const remove = (id: number, headers = admin) =>
    t.app.fastify.inject({ method: 'DELETE', url: `/api/roles/${id}`, headers });
  const exists = async (id: number) =>
    Boolean(await t.db.selectFrom('roles').select('id').where('id', '=', id).executeTakeFirst());

  it('deletes a role no user holds, with its permissions', async () => {
    const role = await createRole();
    const granted = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/permission/update',
      headers: admin,
      payload: { roleId: role.id, permissions: ['users'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const response = await remove(role.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Deleted' });
    expect(await exists(role.id)).toBe(false);
    const list = await t.app.fastify.inject({ method: 'GET', url: '/api/roles', headers: admin });
    expect(list.json<{ id: number }[]>().map((r) => r.id)).not.toContain(role.id);
    expect((await remove(role.id)).statusCode).toBe(404);
  });

  it('refuses a role a live user holds with 409 on id, saying so, and keeps it', async () => {
    const role = await createRole();
    await createTestUser(t.db, { email: `dono-${role.name}@demo.local`, tenant: 'backoffice', role: role.name });
    const response = await remove(role.id);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toEqual({ message: expect.stringMatching(/hold this role/), field: 'id' });
    expect(await exists(role.id)).toBe(true);
  });

  it('refuses a role only a deleted user still keeps', async () => {
    const role = await createRole();
    const user = await createTestUser(t.db, {
      email: `ex-${role.name}@demo.local`,
      tenant: 'backoffice',
      role: role.name,
    });
    const deleted = await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${user.id}`, headers: admin });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const response = await remove(role.id);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json<{ message: string }>().message).toMatch(/Deleted users/);
    expect(await exists(role.id)).toBe(true);
  });

  it('refuses administrador', async () => {
    const role = await t.db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', 'administrador')
      .executeTakeFirstOrThrow();
    const response = await remove(role.id);
    expect(response.statusCode).toBe(409);
    expect(await exists(role.id)).toBe(true);
  });

  it("refuses a tenant's own administrador (not back-office staff) with 403, and the role stays", async () => {
    const role = await createRole();
    await createTestUser(t.db, {
      email: 'admin-da-farmacia@demo.local',
      tenant: 'farmacia-central',
      role: 'administrador',
      originBackoffice: false,
    });
    const login = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin-da-farmacia@demo.local', password: 'Test#Pass!word-9', ip: null },
    });
    const headers = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
    expect((await remove(role.id, headers)).statusCode).toBe(403);
    expect(await exists(role.id)).toBe(true);
  });
});
