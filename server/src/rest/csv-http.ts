import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { isBroken } from '../base/broken-promises';

/** CSV over HTTP: content negotiation and streaming; the format itself is server/src/base/csv.ts. */

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
    .header(
      'content-type',
      isBroken('csv-wrong-content-type') ? 'text/plain; charset=utf-8' : 'text/csv; charset=utf-8',
    )
    .header('content-disposition', `attachment; filename="${filename}"`);
  // Awaiting the reply waits until the stream has been written, so the handler never returns early.
  await reply.send(Readable.from(isBroken('csv-no-bom') ? withoutBom(lines) : lines, { objectMode: false }));
}

/** The lines without the UTF-8 BOM the first one starts with: only for the variant `csv-no-bom` (server/src/base/broken-promises.ts). */
async function* withoutBom(lines: AsyncIterable<string>): AsyncIterable<string> {
  let first = true;
  for await (const line of lines) {
    yield first ? line.replace(/^\uFEFF/, '') : line;
    first = false;
  }
}
