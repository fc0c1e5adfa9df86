import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

/** `import('./pt-BR.json?full')` (src/i18n/runtime.ts): the whole JSON, as rspack builds it. */
const jsonFull: Plugin = {
  name: 'json-full',
  enforce: 'pre',
  async load(id) {
    if (!id.endsWith('.json?full')) return null;
    return `export default ${await readFile(id.slice(0, -'?full'.length), 'utf8')};`;
  },
};
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [vanillaExtractPlugin(), jsonFull],
  test: {
    globals: true,
    include: [
      'src/**/*.test.{ts,tsx}',
      'server/src/**/*.test.ts',
      'tests/unit/**/*.test.{ts,tsx}',
      'tests/contract/**/*.test.ts',
    ],
    environment: 'node',
    setupFiles: ['./tests/setup.ts'],
    // 1000-run properties and real databases take seconds; on a loaded 2-core CI box the 5 s default
    // fails tests for being slow, not wrong. Timed budgets live in bench/, not here.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Component tests opt into jsdom with a `// @vitest-environment jsdom` docblock.
  },
});
