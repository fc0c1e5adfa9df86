import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { csvDecimal } from '../../../src/domain/format';
import { REPORT_TIME_ZONE } from './report-params';

/**
 * CSV as the sheets ship it (DESIGN §4): `;`-separated, UTF-8 with BOM, CRLF, decimal comma, dates in
 * São Paulo — what Excel pt-BR opens without an import wizard.
 */
export const BOM = '\uFEFF';
/** Rows read per keyset page while streaming. */
export const CSV_BATCH = 2000;

/** A cell before formatting: `null`/`undefined` is an empty cell. */
export type Cell = string | number | boolean | Date | null | undefined;

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

/** `YYYY-MM-DD HH:mm` in São Paulo. */
export function csvDateTime(value: Date): string {
  const parts: Record<string, string> = {};
  for (const part of DATE_TIME.formatToParts(value)) parts[part.type] = part.value;
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}`;
}

/** One cell: integers as they are, other numbers with two decimals and a comma, `sim`/`não` for booleans. */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (value instanceof Date) text = csvDateTime(value);
  else if (typeof value === 'boolean') text = value ? 'sim' : 'não';
  else if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : csvDecimal(value);
  else text = value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A money or average cell: always two decimals (`129,90`), even for whole amounts. */
export const decimal = (value: number | null): string | null => (value === null ? null : csvDecimal(value));

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(';')}\r\n`;
}

interface MediaRange {
  type: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!type) return [];
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return [{ type, q: Number.isFinite(q) ? q : 0 }];
  });
}

function quality(ranges: readonly MediaRange[], type: string): number {
  const [major] = type.split('/');
  const exact = ranges.find((r) => r.type === type);
  if (exact) return exact.q;
  const partial = ranges.find((r) => r.type === `${major}/*`);
  if (partial) return partial.q;
  return ranges.find((r) => r.type === '*/*')?.q ?? 0;
}

/** Whether the request's `Accept` prefers `text/csv` to JSON (JSON wins ties and absent headers). */
export function prefersCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const ranges = mediaRanges(accept);
  const csv = quality(ranges, 'text/csv');
  return csv > 0 && csv > quality(ranges, 'application/json');
}

/**
 * Streams CSV lines to the client. The generator is pulled only as fast as the socket drains, so a
 * sheet of any size holds at most one page in memory.
 */
export async function sendCsv(reply: FastifyReply, filename: string, lines: AsyncIterable<string>): Promise<void> {
  reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`);
  // Awaiting the reply waits until the stream has been written, so the handler never returns early.
  await reply.send(Readable.from(lines, { objectMode: false }));
}
