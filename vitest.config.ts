import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  test: {
    globals: true,
    include: ['src/**/*.test.{ts,tsx}', 'server/src/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}', 'tests/contract/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['./tests/setup.ts'],
    // Component tests opt into jsdom with a `// @vitest-environment jsdom` docblock.
  },
});
