import { sql, type Kysely, type RawBuilder } from 'kysely';
import { performance } from 'node:perf_hooks';
import { recomputeAnalytics } from '../db/analytics';
import type { CampaignStatusType, Database } from '../db/schema';
import type { Actor } from '../access/caller';
import { resolveTenant } from '../tenants/scope';
import { auditWho, changesOf, type AuditTrail } from '../audit/trail';
import { generateRun } from '../webhooks/generate';
import { assertWebhookRole } from '../webhooks/who';
import type { WebhookProgress } from '../webhooks/progress';
import { BOM, csvLine, decimal } from '../base/csv';
import { loginFailuresQuery } from './sheets';
import { LOGIN_FAILURE_REPORT_ROWS } from '../../../src/domain/report-limits';
import { dayRange, reportScope, REPORT_TIME_ZONE, withinDays, type DayRange, type ReportScope } from './params';

/** The login-failure report is a screen, not an export: its newest rows are enough (and bound memory). */
const MAX_REPORT_ROWS = LOGIN_FAILURE_REPORT_ROWS;

/** Tenant staff only see failures of their tenant's users; attempts on unknown e-mails are back-office only. */
export const loginFailureScope = (actor: Actor): number | null => (actor.originBackoffice ? null : actor.tenantId);

const INTERVAL_UNITS = { day: 'day', week: 'week', month: 'month' } as const;

/** `tenant_id = …`, or nothing for an every-tenant scope. */
function tenantFilter(column: string, scope: ReportScope): RawBuilder<boolean> {
  return scope.tenantId === null ? sql<boolean>`true` : sql<boolean>`${sql.ref(column)} = ${scope.tenantId}`;
}

/** Value of one time-series point per bucket (same definitions as `analytics_daily`). */
function metricSource(
  metric: 'orders' | 'revenue' | 'attendances' | 'tickets',
  unit: RawBuilder<unknown>,
  scope: ReportScope,
  range: DayRange,
) {
  const bucket = (column: string) =>
    sql`date_trunc(${unit}, ${sql.ref(column)} at time zone ${REPORT_TIME_ZONE})::date`;
  if (metric === 'orders' || metric === 'revenue') {
    const value =
      metric === 'orders'
        ? sql`count(*) filter (where status <> 'cancelled')`
        : sql`round(coalesce(sum(total) filter (where status <> 'cancelled'), 0), 2)`;
    return sql`select ${bucket('created_at')} as bucket, ${value} as value from orders
      where ${tenantFilter('tenant_id', scope)} and ${withinDays('created_at', range)} group by 1`;
  }
  // `tickets` are the attendances whose ticket was closed; `attendances` counts them all.
  const value = metric === 'attendances' ? sql`count(*)` : sql`count(*) filter (where ticket_status = 'closed')`;
  return sql`select ${bucket('started_at')} as bucket, ${value} as value from attendances
    where ${tenantFilter('tenant_id', scope)} and ${withinDays('started_at', range)} group by 1`;
}

async function productivityRows(db: Kysely<Database>, scope: ReportScope, range: DayRange) {
  let query = db
    .selectFrom('attendances as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'u.id as user_id',
      'u.name',
      sql<number>`count(*)::int`.as('attendances'),
      sql<number>`coalesce(round(avg(a.first_response_seconds), 2), 0)`.as('avgFirstResponseSeconds'),
      sql<number>`coalesce(round(avg(a.handling_seconds), 2), 0)`.as('avgHandlingSeconds'),
      sql<number>`(count(*) filter (where a.ticket_status = 'closed'))::int`.as('closedTickets'),
    ])
    .where(withinDays('a.started_at', range));
  if (scope.tenantId !== null) query = query.where('a.tenant_id', '=', scope.tenantId);
  return query.groupBy(['u.id', 'u.name']).orderBy('u.name').orderBy('u.id').execute();
}

export type Metric = 'orders' | 'revenue' | 'attendances' | 'tickets';
export type Interval = keyof typeof INTERVAL_UNITS;
export type { CampaignStatusType } from '../db/schema';

/**
 * Dashboards, reports and analytics (contracts/openapi.yaml tags `dashboard` and `tenants`): every
 * number the screens show, computed here whichever protocol asks.
 */
