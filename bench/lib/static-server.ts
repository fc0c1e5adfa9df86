import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A static file server for a built peer app (bench/page-load.ts), on 127.0.0.1 and a free port, so the
 * peers get the same wire as the panel: every compressible file is compressed once at start, brotli at
 * quality 11 and gzip -9 (what scripts/precompress.mjs does for the panel's build), and sent as the
 * client's Accept-Encoding allows. Paths without a file get `index.html` (client-side routing).
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);

interface Entry {
  type: string;
  raw: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export interface StaticServer {
  base: string;
  /** Every file's bytes as sent with brotli (what Chromium asks for), summed, for the notes. */
  brotliBytes: number;
  close(): Promise<void>;
}

export async function serveStatic(root: string): Promise<StaticServer> {
  const files = new Map<string, Entry>();
  let brotliBytes = 0;
  for (const path of walk(root)) {
    const ext = extname(path);
    const raw = readFileSync(path);
    const entry: Entry = { type: TYPES[ext] ?? 'application/octet-stream', raw };
    if (COMPRESSIBLE.has(ext)) {
      entry.br = brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      });
      entry.gzip = gzipSync(raw, { level: 9 });
    }
    brotliBytes += (entry.br ?? raw).length;
    files.set(`/${relative(root, path).split(sep).join('/')}`, entry);
  }
  const index = files.get('/index.html');
  if (!index) throw new Error(`${root}/index.html is missing: build the peer first`);

  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const entry = files.get(path) ?? index;
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const [encoding, body] =
      entry.br && /\bbr\b/.test(accepts)
        ? ['br', entry.br]
        : entry.gzip && /\bgzip\b/.test(accepts)
          ? ['gzip', entry.gzip]
          : [undefined, entry.raw];
    response.writeHead(200, {
      'content-type': entry.type,
      'content-length': body.length,
      // Hashed assets may be kept; the page itself is asked for every time (as the panel's server does).
      'cache-control': entry === index ? 'no-cache' : 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    brotliBytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
