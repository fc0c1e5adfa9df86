import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recomputeAnalytics, saoPauloDay } from './analytics';
import type { OpenDatabase } from './connect';
import { seedDemo, type SeedSummary } from '../tooling/seed';
import { openTestDatabase } from '../test-support/database';

/** recomputeAnalytics over the demo seed (server/src/db/analytics.ts), on each engine as the seed tests run. */
const ENGINES = ['pglite://memory', ...(process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : [])];
const NOW = new Date('2026-03-18T15:30:00Z');
const DAY = 86_400_000;

describe.each(ENGINES)('recomputeAnalytics over the demo seed on %s', (url) => {
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

  it('recomputeAnalytics matches a direct sum over orders and attendances', async () => {
    const db = database.db;
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'farmacia-central')
      .executeTakeFirstOrThrow();
    const fromDay = saoPauloDay(new Date(NOW.getTime() - 29 * DAY));
    const toDay = saoPauloDay(NOW);
    // Wipe the aggregates so the comparison cannot pass on the seed's own numbers.
    await db.deleteFrom('analytics_daily').where('tenant_id', '=', tenant.id).execute();
    const result = await recomputeAnalytics(db, tenant.id, fromDay, toDay);
    expect(result.recomputedDays).toBe(30);
    expect(result.skippedDays).toBe(0);

    const direct = await sql<{ orders: number; revenue: number; attendances: number; closed: number; rows: number }>`
      select
        (select count(*) from orders where tenant_id = ${tenant.id} and status <> 'cancelled'
           and (created_at at time zone 'America/Sao_Paulo')::date between ${fromDay}::date and ${toDay}::date) as orders,
        (select coalesce(sum(total), 0) from orders where tenant_id = ${tenant.id} and status <> 'cancelled'
           and (created_at at time zone 'America/Sao_Paulo')::date between ${fromDay}::date and ${toDay}::date) as revenue,
        (select count(*) from attendances where tenant_id = ${tenant.id}
           and (started_at at time zone 'America/Sao_Paulo')::date between ${fromDay}::date and ${toDay}::date) as attendances,
        (select count(*) from attendances where tenant_id = ${tenant.id} and ticket_status = 'closed'
           and (started_at at time zone 'America/Sao_Paulo')::date between ${fromDay}::date and ${toDay}::date) as closed,
        (select count(*) from orders where tenant_id = ${tenant.id}
           and (created_at at time zone 'America/Sao_Paulo')::date between ${fromDay}::date and ${toDay}::date) as rows
    `.execute(db);
    const expected = direct.rows[0];
    const aggregated = await db
      .selectFrom('analytics_daily')
      .select((eb) => [
        eb.fn.sum<number>('orders').as('orders'),
        eb.fn.sum<number>('revenue').as('revenue'),
        eb.fn.sum<number>('attendances').as('attendances'),
        eb.fn.sum<number>('tickets_closed').as('closed'),
        eb.fn.countAll<number>().as('days'),
      ])
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    expect(expected?.revenue).toBeGreaterThan(0);
    expect(aggregated).toEqual({
      orders: expected?.orders,
      revenue: expected?.revenue,
      attendances: expected?.attendances,
      closed: expected?.closed,
      days: 30,
    });
    expect(result.rows).toBe((expected?.rows ?? 0) + (expected?.attendances ?? 0));
  });

  it('recomputeAnalytics without force skips final days and resets days whose data is gone', async () => {
    const db = database.db;
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'drogaria-sao-joao')
      .executeTakeFirstOrThrow();
    const fromDay = saoPauloDay(new Date(NOW.getTime() - 9 * DAY));
    // The seed computed every day at real time, long after NOW: all ten days are final.
    const lazy = await recomputeAnalytics(db, tenant.id, fromDay, saoPauloDay(NOW), { force: false });
    expect(lazy).toMatchObject({ recomputedDays: 0, skippedDays: 10, rows: 0 });

    const day = saoPauloDay(new Date(NOW.getTime() - 2 * DAY));
    await sql`delete from attendance_reasons where tenant_id = ${tenant.id}`.execute(db);
    await sql`delete from orders where tenant_id = ${tenant.id} and (created_at at time zone 'America/Sao_Paulo')::date = ${day}::date`.execute(
      db,
    );
    await sql`delete from attendances where tenant_id = ${tenant.id} and (started_at at time zone 'America/Sao_Paulo')::date = ${day}::date`.execute(
      db,
    );
    await recomputeAnalytics(db, tenant.id, day, day);
    const row = await db
      .selectFrom('analytics_daily')
      .selectAll()
      .where('tenant_id', '=', tenant.id)
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ orders: 0, revenue: 0, attendances: 0, tickets_open: 0, tickets_closed: 0 });
  });

  it('recomputeAnalytics refuses malformed or reversed ranges', async () => {
    await expect(recomputeAnalytics(database.db, 1, '2026-02-30', '2026-03-01')).rejects.toThrow(RangeError);
    await expect(recomputeAnalytics(database.db, 1, '2026-03-02', '2026-03-01')).rejects.toThrow(RangeError);
  });
});
