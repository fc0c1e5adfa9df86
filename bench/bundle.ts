import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { check, type SuiteResult } from './lib/report';
import { startServer, stopServer } from './lib/servers';
import {
  checkRouteSizes,
  computeRouteSizes,
  formatRouteSizes,
  type BundleBudgets,
  type RouteSizes,
} from './route-sizes.mjs';

/**
 * JS and CSS per route, gzip and brotli, from a production build's chunk graph.
 * The full bench builds first; the quick one reuses `dist/` when the build already ran (CI's
 * `npm test` builds just before) and builds only when `dist/stats.json` is missing.
 *
 * Bytes on the wire as `npm start` sends them: the server is started on the build (on an in-memory
 * PGlite: no database work is measured) and every file of every row is fetched as a browser would,
 * `Accept-Encoding: br, gzip` and then `gzip` alone, counting the body bytes received (not decoded).
 * The table's `served` columns are those; the route-sizes figures (from the build's `.br`/`.gz` files)
 * should agree within the login page's runtime-settings meta.
 */

/** Body bytes of one answer as received, with its `content-encoding`. */
function wireBytes(
  base: string,
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { 'accept-encoding': acceptEncoding } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, encoding: res.headers['content-encoding'] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface Served {
  brotli: number;
  gzip: number;
  /** Compressible files a brotli-accepting client got without brotli. */
  notBrotli: string[];
}

/** Fetches every file of the table from a started server; sums per row. */
async function servedSizes(sizes: RouteSizes): Promise<{ rows: Map<string, Served>; loginEager: Served }> {
  const server = await startServer('pglite://memory', { env: { LOG_LEVEL: 'warn' } });
  try {
    const cache = new Map<
      string,
      { br: Awaited<ReturnType<typeof wireBytes>>; gz: Awaited<ReturnType<typeof wireBytes>> }
    >();
    const fetchFile = async (file: string) => {
      let got = cache.get(file);
      if (!got) {
        // The pages are sent under a tenant's paths, the assets under /static/.
        const path = /^login\./.test(file) ? '/backoffice/login' : file === 'index.html' ? '/backoffice/' : `/${file}`;
        const br = await wireBytes(server.base, path, 'br, gzip');
        const gz = await wireBytes(server.base, path, 'gzip');
        if (br.status !== 200 || gz.status !== 200) throw new Error(`${path}: ${br.status}/${gz.status}`);
        got = { br, gz };
        cache.set(file, got);
      }
      return got;
    };
    const sum = async (files: readonly string[]): Promise<Served> => {
      const served: Served = { brotli: 0, gzip: 0, notBrotli: [] };
      for (const file of files) {
        if (!/\.(js|css|html)$/.test(file)) continue;
        const { br, gz } = await fetchFile(file);
        served.brotli += br.bytes;
        served.gzip += gz.bytes;
        if (br.encoding !== 'br') served.notBrotli.push(file);
      }
      return served;
    };
    const rows = new Map<string, Served>();
    for (const row of [...sizes.rows, sizes.whole]) rows.set(row.route, await sum(row.files));
    return { rows, loginEager: await sum(sizes.loginEager.files) };
  } finally {
    await stopServer(server);
  }
}

export async function bundleBench(options: { build: boolean; budgets: BundleBudgets }): Promise<SuiteResult> {
  const notes: string[] = [];
  if (options.build || !existsSync('dist/stats.json')) {
    const started = Date.now();
    const built = spawnSync('npx', ['rsbuild', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('rsbuild build failed');
    notes.push(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } else {
    notes.push(`reused the build of ${statSync('dist/stats.json').mtime.toISOString()}`);
  }
  const sizes = computeRouteSizes();
  console.log(formatRouteSizes(sizes, options.budgets));
  const served = await servedSizes(sizes);
  const kb = (bytes: number) => (bytes / 1000).toFixed(1);
  const table = [
    [
      'route',
      'path',
      'JS gz KB',
      'JS br KB',
      'CSS gz KB',
      'CSS br KB',
      'total gz KB',
      'total br KB',
      'served gz KB',
      'served br KB',
    ],
  ];
  for (const row of [...sizes.rows, sizes.whole]) {
    const wire = served.rows.get(row.route);
    table.push([
      row.route,
      row.path,
      ...[row.js.gzip, row.js.brotli, row.css.gzip, row.css.brotli, row.all.gzip, row.all.brotli].map(kb),
      kb(wire?.gzip ?? Number.NaN),
      kb(wire?.brotli ?? Number.NaN),
    ]);
  }
  const eager = served.loginEager;
  table.push([
    'login JS before the form is interactive',
    `${sizes.loginEager.files.length} eager ${sizes.loginEager.files.length === 1 ? 'script' : 'scripts'}`,
    kb(sizes.loginEager.js.gzip),
    kb(sizes.loginEager.js.brotli),
    '',
    '',
    '',
    '',
    kb(eager.gzip),
    kb(eager.brotli),
  ]);
  notes.push(
    `login JS on the wire before the form is interactive (${sizes.loginEager.files.join(', ')}): ${kb(eager.brotli)} KB brotli, ${kb(eager.gzip)} KB gzip, ${kb(sizes.loginEager.js.raw)} KB raw, as served`,
  );
  const login = served.rows.get('login');
  const whole = served.rows.get('whole app');
  if (login)
    notes.push(
      `login route as served (JS + CSS + page): ${kb(login.brotli)} KB brotli, ${kb(login.gzip)} KB gzip, ${kb(sizes.rows[0]?.all.raw ?? Number.NaN)} KB raw`,
    );
  if (whole)
    notes.push(
      `whole app as served: ${kb(whole.brotli)} KB brotli, ${kb(whole.gzip)} KB gzip, ${kb(sizes.whole.all.raw)} KB raw`,
    );
  const notBrotli = [...new Set([...served.rows.values()].flatMap((r) => r.notBrotli))];
  if (notBrotli.length > 0) notes.push(`sent without brotli to a client that accepts it: ${notBrotli.join(', ')}`);

  const checks = checkRouteSizes(sizes, options.budgets).map((c) =>
    // The eager-JS budget is judged on the bytes the started server sent.
    c.name.startsWith('bundle: login JS on the wire')
      ? check(c.name, eager.brotli / 1000, c.budget, c.unit)
      : check(c.name, c.value, c.budget, c.unit),
  );
  const assets = sizes.whole.files.filter((f) => /\.(js|css)$/.test(f));
  const uncompressed = assets.filter((f) => notBrotli.includes(f));
  checks.push(
    check(
      'bundle: JS/CSS files a brotli client gets uncompressed',
      uncompressed.length,
      Math.ceil(assets.length * 0.05),
      'files',
      'max',
      'a few tiny files gain nothing from compression; more means the build wrote no .br files',
    ),
  );
  return {
    suite: 'bundle',
    table,
    checks,
    data: { ...sizes, served: { rows: Object.fromEntries(served.rows), loginEager: eager } },
    notes,
  };
}
