/**
 * "há 3 minutos", "ontem", "in 2 hours": how long ago (or until) an instant is, in the reader's
 * language (`Intl.RelativeTimeFormat`), for the support desk's last sign-in and sessions
 * (docs/support-desk.md), always shown beside the exact date and time.
 */

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const formats = new Map<string, Intl.RelativeTimeFormat>();

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = formats.get(locale);
  if (format === undefined) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    formats.set(locale, format);
  }
  return format;
}

/**
 * How far `value` is from `now`, in the largest unit that fits (rounded towards zero, so "há 1 hora"
 * is never said of 59 minutes).
 *
 * @param value - an ISO 8601 instant or a Date
 * @param now - the instant to measure from (milliseconds since the epoch)
 * @param locale - BCP 47 locale
 * @returns the phrase, or '' for an invalid instant
 */
export function formatRelativeTime(value: string | Date, now: number, locale: string): string {
  const at = typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (!Number.isFinite(at)) return '';
  const seconds = (at - now) / 1000;
  const format = relativeFormat(locale);
  for (const [unit, size] of UNITS) {
    const amount = Math.trunc(seconds / size);
    if (amount !== 0) return format.format(amount, unit);
  }
  return format.format(0, 'second');
}

/**
 * A wait in seconds as the largest units that matter ("14 min", "1 h 05 min"), for the throttle's
 * "accepted again in …".
 *
 * @param seconds - the wait; at least one second is shown
 * @param locale - BCP 47 locale
 */
export function formatWait(seconds: number, locale: string): string {
  const total = Math.max(1, Math.ceil(seconds));
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  if (hours > 0) return minutes > 0 ? `${unit(hours, 'hour')} ${unit(minutes, 'minute')}` : unit(hours, 'hour');
  if (minutes > 0) return unit(minutes + (total % 60 > 0 ? 1 : 0), 'minute');
  return unit(total, 'second');
}
