/**
 * Modules the build put in more than one chunk (./route-sizes.mjs prints them, `npm run bench`'s bundle
 * suite checks them against `duplicatedModuleKB` in bench/budgets.json).
 *
 * A module in two chunks is downloaded, parsed and run twice by a user who opens both, and counts twice
 * in the whole app. Read from the chunk graph (`dist/stats.json`, written by rsbuild.config.ts): every
 * chunk's modules, a concatenated module (`./a.ts + 12 modules`) taken apart into the modules it holds,
 * the CSS that vanilla-extract extracts from a `.css.ts` file counted as a module of its own (its rules
 * are in the chunk's `.css` file). A module's size is rspack's (its source after loaders, before
 * minification); the bytes counted are those of each copy beyond the first.
 */

/** The modules of a chunk, with concatenated modules replaced by the modules they hold. */
function leafModules(modules, out = []) {
  for (const module of modules ?? []) {
    if (module.modules?.length) leafModules(module.modules, out);
    else if (module.name) out.push(module);
  }
  return out;
}

/** A short name for a module: its package (`react-aria/…`) or its path in the repository. */
export function shortModuleName(name) {
  const css = /"fileName":"([^"]+)"/.exec(name);
  if (name.startsWith('css ') && css) return `${css[1]} (extracted CSS)`;
  const packaged = /node_modules[\\/](.*)$/.exec(name);
  return (packaged ? packaged[1] : name).replace(/^\.\//, '');
}

/**
 * Every module found in more than one chunk: `{ count, bytes, modules: [{ name, size, chunks }] }`,
 * `bytes` the sum over them of size × (copies − 1), biggest first.
 */
export function duplicatedModules(stats) {
  const chunksOf = new Map();
  for (const chunk of stats.chunks ?? []) {
    const id = String(chunk.id);
    for (const module of leafModules(chunk.modules)) {
      const seen = chunksOf.get(module.name) ?? { size: module.size ?? 0, chunks: new Set() };
      seen.chunks.add(id);
      chunksOf.set(module.name, seen);
    }
  }
  const modules = [];
  for (const [name, seen] of chunksOf)
    if (seen.chunks.size > 1) modules.push({ name: shortModuleName(name), size: seen.size, chunks: [...seen.chunks] });
  const extra = (m) => m.size * (m.chunks.length - 1);
  modules.sort((a, b) => extra(b) - extra(a) || a.name.localeCompare(b.name));
  return { count: modules.length, bytes: modules.reduce((sum, m) => sum + extra(m), 0), modules };
}
