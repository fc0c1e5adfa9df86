import { sql, type Kysely } from 'kysely';
import type { Caller } from '../access/caller';
import { guardService } from '../access/guard';
import type { Database } from '../db/schema';

/** Readiness: whether the database answers. */
export function createHealthService({ db }: { db: Kysely<Database> }) {
  return guardService('health', {
    async databaseReachable(_caller: Caller): Promise<boolean> {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
  });
}

export type HealthService = ReturnType<typeof createHealthService>;
