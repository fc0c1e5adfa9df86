import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { gql } from '../test-support/graphql-app';

/**
 * Connections over REST and GraphQL (contracts/openapi.yaml `connectionCreate`, `connectionUpdate`;
 * contracts/schema.graphql `connections`, `createConnection`, `updateConnection`): names unique per
 * instance ignoring case; each bad input answers its error and changes nothing.
 */

let t: TestApp;
let admin: { authorization: string };
let token: string;
let tenant: { id: number; name: string };
let other: { id: number; name: string };
let instances: number[];
let foreignInstance: number;

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
  instances = (
    await t.db.selectFrom('instances').select('id').where('tenant_id', '=', tenant.id).orderBy('id').execute()
  ).map((r) => r.id);
  foreignInstance = (
    await t.db.selectFrom('instances').select('id').where('tenant_id', '=', other.id).executeTakeFirstOrThrow()
  ).id;
}, 180_000);

afterAll(async () => t.close());

const ok = { valid: true, errors: [] };

const rows = () =>
  t.db
    .selectFrom('connections')
    .select(['id', 'tenant_id', 'instance_id', 'name', 'activated'])
    .orderBy('id')
    .execute();

function create(payload: Record<string, unknown>) {
  return t.app.fastify.inject({
    method: 'POST',
    url: '/api/connection',
    headers: admin,
    payload: { tenantName: tenant.name, ...payload },
  });
}

function update(payload: Record<string, unknown>) {
  return t.app.fastify.inject({
    method: 'POST',
    url: '/api/connection/update',
    headers: admin,
    payload: { tenantName: tenant.name, ...payload },
  });
}

describe('connections over REST', () => {
  it('lists the seeded connections with a name and the activated flag', async () => {
    const list = await t.app.fastify.inject({ url: `/api/connection?tenantName=${tenant.name}`, headers: admin });
    expect(validateResponse('connectionList', 200, list.json())).toEqual(ok);
    expect(list.json<{ name: string; activated: boolean }[]>()[0]).toMatchObject({
      name: 'Principal',
      activated: true,
    });
  });

  it('creates an activated, disconnected connection of an instance, trimmed', async () => {
    const created = await create({ instance_id: instances[0], name: '  Balcão ' });
    expect(created.statusCode).toBe(201);
    expect(validateResponse('connectionCreate', 201, created.json())).toEqual(ok);
    expect(created.json()).toMatchObject({
      tenantName: tenant.name,
      instance_id: instances[0],
      name: 'Balcão',
      activated: true,
      status: 'disconnected',
      phone: null,
    });
  });

  it('refuses a name the instance already has, ignoring case (409); another instance may use it', async () => {
    const before = await rows();
    const duplicate = await create({ instance_id: instances[0], name: 'BALCÃO' });
    expect(duplicate.statusCode).toBe(409);
    expect(validateResponse('connectionCreate', 409, duplicate.json())).toEqual(ok);
    expect(duplicate.json()).toMatchObject({ field: 'name' });
    expect(await rows()).toEqual(before);
    const elsewhere = await create({ instance_id: foreignInstance, name: 'Balcão', tenantName: other.name });
    expect(elsewhere.statusCode).toBe(201);
  });

  it.each([
    ['a blank name', { name: '  ' }, 'name'],
    ['an over-long name', { name: 'z'.repeat(81) }, 'name'],
    ['another tenant’s instance', { instance_id: -1, name: 'Qualquer' }, 'instance_id'],
    ['an unknown instance', { instance_id: 2_000_000, name: 'Qualquer' }, 'instance_id'],
  ])('refuses %s (400 on the field) and adds nothing', async (_label, payload, field) => {
    const before = await rows();
    const body = { instance_id: instances[0], ...payload };
    if (body.instance_id === -1) body.instance_id = foreignInstance;
    const refused = await create(body);
    expect(refused.statusCode).toBe(400);
    expect(validateResponse('connectionCreate', 400, refused.json())).toEqual(ok);
    expect(refused.body).toContain(field);
    expect(await rows()).toEqual(before);
  });

  it('renames, deactivates and activates; refuses a taken name, an unknown or foreign id', async () => {
    const id = (await create({ instance_id: instances[0], name: 'Caixa' })).json<{ id: number }>().id;
    const renamed = await update({ id, name: 'Caixa 2', activated: false });
    expect(renamed.statusCode).toBe(200);
    expect(validateResponse('connectionUpdate', 200, renamed.json())).toEqual(ok);
    expect(renamed.json()).toMatchObject({ id, name: 'Caixa 2', activated: false });
    expect((await update({ id, activated: true })).json()).toMatchObject({ name: 'Caixa 2', activated: true });

    const theirs = (await rows()).find((r) => r.tenant_id === other.id);
    const before = await rows();
    expect((await update({ id, name: 'balcão' })).statusCode).toBe(409);
    expect((await update({ id: 2_000_000, name: 'X' })).statusCode).toBe(404);
    expect((await update({ id: theirs?.id, name: 'Tomada', activated: false })).statusCode).toBe(404);
    expect((await update({ id })).statusCode).toBe(400);
    expect((await update({ id, name: '' })).statusCode).toBe(400);
    expect(await rows()).toEqual(before);
  });

  it('allows the same name on a different instance of the tenant by rename', async () => {
    if (instances.length < 2) return;
    const id = (await create({ instance_id: instances[1], name: 'Outra' })).json<{ id: number }>().id;
    expect((await update({ id, name: 'Balcão' })).statusCode).toBe(200);
  });
});

