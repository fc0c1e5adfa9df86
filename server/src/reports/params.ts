import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import { forbidden, invalid } from '../base/domain-error';
import type { Actor } from '../access/caller';
import { resolveTenant } from '../tenants/scope';
import { REPORT_TIME_ZONE } from '../base/csv';

// The zone moved down with the CSV format that prints dates in it (server/src/base/csv.ts).
export { REPORT_TIME_ZONE };
/** Longest inclusive range a report, sheet or aggregate accepts: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;

/** An inclusive range of calendar days, `YYYY-MM-DD`. */
export interface DayRange {
  start: string;
  finish: string;
  /** Days in the range, both ends counted. */
  days: number;
}

const DAY_MS = 86_400_000;

/**
 * Checks the semantics the schema cannot: the last day is not before the first, and the range is at
 * most {@link MAX_RANGE_DAYS} long. `finishField` names the offending field (`finishAt`, `toDate`, `finish_at`).
 */
export function dayRange(start: string, finish: string, finishField: string): DayRange {
  const days = (Date.parse(`${finish}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS + 1;
  if (!Number.isFinite(days)) throw invalid(finishField, 'is not a valid date');
  if (days < 1) throw invalid(finishField, 'must not be before the start date');
  if (days > MAX_RANGE_DAYS) throw invalid(finishField, `the range must not exceed ${MAX_RANGE_DAYS} days`);
  return { start, finish, days };
}

/**
 * `column` lies within the range's days in São Paulo: from the first day's local midnight up to,
 * not including, the local midnight after the last day. The casts to `timestamp` make `at time zone`
 * read the wall-clock midnight in São Paulo (a bare `date` would go through the session's zone).
 */
export function withinDays(column: string, range: DayRange): RawBuilder<boolean> {
  const ref = sql.ref(column);
  return sql<boolean>`${ref} >= (${range.start}::date)::timestamp at time zone ${REPORT_TIME_ZONE}
    and ${ref} < (${range.finish}::date + 1)::timestamp at time zone ${REPORT_TIME_ZONE}`;
}

/** Which tenants a report covers: one tenant, or every tenant (`null`, back-office staff only). */
export interface ReportScope {
  tenantId: number | null;
}

/**
 * The scope of a report or sheet with an optional `tenantName`: the named tenant (staff may name any,
 * others only their own → 403); absent, the caller's own tenant, or every tenant for staff.
 */
export async function reportScope(
  db: Kysely<Database>,
  auth: Actor,
  tenantName: string | undefined,
): Promise<ReportScope> {
  if (tenantName === undefined) return { tenantId: auth.originBackoffice ? null : auth.tenantId };
  return { tenantId: (await resolveTenant(db, auth, tenantName)).id };
}

/** The same for the reasons sheet, which names its tenant by id (`tenancyId`). */
export function reportScopeById(auth: Actor, tenancyId: number | undefined): ReportScope {
  if (tenancyId === undefined) return { tenantId: auth.originBackoffice ? null : auth.tenantId };
  if (!auth.originBackoffice && tenancyId !== auth.tenantId) throw forbidden();
  return { tenantId: tenancyId };
}
