#!/usr/bin/env node
/**
 * JS and CSS per route, gzip and brotli, from the production build (the budgets in bench/budgets.json;
 * `npm run build` prints them).
 *
 * Reads the chunk graph that rsbuild.config.ts writes to `dist/stats.json` and the built files under
 * `dist/web`. Routes come from the registry (`src/app/screens-registry.ts`: `'<route>': …import('…')`)
 * and the route table (`src/domain/paths.ts`: each route's layout), so screens added by anyone show up
 * without a magic comment.
 *
 * What each row counts (bytes of the built files as `npm start` sends them, file by file — what a
 * browser downloads): `br` and `gz` are the sizes of the `.br` and `.gz` files the build writes beside
 * each asset (scripts/precompress.mjs, brotli q11 and gzip -9), which server/src/plugins/static.ts sends
 * to a client that accepts them (a browser's `Accept-Encoding: gzip, deflate, br, zstd` gets brotli);
 * an asset without one goes out raw, and counts raw. bench/bundle.ts fetches the same files from a
 * started server to check these figures against the bytes really sent.
 * - `login (initial)`: every file the entry loads (the HTML's scripts and styles) plus the login page
 *   (`login.pt-BR.light.mail.html`, a first visit's, compressed by the server at start, counted here without the ~100-byte settings
 *   meta it adds).
 * - `(main layout)`: the lazily loaded layout, the complete pt-BR messages, the socket side the
 *   layout waits for (src/machines/realtime/realtime.ts, loaded at sign-in) and the typed REST client
 *   (src/api/create-rest-client.ts, which the sign-in itself uses), minus the entry: the price of the
 *   first main-layout route after login, paid once.
 * - every other route: its screen's async chunk group minus the entry, and for main-layout routes minus
 *   the layout group too — what navigating there downloads on top of what is already loaded.
 * - `lazy …` rows: chunks a screen or the shell loads later on demand (charts, a dialog, a language).
 * - `whole app`: every JS and CSS file of the build.
 *
 * Also: modules in more than one chunk (./route-sizes-duplicates.mjs: count, and the bytes of the
 * copies beyond the first, against `duplicatedModuleKB`), and the login page's JS on the wire before the form is interactive — the scripts `login.pt-BR.light.mail.html`
 * loads eagerly (its `<script src>` and script preloads; the form's handlers come with them), brotli
 * as served, against `loginBrotliKB`.
 *
 * `node bench/route-sizes.mjs` prints the table; `--json FILE` also writes it; `--check` exits 1 when a
 * budget of bench/budgets.json is missed (the build itself only prints).
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eagerScripts, fileSizes, measure, precompressed } from './route-sizes-files.mjs';
import { contributors, parseRegistry, parseRouteTable, resolveRequest } from './route-sizes-sources.mjs';
import { checkRouteSizes, formatRouteSizes } from './route-sizes-format.mjs';
import { duplicatedModules } from './route-sizes-duplicates.mjs';

export { eagerScripts } from './route-sizes-files.mjs';
export { parseRegistry, parseRouteTable } from './route-sizes-sources.mjs';
export { checkRouteSizes, formatRouteSizes } from './route-sizes-format.mjs';
export { duplicatedModules } from './route-sizes-duplicates.mjs';

/** Everything the table needs, from the build output. */
export function computeRouteSizes({ root = process.cwd() } = {}) {
  const statsFile = join(root, 'dist/stats.json');
  const webRoot = join(root, 'dist/web');
  if (!existsSync(statsFile))
    throw new Error(`${relative(root, statsFile)} is missing: build with rsbuild (its config writes it)`);
  const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
  const registry = parseRegistry(readFileSync(join(root, 'src/app/screens-registry.ts'), 'utf8'));
  const table = parseRouteTable(readFileSync(join(root, 'src/domain/paths.ts'), 'utf8'));

  const chunkById = new Map(stats.chunks.map((c) => [String(c.id), c]));
  const filesOf = (ids) => new Set([...ids].flatMap((id) => chunkById.get(String(id))?.files ?? []));
  /** Chunks of each async group, keyed by `<importing module> -> <request>`. */
  const groups = new Map();
  for (const chunk of stats.chunks) {
    for (const origin of chunk.origins ?? []) {
      if (!origin.request || !origin.moduleName) continue;
      const key = `${origin.moduleName} -> ${origin.request}`;
      if (!groups.has(key)) groups.set(key, new Set());
      groups.get(key).add(String(chunk.id));
    }
  }
  const entryIds = new Set((stats.entrypoints?.index?.chunks ?? []).map(String));
  if (entryIds.size === 0) throw new Error('dist/stats.json has no `index` entrypoint');
  const entryModules = new Set();
  const collectNames = (modules) => {
    for (const m of modules ?? []) {
      if (m.name) entryModules.add(m.name.replace(/ \+ \d+ modules$/, ''));
      collectNames(m.modules);
    }
  };
  for (const id of entryIds) collectNames(chunkById.get(id)?.modules);

  const REGISTRY = './src/app/screens-registry.ts';
  const minus = (set, ...others) => new Set([...set].filter((id) => !others.some((o) => o.has(id))));
  const used = new Set();
  const group = (key) => {
    used.add(key);
    return groups.get(key) ?? new Set();
  };

  const rows = [];
  const entryFiles = filesOf(entryIds);
  // A first visit's login page (src/domain/look-cookie.ts `loginPageFile`); the shell in a build without it.
  const page = ['login.pt-BR.light.mail.html', 'index.html'].find((name) => existsSync(join(webRoot, name)));
  const html = page ? [page] : [];
  rows.push({
    kind: 'initial',
    route: 'login',
    path: '/login',
    chunks: [...entryIds],
    ...measure(webRoot, [...entryFiles, ...html]),
  });
  // What the login page's HTML makes the browser fetch before its form works.
  const eager = page ? eagerScripts(readFileSync(join(webRoot, page), 'utf8')) : [];
  const loginEager = { page: page ?? null, ...measure(webRoot, eager) };

  const layoutIds = minus(
    new Set([
      ...group(`${REGISTRY} -> ../ui/layouts/main-layout`),
      ...group('./src/i18n/runtime.ts -> ./pt-BR.json?full'),
      ...group('./src/app/app-services.ts -> ../machines/realtime/realtime'),
      ...group('./src/app/app-services.ts -> ../api/create-rest-client'),
    ]),
    entryIds,
  );
  rows.push({
    kind: 'layout',
    route: '(main layout)',
    path: 'first main route',
    chunks: [...layoutIds],
    ...measure(webRoot, filesOf(layoutIds)),
  });

  for (const [route, request] of registry) {
    if (route === 'login') continue;
    const where = table.get(route);
    let ids = new Set();
    let note = '';
    if (request === null) note = 'in the entry';
    else {
      ids = minus(group(`${REGISTRY} -> ${request}`), entryIds, where?.layout === 'main' ? layoutIds : new Set());
      if (!groups.has(`${REGISTRY} -> ${request}`)) {
        const module = resolveRequest(REGISTRY, request);
        note = [...entryModules].some((m) => m.startsWith(`${module}.`)) ? 'in the entry' : 'no chunk found';
      }
    }
    rows.push({
      kind: 'route',
      route,
      path: where?.path ?? '?',
      request,
      note,
      chunks: [...ids],
      ...measure(webRoot, filesOf(ids)),
    });
  }

  // Chunks loaded later on demand: nested lazy components, other languages, the toast region.
  for (const [key, ids] of groups) {
    if (used.has(key) || key.endsWith('-> ./src/app/main.tsx')) continue;
    const extra = minus(ids, entryIds, layoutIds);
    rows.push({
      kind: 'lazy',
      route: `lazy ${key.split(' -> ')[1]}`,
      path: `from ${key.split(' -> ')[0].replace(/^\.\/src\//, '')}`,
      chunks: [...extra],
      ...measure(webRoot, filesOf(extra)),
    });
  }

  const allFiles = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(js|css)$/.test(name)) allFiles.push(relative(webRoot, full));
    }
  };
  walk(join(webRoot, 'static'));
  const whole = { kind: 'whole', route: 'whole app', path: 'every JS and CSS file', ...measure(webRoot, allFiles) };

  // Biggest contributors to the login route: raw source bytes per package, and an estimate of their
  // gzip share (raw share × the chunk's gzip size; minification and compression are not uniform).
  const estimates = new Map();
  for (const id of entryIds) {
    const chunk = chunkById.get(id);
    if (!chunk) continue;
    const js = (chunk.files ?? []).filter((f) => f.endsWith('.js'));
    const gz = js.reduce((sum, f) => sum + fileSizes(webRoot, f).gzip, 0);
    const bytes = contributors([chunk]);
    const raw = [...bytes.values()].reduce((a, b) => a + b, 0) || 1;
    for (const [name, size] of bytes) {
      const e = estimates.get(name) ?? { name, raw: 0, gzipEstimate: 0, chunks: [] };
      e.raw += size;
      e.gzipEstimate += (size / raw) * gz;
      e.chunks.push(js[0] ?? String(id));
      estimates.set(name, e);
    }
  }
  const loginContributors = [...estimates.values()].sort((a, b) => b.gzipEstimate - a.gzipEstimate);
  const entryChunks = [...entryIds].map((id) => {
    const chunk = chunkById.get(id);
    return { id, files: chunk?.files ?? [], ...measure(webRoot, chunk?.files ?? []) };
  });

  return {
    rows,
    whole,
    loginContributors,
    entryChunks,
    loginEager,
    duplicates: duplicatedModules(stats),
    precompressed: precompressed(webRoot, allFiles),
  };
}

/** Budget checks (bench/budgets.json `bundle`): one per row that has a budget. */
function main() {
  const args = process.argv.slice(2);
  const budgetsFile = new URL('./budgets.json', import.meta.url);
  const budgets = existsSync(budgetsFile) ? JSON.parse(readFileSync(budgetsFile, 'utf8')).bundle : undefined;
  const result = computeRouteSizes();
  console.log(formatRouteSizes(result, budgets));
  const jsonAt = args.indexOf('--json');
  if (jsonAt >= 0 && args[jsonAt + 1]) writeFileSync(args[jsonAt + 1], JSON.stringify(result, null, 2));
  if (args.includes('--check') && budgets) {
    const missed = checkRouteSizes(result, budgets).filter((c) => !c.ok);
    for (const c of missed) console.log(`MISSED ${c.name}: ${c.value.toFixed(1)} ${c.unit} > ${c.budget} ${c.unit}`);
    if (missed.length) process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
