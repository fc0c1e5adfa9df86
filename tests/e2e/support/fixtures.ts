import { test as base, expect } from '@playwright/test';
import { sharedServer, type Credentials } from './app';

export interface AppFixture {
  /** `http://127.0.0.1:<port>` of the shared server. */
  origin: string;
  admin: Credentials;
  operator: Credentials;
}

/**
 * `app`: the shared server (global-setup.ts). Every test also fails on an uncaught exception in the
 * page: a journey that "works" while the app throws is not green.
 */
export const test = base.extend<{ app: AppFixture; pageErrors: string[] }>({
  // Playwright reads a fixture's dependencies from its first parameter's destructuring: none here.
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    await use(sharedServer());
  },
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
