/**
 * Brotli (`.br`, quality 11) and gzip (`.gz`, level 9) files beside every compressible built asset,
 * for server/src/plugins/static.ts to send by content negotiation (@fastify/static `preCompressed`).
 * Run after every production build by rsbuild.config.ts (so `npm run build` and the build that
 * `npm start` does alike).
 *
 * Only what the server sends from disk: the hashed assets under `static/`. The two HTML pages at the
 * root are not sent as files — the server adds the runtime settings to them and compresses the
 * result once at start (static.ts) — so `.br`/`.gz` of them would never be read.
 * A variant is written only when it is smaller than the file itself; without one the file goes out
 * as it is. The production build emits no source maps (`.map` is left out for that reason: nothing
 * to compress, and nothing should advertise them).
 */
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats the build can emit; images and fonts (png, woff2…) are compressed already. */
export const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.xml',
  '.ico',
  '.wasm',
]);

export const brotliMax = (buffer) =>
  brotli(buffer, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
    },
  });
export const gzipMax = (buffer) => gz(buffer, { level: 9 });

async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * Writes `<file>.br` and `<file>.gz` for every compressible file under `dir` (recursively); removes
 * a stale variant of a file whose new one would not be smaller. Returns what it did, per file.
 */
export async function precompressDir(dir) {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.has(extname(file).toLowerCase()));
  // zlib's async calls run on libuv's pool: a few at a time use the cores without queueing everything.
  const results = [];
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const raw = await readFile(file);
      const [br, gzipped] = await Promise.all([brotliMax(raw), gzipMax(raw)]);
      const result = { file, raw: raw.length, brotli: br.length, gzip: gzipped.length };
      for (const [extension, bytes] of [
        ['.br', br],
        ['.gz', gzipped],
      ]) {
        if (bytes.length < raw.length) await writeFile(file + extension, bytes);
        else await unlink(file + extension).catch(() => undefined);
      }
      results.push(result);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return results.sort((a, b) => a.file.localeCompare(b.file));
}
