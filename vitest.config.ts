import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { testLanes } from './vitest.lanes';

/** `import('./pt-BR.json?full')` (src/i18n/runtime.ts): the whole JSON, as rspack builds it. */
const jsonFull: Plugin = {
  name: 'json-full',
  enforce: 'pre',
  async load(id) {
    if (!id.endsWith('.json?full')) return null;
    return `export default ${await readFile(id.slice(0, -'?full'.length), 'utf8')};`;
  },
};

// Four lanes (vitest.lanes.ts decides each file's from its imports): `logic` and `views` open no
// database (`npm run test:fast`), `server` runs on PGlite, `postgres` starts throwaway clusters.
const lanes = testLanes();

// Node 25 and later define a `localStorage` of their own on the global object (Web Storage, off only
// with this flag), which hides jsdom's from component tests; Node 24 knows the flag, Node 20 did not.
const nodeMajor = Number(process.versions.node.split('.')[0]);
const execArgv = nodeMajor >= 22 ? ['--no-experimental-webstorage'] : [];
const twoAtATime = { maxWorkers: 2, sequence: { groupOrder: 0 } };

export default defineConfig({
  plugins: [vanillaExtractPlugin(), jsonFull],
  test: {
    globals: true,
    environment: 'node',
    setupFiles: ['./tests/setup.ts'],
    execArgv,
    // 1000-run properties and real databases take seconds; on a loaded 2-core CI box the 5 s default
    // fails tests for being slow, not wrong. Timed budgets live in bench/, not here.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      // The lanes without a database share nothing between files: two at a time even on 2 cores, where
      // vitest's default is one (cores − 1). test:fast on this 2-core box: 236 s one at a time, 158 s two.
      // Lanes with different worker counts run as groups one after the other (`sequence.groupOrder`):
      // first these two, then the database lanes.
      { extends: true, test: { name: 'logic', include: lanes.logic, ...twoAtATime } },
      // Component tests ask for jsdom with a `// @vitest-environment jsdom` docblock; that is their lane.
      { extends: true, test: { name: 'views', include: lanes.views, ...twoAtATime } },
      { extends: true, test: { name: 'server', include: lanes.server, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'postgres', include: lanes.postgres, sequence: { groupOrder: 1 } } },
    ],
  },
});
