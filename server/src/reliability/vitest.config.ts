import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: the long suites (over ~30 s: the scale-out soak, restarts under socket
 * load), named `*.reliability.ts` so the normal `vitest run` (which collects `*.test.ts`) never picks
 * them up. One file at a time: each starts its own server processes and PostgreSQL.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    globals: true,
    environment: 'node',
    // tests/reliability: suites that drive the SPA's real machines against real server processes.
    include: ['server/src/**/*.reliability.ts', 'tests/reliability/**/*.reliability.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
