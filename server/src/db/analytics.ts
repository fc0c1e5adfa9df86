import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/** The time zone whose calendar days the aggregates use. */
export const ANALYTICS_TIME_ZONE = 'America/Sao_Paulo';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Longest range one call may recompute (about ten years). */
export const MAX_ANALYTICS_DAYS = 3660;

export interface RecomputeResult {
  /** Days written (inserted or updated), zero-activity days included. */
  recomputedDays: number;
  /** Days in the range left alone because their row was already final (only when `force` is false). */
  skippedDays: number;
  /** Source rows read: orders plus attendances on the recomputed days. */
  rows: number;
}

/**
 * Recomputes `analytics_daily` for one tenant over `[fromDay, toDay]` (São Paulo calendar days) in a
 * single INSERT … SELECT … ON CONFLICT DO UPDATE, so readers never see a half-written range.
 *
 * Every day of the range gets a row, zeros included (a day whose orders were removed is reset).
 * - `orders` / `revenue`: orders not cancelled, and the sum of their totals;
 * - `attendances`: attendances started that day; `tickets_closed`: those closed;
 *   `tickets_open`: the rest (open, pending, transferred).
 *
 * With `force: false`, days whose row was computed after the day had ended are final and skipped.
 *
 * @param fromDay - `YYYY-MM-DD`
 * @param toDay - `YYYY-MM-DD`, not before `fromDay`
 * @throws RangeError for malformed days, a reversed range or one longer than {@link MAX_ANALYTICS_DAYS}
 */
export async function recomputeAnalytics(
  db: Kysely<Database>,
  tenantId: number,
  fromDay: string,
  toDay: string,
  options: { force?: boolean } = {},
): Promise<RecomputeResult> {
  const span = daySpan(fromDay, toDay);
  if (span > MAX_ANALYTICS_DAYS)
    throw new RangeError(`recomputeAnalytics: at most ${String(MAX_ANALYTICS_DAYS)} days at once`);
  const force = options.force ?? true;
  const tz = sql.lit(ANALYTICS_TIME_ZONE);
  const from = sql`${fromDay}::date`;
  const to = sql`${toDay}::date`;
  const rangeStart = sql`(${from}::timestamp at time zone ${tz})`;
  const rangeEnd = sql`((${to} + 1)::timestamp at time zone ${tz})`;

  const result = await sql<{ recomputed: number; rows: number }>`
    with days as (
      select g::date as day
      from generate_series(${from}::timestamp, ${to}::timestamp, interval '1 day') as g
      where ${force} or not exists (
        select 1 from analytics_daily ad
        where ad.tenant_id = ${tenantId}
          and ad.day = g::date
          and ad.computed_at >= ((g::date + 1)::timestamp at time zone ${tz})
      )
    ),
    o as (
      select (created_at at time zone ${tz})::date as day,
             count(*) as source_rows,
             count(*) filter (where status <> 'cancelled') as orders,
             coalesce(sum(total) filter (where status <> 'cancelled'), 0) as revenue
      from orders
      where tenant_id = ${tenantId} and created_at >= ${rangeStart} and created_at < ${rangeEnd}
      group by 1
    ),
    a as (
      select (started_at at time zone ${tz})::date as day,
             count(*) as attendances,
             count(*) filter (where ticket_status <> 'closed') as tickets_open,
             count(*) filter (where ticket_status = 'closed') as tickets_closed
      from attendances
      where tenant_id = ${tenantId} and started_at >= ${rangeStart} and started_at < ${rangeEnd}
      group by 1
    ),
    written as (
      insert into analytics_daily (tenant_id, day, orders, revenue, attendances, tickets_open, tickets_closed, computed_at)
      select ${tenantId}, days.day,
             coalesce(o.orders, 0), coalesce(o.revenue, 0),
             coalesce(a.attendances, 0), coalesce(a.tickets_open, 0), coalesce(a.tickets_closed, 0),
             now()
      from days
      left join o on o.day = days.day
      left join a on a.day = days.day
      on conflict (tenant_id, day) do update set
        orders = excluded.orders,
        revenue = excluded.revenue,
        attendances = excluded.attendances,
        tickets_open = excluded.tickets_open,
        tickets_closed = excluded.tickets_closed,
        computed_at = excluded.computed_at
      returning day
    )
    select
      (select count(*) from written)::int as recomputed,
      ((select coalesce(sum(o.source_rows), 0) from o join days on days.day = o.day)
        + (select coalesce(sum(a.attendances), 0) from a join days on days.day = a.day))::int as rows
  `.execute(db);
  const row = result.rows[0] ?? { recomputed: 0, rows: 0 };
  return { recomputedDays: row.recomputed, skippedDays: span - row.recomputed, rows: row.rows };
}

/** Number of calendar days in `[fromDay, toDay]`, validating both. */
export function daySpan(fromDay: string, toDay: string): number {
  const from = parseDay(fromDay);
  const to = parseDay(toDay);
  if (to < from) throw new RangeError(`recomputeAnalytics: ${toDay} is before ${fromDay}`);
  return Math.round((to - from) / 86_400_000) + 1;
}

function parseDay(day: string): number {
  const time = DAY_PATTERN.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day)
    throw new RangeError(`not a calendar day: "${day}"`);
  return time;
}

/** The São Paulo calendar day of an instant, `YYYY-MM-DD`. */
export function saoPauloDay(instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: ANALYTICS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}
