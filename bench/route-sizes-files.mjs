import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The built files as the server sends them, for the route size table (./route-sizes.mjs). */

export const KB = 1000;

/**
 * Sizes of one built file as the server sends it: raw, and its `.gz` and `.br` files when the build
 * wrote them (else raw: the server sends the file as it is). Pages at the root (`*.html`) are not
 * sent from disk but compressed by the server at start with the same settings: compressed here alike.
 */
const sizeCache = new Map();
export function fileSizes(webRoot, file) {
  const key = join(webRoot, file);
  let sizes = sizeCache.get(key);
  if (!sizes) {
    const buffer = readFileSync(key);
    const variant = (extension, compress) => {
      if (!file.includes('/')) return Math.min(buffer.length, compress(buffer).length);
      return existsSync(key + extension) ? statSync(key + extension).size : buffer.length;
    };
    sizes = {
      raw: buffer.length,
      gzip: variant('.gz', (b) => gzipSync(b, { level: 9 })),
      brotli: variant('.br', (b) =>
        brotliCompressSync(b, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: b.length },
        }),
      ),
    };
    sizeCache.set(key, sizes);
  }
  return sizes;
}

/** Whether the build wrote compressed files beside its assets (a build before that did not). */
export function precompressed(webRoot, files) {
  return files.some((file) => existsSync(join(webRoot, `${file}.br`)));
}

/** The scripts a page loads eagerly: `<script src>` and `<link rel="modulepreload|preload" as="script">`, in order. */
export function eagerScripts(html) {
  const found = [];
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g))
    if (!/\btype="(?!module)[^"]*"/.test(match[0])) found.push(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    if (/\brel="modulepreload"/.test(tag) || (/\brel="preload"/.test(tag) && /\bas="script"/.test(tag)))
      found.push(/\bhref="([^"]+)"/.exec(tag)?.[1]);
  }
  return [...new Set(found.filter(Boolean).map((src) => src.replace(/^\//, '').replace(/[?#].*$/, '')))];
}

const kindOf = (file) =>
  file.endsWith('.css') ? 'css' : file.endsWith('.js') ? 'js' : file.endsWith('.html') ? 'html' : 'other';

/** Sums raw/gzip/brotli per kind (js, css, html) over files. */
export function measure(webRoot, files) {
  const total = { files: [...files].sort(), js: zero(), css: zero(), html: zero(), all: zero() };
  for (const file of files) {
    const kind = kindOf(file);
    if (kind === 'other') continue;
    const sizes = fileSizes(webRoot, file);
    for (const bucket of [total[kind], total.all]) {
      bucket.raw += sizes.raw;
      bucket.gzip += sizes.gzip;
      bucket.brotli += sizes.brotli;
    }
  }
  return total;
}
function zero() {
  return { raw: 0, gzip: 0, brotli: 0 };
}
