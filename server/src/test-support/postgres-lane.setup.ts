import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres';

/**
 * Global setup of the `postgres` lane (vitest.config.ts): one throwaway cluster for the whole run, in
 * which every `startThrowawayPostgres()` without `{ own: true }` gets a database of its own
 * (server/src/test-support/postgres.ts). An `initdb` and a start per test file took seconds each.
 * Not with `TEST_DATABASE_URL`, which callers use as it is.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE_URL) return async () => undefined;
  const cluster = await startThrowawayPostgres({ own: true });
  project.provide('postgresCluster', cluster.url);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresCluster: string;
  }
}
