import { unwrap, type RestClient } from '../../api/rest-client';
import type { paths } from '../../generated/openapi';

/**
 * Streaming a sheet's CSV variant (`Accept: text/csv`, docs/product.md, Sheets and CSV) to a sink chunk by chunk: the next
 * chunk is read only after the sink took the previous one, so the file never sits in memory whole.
 */

type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

/** One downloadable sheet and its query (contracts/openapi.yaml tag `sheets`, plus the productivity report's CSV). */
export type SheetRequest =
  | { sheet: 'orders'; query: QueryOf<'/api/tenant/sheets/orders'> }
  | { sheet: 'attendances'; query: QueryOf<'/api/tenant/sheets/attendances'> }
  | { sheet: 'instance_logs'; query: QueryOf<'/api/tenant/sheets/instance_logs'> }
  | { sheet: 'reasons'; query: QueryOf<'/api/tenant/sheets/reasons'> }
  | { sheet: 'productivity'; query: QueryOf<'/api/dashboard/productivity'> }
  | { sheet: 'login_failures'; query: QueryOf<'/api/tenant/sheets/login_failures'> };

export type SheetName = SheetRequest['sheet'];

/**
 * Where the bytes go. Shaped like a `WritableStreamDefaultWriter`, so the view can hand over a file
 * writer (`showSaveFilePicker`) or collect Blob parts; `write` may return a promise to slow the download.
 */
export interface SheetSink {
  write(chunk: Uint8Array): void | Promise<void>;
  close(): void | Promise<void>;
  abort(reason: unknown): void | Promise<void>;
}

export interface SheetFile {
  /** From the server's `Content-Disposition`, else `<sheet>-<startAt>-<finishAt>.csv`. */
  name: string;
  type: string;
}

export type OpenSink = (file: SheetFile) => SheetSink | Promise<SheetSink>;

export interface SheetProgress {
  bytes: number;
  /** Data rows written so far (the header line is not a row). */
  rows: number;
}

/**
 * Counts CSV rows across chunks: a line feed outside double quotes ends a line (quoted cells may hold
 * line breaks). Byte-wise is safe for UTF-8: `"` and LF never occur inside a multi-byte character.
 */
export function createRowCounter() {
  let inQuotes = false;
  let lines = 0;
  let partial = false;
  return {
    feed(chunk: Uint8Array): void {
      for (const byte of chunk) {
        if (byte === 0x22) inQuotes = !inQuotes;
        if (byte === 0x0a && !inQuotes) {
          lines += 1;
          partial = false;
        } else {
          partial = true;
        }
      }
    },
    /** Rows so far; `final` also counts a last line without a line feed. */
    rows(final = false): number {
      return Math.max(0, lines + (final && partial ? 1 : 0) - 1);
    },
  };
}

const FILE_NAME = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i;

export function sheetFileName(request: SheetRequest, contentDisposition: string | null): string {
  const match = contentDisposition ? FILE_NAME.exec(contentDisposition) : null;
  if (match?.[1]) {
    try {
      return decodeURIComponent(match[1]);
    } catch {
      return match[1];
    }
  }
  return `${request.sheet}-${request.query.startAt}-${request.query.finishAt}.csv`;
}

const csv = { headers: { Accept: 'text/csv' }, parseAs: 'stream' } as const;

/** The CSV response of a sheet through the typed REST client (and so through the session seam). */
async function fetchCsv(rest: RestClient, request: SheetRequest, signal: AbortSignal) {
  switch (request.sheet) {
    case 'orders':
      return rest.GET('/api/tenant/sheets/orders', { ...csv, params: { query: request.query }, signal });
    case 'attendances':
      return rest.GET('/api/tenant/sheets/attendances', { ...csv, params: { query: request.query }, signal });
    case 'instance_logs':
      return rest.GET('/api/tenant/sheets/instance_logs', { ...csv, params: { query: request.query }, signal });
    case 'reasons':
      return rest.GET('/api/tenant/sheets/reasons', { ...csv, params: { query: request.query }, signal });
    case 'productivity':
      return rest.GET('/api/dashboard/productivity', { ...csv, params: { query: request.query }, signal });
    case 'login_failures':
      return rest.GET('/api/tenant/sheets/login_failures', { ...csv, params: { query: request.query }, signal });
  }
}

function abortError(): Error {
  const error = new Error('Download cancelled');
  error.name = 'AbortError';
  return error;
}

export interface StreamSheetOptions {
  rest: RestClient;
  request: SheetRequest;
  openSink: OpenSink;
  signal: AbortSignal;
  onOpen?: (file: SheetFile) => void;
  onProgress?: (progress: SheetProgress) => void;
}

/**
 * Downloads one sheet into a sink. Resolves with the final progress after `sink.close()`; on any
 * failure or abort the sink is aborted (never closed) and the promise rejects.
 */
export async function streamSheet(options: StreamSheetOptions): Promise<SheetProgress> {
  const { request, signal } = options;
  const result = await fetchCsv(options.rest, request, signal);
  return pipeCsvAnswer(result, (disposition) => sheetFileName(request, disposition), options);
}

/** What {@link pipeCsvAnswer} reports to and writes into. */
export type PipeCsvOptions = Pick<StreamSheetOptions, 'openSink' | 'signal' | 'onOpen' | 'onProgress'>;

/**
 * A CSV answer read as a stream (`Accept: text/csv`, `parseAs: 'stream'`) into a sink, chunk by chunk:
 * the next chunk is read only after the sink took the previous one. `fileName` gets the server's
 * `Content-Disposition`. Resolves with the final progress after `sink.close()`; on any failure or
 * abort the sink is aborted (never closed) and the promise rejects. The sheets and the lists' exports
 * (the audit log's among them: src/machines/shared/list-export.machine.ts) all download through it.
 */
export async function pipeCsvAnswer(
  result: { data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response },
  fileName: (contentDisposition: string | null) => string,
  options: PipeCsvOptions,
): Promise<SheetProgress> {
  const { signal } = options;
  const body = unwrap(result);
  if (!body) throw new Error('The CSV answer has no body');
  const file = { name: fileName(result.response.headers.get('Content-Disposition')), type: 'text/csv' };
  let sink: SheetSink;
  try {
    sink = await options.openSink(file);
  } catch (error) {
    await body.cancel().catch(() => undefined);
    throw error;
  }
  options.onOpen?.(file);
  const reader = body.getReader();
  // A cancel must also end a body the abort signal does not reach (one not produced by fetch).
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  const counter = createRowCounter();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw abortError();
      if (done) break;
      await sink.write(value);
      bytes += value.byteLength;
      counter.feed(value);
      options.onProgress?.({ bytes, rows: counter.rows() });
    }
    await sink.close();
    return { bytes, rows: counter.rows(true) };
  } catch (error) {
    await Promise.resolve(sink.abort(error)).catch(() => undefined);
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
