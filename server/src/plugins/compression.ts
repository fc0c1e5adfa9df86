import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, Readable, Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/**
 * Compressed answers (docs/performance.md, "Compression"):
 * - dynamic answers — REST and GraphQL JSON, the CSV sheets (server/src/rest/csv-http.ts) — are
 *   compressed per request when the client accepts brotli or gzip: brotli at a moderate quality (the
 *   CPU of quality 11 is for build time, not per request), gzip otherwise. Bodies in one piece go
 *   through @fastify/compress; streams through `compressStream` below, and stay streams (compressed
 *   batch by batch, pulled as the socket drains). A body under DYNAMIC_THRESHOLD bytes is sent as it
 *   is: a few hundred bytes gain nothing worth the work.
 * - files compressed at build time (scripts/precompress.mjs) are chosen by server/src/plugins/static.ts;
 *   routes under `precompressedPrefixes`, and routes that say `compress: false`, are never compressed
 *   again here (an answer that already has a `content-encoding` is left alone anyway).
 * Request bodies are not decompressed: the contract's bodies are plain JSON.
 * The socket's upgrade (server/src/plugins/socket.ts) never reaches a route, so nothing here sees it;
 * `text/event-stream` is not compressed (it would be held back in the compressor's buffer).
 */
export const DYNAMIC_THRESHOLD = 1024;
/** Brotli quality for per-request compression: close to gzip's speed, smaller output. */
export const DYNAMIC_BROTLI_QUALITY = 4;
/** gzip level for per-request compression (zlib's default). */
export const GZIP_LEVEL = 6;
/** Bytes of a stream answer compressed and sent at a time. */
export const STREAM_BATCH = 32 * 1024;
/** The encodings this server sends, in its order of preference. */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** `Accept-Encoding` → quality per coding (lowercase; `x-gzip` counts as `gzip`). */
function qualities(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const coding = name === 'x-gzip' ? 'gzip' : name;
    // A coding listed twice keeps its first quality.
    if (!found.has(coding)) found.set(coding, Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0);
  }
  return found;
}

/**
 * The content coding to send, from the request's `Accept-Encoding` and the codings a representation
 * exists in (`available`, in the server's order of preference, which breaks ties).
 * No header: identity. A coding not named takes `*`'s quality, or 0. `q=0` refuses a coding.
 * Identity is always acceptable (a refusal of it too would be a 406; the plain bytes are sent
 * instead) and wins only when named with a higher quality than every acceptable coding.
 */
export function preferredEncoding(
  header: string | string[] | undefined,
  available: readonly Encoding[] = ENCODINGS,
): Encoding | 'identity' {
  if (header === undefined) return 'identity';
  const q = qualities(Array.isArray(header) ? header.join(',') : header);
  const star = q.get('*');
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const coding of available) {
    const quality = q.get(coding) ?? star ?? 0;
    if (quality > bestQ) {
      best = coding;
      bestQ = quality;
    }
  }
  if (best === undefined) return 'identity';
  const identity = q.get('identity');
  return identity !== undefined && identity > bestQ ? 'identity' : best;
}

/** What is worth compressing (@fastify/compress's own default reading, for the streams handled here). */
const COMPRESSIBLE_TYPE = /^text\/(?!event-stream)|[/+](?:json|xml|javascript)(?:;|$)/i;

function isWebStream(payload: unknown): payload is ReadableStream<Uint8Array> {
  return typeof payload === 'object' && payload !== null && typeof (payload as ReadableStream).getReader === 'function';
}

/** Joins small chunks (a CSV sheet is one chunk per line) into chunks of at least `size` bytes. */
export function batches(size: number): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      held.push(buffer);
      heldBytes += buffer.length;
      if (heldBytes >= size) {
        const batch = Buffer.concat(held, heldBytes);
        held = [];
        heldBytes = 0;
        callback(null, batch);
      } else callback();
    },
    flush(callback) {
      callback(null, heldBytes > 0 ? Buffer.concat(held, heldBytes) : undefined);
    },
  });
}

/** A web stream's chunks (graphql-yoga's may be its own implementation: only `getReader` is relied on). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // The client went away before the end: stop the source too.
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const value = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(value))
    reply.header('vary', value ? `${value}, accept-encoding` : 'accept-encoding');
}

/**
 * Stream answers (the CSV sheets, GraphQL's): compressed here, in batches of STREAM_BATCH bytes each
 * flushed out of the compressor, through a `pipeline`, so the source is pulled only as fast as the
 * socket drains. Left to @fastify/compress, a sheet would go through brotli one CSV line per write
 * with no flush, and brotli's stream encoder keeps its output until the end: the client would get
 * its first byte only once the whole sheet had been read from the database and compressed
 * (compression.test.ts, "a compressed stream stays a stream", shows both).
 * A stream of a known length under the threshold (graphql-yoga sets `content-length`) is read into a
 * buffer instead — a few hundred bytes — and left to @fastify/compress, which sends it plain.
 * Buffers and strings are left to @fastify/compress.
 */
async function compressStream(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (!isWebStream(payload) && !(payload instanceof Readable)) return payload;
  if (reply.hasHeader('content-encoding') || reply.hasHeader('content-range') || reply.statusCode === 206)
    return payload;
  const length = Number(reply.getHeader('content-length'));
  if (Number.isInteger(length) && length < DYNAMIC_THRESHOLD) {
    if (isWebStream(payload)) return Buffer.from(await new Response(payload).arrayBuffer());
    return payload;
  }
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !COMPRESSIBLE_TYPE.test(type)) return payload;
  addVary(reply);
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') return payload;
  const source = isWebStream(payload) ? Readable.from(chunksOf(payload)) : payload;
  // Every batch is flushed out of the compressor: brotli's stream encoder otherwise keeps its whole
  // output until the end (a sheet would reach the client only once fully read from the database),
  // and one zlib call per batch instead of per CSV line spares the thread pool.
  const compressor =
    encoding === 'br'
      ? createBrotliCompress({
          params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY },
          flush: constants.BROTLI_OPERATION_FLUSH,
        })
      : createGzip({ level: GZIP_LEVEL, flush: constants.Z_SYNC_FLUSH });
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  // An error of the source (a failed query mid-sheet) ends the compressed stream with it; Fastify then
  // cuts the connection, as it does for a plain stream that fails after its headers went out.
  pipeline(source, batches(STREAM_BATCH), compressor, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
      request.log.warn({ err: error }, 'compressed stream failed');
  });
  return compressor;
}

export async function registerCompression(
  fastify: FastifyInstance,
  options: { precompressedPrefixes: readonly string[] },
): Promise<void> {
  // Before @fastify/compress's own onRoute hook (hooks run in the order they were added), which reads
  // a route's `compress` option when the route is added; the stream hook goes before its onSend.
  fastify.addHook('onRoute', (route) => {
    if (route.compress === undefined && options.precompressedPrefixes.some((prefix) => route.url.startsWith(prefix)))
      route.compress = false;
    if (route.compress === false) return;
    route.onSend = [
      compressStream,
      ...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]),
    ];
  });
  await fastify.register(fastifyCompress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: DYNAMIC_THRESHOLD,
    encodings: [...ENCODINGS],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });
}
