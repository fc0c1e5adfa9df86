import {
  AUDIT_OPERATION_NAMES,
  AUDIT_PAGE_LIMIT,
  AUDIT_TARGET_TYPES,
  type AuditOperation,
  type AuditTargetType,
} from '../../domain/audit';
import { isIsoDate, isValidRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import type { paths } from '../../generated/openapi';

/**
 * The Auditoria screen's filters as they live in the address
 * (`?from=2026-11-01&to=2026-11-07&operation=tenant.plan&targetType=tenant&targetId=2`), so a link or
 * a reload restores them. A pure parse/serialize pair; days are the browser's calendar days, turned into
 * the instants `GET /api/audit` takes (contracts/openapi.yaml `auditList`) by {@link auditApiQuery}.
 */
export interface AuditQuery {
  /** First day, `YYYY-MM-DD`, inclusive. */
  from: string;
  /** Last day, `YYYY-MM-DD`, inclusive. */
  to: string;
  actorId: number | null;
  /** Staff only (others are scoped to their own tenant by the server anyway). */
  tenantId: number | null;
  operation: AuditOperation | null;
  targetType: AuditTargetType | null;
  targetId: number | null;
}

export type AuditApiQuery = NonNullable<paths['/api/audit']['get']['parameters']['query']>;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the day `days` before `now` in the browser's zone. */
export function dayBefore(days: number, now: Date = new Date()): string {
  // Local noon: a day's arithmetic never lands on a DST boundary.
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 12);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The last 7 days, today included, everything else open. */
export function defaultAuditQuery(now: Date = new Date()): AuditQuery {
  return {
    from: dayBefore(6, now),
    to: dayBefore(0, now),
    actorId: null,
    tenantId: null,
    operation: null,
    targetType: null,
    targetId: null,
  };
}

const ID = /^[1-9]\d{0,9}$/;

/** Local midnight of a `YYYY-MM-DD` day (`plusDays` later), or null when it is no calendar day. */
function midnight(day: string, plusDays = 0): Date | null {
  if (!isIsoDate(day)) return null;
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays);
}

/** A positive id from text (the id fields and the address), or null. */
export function parseId(value: string | null | undefined): number | null {
  const text = (value ?? '').trim();
  return ID.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

const isOperation = (value: string | null): value is AuditOperation =>
  value !== null && (AUDIT_OPERATION_NAMES as readonly string[]).includes(value);
const isTargetType = (value: string | null): value is AuditTargetType =>
  value !== null && (AUDIT_TARGET_TYPES as readonly string[]).includes(value);

/** The filters in a query string; anything missing or malformed takes its default. */
export function parseAuditQuery(search: string, now: Date = new Date()): AuditQuery {
  const params = new URLSearchParams(search);
  const fallback = defaultAuditQuery(now);
  const day = (name: string, other: string) => {
    const value = params.get(name);
    return value !== null && midnight(value) ? value : other;
  };
  const operation = params.get('operation');
  const targetType = params.get('targetType');
  return {
    from: day('from', fallback.from),
    to: day('to', fallback.to),
    actorId: parseId(params.get('actorId')),
    tenantId: parseId(params.get('tenantId')),
    operation: isOperation(operation) ? operation : null,
    targetType: isTargetType(targetType) ? targetType : null,
    targetId: parseId(params.get('targetId')),
  };
}

/** The query string of the filters; defaults are left out (so "the last 7 days" moves with today). */
export function serializeAuditQuery(query: AuditQuery, now: Date = new Date()): string {
  const fallback = defaultAuditQuery(now);
  const params = new URLSearchParams();
  if (query.from !== fallback.from) params.set('from', query.from);
  if (query.to !== fallback.to) params.set('to', query.to);
  if (query.actorId !== null) params.set('actorId', String(query.actorId));
  if (query.tenantId !== null) params.set('tenantId', String(query.tenantId));
  if (query.operation !== null) params.set('operation', query.operation);
  if (query.targetType !== null) params.set('targetType', query.targetType);
  if (query.targetId !== null) params.set('targetId', String(query.targetId));
  return params.toString();
}

export function sameAuditQuery(a: AuditQuery, b: AuditQuery): boolean {
  return (Object.keys(a) as (keyof AuditQuery)[]).every((key) => a[key] === b[key]);
}

/** Why the filters cannot be applied (an i18n key), or null when they can. */
export function auditQueryProblem(query: AuditQuery): I18nKey | null {
  if (!isValidRange({ startAt: query.from, finishAt: query.to })) return 'audit.errors.range';
  if (query.targetId !== null && query.targetType === null) return 'audit.errors.targetId';
  return null;
}

/** The REST query of the filters: the days as instants (from the first day's midnight to the day after the last). */
export function auditApiQuery(query: AuditQuery, page: { after?: string | null; limit?: number } = {}): AuditApiQuery {
  const from = midnight(query.from);
  const to = midnight(query.to, 1);
  return {
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
    ...(query.actorId !== null ? { actorId: query.actorId } : {}),
    ...(query.tenantId !== null ? { tenantId: query.tenantId } : {}),
    ...(query.operation !== null ? { operation: [query.operation] } : {}),
    ...(query.targetType !== null ? { targetType: query.targetType } : {}),
    ...(query.targetId !== null ? { targetId: query.targetId } : {}),
    ...(page.after ? { after: page.after } : {}),
    limit: page.limit ?? AUDIT_PAGE_LIMIT.default,
  };
}

/** Whether a newly recorded event (socket `AuditRecorded`) can belong to the filtered list. */
export function auditEventMatches(
  query: AuditQuery,
  event: { at: string; operation: string; targetType: string; targetId: number | null },
): boolean {
  if (query.operation !== null && event.operation !== query.operation) return false;
  if (query.targetType !== null && event.targetType !== query.targetType) return false;
  if (query.targetId !== null && event.targetId !== query.targetId) return false;
  const at = Date.parse(event.at);
  const from = midnight(query.from);
  const to = midnight(query.to, 1);
  if (Number.isFinite(at) && from && to && (at < from.getTime() || at >= to.getTime())) return false;
  return true;
}

/** How many filters differ from the defaults (the period counts once): the "Filtros (n)" button's count. */
export function activeAuditFilters(query: AuditQuery, now: Date = new Date()): number {
  const fallback = defaultAuditQuery(now);
  const period = query.from !== fallback.from || query.to !== fallback.to ? 1 : 0;
  const others = [query.actorId, query.tenantId, query.operation, query.targetType, query.targetId];
  return period + others.filter((value) => value !== null).length;
}
