import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { gql } from '../test-support/graphql-app';

/**
 * Departments over REST and GraphQL (contracts/openapi.yaml `departmentCreate`, `departmentUpdate`;
 * contracts/schema.graphql `createDepartment`, `updateDepartment`): each bad input answers its error
 * and changes nothing.
 */

let t: TestApp;
let admin: { authorization: string };
let token: string;
let tenant: { id: number; name: string };
let other: { id: number; name: string };

beforeAll(async () => {
  t = await startTestApp({ seed: { days: 1 } });
  admin = await t.auth('admin@demo.local');
  token = admin.authorization.slice('Bearer '.length);
  const tenants = await t.db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .where('name', '!=', 'backoffice')
    .orderBy('id')
    .limit(2)
    .execute();
  [tenant, other] = tenants as [typeof tenant, typeof other];
}, 180_000);

afterAll(async () => t.close());

const ok = { valid: true, errors: [] };

const rows = (tenantId: number) =>
  t.db
    .selectFrom('departments')
    .select(['id', 'name', 'activated'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute();

function create(name: unknown, tenantName = tenant.name) {
  return t.app.fastify.inject({
    method: 'POST',
    url: `/api/departments?tenantName=${tenantName}`,
    headers: admin,
    payload: { name },
  });
}

function update(id: number, payload: Record<string, unknown>, tenantName = tenant.name) {
  return t.app.fastify.inject({
    method: 'PATCH',
    url: `/api/departments/${id}?tenantName=${tenantName}`,
    headers: admin,
    payload,
  });
}

describe('departments over REST', () => {
  it('creates an activated department, trimmed, listed by name', async () => {
    const created = await create('  Compras  ');
    expect(created.statusCode).toBe(201);
    expect(validateResponse('departmentCreate', 201, created.json())).toEqual(ok);
    expect(created.json()).toMatchObject({ name: 'Compras', activated: true });
    const list = await t.app.fastify.inject({ url: `/api/departments?tenantName=${tenant.name}`, headers: admin });
    expect(list.json<{ name: string }[]>().map((d) => d.name)).toContain('Compras');
  });

  it('refuses a name the tenant already has, ignoring case (409), and adds nothing', async () => {
    const before = await rows(tenant.id);
    const duplicate = await create('COMPRAS');
    expect(duplicate.statusCode).toBe(409);
    expect(validateResponse('departmentCreate', 409, duplicate.json())).toEqual(ok);
    expect(duplicate.json()).toMatchObject({ field: 'name' });
    expect(await rows(tenant.id)).toEqual(before);
    // Another tenant may use the same name.
    expect((await create('Compras', other.name)).statusCode).toBe(201);
  });

  it.each([
    ['blank', '   '],
    ['empty', ''],
    ['over 80 characters', 'x'.repeat(81)],
    ['not a string', 42],
  ])('refuses a %s name (400) and adds nothing', async (_label, name) => {
    const before = await rows(tenant.id);
    const refused = await create(name);
    expect(refused.statusCode).toBe(400);
    expect(validateResponse('departmentCreate', 400, refused.json())).toEqual(ok);
    expect(refused.body).toContain('name');
    expect(await rows(tenant.id)).toEqual(before);
  });

  it('renames, deactivates and activates; a rename to its own name in another case is allowed', async () => {
    const id = (await create('Entregas')).json<{ id: number }>().id;
    const renamed = await update(id, { name: 'Entregas e coletas' });
    expect(renamed.statusCode).toBe(200);
    expect(validateResponse('departmentUpdate', 200, renamed.json())).toEqual(ok);
    // Each change raises the department's version (docs/lists.md, Versions).
    expect(renamed.json()).toEqual({ id, name: 'Entregas e coletas', activated: true, version: 2 });
    expect((await update(id, { activated: false })).json()).toEqual({
      id,
      name: 'Entregas e coletas',
      activated: false,
      version: 3,
    });
    expect((await update(id, { name: 'ENTREGAS E COLETAS', activated: true })).json()).toEqual({
      id,
      name: 'ENTREGAS E COLETAS',
      activated: true,
      version: 4,
    });
  });

  it('refuses a rename to a name another department has (409), an unknown id and another tenant’s department (404), an empty change (400)', async () => {
    const id = (await create('Marketing')).json<{ id: number }>().id;
    const theirs = (await create('Deles', other.name)).json<{ id: number }>().id;
    const before = [...(await rows(tenant.id)), ...(await rows(other.id))];

    const taken = await update(id, { name: 'compras' });
    expect(taken.statusCode).toBe(409);
    expect(validateResponse('departmentUpdate', 409, taken.json())).toEqual(ok);

    const unknown = await update(2_000_000, { name: 'Qualquer' });
    expect(unknown.statusCode).toBe(404);
    expect(validateResponse('departmentUpdate', 404, unknown.json())).toEqual(ok);

    const foreign = await update(theirs, { name: 'Tomado', activated: false });
    expect(foreign.statusCode).toBe(404);

    const empty = await update(id, {});
    expect(empty.statusCode).toBe(400);
    const blank = await update(id, { name: ' ' });
    expect(blank.statusCode).toBe(400);
    const extra = await update(id, { name: 'Ok', tenant_id: other.id });
    expect(extra.statusCode).toBe(400);

    expect([...(await rows(tenant.id)), ...(await rows(other.id))]).toEqual(before);
  });

  it('lets a tenant user without the users permission do nothing (403)', async () => {
    const operador = await t.auth('operador@demo.local');
    const refused = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/departments',
      headers: operador,
      payload: { name: 'Nunca' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('shows a new department in the user form picker (GraphQL departments) of its tenant only', async () => {
    await create('Recém-criado');
    const mine = await gql<{ departments: { name: string }[] }>(t.app, 'query { departments { name } }', {
      token,
      tenant: tenant.name,
    });
    expect(mine.body.data?.departments.map((d) => d.name)).toContain('Recém-criado');
    const theirs = await gql<{ departments: { name: string }[] }>(t.app, 'query { departments { name } }', {
      token,
      tenant: other.name,
    });
    expect(theirs.body.data?.departments.map((d) => d.name)).not.toContain('Recém-criado');
  });
});

describe('departments over GraphQL', () => {
  const CREATE = 'mutation c($name: String!) { createDepartment(name: $name) { id name activated } }';
  const UPDATE =
    'mutation u($id: Int!, $name: String, $activated: Boolean) { updateDepartment(id: $id, name: $name, activated: $activated) { id name activated } }';

  it('creates, renames and deactivates in the path’s tenant', async () => {
    const created = await gql<{ createDepartment: { id: number; name: string; activated: boolean } }>(t.app, CREATE, {
      token,
      tenant: tenant.name,
      variables: { name: ' Farmácia clínica ' },
    });
    expect(created.body.errors).toBeUndefined();
    const department = created.body.data?.createDepartment;
    expect(department).toMatchObject({ name: 'Farmácia clínica', activated: true });
    const updated = await gql<{ updateDepartment: unknown }>(t.app, UPDATE, {
      token,
      tenant: tenant.name,
      variables: { id: department?.id, name: 'Clínica', activated: false },
    });
    expect(updated.body.data?.updateDepartment).toEqual({ id: department?.id, name: 'Clínica', activated: false });
  });

  it('answers BAD_USER_INPUT name for a duplicate or blank name, NOT_FOUND id for another tenant’s department', async () => {
    const before = [...(await rows(tenant.id)), ...(await rows(other.id))];
    const duplicate = await gql(t.app, CREATE, { token, tenant: tenant.name, variables: { name: 'compras' } });
    expect(duplicate.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const blank = await gql(t.app, CREATE, { token, tenant: tenant.name, variables: { name: '  ' } });
    expect(blank.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const long = await gql(t.app, CREATE, { token, tenant: tenant.name, variables: { name: 'y'.repeat(81) } });
    expect(long.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const theirs = (await rows(other.id))[0];
    const foreign = await gql(t.app, UPDATE, {
      token,
      tenant: tenant.name,
      variables: { id: theirs?.id, name: 'Tomado' },
    });
    expect(foreign.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    const nothing = await gql(t.app, UPDATE, { token, tenant: tenant.name, variables: { id: theirs?.id } });
    expect(nothing.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect([...(await rows(tenant.id)), ...(await rows(other.id))]).toEqual(before);
  });
});
