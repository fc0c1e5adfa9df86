import { decodeJwt } from 'jose';
import { startTestApp } from './app';
import { OPERATIONS } from './openapi-schema';
import { forgedToken } from './ordering';
import { createTestUser } from './users';
import { B_MARKERS, authorization, ids, leaks, m, mint, refusedWrites, users } from './rbac-matrix';
import type { Principal } from './rbac-matrix';
import type { SignedIn } from './rbac-ordering';

// ------------------------------------------------------------------------------------------------------
// Setup
// ------------------------------------------------------------------------------------------------------

/** Registers the matrix app (tenants A and B, their users and records) in the calling test file. */
export function useMatrixApp(): void {
  beforeAll(async () => {
    m.t = await startTestApp({ seed: { days: 1 }, config: { loginMaxFailures: 1_000_000 } });
    m.key = new TextEncoder().encode(
      (await m.t.db.selectFrom('server_secrets').select('value').where('name', '=', 'jwt').executeTakeFirstOrThrow())
        .value,
    );
    for (const name of ['matrix-a', 'matrix-b'] as const) {
      const row = await m.t.db
        .insertInto('tenants')
        .values({
          name,
          cnpj: '11.444.777/0001-61',
          template: 'pharmacy',
          pool: 'pool-a',
          plan: 'starter',
          user_limit: 1000,
          ticket_limit: 100,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[name === 'matrix-a' ? 'a' : 'b'] = row.id;
    }
    users.admin = await createTestUser(m.t.db, {
      email: 'matrix-admin@demo.local',
      tenant: 'backoffice',
      role: 'administrador',
    });
    users.op = await createTestUser(m.t.db, {
      email: 'matrix-operador@demo.local',
      tenant: 'backoffice',
      role: 'operador',
    });
    users.login = await createTestUser(m.t.db, {
      email: 'matrix-login@demo.local',
      tenant: 'backoffice',
      role: 'operador',
    });
    users.aAdmin = await createTestUser(m.t.db, {
      email: 'matrix-a-admin@demo.local',
      tenant: 'matrix-a',
      role: 'administrador',
      originBackoffice: false,
    });
    await createTestUser(m.t.db, { email: 'matrix-a-user@demo.local', tenant: 'matrix-a', originBackoffice: false });
    const bUser = await createTestUser(m.t.db, {
      email: 'matrix-b-user@demo.local',
      tenant: 'matrix-b',
      name: 'Bruno Segredo',
      originBackoffice: false,
    });
    ids.bUser = bUser.id;
    await m.t.db.updateTable('users').set({ is_connected: true }).where('id', '=', bUser.id).execute();
    ids.bInstance = (
      await m.t.db
        .insertInto('instances')
        .values({ tenant_id: ids.b, name: 'Instancia Secreta B' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.bDepartment = (
      await m.t.db
        .insertInto('departments')
        .values({ tenant_id: ids.b, name: 'Departamento Secreto B' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.bLink = (
      await m.t.db
        .insertInto('user_instances')
        .values({ user_id: bUser.id, instance_id: ids.bInstance })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.bConnection = (
      await m.t.db
        .insertInto('connections')
        .values({
          tenant_id: ids.b,
          instance_id: ids.bInstance,
          name: 'Conexão Secreta B',
          phone: '+5511999990000',
          status: 'connected',
          last_seen_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await m.t.db
      .insertInto('login_attempts')
      .values({
        email: 'matrix-b-user@demo.local',
        ip: null,
        remote_address: '10.0.0.9',
        user_id: bUser.id,
        success: false,
      })
      .execute();
    ids.role = (
      await m.t.db
        .insertInto('roles')
        .values({ name: 'matrix_role', display_name: 'Matrix role' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Ordering cells only: back-office staff whose role holds no route permission.
    await m.t.db.insertInto('roles').values({ name: 'matrix_none', display_name: 'Matrix no routes' }).execute();
    users.none = await createTestUser(m.t.db, {
      email: 'matrix-none@demo.local',
      tenant: 'backoffice',
      role: 'matrix_none',
    });
    m.opRoutes = new Set(
      (
        await m.t.db
          .selectFrom('role_permissions as rp')
          .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
          .innerJoin('roles as r', 'r.id', 'rp.role_id')
          .select('p.route_name')
          .where('r.name', '=', 'operador')
          .execute()
      ).map((r) => r.route_name),
    );
  }, 120_000);

  afterAll(async () => {
    await m.t?.close();
  });
}

export function operation(operationId: string) {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in contracts/openapi.yaml`);
  return op;
}

/** Authorization headers for the ordering cells, minted once per operation (invalid input never reaches a handler). */
export async function signedInHeaders(): Promise<Record<'anon' | 'malf' | 'forged' | SignedIn, string | undefined>> {
  const admin = await mint(users.admin);
  const op = `Bearer ${await mint(users.op)}`;
  return {
    anon: undefined,
    malf: await authorization('malf'),
    forged: `Bearer ${await forgedToken(decodeJwt(admin))}`,
    op,
    opSelf: op,
    none: `Bearer ${await mint(users.none)}`,
    AtoB: `Bearer ${await mint(users.aAdmin)}`,
    admin: `Bearer ${admin}`,
  };
}

export function leakCheck(who: Principal, label: string, body: string): void {
  if (who !== 'AtoB') return;
  for (const marker of B_MARKERS)
    if (body.includes(marker)) leaks.push(`${label}: answer to tenant A contains "${marker}": ${body.slice(0, 200)}`);
}

/** As set up: tenant B's plan before any call of the file changed it. */
export const B_PLAN_AS_SET_UP = { plan: 'starter', user_limit: 1000 };

/**
 * Nothing of tenant B showed in an answer to tenant A, and no refused call changed tenant B: its plan is
 * `bPlan` (what the allowed calls of the file left) and its user is as set up.
 */
export async function expectNothingLeaked(bPlan: { plan: string; user_limit: number }): Promise<void> {
  expect(leaks).toEqual([]);
  // Refused writes carried "pwned-<principal>": none may have landed anywhere.
  const landed = [
    ...(await m.t.db.selectFrom('users').select('name as value').where('name', 'like', 'pwned-%').execute()),
    ...(await m.t.db.selectFrom('instances').select('name as value').where('name', 'like', 'pwned-%').execute()),
    ...(await m.t.db.selectFrom('departments').select('name as value').where('name', 'like', 'pwned-%').execute()),
    ...(await m.t.db.selectFrom('connections').select('name as value').where('name', 'like', 'pwned-%').execute()),
    ...(await m.t.db
      .selectFrom('roles')
      .select('display_name as value')
      .where('display_name', 'like', 'pwned-%')
      .execute()),
  ];
  refusedWrites.push(...landed.map((r) => r.value));
  expect(refusedWrites).toEqual([]);
  const b = await m.t.db
    .selectFrom('tenants')
    .select(['plan', 'user_limit'])
    .where('id', '=', ids.b)
    .executeTakeFirstOrThrow();
  expect(b).toEqual(bPlan);
  const bUser = await m.t.db
    .selectFrom('users')
    .select(['name', 'blocked', 'deleted_at'])
    .where('id', '=', ids.bUser)
    .executeTakeFirstOrThrow();
  expect(bUser).toEqual({ name: 'Bruno Segredo', blocked: false, deleted_at: null });
}