export function createAnalytics({
  db,
  audit,
  webhookProgress,
}: {
  db: Kysely<Database>;
  audit: AuditTrail;
  webhookProgress?: WebhookProgress | undefined;
}) {
  return {
    /** Recomputes the tenant's daily aggregates over the range; without `force`, days aggregated after they ended are kept. */
    async syncAnalytics(
      actor: Actor,
      q: { tenantName?: string; fromDate: string; toDate: string; forceUpdate?: boolean },
    ) {
      const range = dayRange(q.fromDate, q.toDate, 'toDate');
      const tenant = await resolveTenant(db, actor, q.tenantName);
      const forceUpdate = q.forceUpdate ?? false;
      const started = performance.now();
      const result = await recomputeAnalytics(db, tenant.id, range.start, range.finish, { force: forceUpdate });
      return {
        tenantName: tenant.name,
        fromDate: range.start,
        toDate: range.finish,
        forceUpdate,
        ...result,
        durationMs: Math.round(performance.now() - started),
      };
    },

    /**
     * A webhook run for the tenant, range and type (docs/webhooks.md; server/src/webhooks/generate.ts): its
     * deliveries queued in the transaction of its audit record, then sent by the webhook workers.
     */
    async campaignStatusWebhook(
      actor: Actor,
      q: { tenantName?: string; startAt: string; finishAt: string; type: CampaignStatusType },
    ) {
      // Who may: as for the rest of the webhooks (server/src/webhooks/who.ts), a tenant's user as administrador.
      assertWebhookRole(actor);
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      const tenant = await resolveTenant(db, actor, q.tenantName);
      const run = await audit.transaction(auditWho(actor), async (trx, record) => {
        const generated = await generateRun(trx, {
          tenantId: tenant.id,
          type: q.type,
          start: range.start,
          finish: range.finish,
          createdBy: actor.userId,
        });
        await record({
          operation: 'webhook.generate',
          target: { id: generated.runId, name: null },
          tenantId: tenant.id,
          changes: changesOf(null, {
            type: q.type,
            start_at: range.start,
            finish_at: range.finish,
            total: generated.deliveries,
          }),
        });
        return generated;
      });
      // The run's first progress event; any process's worker hearing it starts sending (server/src/webhooks/worker.ts).
      webhookProgress?.changed(run.runId);
      return {
        tenantName: tenant.name,
        type: q.type,
        startAt: range.start,
        finishAt: range.finish,
        deliveries: run.deliveries,
        deliveryId: run.runId,
      };
    },

    /** Failed sign-ins in the range, newest first (at most 10,000): tenant staff see only their tenant's users'. */
    async loginFailures(
      actor: Actor,
      q: { start_at: string; finish_at: string; selectedUsers?: readonly number[] | null },
    ) {
      const range = dayRange(q.start_at, q.finish_at, 'finish_at');
      // The same rows as the sheet without the cut (sheetLoginFailures).
      const rows = await loginFailuresQuery(db, loginFailureScope(actor), range, q.selectedUsers ?? undefined)
        .orderBy('la.created_at', 'desc')
        .orderBy('la.id', 'desc')
        .limit(MAX_REPORT_ROWS)
        .execute();
      return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
    },

    /** The dashboard's totals over the range, for one tenant or (staff) every tenant. */
    async summary(actor: Actor, q: { tenantName?: string; startAt: string; finishAt: string }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      const scope = await reportScope(db, actor, q.tenantName);
      const [orders, attendances, users] = await Promise.all([
        db
          .selectFrom('orders')
          .select([
            sql<number>`(count(*) filter (where status <> 'cancelled'))::int`.as('orders'),
            sql<number>`round(coalesce(sum(total) filter (where status <> 'cancelled'), 0), 2)`.as('revenue'),
          ])
          .where(tenantFilter('tenant_id', scope))
          .where(withinDays('created_at', range))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('attendances')
          .select([
            sql<number>`count(*)::int`.as('attendances'),
            sql<number>`(count(*) filter (where ticket_status <> 'closed'))::int`.as('open'),
            sql<number>`(count(*) filter (where ticket_status = 'closed'))::int`.as('closed'),
          ])
          .where(tenantFilter('tenant_id', scope))
          .where(withinDays('started_at', range))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('users')
          .select(sql<number>`count(*)::int`.as('online'))
          .where('is_connected', '=', true)
          .where('deleted_at', 'is', null)
          .where(tenantFilter('tenant_id', scope))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        startAt: range.start,
        finishAt: range.finish,
        orders: orders.orders,
        revenue: orders.revenue,
        averageTicket: orders.orders === 0 ? 0 : Math.round((orders.revenue / orders.orders) * 100) / 100,
        attendances: attendances.attendances,
        ticketsOpen: attendances.open,
        ticketsClosed: attendances.closed,
        onlineUsers: users.online,
      };
    },

    /** One point per day, week or month of the range (empty buckets are 0). */
    async timeseries(
      actor: Actor,
      q: { tenantName?: string; startAt: string; finishAt: string; metric: Metric; interval?: Interval },
    ) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      const scope = await reportScope(db, actor, q.tenantName);
      const interval = q.interval ?? 'day';
      const unit = sql.lit(INTERVAL_UNITS[interval]);
      // One bucket per interval from the one holding startAt to the one holding finishAt; empty ones are 0.
      const { rows } = await sql<{ date: string; value: number }>`
      with buckets as (
        select g::date as bucket
        from generate_series(date_trunc(${unit}, ${range.start}::date::timestamp), date_trunc(${unit}, ${range.finish}::date::timestamp), ${sql.lit(`1 ${INTERVAL_UNITS[interval]}`)}::interval) as g
      ),
      src as (${metricSource(q.metric, unit, scope, range)})
      select to_char(b.bucket, 'YYYY-MM-DD') as date, coalesce(src.value, 0)::float8 as value
      from buckets b left join src on src.bucket = b.bucket
      order by b.bucket
    `.execute(db);
      return { metric: q.metric, interval, points: rows };
    },

    /** Per attendant over the range: attendances, average first response and handling times, closed tickets. */
    async productivity(actor: Actor, q: { tenantName?: string; startAt: string; finishAt: string }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      const scope = await reportScope(db, actor, q.tenantName);
      return { range, rows: await productivityRows(db, scope, range) };
    },
  };
}

export type Analytics = ReturnType<typeof createAnalytics>;
type ProductivityRow = Awaited<ReturnType<typeof productivityRows>>[number];

/** The productivity report as CSV lines (server/src/base/csv.ts); one row per attendant. */
export async function* productivityCsv(rows: readonly ProductivityRow[]): AsyncGenerator<string> {
  yield (
    BOM + csvLine(['atendente', 'atendimentos', 'primeira_resposta_media_s', 'duracao_media_s', 'tickets_fechados'])
  );
  for (const r of rows)
    yield csvLine([
      r.name,
      r.attendances,
      decimal(r.avgFirstResponseSeconds),
      decimal(r.avgHandlingSeconds),
      r.closedTickets,
    ]);
}
