import { posix } from 'node:path';

/** Routes and their screens from the sources, and the npm packages behind chunks, for the route size table (./route-sizes.mjs). */

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
  for (const match of source.matchAll(
    /\{\s*name:\s*'([^']+)',\s*path:\s*'([^']+)',[^}]*?layout:\s*'(main|blank|page)'/g,
  )) {
    table.set(match[1], { path: match[2], layout: match[3] });
  }
  return table;
}

/** `./screens/users/users` imported from `./src/app/screens-registry.ts` → `./src/ui/screens/users/users`. */
export function resolveRequest(fromModule, request) {
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
export function contributors(chunks) {
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
