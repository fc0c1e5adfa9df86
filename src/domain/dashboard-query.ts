import { toIsoDate } from './format';
import { isIsoDate } from './date-range';

/**
 * The dashboard's filters as they live in the address (`?from=2026-11-01&to=2026-11-30&tenant=farmacia-central`),
 * so a link or a reload shows the same figures. A pure parse/serialize pair over a {@link DashboardQuery};
 * both take the screen's defaults, which are left out of the address (a plain `/dashboard/analytics`
 * always means "the last 30 days").
 */

/** What the dashboard shows: an inclusive range of São Paulo calendar days and a tenant. */
export interface DashboardQuery {
  startAt: string;
  finishAt: string;
  /** A tenant name, or `null` for every tenant (back-office staff only). */
  tenant: string | null;
}

/** The longest range the API accepts, both ends counted (contract: `FinishAt`). */
export const MAX_RANGE_DAYS = 366;
/** The default period: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** Calendar days of reports are São Paulo days (the server reads them there). */
export const DASHBOARD_TIME_ZONE = 'America/Sao_Paulo';
/** `tenant=*` in the address: every tenant. `*` can never be a tenant name (contract `TenantName`). */
export const ALL_TENANTS_PARAM = '*';

const TENANT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DAY_MS = 86_400_000;

/** A contract `TenantName` (the slug that is also the first segment of the address). */
export function isTenantName(value: string): boolean {
  return TENANT_NAME.test(value);
}

/** `iso` moved by `days` calendar days (negative goes back). */
export function addDays(iso: string, days: number): string {
  return toIsoDate(new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS));
}

/** Days in an inclusive range, both ends counted. */
export function rangeDays(startAt: string, finishAt: string): number {
  return Math.round((Date.parse(`${finishAt}T00:00:00Z`) - Date.parse(`${startAt}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Why a range cannot be asked for, or `null` when it can. */
export function rangeProblem(startAt: string, finishAt: string): 'invalid' | 'tooLong' | null {
  if (!isIsoDate(startAt) || !isIsoDate(finishAt) || startAt > finishAt) return 'invalid';
  return rangeDays(startAt, finishAt) > MAX_RANGE_DAYS ? 'tooLong' : null;
}

/** The calendar day of an instant in a time zone, `YYYY-MM-DD`. */
export function isoDateIn(instant: Date, timeZone: string = DASHBOARD_TIME_ZONE): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The last {@link DEFAULT_RANGE_DAYS} days up to `today`. */
export function defaultRange(today: string): Pick<DashboardQuery, 'startAt' | 'finishAt'> {
  return { startAt: addDays(today, 1 - DEFAULT_RANGE_DAYS), finishAt: today };
}

/** Ready-made periods, all ending today except the previous month. */
export const PERIOD_PRESETS = ['last7', 'last30', 'last90', 'thisMonth', 'lastMonth'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** The days a preset covers on `today`. */
export function presetRange(preset: PeriodPreset, today: string): Pick<DashboardQuery, 'startAt' | 'finishAt'> {
  const monthStart = `${today.slice(0, 8)}01`;
  switch (preset) {
    case 'last7':
      return { startAt: addDays(today, -6), finishAt: today };
    case 'last30':
      return defaultRange(today);
    case 'last90':
      return { startAt: addDays(today, -89), finishAt: today };
    case 'thisMonth':
      return { startAt: monthStart, finishAt: today };
    case 'lastMonth': {
      const finishAt = addDays(monthStart, -1);
      return { startAt: `${finishAt.slice(0, 8)}01`, finishAt };
    }
  }
}

/** The first preset covering exactly this range on `today`, or `null` for a custom range. */
export function presetOf(range: Pick<DashboardQuery, 'startAt' | 'finishAt'>, today: string): PeriodPreset | null {
  return (
    PERIOD_PRESETS.find((preset) => {
      const candidate = presetRange(preset, today);
      return candidate.startAt === range.startAt && candidate.finishAt === range.finishAt;
    }) ?? null
  );
}

/**
 * The range of the same length just before `query`'s, for the KPI change ("versus the previous
 * period"); `null` when it would start before year 1.
 */
export function previousRange(
  query: Pick<DashboardQuery, 'startAt' | 'finishAt'>,
): { startAt: string; finishAt: string } | null {
  const days = rangeDays(query.startAt, query.finishAt);
  if (Date.parse(`${query.startAt}T00:00:00Z`) - days * DAY_MS < Date.parse('0001-01-01T00:00:00Z')) return null;
  return { startAt: addDays(query.startAt, -days), finishAt: addDays(query.startAt, -1) };
}

/** The chart bucket for a range: days up to two months, weeks up to half a year, else months. */
export function intervalFor(query: Pick<DashboardQuery, 'startAt' | 'finishAt'>): 'day' | 'week' | 'month' {
  const days = rangeDays(query.startAt, query.finishAt);
  return days <= 62 ? 'day' : days <= 183 ? 'week' : 'month';
}

/**
 * Reads a query string (with or without `?`). A range that is missing, malformed, reversed or longer
 * than {@link MAX_RANGE_DAYS} falls back to the default range as a whole; an invalid tenant falls back
 * to the default tenant.
 */
export function parseDashboardQuery(search: string, defaults: DashboardQuery): DashboardQuery {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const startAt = params.get('from') ?? defaults.startAt;
  const finishAt = params.get('to') ?? defaults.finishAt;
  const range =
    rangeProblem(startAt, finishAt) === null
      ? { startAt, finishAt }
      : { startAt: defaults.startAt, finishAt: defaults.finishAt };
  const tenantParam = params.get('tenant');
  const tenant =
    tenantParam === ALL_TENANTS_PARAM
      ? null
      : tenantParam !== null && isTenantName(tenantParam)
        ? tenantParam
        : defaults.tenant;
  return { ...range, tenant };
}

/** Writes a query string without `?`; values equal to the defaults are left out (`''` for the defaults). */
export function serializeDashboardQuery(query: DashboardQuery, defaults: DashboardQuery): string {
  const params = new URLSearchParams();
  if (query.startAt !== defaults.startAt || query.finishAt !== defaults.finishAt) {
    params.set('from', query.startAt);
    params.set('to', query.finishAt);
  }
  if (query.tenant !== defaults.tenant) params.set('tenant', query.tenant ?? ALL_TENANTS_PARAM);
  return params.toString();
}

/** Same filters (the machine reloads only when they differ). */
export function sameDashboardQuery(a: DashboardQuery, b: DashboardQuery): boolean {
  return a.startAt === b.startAt && a.finishAt === b.finishAt && a.tenant === b.tenant;
}
