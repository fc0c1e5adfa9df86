import { readFileSync } from 'node:fs';
import { ADMIN_ROLE } from '../db/catalog';
import { startTestApp, issuedBearer, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';
import type { Attention, AttentionKind } from './service';

// GraphQL `attention` (contracts/schema.graphql; docs/panel.md, Home): each kind appears when its condition
// holds and not otherwise, never for a deleted tenant, a customer sees only its own tenant, and a caller
// without the permission that fixes a kind gets null for it. The fixture is this file's own tenants; the
// demo's items may be there too, so the answers are read for the fixture's names.
const DOCUMENT = readFileSync(
  new URL('../../../contracts/operations/attention.query.graphql', import.meta.url),
  'utf8',
);
const FRAGMENT = readFileSync(
  new URL('../../../contracts/operations/attentionKind.fragment.graphql', import.meta.url),
  'utf8',
);

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let staffTenantsOnly: { authorization: string };
  let customerAdmin: { authorization: string };
  let customerUsersOnly: { authorization: string };
  const window = 900;

  async function tenant(name: string, cnpj: string, userLimit: number, deleted = false) {
    return t.db
      .insertInto('tenants')
      .values({
        name,
        cnpj,
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: userLimit,
        ticket_limit: 10,
        deleted_at: deleted ? new Date() : null,
      })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  async function instance(tenantId: number, name: string, status: 'idle' | 'failed', activated = true) {
    return (
      await t.db
        .insertInto('instances')
        .values({ tenant_id: tenantId, name, status, activated, total_messages: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async function connection(
    tenantId: number,
    instanceId: number,
    name: string,
    status: 'connected' | 'disconnected',
    activated = true,
  ) {
    return (
      await t.db
        .insertInto('connections')
        .values({ tenant_id: tenantId, instance_id: instanceId, name, status, activated, phone: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** `n` counted failures of `email` from `address`, `secondsAgo` ago. */
  async function failures(email: string, n: number, address = '203.0.113.9', secondsAgo = 10) {
    const at = new Date(Date.now() - secondsAgo * 1000);
    await t.db
      .insertInto('login_attempts')
      .values(
        Array.from({ length: n }, () => ({
          email,
          ip: null,
          remote_address: address,
          address_key: address,
          user_id: null,
          success: false,
          reason: 'wrong_password' as const,
          created_at: at,
        })),
      )
      .execute();
  }

  async function attention(bearer: { authorization: string }, path = 'backoffice') {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: `/${path}/graphql`,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer },
      payload: JSON.stringify({ query: `${DOCUMENT}\n${FRAGMENT}`, operationName: 'attention' }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: { attention: Attention } | null; errors?: unknown }>();
    expect(body.errors).toBeUndefined();
    return body.data!.attention;
  }

  const names = (kind: AttentionKind | null) => kind?.items.map((i) => `${i.tenantName}/${i.name}`) ?? null;

  let ids: Record<string, number>;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({
      seed: { days: 1 },
      config: {
        loginWindowSeconds: window,
        loginMaxFailures: 3,
        loginMaxFailuresPerAccount: 5,
        loginBackoffSeconds: 60,
      },
      ...(cluster ? { databaseUrl: cluster.url } : {}),
    });
    const a = await tenant('atencao-a', '11.222.333/0001-81', 2);
    const b = await tenant('atencao-b', '11.444.777/0001-61', 5);
    const gone = await tenant('atencao-apagado', '45.723.174/0001-10', 1, false);
    ids = { a: a.id, b: b.id, gone: gone.id };
    // a: at its limit (2 of 2); b: under (1 of 5); the deleted one: over (2 of 1).
    const adminA = await createTestUser(t.db, { email: 'admin@atencao-a.local', tenant: a.name, role: ADMIN_ROLE });
    const usersRole = await createTestRole(t.db, 'atencao-usuarios', ['users']);
    const tenantsRole = await createTestRole(t.db, 'atencao-empresas', ['tenants']);
    const usersOnlyA = await createTestUser(t.db, {
      email: 'usuarios@atencao-a.local',
      tenant: a.name,
      role: 'atencao-usuarios',
    });
    await createTestUser(t.db, { email: 'um@atencao-b.local', tenant: b.name, name: 'Bia Trancada' });
    await createTestUser(t.db, { email: 'um@atencao-apagado.local', tenant: gone.name, name: 'Davi Apagado' });
    await createTestUser(t.db, { email: 'dois@atencao-apagado.local', tenant: gone.name });
    const staffTenants = await createTestUser(t.db, {
      email: 'empresas@backoffice.local',
      tenant: 'backoffice',
      role: 'atencao-empresas',
    });
    void usersRole;
    void tenantsRole;
    // Instances and connections: a failed and an idle one in a, a failed but deactivated one in b, a failed in the deleted one.
    const failedA = await instance(a.id, 'Loja A falhou', 'failed');
    const idleA = await instance(a.id, 'Loja A ociosa', 'idle');
    await instance(b.id, 'Loja B desativada', 'failed', false);
    const failedB = await instance(b.id, 'Loja B falhou', 'failed');
    const failedGone = await instance(gone.id, 'Loja apagada', 'failed');
    ids.failedA = failedA;
    ids.failedB = failedB;
    ids.disconnectedA = await connection(a.id, idleA, 'Caixa A caiu', 'disconnected');
    await connection(a.id, idleA, 'Caixa A ligado', 'connected');
    await connection(a.id, idleA, 'Caixa A desativado', 'disconnected', false);
    await connection(gone.id, failedGone, 'Caixa apagada', 'disconnected');
    // Sign-ins: one per-pair lock (3 from one address), one short of it (2), one past the per-account
    // ceiling from many addresses with its back-off still on, a deleted tenant's user locked.
    await failures('um@atencao-b.local', 3);
    await failures('usuarios@atencao-a.local', 2);
    for (let i = 0; i < 6; i++) await failures('admin@atencao-a.local', 1, `198.51.100.${i}`, 1);
    await failures('um@atencao-apagado.local', 3);
    await t.db.updateTable('tenants').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    ids.adminA = adminA.id;

    staff = await t.auth('admin@demo.local');
    staffTenantsOnly = await issuedBearer(t, staffTenants.id);
    customerAdmin = await issuedBearer(t, adminA.id);
    customerUsersOnly = await issuedBearer(t, usersOnlyA.id);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const ours = (list: string[] | null) => list?.filter((n) => n.startsWith('atencao-')) ?? null;

  it('staff see every live tenant’s items of each kind, the deleted tenant’s never', async () => {
    const got = await attention(staff);
    expect(ours(names(got.tenantsOverUserLimit))).toEqual(['atencao-a/atencao-a']);
    const over = got.tenantsOverUserLimit!.items.find((i) => i.name === 'atencao-a');
    expect(over).toMatchObject({ id: ids.a, count: 2, limit: 2, retryAfter: null, instanceName: null });
    expect(ours(names(got.failedSyncs))).toEqual(['atencao-b/Loja B falhou', 'atencao-a/Loja A falhou']);
    expect(ours(names(got.disconnectedConnections))).toEqual(['atencao-a/Caixa A caiu']);
    expect(got.disconnectedConnections!.items.find((i) => i.id === ids.disconnectedA)?.instanceName).toBe(
      'Loja A ociosa',
    );
    const locked = got.lockedAccounts!.items.filter((i) => i.tenantName.startsWith('atencao-'));
    expect(locked.map((i) => i.name).sort()).toEqual(['Bia Trancada', 'admin']);
    for (const item of locked) expect(item.retryAfter).toBeGreaterThan(0);
    // The pair lock lasts until its oldest failure leaves the window.
    expect(locked.find((i) => i.name === 'Bia Trancada')?.retryAfter).toBeGreaterThan(window - 60);
    for (const kind of Object.values(got) as AttentionKind[]) {
      expect(kind.items.length).toBeLessThanOrEqual(10);
      expect(kind.total).toBeGreaterThanOrEqual(kind.items.length);
    }
  });

  it('an item goes when its condition no longer holds', async () => {
    await t.db.updateTable('tenants').set({ user_limit: 3 }).where('id', '=', ids.a!).execute();
    await t.db.updateTable('instances').set({ status: 'done' }).where('id', '=', ids.failedB!).execute();
    await t.db.updateTable('connections').set({ status: 'connected' }).where('id', '=', ids.disconnectedA!).execute();
    await t.db
      .updateTable('login_attempts')
      .set({ lifted_at: new Date() })
      .where('email', '=', 'um@atencao-b.local')
      .execute();
    try {
      const got = await attention(staff);
      expect(ours(names(got.tenantsOverUserLimit))).toEqual([]);
      expect(ours(names(got.failedSyncs))).toEqual(['atencao-a/Loja A falhou']);
      expect(ours(names(got.disconnectedConnections))).toEqual([]);
      expect(got.lockedAccounts!.items.filter((i) => i.tenantName.startsWith('atencao-')).map((i) => i.name)).toEqual([
        'admin',
      ]);
    } finally {
      await t.db.updateTable('tenants').set({ user_limit: 2 }).where('id', '=', ids.a!).execute();
      await t.db.updateTable('instances').set({ status: 'failed' }).where('id', '=', ids.failedB!).execute();
      await t.db
        .updateTable('connections')
        .set({ status: 'disconnected' })
        .where('id', '=', ids.disconnectedA!)
        .execute();
      await t.db
        .updateTable('login_attempts')
        .set({ lifted_at: null })
        .where('email', '=', 'um@atencao-b.local')
        .execute();
    }
  });

  it('a customer sees only its own tenant’s items, and no locked accounts (the support desk is staff’s)', async () => {
    const got = await attention(customerAdmin, 'atencao-a');
    expect(names(got.tenantsOverUserLimit)).toEqual(['atencao-a/atencao-a']);
    expect(got.tenantsOverUserLimit!.total).toBe(1);
    expect(names(got.failedSyncs)).toEqual(['atencao-a/Loja A falhou']);
    expect(got.failedSyncs!.total).toBe(1);
    expect(names(got.disconnectedConnections)).toEqual(['atencao-a/Caixa A caiu']);
    expect(got.lockedAccounts).toBeNull();
  });

  it('a caller without the permission of a kind gets null for it', async () => {
    const usersOnly = await attention(customerUsersOnly, 'atencao-a');
    expect(usersOnly).toEqual({
      tenantsOverUserLimit: null,
      failedSyncs: null,
      disconnectedConnections: null,
      lockedAccounts: null,
    });
    const tenantsOnly = await attention(staffTenantsOnly);
    expect(tenantsOnly.lockedAccounts).toBeNull();
    expect(ours(names(tenantsOnly.failedSyncs))).toEqual(['atencao-b/Loja B falhou', 'atencao-a/Loja A falhou']);
  });

  it('nobody signed in gets a 401', async () => {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `${DOCUMENT}\n${FRAGMENT}` }),
    });
    expect(response.statusCode).toBe(401);
  });
});
