import { neutraliseFormula } from '../../../domain/csv-formula';
import { csvDecimal, DEFAULT_TIME_ZONE } from '../../../domain/format';

/**
 * Client-side CSV in the sheets' format (docs/product.md, Sheets and CSV): `;`-separated, UTF-8 with a BOM, CRLF line ends,
 * decimal comma, instants as `YYYY-MM-DD HH:mm` in São Paulo — what Excel pt-BR opens cleanly, and
 * the same shape as the server's streamed sheets.
 */

/** A cell before formatting: text, an integer, a decimal (`{ decimal }`, two places), or empty. */
export type CsvValue = string | number | { decimal: number } | null | undefined;

const NEEDS_QUOTES = /[;"\r\n]/;

/**
 * One cell, quoted when it holds `;`, `"` or a line break. Text that starts like a formula gets a
 * leading `'` (CSV injection, src/domain/csv-formula.ts); numbers never do.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : csvDecimal(value);
  else if (typeof value === 'object') text = csvDecimal(value.decimal);
  else text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: BOM, then one CRLF-terminated line per row (the header first). */
export function csvDocument(rows: readonly (readonly CsvValue[])[]): string {
  return `\uFEFF${rows.map((row) => `${row.map(csvCell).join(';')}\r\n`).join('')}`;
}

// en-CA prints YYYY-MM-DD; formatToParts keeps it independent of punctuation.
const DATE_TIME = new Intl.DateTimeFormat('en-CA', {
  timeZone: DEFAULT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An ISO instant as `YYYY-MM-DD HH:mm` in São Paulo (the server sheets' date cells). */
export function csvDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts: Record<string, string> = {};
  for (const part of DATE_TIME.formatToParts(date)) parts[part.type] = part.value;
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}`;
}

/** Hands a Blob to the browser as a download named `name` (a Blob URL, revoked once used). */
export function saveBlob(blob: Blob, name: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Builds a CSV file from rows and downloads it. */
export function downloadCsv(rows: readonly (readonly CsvValue[])[], name: string): void {
  saveBlob(new Blob([csvDocument(rows)], { type: 'text/csv;charset=utf-8' }), name);
}
