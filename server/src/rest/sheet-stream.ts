import { sql, type RawBuilder } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BOM, CSV_BATCH, csvLine, prefersCsv, sendCsv, type Cell } from './csv';
import type { DayRange } from './report-params';

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
}

async function* csvLines<Row extends SheetRow, Json>(sheet: Sheet<Row, Json>): AsyncGenerator<string> {
  yield BOM + csvLine(sheet.header);
  let cursor: Cursor | null = null;
  for (;;) {
    const rows = await sheet.page(cursor, CSV_BATCH);
    if (rows.length > 0) yield rows.map((row) => csvLine(sheet.csv(row))).join('');
    const last = rows.at(-1);
    if (rows.length < CSV_BATCH || last === undefined) return;
    cursor = { at: last.cursor_at, id: last.id };
  }
}

/**
 * Answers a sheet request: the first `limit` rows and the total as JSON, or — when the client prefers
 * `text/csv` — every row streamed in keyset pages of {@link CSV_BATCH}.
 */
export async function answerSheet<Row extends SheetRow, Json>(
  request: FastifyRequest,
  reply: FastifyReply,
  sheet: Sheet<Row, Json>,
  range: DayRange,
  limit: number,
): Promise<{ data: Json[]; total: number; limit: number } | undefined> {
  if (prefersCsv(request)) {
    await sendCsv(reply, `${sheet.file}-${range.start}-${range.finish}.csv`, csvLines(sheet));
    return undefined;
  }
  const [rows, total] = await Promise.all([sheet.page(null, limit), sheet.count()]);
  return { data: rows.map((row) => sheet.json(row)), total, limit };
}
