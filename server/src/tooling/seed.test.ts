import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCnpj } from '../../../src/domain/cnpj';
import { PERMISSION_ROUTES } from '../db/catalog';
import type { OpenDatabase } from '../db/connect';
import { verifyPassword } from '../db/password';
import { DEMO_PASSWORD, seedDemo, type SeedSummary } from './seed';
import { MAX_CAMPAIGN_MESSAGES } from './seed-campaigns';
import { openTestDatabase } from '../test-support/database';

const ENGINES = ['pglite://memory', ...(process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : [])];
const NOW = new Date('2026-03-18T15:30:00Z');
const DAY = 86_400_000;

describe.each(ENGINES)('demo seed on %s', (url) => {
  let database: OpenDatabase;
  let summary: SeedSummary | null;

  beforeAll(async () => {
    database = await openTestDatabase(url);
    const started = Date.now();
    summary = await seedDemo(database.db, { now: NOW });
    console.info(`seedDemo on ${url.split(':')[0] ?? url}: ${String(Date.now() - started)} ms`, summary);
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  it('creates the back-office and 12+ customer tenants, two of them soft-deleted, with valid CNPJs', async () => {
    const tenants = await database.db
      .selectFrom('tenants')
      .select(['id', 'name', 'cnpj', 'deleted_at'])
      .orderBy('id')
      .execute();
    expect(summary?.tenants).toBe(tenants.length);
    expect(tenants.length).toBeGreaterThanOrEqual(13);
    expect(tenants[0]?.name).toBe('backoffice');
    expect(tenants.filter((t) => t.deleted_at !== null)).toHaveLength(2);
    expect(tenants.every((t) => isValidCnpj(t.cnpj))).toBe(true);
    const features = await database.db
      .selectFrom('tenant_features')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(features.n).toBe(tenants.length * 7);
  });

  it('gives every customer tenant campaign messages whose statuses follow one another, none after now', async () => {
    const perTenant = await database.db
      .selectFrom('campaign_messages as m')
      .innerJoin('tenants as t', 't.id', 'm.tenant_id')
      .select(['t.name', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('t.name')
      .execute();
    expect(summary?.campaignMessages).toBe(perTenant.reduce((sum, r) => sum + Number(r.n), 0));
    expect(perTenant.map((r) => r.name)).not.toContain('backoffice');
    expect(perTenant.length).toBeGreaterThanOrEqual(12);
    expect(perTenant.every((r) => Number(r.n) > 0 && Number(r.n) <= MAX_CAMPAIGN_MESSAGES)).toBe(true);
    const statuses = await database.db
      .selectFrom('campaign_message_statuses as s')
      .innerJoin('campaign_messages as m', 'm.id', 's.message_id')
      .select(['s.message_id', 's.status', 's.at', 's.tenant_id', 'm.tenant_id as message_tenant'])
      .orderBy('s.message_id')
      .orderBy('s.at')
      .execute();
    const byMessage = new Map<number, { status: string; at: Date }[]>();
    for (const row of statuses) {
      expect(row.tenant_id).toBe(row.message_tenant);
      expect(row.at.getTime()).toBeLessThanOrEqual(NOW.getTime());
      byMessage.set(row.message_id, [...(byMessage.get(row.message_id) ?? []), row]);
    }
    const orders = new Set<string>();
    for (const list of byMessage.values()) {
      for (let i = 1; i < list.length; i += 1) expect(list[i]!.at > list[i - 1]!.at).toBe(true);
      orders.add(list.map((r) => r.status).join('>'));
    }
    // Every progression the demo tells, and no other (a message sent moments before `now` may have no second status).
    const told = ['sent>delivered', 'sent>delivered>read', 'sent>delivered>read>replied', 'sent>failed'];
    expect([...orders].filter((o) => o !== 'sent').sort()).toEqual(told);
  });

  it('registers the newest customer tenants with alphanumeric CNPJs, masked in upper case and valid', async () => {
    const tenants = await database.db.selectFrom('tenants').select(['name', 'cnpj']).orderBy('id').execute();
    expect(tenants.every((t) => /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/.test(t.cnpj))).toBe(true);
    const alphanumeric = tenants.filter((t) => /[A-Z]/.test(t.cnpj));
    expect(alphanumeric.map((t) => t.name)).toEqual(['drogaria-cuidar', 'farmacia-sao-bento', 'drogaria-boa-saude']);
    expect(alphanumeric.filter((t) => !isValidCnpj(t.cnpj))).toEqual([]);
    // Checked by hand (IN RFB 2.229/2024: a character counts as its ASCII code minus 48): A,B,1,2,C,D,3,4,
    // 0,0,0,1 → 17,18,1,2,19,20,3,4,0,0,0,1; × 5,4,3,2,9,8,7,6,5,4,3,2 = 542, 542 mod 11 = 3 → 8;
    // with the 8, × 6,5,4,3,2,9,8,7,6,5,4,3,2 = 491, 491 mod 11 = 7 → 4.
    expect(alphanumeric.at(-1)?.cnpj).toBe('AB.12C.D34/0001-84');
  });

  it('creates both demo logins with argon2id hashes of the demo password', async () => {
    const users = await database.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select(['u.email', 'u.name', 'u.password_hash', 'u.origin_backoffice', 'r.name as role', 't.name as tenant'])
      .where('u.email', 'in', ['admin@demo.local', 'operador@demo.local'])
      .orderBy('u.email')
      .execute();
    expect(
      users.map(({ email, name, role, tenant, origin_backoffice }) => ({
        email,
        name,
        role,
        tenant,
        origin_backoffice,
      })),
    ).toEqual([
      {
        email: 'admin@demo.local',
        name: 'Ana Administradora',
        role: 'administrador',
        tenant: 'backoffice',
        origin_backoffice: true,
      },
      {
        email: 'operador@demo.local',
        name: 'Olívia Operadora',
        role: 'operador',
        tenant: 'backoffice',
        origin_backoffice: true,
      },
    ]);
    for (const user of users) {
      expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(user.password_hash, DEMO_PASSWORD)).toBe(true);
      expect(await verifyPassword(user.password_hash, 'wrong password')).toBe(false);
    }
  });

  it('gives administrador every permission and operador only dashboards and reports', async () => {
    const rows = await database.db
      .selectFrom('role_permissions as rp')
      .innerJoin('roles as r', 'r.id', 'rp.role_id')
      .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
      .select(['r.name as role', 'p.route_name'])
      .execute();
    const of = (role: string) =>
      rows
        .filter((r) => r.role === role)
        .map((r) => r.route_name)
        .sort();
    expect(of('administrador')).toEqual([...PERMISSION_ROUTES].sort());
    expect(of('operador')).toEqual([
      'dashboard-analytics',
      'dashboard-control-panel',
      'dashboard-maria-panel',
      'dashboard-produtivity-report',
      'dashboard-report',
      'dashboard-report-smart',
    ]);
    expect(of('operador').some((r) => r === 'users' || r === 'tenants' || r.startsWith('roles-'))).toBe(false);
    const categories = await database.db.selectFrom('permissions').select('category').distinct().execute();
    expect(categories.map((c) => c.category).sort()).toEqual(['dashboard', 'gestao', 'relatorios']);
  });

  it('gives each customer tenant 3–8 users, 1–3 instances with connections, and linked instances', async () => {
    const perTenant = await database.db
      .selectFrom('tenants as t')
      .select((eb) => [
        't.name',
        eb
          .selectFrom('users as u')
          .whereRef('u.tenant_id', '=', 't.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('users'),
        eb
          .selectFrom('instances as i')
          .whereRef('i.tenant_id', '=', 't.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('instances'),
        eb
          .selectFrom('connections as c')
          .whereRef('c.tenant_id', '=', 't.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('connections'),
        eb
          .selectFrom('departments as d')
          .whereRef('d.tenant_id', '=', 't.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('departments'),
      ])
      .where('t.name', '<>', 'backoffice')
      .execute();
    for (const t of perTenant) {
      expect(t.users).toBeGreaterThanOrEqual(3);
      expect(t.users).toBeLessThanOrEqual(8);
      expect(t.instances).toBeGreaterThanOrEqual(1);
      expect(t.instances).toBeLessThanOrEqual(3);
      expect(t.connections).toBe(t.instances);
      expect(t.departments).toBeGreaterThanOrEqual(2);
    }
    const unlinked = await sql<{ n: number }>`
      select count(*) as n from users u where not exists (select 1 from user_instances ui where ui.user_id = u.id)
    `.execute(database.db);
    expect(unlinked.rows[0]?.n).toBe(0);
  });

  it('fills 90 days of activity ending at now, a few hundred rows per tenant and kind', async () => {
    for (const table of ['orders', 'instance_logs', 'attendance_reasons'] as const) {
      const range = await database.db
        .selectFrom(table)
        .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
        .executeTakeFirstOrThrow();
      expect(new Date(range.first ?? 0).getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 90 * DAY);
      expect(new Date(range.last ?? 0).getTime()).toBeLessThanOrEqual(NOW.getTime());
    }
    const perTenant = await sql<{ name: string; orders: number; attendances: number; logs: number; reasons: number }>`
      select t.name,
        (select count(*) from orders o where o.tenant_id = t.id) as orders,
        (select count(*) from attendances a where a.tenant_id = t.id) as attendances,
        (select count(*) from instance_logs l where l.tenant_id = t.id) as logs,
        (select count(*) from attendance_reasons r where r.tenant_id = t.id) as reasons
      from tenants t where t.deleted_at is null
    `.execute(database.db);
    for (const t of perTenant.rows) {
      expect(Math.min(t.orders, t.attendances, t.logs, t.reasons), t.name).toBeGreaterThanOrEqual(100);
    }
    const days = await database.db
      .selectFrom('analytics_daily')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(days.n).toBe((summary?.tenants ?? 0) * 90);
  });

  it('skips when data exists', async () => {
    const before = await database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(await seedDemo(database.db, { now: NOW })).toBeNull();
    const after = await database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe('seed determinism', () => {
  async function fingerprint(): Promise<unknown> {
    const database = await openTestDatabase();
    try {
      await seedDemo(database.db, { now: NOW, seed: 7 });
      const tenants = await database.db
        .selectFrom('tenants')
        .select(['id', 'name', 'cnpj', 'plan', 'deleted_at', 'created_at'])
        .orderBy('id')
        .execute();
      const orders = await sql<{ tenant_id: number; n: number; total: number }>`
        select tenant_id, count(*) as n, sum(total) as total from orders group by tenant_id order by tenant_id
      `.execute(database.db);
      const users = await database.db
        .selectFrom('users')
        .select(['email', 'name', 'department_id'])
        .orderBy('id')
        .execute();
      const attendances = await sql<{
        n: number;
        s: number;
      }>`select count(*) as n, sum(handling_seconds) as s from attendances`.execute(database.db);
      return { tenants, orders: orders.rows, users, attendances: attendances.rows };
    } finally {
      await database.close();
    }
  }

  it('gives the same tenants, users and order totals for the same seed and now', async () => {
    const [a, b] = [await fingerprint(), await fingerprint()];
    expect(a).toEqual(b);
  }, 120_000);
});
