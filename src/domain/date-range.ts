import { toIsoDate } from './format';

/** An inclusive range of calendar days, `YYYY-MM-DD` (the API's `startAt`/`finishAt`). */
export interface DateRange {
  startAt: string;
  finishAt: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day in `YYYY-MM-DD` (not `2026-02-30`). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && toIsoDate(date) === value;
}

/** Both ends are real days and the start is not after the finish. */
export function isValidRange(range: DateRange): boolean {
  return isIsoDate(range.startAt) && isIsoDate(range.finishAt) && range.startAt <= range.finishAt;
}
