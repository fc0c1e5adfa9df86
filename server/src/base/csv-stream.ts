import { BOM, csvLine, type Cell } from './csv';

/**
 * CSV streamed in keyset pages (docs/product.md, Sheets and CSV): the sheets (server/src/reports/sheet.ts)
 * and the lists' exports (server/src/users/export.ts, server/src/tenants/service.ts) read a page, format it
 * at once and hand it to the socket in pieces, the next page read while this one drains. Pure: what a page
 * is and how it is read is the caller's.
 */

/**
 * Text is handed to the socket in pieces of about this many characters: each piece becomes one flat
 * string when it is written, and a string over 128 KB (64 K two-byte characters) goes straight to
 * V8's large-object space, which only a full collection frees.
 */
export const CHUNK_CHARS = 32_768;

/** One keyset page already formatted: its text in pieces, and where the next page starts (null: it was the last). */
export interface FormattedPage<C> {
  chunks: string[];
  next: C | null;
}

/**
 * Rows as CSV text in pieces of about {@link CHUNK_CHARS}, formatted as soon as they are read (see
 * server/src/reports/sheet.ts `formattedPage`); for any keyset list, sheets or not (server/src/reports/sheet.ts, server/src/users/export.ts).
 */
export function csvChunks<Row>(rows: readonly Row[], cells: (row: Row) => readonly Cell[]): string[] {
  const chunks: string[] = [];
  let text = '';
  for (const row of rows) {
    text += csvLine(cells(row));
    if (text.length >= CHUNK_CHARS) {
      chunks.push(text);
      text = '';
    }
  }
  if (text) chunks.push(text);
  return chunks;
}

/**
 * The header, then every keyset page `read` gives, as CSV text. The next page is requested as soon as
 * the current one is read, so the database reads (and this process formats) page n+1 while the socket
 * drains page n: the two run side by side instead of taking turns. At most two pages of text are held.
 */
export async function* pagedCsvLines<C>(
  header: readonly string[],
  read: (cursor: C | null) => Promise<FormattedPage<C>>,
): AsyncGenerator<string> {
  yield BOM + csvLine(header);
  let pending: Promise<FormattedPage<C>> | null = read(null);
  while (pending) {
    const page: FormattedPage<C> = await pending;
    pending = page.next ? read(page.next) : null;
    // A failed read must not surface as an unhandled rejection while this page is sent; the await
    // above rethrows it on the next turn, which ends the response.
    pending?.catch(() => undefined);
    for (const chunk of page.chunks) yield chunk;
  }
}

/** Languages an export's headings (and its yes/no cells) are written in. */
export type ExportLanguage = 'pt-BR' | 'en';

/**
 * The language an `Accept-Language` header prefers among those exports speak: English when its
 * best-ranked language an export knows is English, else pt-BR (the product's language; `pt` reads the same).
 */
export function exportLanguage(acceptLanguage: string | undefined): ExportLanguage {
  if (!acceptLanguage) return 'pt-BR';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((l) => l.weight > 0 && (l.primary === 'en' || l.primary === 'pt'))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.primary === 'en' ? 'en' : 'pt-BR';
}
