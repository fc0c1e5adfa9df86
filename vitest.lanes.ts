/**
 * The vitest projects (lanes), decided from what each test file reaches, so that a new file lands in
 * the right lane without a list to keep (docs/architecture.md, "Tests and their lanes"):
 *
 * - `views`: component tests, the files that ask for jsdom with a `// @vitest-environment jsdom` docblock;
 * - `logic`: everything else that opens no database: domain rules, machines, server code tested alone;
 * - `server`: files whose imports reach a database driver (PGlite; the server's own `pg` pool);
 * - `postgres`: files whose imports reach `server/src/test-support/postgres.ts`, which starts a
 *   throwaway PostgreSQL cluster from Debian's binaries.
 *
 * `npm run test:fast` is `logic`, `views` and `fresh`: no database, no browser. A file's lane follows its
 * imports, not its name: the walk follows relative `import … from` and `import(…)` (not `import type`).
 * A file that reaches a database some other way (a child process) says so: `@test-lane server`.
 *
 * `logic` and `views` share modules (and views a jsdom document) between the files of a worker: see
 * vitest.config.ts. A file without a database that needs its own (it asserts that a module is not loaded
 * yet, or a state of jsdom a previous file may have moved) says so with `@test-fresh` and a reason:
 * it runs in `fresh`, isolated. So does a file that mocks a module (`vi.mock`): its mock must not meet a
 * module graph an earlier file loaded without it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Lane = 'logic' | 'views' | 'fresh' | 'server' | 'postgres';

const ROOTS = ['src', 'server/src', 'packages/conformance/src', 'tests/unit', 'tests/contract'];
const TEST_FILE = /\.test\.tsx?$/;
/** A module that opens a database itself. */
const DATABASE_DRIVER = /from '(@electric-sql\/pglite[^']*|pg)'|import\('(@electric-sql\/pglite[^']*|pg)'\)/;
const POSTGRES_SUPPORT = resolve('server/src/test-support/postgres.ts');
const JSDOM = /@vitest-environment jsdom/;
const STATED_LANE = /@test-lane (server|postgres)\b/;
const STATED_FRESH = /@test-fresh\b/;
/** Module mocks replace a module for one file: such a file gets a module graph of its own. */
const MOCKS_MODULES = /\bvi\.(?:mock|doMock)\(/;
/** Relative imports that bring code at run time: `import x from './a'`, `export … from './a'`, `import('./a')`. */
const RELATIVE_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^'";]*?\bfrom\s+'(\.{1,2}\/[^']+)'|(?:^|\n)\s*import\s+'(\.{1,2}\/[^']+)'|\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function walk(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'generated') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (TEST_FILE.test(entry)) out.push(path);
  }
  return out;
}

function resolveModule(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.(js|mjs)$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
  return undefined;
}

interface Reach {
  database: boolean;
  postgres: boolean;
}

interface Module {
  database: boolean;
  postgres: boolean;
  imports: string[];
}

/** One module's own facts (read once): whether it names a driver itself, and what it imports. */
function moduleOf(file: string, modules: Map<string, Module>): Module {
  let known = modules.get(file);
  if (!known) {
    const text = readFileSync(file, 'utf8');
    const imports: string[] = [];
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolveModule(file, (match[1] ?? match[2] ?? match[3])!);
      if (target) imports.push(target);
    }
    known = { database: DATABASE_DRIVER.test(text), postgres: file === POSTGRES_SUPPORT, imports };
    modules.set(file, known);
  }
  return known;
}

/**
 * What a file reaches, walking its whole import graph. Not memoised per module: a result found while an
 * import cycle was cut would be incomplete, and a later file importing only that module would be
 * misclassified (tests/unit/vitest-lanes.test.ts).
 */
function reachOf(file: string, modules: Map<string, Module>): Reach {
  const reach: Reach = { database: false, postgres: false };
  const seen = new Set<string>([file]);
  const pending = [file];
  while (pending.length > 0 && !(reach.database && reach.postgres)) {
    const module = moduleOf(pending.pop()!, modules);
    reach.database ||= module.database;
    reach.postgres ||= module.postgres;
    for (const target of module.imports)
      if (!seen.has(target)) {
        seen.add(target);
        pending.push(target);
      }
  }
  return reach;
}

/** Every test file under the test roots, by lane (paths relative to the repository). */
export function testLanes(root = process.cwd()): Record<Lane, string[]> {
  const lanes: Record<Lane, string[]> = { logic: [], views: [], fresh: [], server: [], postgres: [] };
  const modules = new Map<string, Module>();
  for (const file of ROOTS.flatMap((dir) => walk(resolve(root, dir), []))) {
    const text = readFileSync(file, 'utf8');
    const reach = reachOf(file, modules);
    const stated = STATED_LANE.exec(text)?.[1] as Lane | undefined;
    const lane: Lane =
      stated ??
      (reach.postgres
        ? 'postgres'
        : reach.database
          ? 'server'
          : STATED_FRESH.test(text) || MOCKS_MODULES.test(text)
            ? 'fresh'
            : JSDOM.test(text)
              ? 'views'
              : 'logic');
    lanes[lane].push(relative(root, file));
  }
  for (const files of Object.values(lanes)) files.sort();
  return lanes;
}
