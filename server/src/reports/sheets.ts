import { sql, type Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { Database } from '../db/schema';
import { decimal } from '../base/csv';
import { csvIntSql, csvMoneySql, csvPageOf, csvRecordSql, csvTextSql, csvTimeSql } from './csv-sql';
import { withinDays, type DayRange, type ReportScope } from './params';
import { after, cursorOf, type Sheet, type SheetRow } from './sheet';
import { NOT_REPORTED_REASONS } from '../base/sign-in-reasons';

type Schemas = components['schemas'];

/** Lets TypeScript infer a sheet's row type from its `page` query. */
const defineSheet = <Row extends SheetRow, Json>(sheet: Sheet<Row, Json>): Sheet<Row, Json> => sheet;

const countOf = sql<number>`count(*)::int`.as('n');

/**
 * Tenant names by id for one sheet request, read once per tenant instead of joined on every row: the
 * join cost an index lookup per row (half the time of a 1,000,000-row orders sheet, bench/scale.ts);
 * this costs one query per page for the ids not seen yet. Bounded by the number of tenants.
 */
function tenantNameCache(db: Kysely<Database>): (ids: readonly number[]) => Promise<Map<number, string>> {
  const names = new Map<number, string>();
  return async (ids) => {
    const missing = [...new Set(ids)].filter((id) => !names.has(id));
    if (missing.length > 0) {
      const rows = await db.selectFrom('tenants').select(['id', 'name']).where('id', 'in', missing).execute();
      for (const row of rows) names.set(row.id, row.name);
    }
    return names;
  };
}

/** Exported for csv-sql.test.ts, which compares its two CSV paths. */
export function ordersSheet(db: Kysely<Database>, scope: ReportScope, range: DayRange) {
  const base = () => {
    const q = db.selectFrom('orders as o').where(withinDays('o.created_at', range));
    return scope.tenantId === null ? q : q.where('o.tenant_id', '=', scope.tenantId);
  };
  const tenantNames = tenantNameCache(db);
  return defineSheet({
    file: 'orders',
    header: ['id', 'tenant', 'criado_em', 'cliente', 'site', 'status', 'itens', 'total'],
    count: async () => (await base().select(countOf).executeTakeFirstOrThrow()).n,
    page: async (cursor, limit) => {
      let q = base()
        .select([
          'o.id',
          'o.tenant_id',
          'o.created_at',
          'o.customer_name',
          'o.website_id',
          'o.status',
          'o.items',
          'o.total',
        ])
        // Filled below; selected so every row object has the property from the start (no reshaping,
        // no per-row copy: copying rows cost a seventh of the server's time on a 1,000,000-row sheet).
        .select(sql<string>`''`.as('tenant_name'))
        .select(cursorOf('o.created_at').as('cursor_at'));
      if (cursor) q = q.where(after('o.created_at', 'o.id', cursor));
      const rows = await q.orderBy('o.created_at').orderBy('o.id').limit(limit).execute();
      const names = await tenantNames(rows.map((r) => r.tenant_id));
      for (const row of rows) row.tenant_name = names.get(row.tenant_id) ?? '';
      return rows;
    },
    json: (r): Schemas['OrderRow'] => ({
      id: r.id,
      tenantName: r.tenant_name,
      created_at: r.created_at.toISOString(),
      customer_name: r.customer_name,
      website_id: r.website_id,
      status: r.status,
      items: r.items,
      total: r.total,
    }),
    csv: (r) => [r.id, r.tenant_name, r.created_at, r.customer_name, r.website_id, r.status, r.items, decimal(r.total)],
    csvPage: (cursor, limit) => {
      let q = base()
        .leftJoin('tenants as t', 't.id', 'o.tenant_id')
        .select(['o.id', 'o.created_at as sort_at'])
        .select(cursorOf('o.created_at').as('cursor_at'))
        .select(
          csvRecordSql([
            csvIntSql(sql.ref('o.id')),
            csvTextSql(sql.ref('t.name')),
            csvTimeSql(sql.ref('o.created_at')),
            csvTextSql(sql.ref('o.customer_name')),
            csvIntSql(sql.ref('o.website_id')),
            csvTextSql(sql.ref('o.status')),
            csvIntSql(sql.ref('o.items')),
            csvMoneySql(sql.ref('o.total')),
          ]).as('line'),
        );
      if (cursor) q = q.where(after('o.created_at', 'o.id', cursor));
      return csvPageOf(db, q.orderBy('o.created_at').orderBy('o.id').limit(limit));
    },
  });
}

export interface AttendanceFilter {
  websiteId?: number;
  estimation?: boolean;
}

export function attendancesSheet(db: Kysely<Database>, scope: ReportScope, range: DayRange, filter: AttendanceFilter) {
  const base = () => {
    let q = db.selectFrom('attendances as a').where(withinDays('a.started_at', range));
    if (scope.tenantId !== null) q = q.where('a.tenant_id', '=', scope.tenantId);
    if (filter.websiteId !== undefined) q = q.where('a.website_id', '=', filter.websiteId);
    if (filter.estimation !== undefined) q = q.where('a.estimation', '=', filter.estimation);
    return q;
  };
  return defineSheet({
    file: 'attendances',
    header: [
      'id',
      'tenant',
      'inicio',
      'fim',
      'atendente',
      'site',
      'orcamento',
      'valor_orcamento',
      'primeira_resposta_s',
      'duracao_s',
      'status',
    ],
    count: async () => (await base().select(countOf).executeTakeFirstOrThrow()).n,
    page: (cursor, limit) => {
      let q = base()
        .innerJoin('tenants as t', 't.id', 'a.tenant_id')
        .leftJoin('users as u', 'u.id', 'a.user_id')
        .select([
          'a.id',
          't.name as tenant_name',
          'a.started_at',
          'a.finished_at',
          'a.user_id',
          'u.name as attendant_name',
          'a.website_id',
          'a.estimation',
          'a.estimation_value',
          'a.first_response_seconds',
          'a.handling_seconds',
          'a.ticket_status',
        ])
        .select(cursorOf('a.started_at').as('cursor_at'));
      if (cursor) q = q.where(after('a.started_at', 'a.id', cursor));
      return q.orderBy('a.started_at').orderBy('a.id').limit(limit).execute();
    },
    json: (r): Schemas['AttendanceRow'] => ({
      id: r.id,
      tenantName: r.tenant_name,
      started_at: r.started_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
      user_id: r.user_id,
      attendant_name: r.attendant_name,
      website_id: r.website_id,
      estimation: r.estimation,
      estimation_value: r.estimation_value,
      first_response_seconds: r.first_response_seconds,
      handling_seconds: r.handling_seconds,
      ticket_status: r.ticket_status,
    }),
    csv: (r) => [
      r.id,
      r.tenant_name,
      r.started_at,
      r.finished_at,
      r.attendant_name,
      r.website_id,
      r.estimation,
      decimal(r.estimation_value),
      r.first_response_seconds,
      r.handling_seconds,
      r.ticket_status,
    ],
  });
}

export function instanceLogsSheet(db: Kysely<Database>, scope: ReportScope, range: DayRange) {
  const base = () => {
    const q = db.selectFrom('instance_logs as l').where(withinDays('l.created_at', range));
    return scope.tenantId === null ? q : q.where('l.tenant_id', '=', scope.tenantId);
  };
  return defineSheet({
    file: 'instance-logs',
    header: ['id', 'tenant', 'instancia_id', 'instancia', 'criado_em', 'evento', 'detalhe'],
    count: async () => (await base().select(countOf).executeTakeFirstOrThrow()).n,
    page: (cursor, limit) => {
      let q = base()
        .innerJoin('tenants as t', 't.id', 'l.tenant_id')
        .innerJoin('instances as i', 'i.id', 'l.instance_id')
        .select([
          'l.id',
          't.name as tenant_name',
          'l.instance_id',
          'i.name as instance_name',
          'l.created_at',
          'l.event',
          'l.detail',
        ])
        .select(cursorOf('l.created_at').as('cursor_at'));
      if (cursor) q = q.where(after('l.created_at', 'l.id', cursor));
      return q.orderBy('l.created_at').orderBy('l.id').limit(limit).execute();
    },
    json: (r): Schemas['InstanceLogRow'] => ({
      id: r.id,
      tenantName: r.tenant_name,
      instance_id: r.instance_id,
      instance_name: r.instance_name,
      created_at: r.created_at.toISOString(),
      event: r.event,
      detail: r.detail,
    }),
    csv: (r) => [r.id, r.tenant_name, r.instance_id, r.instance_name, r.created_at, r.event, r.detail],
  });
}

export function reasonsSheet(db: Kysely<Database>, scope: ReportScope, range: DayRange, reasonId: number | undefined) {
  const base = () => {
    let q = db.selectFrom('attendance_reasons as ar').where(withinDays('ar.created_at', range));
    if (scope.tenantId !== null) q = q.where('ar.tenant_id', '=', scope.tenantId);
    if (reasonId !== undefined) q = q.where('ar.reason_id', '=', reasonId);
    return q;
  };
  return defineSheet({
    file: 'reasons',
    header: ['id', 'tenant_id', 'tenant', 'motivo_id', 'motivo', 'atendimento', 'criado_em'],
    count: async () => (await base().select(countOf).executeTakeFirstOrThrow()).n,
    page: (cursor, limit) => {
      let q = base()
        .innerJoin('tenants as t', 't.id', 'ar.tenant_id')
        .innerJoin('reasons as r', 'r.id', 'ar.reason_id')
        .select([
          'ar.id',
          'ar.tenant_id',
          't.name as tenant_name',
          'ar.reason_id',
          'r.name as reason_name',
          'ar.attendance_id',
          'ar.created_at',
        ])
        .select(cursorOf('ar.created_at').as('cursor_at'));
      if (cursor) q = q.where(after('ar.created_at', 'ar.id', cursor));
      return q.orderBy('ar.created_at').orderBy('ar.id').limit(limit).execute();
    },
    json: (r): Schemas['ReasonRow'] => ({
      id: r.id,
      tenancy_id: r.tenant_id,
      tenantName: r.tenant_name,
      reason_id: r.reason_id,
      reason_name: r.reason_name,
      attendance_id: r.attendance_id,
      created_at: r.created_at.toISOString(),
    }),
    csv: (r) => [r.id, r.tenant_id, r.tenant_name, r.reason_id, r.reason_name, r.attendance_id, r.created_at],
  });
}

/**
 * Failed sign-ins in the range, narrowed to `userIds` when any: what the login-failure report
 * (./analytics.ts, `loginFailures`) and its sheet both read. `tenantId` (tenant staff): only that
 * tenant's users' failures, so attempts on unknown e-mails are back-office only. `success = false` leaves
 * out an attempt still reserved (null until checked, server/src/auth/attempts.ts): it shows once it fails.
 *
 * `ip` is the connection's address as the trusted proxies tell it (`remote_address`: TRUST_PROXY,
 * docs/operations.md), the one the throttle counts; `claimed_ip` is what the browser's IP lookup said,
 * sent in the sign-in body, which anyone can set, so it is shown apart and never in place of the other.
 */
export function loginFailuresQuery(
  db: Kysely<Database>,
  tenantId: number | null,
  range: DayRange,
  userIds: readonly number[] | undefined,
) {
  let q = db
    .selectFrom('login_attempts as la')
    .leftJoin('users as u', 'u.id', 'la.user_id')
    .select([
      'la.id',
      'la.created_at',
      'la.email',
      'la.remote_address as ip',
      'la.ip as claimed_ip',
      'la.user_id',
      'u.name as user_name',
    ])
    .where('la.success', '=', false)
    // Sign-in steps and the throttle's refusals, recorded since migration 0019 for the support desk, are
    // no failed sign-in of this report (server/src/base/sign-in-reasons.ts).
    .where((eb) => eb.or([eb('la.reason', 'is', null), eb('la.reason', 'not in', [...NOT_REPORTED_REASONS])]))
    .where(withinDays('la.created_at', range));
  if (tenantId !== null) q = q.where('u.tenant_id', '=', tenantId);
  if (userIds?.length) q = q.where('la.user_id', 'in', [...userIds]);
  return q;
}

/** The login-failure report without its row cut (contracts/openapi.yaml, sheetLoginFailures). */
export function loginFailuresSheet(
  db: Kysely<Database>,
  tenantId: number | null,
  range: DayRange,
  userIds: readonly number[] | undefined,
) {
  const base = () => loginFailuresQuery(db, tenantId, range, userIds);
  return defineSheet({
    file: 'login-failures',
    header: ['id', 'criado_em', 'email', 'endereco', 'ip_informado', 'usuario_id', 'usuario'],
    count: async () => (await db.selectFrom(base().as('f')).select(countOf).executeTakeFirstOrThrow()).n,
    page: (cursor, limit) => {
      let q = base().select(cursorOf('la.created_at').as('cursor_at'));
      if (cursor) q = q.where(after('la.created_at', 'la.id', cursor));
      return q.orderBy('la.created_at').orderBy('la.id').limit(limit).execute();
    },
    json: (r): Schemas['LoginFailure'] => ({
      id: r.id,
      created_at: r.created_at.toISOString(),
      email: r.email,
      ip: r.ip,
      claimed_ip: r.claimed_ip,
      user_id: r.user_id,
      user_name: r.user_name,
    }),
    csv: (r) => [r.id, r.created_at, r.email, r.ip, r.claimed_ip, r.user_id, r.user_name],
  });
}
