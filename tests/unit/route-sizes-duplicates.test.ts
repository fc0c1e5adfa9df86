import { checkRouteSizes, duplicatedModules, formatRouteSizes, type RouteSizes } from '../../bench/route-sizes.mjs';

/** A chunk graph as rsbuild.config.ts writes it to dist/stats.json (the fields the check reads). */
function stats(chunks: { id: string; modules: { name: string; size: number; modules?: unknown[] }[] }[]) {
  return { chunks };
}

const css = (file: string) =>
  `css ../node_modules/@rsbuild/core/compiled/css-loader/index.js!x?{"fileName":"${file}.vanilla.css","source":"…"}!extracted.js`;

const zero = { raw: 0, gzip: 0, brotli: 0 };
const measured = { files: [], js: zero, css: zero, html: zero, all: zero };
/** The route size table of a build with these duplicates and nothing else over. */
function sizesWith(duplicates: ReturnType<typeof duplicatedModules>): RouteSizes {
  return {
    rows: [],
    whole: { kind: 'whole', route: 'whole app', path: '', ...measured },
    loginContributors: [],
    entryChunks: [],
    loginEager: { page: null, ...measured },
    duplicates,
    precompressed: true,
  };
}
const budgets = { loginGzipKB: 120, routeExtraGzipKB: 60, wholeAppGzipKB: 350, duplicatedModuleKB: 0 };
const duplicateCheck = (sizes: RouteSizes) =>
  checkRouteSizes(sizes, budgets).find((c) => c.name.startsWith('bundle: modules in more than one chunk'));

describe('modules in more than one chunk (bench/route-sizes-duplicates.mjs)', () => {
  it('finds a module two chunks hold, inside a concatenated module too, and fails the budget', () => {
    const found = duplicatedModules(
      stats([
        {
          id: 'a',
          modules: [
            {
              name: './src/ui/screens/users/users.tsx + 2 modules',
              size: 3000,
              modules: [
                { name: './src/ui/screens/users/users.tsx', size: 1000 },
                { name: '../node_modules/react-aria/dist/private/interactions/usePress.mjs', size: 2000 },
              ],
            },
            { name: css('src/ui/components/table.css.ts'), size: 300 },
          ],
        },
        {
          id: 'b',
          modules: [
            { name: '../node_modules/react-aria/dist/private/interactions/usePress.mjs', size: 2000 },
            { name: './src/ui/screens/tenants/tenants.tsx', size: 500 },
            { name: css('src/ui/components/table.css.ts'), size: 300 },
          ],
        },
        { id: 'c', modules: [{ name: css('src/ui/components/table.css.ts'), size: 300 }] },
      ]),
    );
    expect(found.count).toBe(2);
    // usePress once more (2000), the table's CSS twice more (2 × 300).
    expect(found.bytes).toBe(2600);
    expect(found.modules.map((m) => [m.name, m.chunks])).toEqual([
      ['react-aria/dist/private/interactions/usePress.mjs', ['a', 'b']],
      ['src/ui/components/table.css.ts.vanilla.css (extracted CSS)', ['a', 'b', 'c']],
    ]);

    const check = duplicateCheck(sizesWith(found));
    expect(check).toMatchObject({ value: 2.6, budget: 0, ok: false });
    expect(formatRouteSizes(sizesWith(found), budgets)).toContain(
      'Modules in more than one chunk: 2, 2.6 KB of source in the copies beyond the first (budget ≤ 0 KB: OVER)',
    );
  });

  it('passes a build whose modules are each in one chunk', () => {
    const found = duplicatedModules(
      stats([
        { id: 'a', modules: [{ name: './src/a.ts', size: 100 }] },
        { id: 'b', modules: [{ name: './src/b.ts', size: 100 }] },
      ]),
    );
    expect(found).toEqual({ count: 0, bytes: 0, modules: [] });
    expect(duplicateCheck(sizesWith(found))).toMatchObject({ value: 0, ok: true });
  });
});
