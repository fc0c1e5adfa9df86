import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { check, type SuiteResult } from './lib/report';
import { checkRouteSizes, computeRouteSizes, formatRouteSizes, type BundleBudgets } from './route-sizes.mjs';

/**
 * Issue #8 point 1: JS and CSS per route, gzip and brotli, from a production build's chunk graph.
 * The full bench builds first; the quick one reuses `dist/` when the build already ran (CI's
 * `npm test` builds just before) and builds only when `dist/stats.json` is missing.
 */
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
  const table = [['route', 'path', 'JS gz KB', 'JS br KB', 'CSS gz KB', 'CSS br KB', 'total gz KB', 'total br KB']];
  for (const row of [...sizes.rows, sizes.whole]) {
    table.push([row.route, row.path, ...[row.js.gzip, row.js.brotli, row.css.gzip, row.css.brotli, row.all.gzip, row.all.brotli].map((b) => (b / 1000).toFixed(1))]);
  }
  const checks = checkRouteSizes(sizes, options.budgets).map((c) => check(c.name, c.value, c.budget, c.unit));
  return { suite: 'bundle', table, checks, data: sizes, notes };
}
