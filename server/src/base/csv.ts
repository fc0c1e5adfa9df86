import { neutraliseFormula } from '../../../src/domain/csv-formula';
import { csvDecimal } from '../../../src/domain/format';
import { isBroken } from './broken-promises';

/** Calendar days of reports are read in the product's zone (contract: "interpreted in America/Sao_Paulo"). */
export const REPORT_TIME_ZONE = 'America/Sao_Paulo';

/**
 * CSV as the sheets ship it (docs/product.md, Sheets and CSV): `;`-separated, UTF-8 with BOM, CRLF, decimal comma, dates in
 * São Paulo — what Excel pt-BR opens without an import wizard.
 */
export const BOM = '\uFEFF';
/** Rows read per keyset page while streaming. */
export const CSV_BATCH = 2000;

/**
 * A cell before formatting: `null`/`undefined` is an empty cell. A string is text (guarded against
 * formulas, src/domain/csv-formula.ts); numbers, dates, booleans and {@link decimal}s are formatted
 * here and never guarded, so a negative amount stays a number.
 */
export type Cell = string | number | boolean | Date | CsvDecimal | null | undefined;

/** A number printed with two decimals (see {@link decimal}). */
export interface CsvDecimal {
  readonly decimal: number;
}

const NEEDS_QUOTES = /[;"\r\n]/;

// en-CA prints dates as YYYY-MM-DD; formatToParts keeps it independent of the locale's punctuation.
const DATE_TIME = new Intl.DateTimeFormat('en-CA', {
  timeZone: REPORT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DD HH:mm` in São Paulo, the slow exact way (one `formatToParts` per call). */
function zonedMinuteSlow(value: Date): string {
  const parts: Record<string, string> = {};
  for (const part of DATE_TIME.formatToParts(value)) parts[part.type] = part.value;
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}`;
}

/**
 * The zone's offset per quarter hour of UTC time. Time zones change offset only on quarter-hour
 * boundaries, so one `formatToParts` per quarter hour gives the offset of every instant in it; a sheet
 * streams rows in time order, so a million rows cost a few thousand Intl calls instead of a million
 * (`formatToParts` costs ~20 µs, the arithmetic below well under 1 µs).
 */
const QUARTER_MS = 15 * 60_000;
const offsetByQuarter = new Map<number, number>();
function zoneOffsetMs(quarter: number): number {
  let offset = offsetByQuarter.get(quarter);
  if (offset === undefined) {
    const start = quarter * QUARTER_MS;
    const parts: Record<string, string> = {};
    for (const part of DATE_TIME.formatToParts(new Date(start))) parts[part.type] = part.value;
    const wall = Date.UTC(
      Number(parts['year']),
      Number(parts['month']) - 1,
      Number(parts['day']),
      Number(parts['hour']),
      Number(parts['minute']),
    );
    offset = wall - start;
    // Bounded: a year of quarters is 35,040 entries; start over rather than grow without limit.
    if (offsetByQuarter.size > 50_000) offsetByQuarter.clear();
    offsetByQuarter.set(quarter, offset);
  }
  return offset;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

let lastMinute = Number.NaN;
let lastText = '';

/** `YYYY-MM-DD HH:mm` in São Paulo. */
export function csvDateTime(value: Date): string {
  const ms = value.getTime();
  if (!Number.isFinite(ms)) return zonedMinuteSlow(value);
  // Rows come in time order, many within the same minute: the previous answer is often this one.
  const minute = Math.floor(ms / 60_000);
  if (minute === lastMinute) return lastText;
  const offset = zoneOffsetMs(Math.floor(ms / QUARTER_MS));
  // Offsets that are not whole minutes (local mean time before 1914) go the exact way.
  if (offset % 60_000 !== 0) return zonedMinuteSlow(value);
  const local = new Date(ms + offset);
  const year = local.getUTCFullYear();
  if (year < 1000 || year > 9999) return zonedMinuteSlow(value);
  lastText = `${year}-${pad2(local.getUTCMonth() + 1)}-${pad2(local.getUTCDate())} ${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}`;
  lastMinute = minute;
  return lastText;
}

/**
 * Two decimals with a comma, as `csvDecimal` prints them. Amounts with at most two decimals (money
 * from `numeric(…, 2)` columns, the common case) take `toFixed`, which prints them identically and
 * ~10× faster; anything else (ties at the third decimal, where the two round differently) goes through
 * `csvDecimal` itself.
 */
function decimal2(value: number): string {
  if (Number.isFinite(value) && Math.abs(value) < 1e11 && Math.round(value * 100) / 100 === value) {
    return (value === 0 ? 0 : value).toFixed(2).replace('.', ',');
  }
  return csvDecimal(value);
}

/**
 * One cell: integers as they are, other numbers with two decimals and a comma, `sim`/`não` for
 * booleans; text with a leading `'` when it starts like a formula (CSV injection). The SQL formatter
 * (server/src/reports/csv-sql.ts) prints every cell the same way.
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = neutraliseFormula(value);
  else if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : decimal2(value);
  else if (typeof value === 'boolean') text = value ? 'sim' : 'não';
  else if (value instanceof Date) text = csvDateTime(value);
  else text = decimal2(value.decimal);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A money or average cell: always two decimals (`129,90`), even for whole amounts. */
export const decimal = (value: number | null): CsvDecimal | null => (value === null ? null : { decimal: value });

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(isBroken('csv-comma-separated') ? ',' : ';')}${isBroken('csv-lf-line-ends') ? '\n' : '\r\n'}`;
}