describe('connections over GraphQL', () => {
  const LIST =
    'query { connections { id instance_id instance_name name activated phone status last_seen_at version } }';
  const CREATE =
    'mutation c($instance_id: Int!, $name: String!) { createConnection(instance_id: $instance_id, name: $name) { id name activated status } }';
  const UPDATE =
    'mutation u($id: Int!, $name: String, $activated: Boolean) { updateConnection(id: $id, name: $name, activated: $activated) { id name activated } }';

  it('lists, creates and updates in the path’s tenant as REST does', async () => {
    const rest = await t.app.fastify.inject({ url: `/api/connection?tenantName=${tenant.name}`, headers: admin });
    const listed = await gql<{ connections: Record<string, unknown>[] }>(t.app, LIST, { token, tenant: tenant.name });
    expect(listed.body.data?.connections).toEqual(
      rest.json<Record<string, unknown>[]>().map(({ tenantName: _tenantName, ...c }) => c),
    );
    const created = await gql<{ createConnection: { id: number } }>(t.app, CREATE, {
      token,
      tenant: tenant.name,
      variables: { instance_id: instances[0], name: 'Via GraphQL' },
    });
    expect(created.body.data?.createConnection).toMatchObject({
      name: 'Via GraphQL',
      activated: true,
      status: 'disconnected',
    });
    const updated = await gql(t.app, UPDATE, {
      token,
      tenant: tenant.name,
      variables: { id: created.body.data?.createConnection.id, activated: false },
    });
    expect(updated.body.data).toEqual({
      updateConnection: { id: created.body.data?.createConnection.id, name: 'Via GraphQL', activated: false },
    });
  });

  it('answers BAD_USER_INPUT name for a duplicate, NOT_FOUND for a foreign instance or connection', async () => {
    const before = await rows();
    const duplicate = await gql(t.app, CREATE, {
      token,
      tenant: tenant.name,
      variables: { instance_id: instances[0], name: 'via graphql' },
    });
    expect(duplicate.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    const foreign = await gql(t.app, CREATE, {
      token,
      tenant: tenant.name,
      variables: { instance_id: foreignInstance, name: 'Nova' },
    });
    expect(foreign.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'instance_id' });
    const theirs = before.find((r) => r.tenant_id === other.id);
    const foreignUpdate = await gql(t.app, UPDATE, {
      token,
      tenant: tenant.name,
      variables: { id: theirs?.id, name: 'Tomada' },
    });
    expect(foreignUpdate.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    expect(await rows()).toEqual(before);
  });
});
