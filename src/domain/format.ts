/**
 * Display and export formatting, pt-BR first ("R$ with a decimal comma", docs/product.md, Internationalisation).
 *
 * Built on `Intl` so other locales work too; the CSV helper deliberately is not
 * locale-driven because the sheet format is fixed (docs/product.md, Sheets and CSV).
 */
export { cnpjCheckDigits, formatCnpj, isValidCnpj, normalizeCnpj } from './cnpj';

/** The product's default locale (`pt_BR` in BCP 47 spelling; docs/product.md, Internationalisation). */
export const DEFAULT_LOCALE = 'pt-BR';

/** Time zone used for dates unless the caller names another. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

// Intl constructors are slow relative to format(); lists and tables call these per cell.
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * Formats money, e.g. `R$ 1.234,56` in pt-BR. Intl puts a non-breaking space
 * after `R$`; it is kept so the symbol never wraps away from the amount.
 * `-0.001` shows as `R$ 0,00`, not `-R$ 0,00`.
 *
 * @param value - amount in currency units (reais), rounded to cents
 * @param locale - BCP 47 locale
 * @param currency - ISO 4217 code
 */
export function formatCurrency(value: number, locale: string = DEFAULT_LOCALE, currency = 'BRL'): string {
  return numberFormat(locale, { style: 'currency', currency, signDisplay: 'negative' }).format(value);
}

/**
 * Formats a plain number with the locale's grouping and decimal separators,
 * e.g. `1.234,5` in pt-BR.
 *
 * @param value - the number
 * @param locale - BCP 47 locale
 * @param options - extra `Intl.NumberFormat` options (fraction digits etc.)
 */
export function formatNumber(
  value: number,
  locale: string = DEFAULT_LOCALE,
  options: Intl.NumberFormatOptions = {},
): string {
  return numberFormat(locale, { signDisplay: 'negative', ...options }).format(value);
}

/**
 * Formats a ratio as a percentage: `0.125` → `12,5%` in pt-BR.
 *
 * @param ratio - 1 means 100 %
 * @param locale - BCP 47 locale
 * @param maximumFractionDigits - decimals kept after rounding
 */
export function formatPercent(ratio: number, locale: string = DEFAULT_LOCALE, maximumFractionDigits = 1): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits, signDisplay: 'negative' }).format(ratio);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Turns the input into an instant plus the zone to read it in. A bare
 * `YYYY-MM-DD` is a calendar date, not UTC midnight: read in São Paulo it
 * would show the day before, so it is read in UTC instead. Impossible dates
 * (`2024-02-30`) are rejected rather than rolled over.
 */
function toInstant(value: string | Date, timeZone: string): { date: Date; timeZone: string } | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : { date: value, timeZone };
  if (DATE_ONLY.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && toIsoDate(date) === value ? { date, timeZone: 'UTC' } : null;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : { date, timeZone };
}

/**
 * Formats a date as `dd/mm/aaaa` (pt-BR) or the locale's numeric equivalent.
 *
 * @param value - a `Date`, an ISO 8601 timestamp, or a calendar date `YYYY-MM-DD`
 * @param locale - BCP 47 locale
 * @param timeZone - IANA zone the instant is shown in (ignored for calendar dates)
 * @returns the formatted date, or `''` for an invalid input
 */
export function formatDate(
  value: string | Date,
  locale: string = DEFAULT_LOCALE,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  const instant = toInstant(value, timeZone);
  if (instant === null) return '';
  return dateFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: instant.timeZone }).format(
    instant.date,
  );
}

/**
 * Builds the date and number formatters lists use (`formatDate`, `formatNumber`) for `locale`: the
 * first date formatter with a time zone loads ICU's zone data, tens of ms, which the main layout's
 * chunk pays when the login page preloads it instead of the first list's render (docs/performance.md).
 */
export function warmFormats(locale: string = DEFAULT_LOCALE): void {
  formatDate(new Date(0), locale);
  formatNumber(0, locale);
}

/**
 * Formats a date and time as `dd/mm/aaaa HH:mm` (pt-BR); no comma between the
 * parts, unlike Intl's own date-time style.
 *
 * @param value - a `Date`, an ISO 8601 timestamp, or a calendar date `YYYY-MM-DD`
 * @param locale - BCP 47 locale
 * @param timeZone - IANA zone the instant is shown in
 * @returns the formatted date and time, or `''` for an invalid input
 */
export function formatDateTime(
  value: string | Date,
  locale: string = DEFAULT_LOCALE,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  const instant = toInstant(value, timeZone);
  if (instant === null) return '';
  const day = dateFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: instant.timeZone });
  const time = dateFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: instant.timeZone });
  return `${day.format(instant.date)} ${time.format(instant.date)}`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Formats an elapsed time compactly: `1h 02min`, `3min 05s`, `45s`.
 * Seconds are dropped once hours show; fractions are truncated so the display
 * never claims more time than has passed; negative or non-finite input is `0s`.
 *
 * @param seconds - elapsed seconds
 */
export function formatDuration(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  if (hours > 0) return `${hours}h ${pad2(minutes)}min`;
  if (minutes > 0) return `${minutes}min ${pad2(secs)}s`;
  return `${secs}s`;
}

/**
 * Formats a number for the server's CSV sheets: decimal comma, no grouping,
 * `-` for negatives, never exponent notation, e.g. `1234,50`. Fixed rather than
 * locale-driven because Excel pt-BR expects exactly this in `;`-separated files.
 * Rounds half away from zero on the shortest decimal form of the double, the
 * same way {@link formatCurrency} does, so a sheet and the screen agree (1.005 → `1,01`).
 *
 * @param value - the number
 * @param fractionDigits - decimals, always printed (0–20)
 * @returns the cell text, or `''` (an empty cell) for NaN and infinities
 */
export function csvDecimal(value: number, fractionDigits = 2): string {
  if (!Number.isFinite(value)) return '';
  return numberFormat('en-US', {
    useGrouping: false,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    signDisplay: 'negative',
  })
    .format(value)
    .replace('.', ',');
}

/**
 * The UTC calendar date of an instant as `YYYY-MM-DD`, the form the API's
 * `startAt`/`finishAt` parameters take.
 *
 * @param date - a valid date in years 0–9999
 * @throws RangeError for an invalid date or a year outside 0–9999
 */
export function toIsoDate(date: Date): string {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) throw new RangeError('toIsoDate: date out of range');
  return `${String(year).padStart(4, '0')}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
}
