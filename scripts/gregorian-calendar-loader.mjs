/**
 * Replaces `@internationalized/date`'s `createCalendar` (rsbuild.config.ts applies it to that one
 * file) with a Gregorian-only one. React Aria's date field, calendar and date range picker call it
 * with the calendar of their locale, and it imports every calendar system (Buddhist, Ethiopic,
 * Hebrew, Indian, Islamic, Japanese, Persian, Taiwan) to choose from. The panel's locales — pt-BR,
 * pt-PT, en-US (src/ui/components/locale-provider.tsx) — all use the Gregorian calendar, so the
 * others were bytes on every route with a date picker. Any other calendar name also gets the
 * Gregorian calendar (the dates stay right; only the era/year numbering of such a locale would differ).
 */
export default function gregorianCalendarLoader() {
  return `import { GregorianCalendar } from "./calendars/GregorianCalendar.mjs";

function createCalendar() {
  return new GregorianCalendar();
}

export { createCalendar };
`;
}
