import { sql, type RawBuilder } from 'kysely';
import { CSV_BATCH, type Cell } from '../base/csv';
import { CHUNK_CHARS, csvChunks, pagedCsvLines, type FormattedPage } from '../base/csv-stream';
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
 * Reads a page and formats it as soon as it arrives, whatever the socket is doing: the row objects
 * (~10× the size of their CSV text) then die within one young-generation cycle. Held until the socket
 * had taken the previous page, they survived it, were promoted, and grew the old generation — and the
 * server's RSS — by ~150 MB over a 1,000,000-row sheet until the next full collection (bench/scale.ts).
 */
async function formattedPage<Row extends SheetRow, Json>(
  sheet: Sheet<Row, Json>,
  cursor: Cursor | null,
): Promise<FormattedPage<Cursor>> {
  if (sheet.csvPage) {
    const page = await sheet.csvPage(cursor, CSV_BATCH);
    const chunks: string[] = [];
    for (let at = 0; at < page.text.length; at += CHUNK_CHARS) chunks.push(page.text.slice(at, at + CHUNK_CHARS));
    return { chunks, next: page.count < CSV_BATCH ? null : page.last };
  }
  const rows = await sheet.page(cursor, CSV_BATCH);
  const last = rows.at(-1);
  return {
    chunks: csvChunks(rows, (row) => sheet.csv(row)),
    next: rows.length < CSV_BATCH || last === undefined ? null : { at: last.cursor_at, id: last.id },
  };
}

/** Every row of a sheet as CSV text, in keyset pages of {@link CSV_BATCH} ({@link pagedCsvLines}). */
export function csvLines<Row extends SheetRow, Json>(sheet: Sheet<Row, Json>): AsyncGenerator<string> {
  return pagedCsvLines<Cursor>(sheet.header, (cursor) => formattedPage(sheet, cursor));
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
