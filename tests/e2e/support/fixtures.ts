import { test as base, expect } from '@playwright/test';
import { credentialsFrom, sharedServer, type Credentials } from './app';
import { STABLE_START_TIMEOUT_MS, startStableServer, type StableServer } from './stable-server';

export interface AppFixture {
  /** `http://127.0.0.1:<port>` of the shared server. */
  origin: string;
  admin: Credentials;
  operator: Credentials;
}

/** A server of the test's own with a clock that stands still (support/stable-server.ts). */
export interface StableAppFixture extends AppFixture {
  server: StableServer;
}

/**
 * `app`: the shared server (global-setup.ts); `stableApp`: a server of the test's own for screenshots
 * that must be the same on every run (support/stable-server.ts). Every test also fails on an uncaught
 * exception in the page: a journey that "works" while the app throws is not green.
 */
export const test = base.extend<{ app: AppFixture; stableApp: StableAppFixture; pageErrors: string[] }>({
  // Playwright reads a fixture's dependencies from its first parameter's destructuring: none here.
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    await use(sharedServer());
  },
  stableApp: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startStableServer();
      try {
        await use({ origin: server.origin, ...credentialsFrom(server.logins, server.password), server });
      } finally {
        await server.stop();
      }
    },
    // Starting it seeds a fresh database: its own time budget, and a little more to stop it.
    { timeout: STABLE_START_TIMEOUT_MS + 30_000 },
  ],
  pageErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('weberror', (error) => errors.push(error.error().message));
      await use(errors);
      expect(errors, 'uncaught exceptions in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
