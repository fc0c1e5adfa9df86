import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Readiness: whether the database answers. */
export function createHealthService({ db }: { db: Kysely<Database> }) {
  return {
    async databaseReachable(): Promise<boolean> {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
