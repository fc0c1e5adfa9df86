import { sql, type RawBuilder } from 'kysely';
import { BOM, CSV_BATCH, csvLine, type Cell } from '../base/csv';
import type { CsvPage } from './csv-sql';
import type { DayRange } from './params';

/** Position after the last row read: its time as Postgres text (exact to the microsecond) and id. */
export interface Cursor {
  at: string;
  id: number;
}

/** A row read for a sheet: whatever the sheet selects plus its keyset cursor. */
export interface SheetRow {
  id: number;
  cursor_at: string;
}

/** The keyset condition `(time, id) > (cursor)` on the sheet's order columns. */
export function after(timeColumn: string, idColumn: string, cursor: Cursor): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) > (${cursor.at}::timestamptz, ${cursor.id})`;
}

/** The cursor column a sheet selects: the time as text, so the next page starts exactly after it. */
export function cursorOf(timeColumn: string): RawBuilder<string> {
  return sql<string>`${sql.ref(timeColumn)}::text`;
}

/** One sheet: how to count and page its rows in (time, id) order, and how to show a row. */
export interface Sheet<Row extends SheetRow, Json> {
  /** File name prefix: `<file>-<start>-<finish>.csv`. */
  file: string;
  header: readonly string[];
  count(): Promise<number>;
  /** Up to `limit` rows after `cursor` (from the start when null), ordered by time then id. */
  page(cursor: Cursor | null, limit: number): Promise<Row[]>;
  json(row: Row): Json;
  csv(row: Row): readonly Cell[];
  /**
   * Optional: the same page as {@link page} already formatted as CSV by the database (./csv-sql.ts),
   * for the big sheets; when absent, rows are formatted here with {@link csv}.
   */
  csvPage?(cursor: Cursor | null, limit: number): Promise<CsvPage>;
}

/**
 * Text is handed to the socket in pieces of about this many characters: each piece becomes one flat
 * string when it is written, and a string over 128 KB (64 K two-byte characters) goes straight to
 * V8's large-object space, which only a full collection frees.
 */
const CHUNK_CHARS = 32_768;

/** One keyset page already formatted: its text in pieces, and where the next page starts. */
interface FormattedPage {
  chunks: string[];
  next: Cursor | null;
}

/**
 * Reads a page and formats it as soon as it arrives, whatever the socket is doing: the row objects
 * (~10× the size of their CSV text) then die within one young-generation cycle. Held until the socket
 * had taken the previous page, they survived it, were promoted, and grew the old generation — and the
 * server's RSS — by ~150 MB over a 1,000,000-row sheet until the next full collection (bench/scale.ts).
 */
async function formattedPage<Row extends SheetRow, Json>(
  sheet: Sheet<Row, Json>,
  cursor: Cursor | null,
): Promise<FormattedPage> {
  if (sheet.csvPage) {
    const page = await sheet.csvPage(cursor, CSV_BATCH);
    const chunks: string[] = [];
    for (let at = 0; at < page.text.length; at += CHUNK_CHARS) chunks.push(page.text.slice(at, at + CHUNK_CHARS));
    return { chunks, next: page.count < CSV_BATCH ? null : page.last };
  }
  const rows = await sheet.page(cursor, CSV_BATCH);
  const chunks: string[] = [];
  let text = '';
  for (const row of rows) {
    text += csvLine(sheet.csv(row));
    if (text.length >= CHUNK_CHARS) {
      chunks.push(text);
      text = '';
    }
  }
  if (text) chunks.push(text);
  const last = rows.at(-1);
  return { chunks, next: rows.length < CSV_BATCH || last === undefined ? null : { at: last.cursor_at, id: last.id } };
}

/**
 * Every row as CSV text, in keyset pages of {@link CSV_BATCH}. The next page is requested as soon as
 * the current one is read, so the database reads (and this process formats) page n+1 while the socket
 * drains page n: the two run side by side instead of taking turns. At most two pages of text are held.
 */
export async function* csvLines<Row extends SheetRow, Json>(sheet: Sheet<Row, Json>): AsyncGenerator<string> {
  yield BOM + csvLine(sheet.header);
  let pending: Promise<FormattedPage> | null = formattedPage(sheet, null);
  while (pending) {
    const page: FormattedPage = await pending;
    pending = page.next ? formattedPage(sheet, page.next) : null;
    // A failed read must not surface as an unhandled rejection while this page is sent; the await
    // above rethrows it on the next turn, which ends the response.
    pending?.catch(() => undefined);
    for (const chunk of page.chunks) yield chunk;
  }
}

/** The first `limit` rows as the contract's JSON, and how many rows the whole sheet has. */
export async function sheetPreview<Row extends SheetRow, Json>(
  sheet: Sheet<Row, Json>,
  limit: number,
): Promise<{ data: Json[]; total: number; limit: number }> {
  const [rows, total] = await Promise.all([sheet.page(null, limit), sheet.count()]);
  return { data: rows.map((row) => sheet.json(row)), total, limit };
}

/** `<file>-<first day>-<last day>.csv`. */
export const sheetFileName = (sheet: { file: string }, range: DayRange): string =>
  `${sheet.file}-${range.start}-${range.finish}.csv`;
