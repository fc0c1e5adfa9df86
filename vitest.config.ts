import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { testLanes } from './vitest.lanes.ts';

/** `import('./pt-BR.json?full')` (src/i18n/runtime.ts): the whole JSON, as rspack builds it. */
const jsonFull: Plugin = {
  name: 'json-full',
  enforce: 'pre',
  async load(id) {
    if (!id.endsWith('.json?full')) return null;
    return `export default ${await readFile(id.slice(0, -'?full'.length), 'utf8')};`;
  },
};

// Five lanes (vitest.lanes.ts decides each file's from its imports): `logic`, `views` and `fresh` open
// no database (`npm run test:fast`), `server` runs on PGlite, `postgres` starts throwaway clusters.
const lanes = testLanes();

// Node 25 and later define a `localStorage` of their own on the global object (Web Storage, off only
// with this flag), which hides jsdom's from component tests; Node 24 knows the flag, Node 20 did not.
const nodeMajor = Number(process.versions.node.split('.')[0]);
const execArgv = nodeMajor >= 22 ? ['--no-experimental-webstorage'] : [];
/** Two files at a time, in a group of lanes that runs before (0) or after (1) the other. */
const twoAtATime = (groupOrder: 0 | 1) => ({ maxWorkers: 2, sequence: { groupOrder } });

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
      // Every lane runs two files at a time even on 2 cores, where vitest's default is one (cores − 1).
      // The lanes without a database run first, as one group (`sequence.groupOrder`), then the database
      // lanes: a failure in the fast lanes shows before the long ones start.
      //
      // `logic` and `views` do not isolate their files (`isolate: false`): the files of one worker share
      // the modules they import, and views one jsdom document, instead of importing React, React Aria,
      // XState and jsdom again for every file (on this 2-core box that was two thirds of the views lane:
      // environment 58 s and import 34 s against 103 s of tests, summed over files). tests/setup.ts gives
      // each file a blank page back (body, <html> attributes, storage, URL, real timers). A file that needs
      // modules or a document of its own says `@test-fresh` (vitest.lanes.ts) and runs in `fresh`.
      { extends: true, test: { name: 'logic', include: lanes.logic, isolate: false, ...twoAtATime(0) } },
      // Component tests ask for jsdom with a `// @vitest-environment jsdom` docblock; that is their lane.
      { extends: true, test: { name: 'views', include: lanes.views, isolate: false, ...twoAtATime(0) } },
      { extends: true, test: { name: 'fresh', include: lanes.fresh, ...twoAtATime(0) } },
      { extends: true, test: { name: 'server', include: lanes.server, ...twoAtATime(1) } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: lanes.postgres,
          ...twoAtATime(1),
          // One throwaway cluster for the lane, a database of its own for each caller in it
          // (server/src/test-support/postgres.ts); outage tests still start clusters of their own.
          globalSetup: ['./server/src/test-support/postgres-lane.setup.ts'],
          setupFiles: ['./server/src/test-support/postgres-lane.worker.ts'],
        },
      },
    ],
  },
});
