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
 *   (`login.html`, compressed by the server at start, counted here without the ~100-byte settings
 *   meta it adds).
 * - `(main layout)`: the lazily loaded layout, the complete pt-BR messages and the socket side the
 *   layout waits for (src/machines/realtime/realtime.ts, loaded at sign-in), minus the entry: the price of the
 *   first main-layout route after login, paid once.
 * - every other route: its screen's async chunk group minus the entry, and for main-layout routes minus
 *   the layout group too — what navigating there downloads on top of what is already loaded.
 * - `lazy …` rows: chunks a screen or the shell loads later on demand (charts, a dialog, a language).
 * - `whole app`: every JS and CSS file of the build.
 *
 * Also: the login page's JS on the wire before the form is interactive — the scripts `login.html`
 * loads eagerly (its `<script src>` and script preloads; the form's handlers come with them), brotli
 * as served, against `loginBrotliKB`.
 *
 * `node bench/route-sizes.mjs` prints the table; `--json FILE` also writes it; `--check` exits 1 when a
 * budget of bench/budgets.json is missed (the build itself only prints).
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const KB = 1000;

/**
 * Sizes of one built file as the server sends it: raw, and its `.gz` and `.br` files when the build
 * wrote them (else raw: the server sends the file as it is). Pages at the root (`*.html`) are not
 * sent from disk but compressed by the server at start with the same settings: compressed here alike.
 */
const sizeCache = new Map();
function fileSizes(webRoot, file) {
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
function precompressed(webRoot, files) {
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
function measure(webRoot, files) {
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

/** `import('x')` requests, with or without a magic comment. */
const IMPORT = /import\(\s*(?:\/\*[\s\S]*?\*\/\s*)?['"]([^'"]+)['"]\s*\)/;

/** Route name → import request of its screen (or `null`: statically in the entry, like login). */
export function parseRegistry(source) {
  const lazyConsts = new Map();
  for (const match of source.matchAll(/const\s+(\w+)\s*=\s*lazyWithTimeout\(\s*\(\)\s*=>\s*(import\([^)]*\))/g)) {
    const request = IMPORT.exec(match[2] ?? '')?.[1];
    if (match[1] && request) lazyConsts.set(match[1], request);
  }
  const start = source.indexOf('export const SCREENS');
  if (start < 0) throw new Error('screens-registry.ts: no `export const SCREENS` object');
  const open = source.indexOf('{', source.indexOf('=', start));
  // The object ends at the first `};` after it (entries are one expression each).
  const body = source.slice(open + 1, source.indexOf('\n};', open));
  const routes = new Map();
  // One entry per `name: value,` at the object's top level; values may span lines.
  const entry =
    /^\s{2}(?:'([a-z0-9-]+)'|([a-zA-Z0-9_]+))\s*:\s*([\s\S]*?),?\s*(?=^\s{2}(?:'[a-z0-9-]+'|[a-zA-Z0-9_]+)\s*:|(?![\s\S]))/gm;
  for (const match of body.matchAll(entry)) {
    const name = match[1] ?? match[2];
    const value = (match[3] ?? '').replace(/\/\/.*$/gm, '').trim();
    if (!name) continue;
    const direct = IMPORT.exec(value)?.[1];
    if (direct) routes.set(name, direct);
    else if (lazyConsts.has(value)) routes.set(name, lazyConsts.get(value));
    else routes.set(name, null);
  }
  return routes;
}

/** Route name → { path, layout } from the route table. */
export function parseRouteTable(source) {
  const table = new Map();
  for (const match of source.matchAll(/\{\s*name:\s*'([^']+)',\s*path:\s*'([^']+)',[^}]*?layout:\s*'(main|blank)'/g)) {
    table.set(match[1], { path: match[2], layout: match[3] });
  }
  return table;
}

/** `./screens/users/users` imported from `./src/app/screens-registry.ts` → `./src/ui/screens/users/users`. */
function resolveRequest(fromModule, request) {
  return posix.normalize(posix.join(posix.dirname(fromModule), request)).replace(/^(?!\.)/, './');
}

function packageOf(name) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1];
  if (pkg && !name.includes('vanilla-extract/webpack-plugin')) return pkg;
  if (name.includes('.vanilla.css')) return 'app CSS (vanilla-extract)';
  if (/\.json(\?|$)/.test(name)) return `messages ${/src\/i18n\/([^?!]+)/.exec(name)?.[1] ?? name}`;
  const src = /(?:^|\/)src\/(.+?)(?:\.[a-z]+)?$/.exec(name)?.[1];
  if (src) {
    const parts = src.split('/');
    return `src/${parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]}`;
  }
  return name;
}

/** Raw source bytes per package/folder in some chunks (concatenated modules opened up). */
function contributors(chunks) {
  const bytes = new Map();
  const add = (modules) => {
    for (const module of modules ?? []) {
      if (module.type !== 'module') continue;
      const nested = (module.modules ?? []).filter((m) => m.type === 'module');
      if (nested.length > 0) {
        add(nested);
        continue;
      }
      const key = packageOf((module.name ?? module.nameForCondition ?? '?').replace(/ \+ \d+ modules$/, ''));
      bytes.set(key, (bytes.get(key) ?? 0) + (module.size ?? 0));
    }
  };
  for (const chunk of chunks) add(chunk.modules);
  return bytes;
}

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
  const page = ['login.html', 'index.html'].find((name) => existsSync(join(webRoot, name)));
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

  return { rows, whole, loginContributors, entryChunks, loginEager, precompressed: precompressed(webRoot, allFiles) };
}

/** Budget checks (bench/budgets.json `bundle`): one per row that has a budget. */
export function checkRouteSizes(result, budgets) {
  const checks = [];
  for (const row of result.rows) {
    if (row.kind === 'initial')
      checks.push({
        name: 'bundle: login route (initial JS+CSS+HTML, gzip)',
        value: row.all.gzip / KB,
        budget: budgets.loginGzipKB,
        unit: 'KB',
      });
    else if (row.kind === 'route' || row.kind === 'layout') {
      checks.push({
        name: `bundle: ${row.route} extra (gzip)`,
        value: row.all.gzip / KB,
        budget: budgets.routeExtraGzipKB,
        unit: 'KB',
      });
    }
  }
  checks.push({
    name: 'bundle: whole app (gzip)',
    value: result.whole.all.gzip / KB,
    budget: budgets.wholeAppGzipKB,
    unit: 'KB',
  });
  if (budgets.loginBrotliKB !== undefined) {
    checks.push({
      name: 'bundle: login JS on the wire before the form is interactive (brotli, as served)',
      value: result.loginEager.js.brotli / KB,
      budget: budgets.loginBrotliKB,
      unit: 'KB',
    });
  }
  return checks.map((c) => ({ ...c, ok: c.value <= c.budget }));
}

const kb = (bytes) => (bytes / KB).toFixed(1);

export function formatRouteSizes(result, budgets) {
  const lines = [];
  const header = ['route', 'path', 'JS gz', 'JS br', 'CSS gz', 'CSS br', 'total gz', 'total br', 'budget', ''];
  const body = [];
  const budgetOf = (row) =>
    row.kind === 'initial'
      ? budgets?.loginGzipKB
      : row.kind === 'route' || row.kind === 'layout'
        ? budgets?.routeExtraGzipKB
        : row.kind === 'whole'
          ? budgets?.wholeAppGzipKB
          : undefined;
  for (const row of [...result.rows, result.whole]) {
    const budget = budgetOf(row);
    const verdict = budget === undefined ? '' : row.all.gzip / KB <= budget ? 'ok' : 'OVER';
    body.push([
      row.route,
      row.path + (row.note ? ` (${row.note})` : ''),
      kb(row.js.gzip),
      kb(row.js.brotli),
      kb(row.css.gzip),
      kb(row.css.brotli),
      kb(row.all.gzip),
      kb(row.all.brotli),
      budget === undefined ? '' : `≤ ${budget}`,
      verdict,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const fmt = (r) =>
    r
      .map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join('  ')
      .trimEnd();
  lines.push(
    "JS and CSS per route (KB = 1000 bytes; gz and br = the bytes the server sends for each file: the build's gzip -9 and brotli q11 files; extra = on top of what is already loaded)",
  );
  if (!result.precompressed)
    lines.push(
      'NOTE: this build has no .br/.gz files (built without scripts/precompress.mjs): the server sends it raw, and so counts the table.',
    );
  lines.push(fmt(header));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of body) lines.push(fmt(r));
  lines.push('');
  const eager = result.loginEager;
  const verdict =
    budgets?.loginBrotliKB === undefined
      ? ''
      : ` (budget ≤ ${budgets.loginBrotliKB} KB br: ${eager.js.brotli / KB <= budgets.loginBrotliKB ? 'ok' : 'OVER'})`;
  lines.push(
    `Login JS on the wire before the form is interactive (${eager.files.length} scripts ${eager.page ?? 'the page'} loads eagerly): ${kb(eager.js.brotli)} KB br, ${kb(eager.js.gzip)} KB gz, ${kb(eager.js.raw)} KB raw${verdict}`,
  );
  lines.push(
    `Login route files: ${result.entryChunks.map((c) => `${c.files.join(' + ')} ${kb(c.all.gzip)} KB gz`).join('; ')}`,
  );
  lines.push('Biggest contributors to the login route (estimated gzip: raw source share × chunk gzip):');
  for (const c of result.loginContributors.slice(0, 10))
    lines.push(`  ${c.name.padEnd(36)} ~${kb(c.gzipEstimate).padStart(5)} KB gz  (${kb(c.raw)} KB source)`);
  return lines.join('\n');
}

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
