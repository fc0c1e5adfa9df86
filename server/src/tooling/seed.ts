import { sql, type Kysely } from 'kysely';
import { recomputeAnalytics, saoPauloDay } from '../db/analytics';
import { hashPassword } from '../db/password';
import type { Database } from '../db/schema';
import { seedLoginFailures, seedTenantActivity } from './seed-activity';
import { seedCampaignMessages } from './seed-campaigns';
import { DEMO_PASSWORD, seedOrganisation } from './seed-org';
import { Rng } from '../db/seed-random';

export { DEMO_LOGINS, DEMO_PASSWORD } from './seed-org';

export interface SeedOptions {
  /** End of the activity window (default: the current time). */
  now?: Date;
  /** PRNG seed: same seed and same `now` → same data. */
  seed?: number;
  /** Days of orders, attendances, logs, reasons and campaign messages, ending at `now` (default 90). */
  days?: number;
  /** Name of the staff home tenant (default `backoffice`). */
  backofficeTenant?: string;
}

export interface SeedSummary {
  tenants: number;
  users: number;
  orders: number;
  attendances: number;
  instanceLogs: number;
  attendanceReasons: number;
  loginAttempts: number;
  /** Campaign messages, each with its statuses (./seed-campaigns.ts). */
  campaignMessages: number;
  analyticsDays: number;
  durationMs: number;
}

export const DEFAULT_SEED = 20_240_601;

async function isEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/**
 * Fills an empty database with deterministic demo data (docs/product.md, Demo data): the back-office
 * tenant with the two demo logins, 14 customer tenants (2 soft-deleted) with features, plans,
 * departments, instances, connections and users, and `days` days of chat activity with its
 * analytics. Runs in one transaction, only when `tenants` is empty; two processes seeding at once
 * are serialised by a table lock and the second finds data and skips.
 *
 * @returns what was inserted, or null when the database already had tenants
 */
export async function seedDemo(db: Kysely<Database>, options: SeedOptions = {}): Promise<SeedSummary | null> {
  const started = Date.now();
  if (!(await isEmpty(db))) return null;
  const now = options.now ?? new Date();
  const days = options.days ?? 90;
  const rng = new Rng(options.seed ?? DEFAULT_SEED);
  // Hash outside the transaction: on PGlite the transaction holds the only connection.
  const [admin, operator, customer] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    hashPassword(DEMO_PASSWORD),
    hashPassword(DEMO_PASSWORD),
  ]);

  return db.transaction().execute(async (trx) => {
    await sql`lock table tenants in exclusive mode`.execute(trx);
    if (!(await isEmpty(trx))) return null;

    const tenants = await seedOrganisation(trx, {
      now,
      rng,
      backofficeTenant: options.backofficeTenant ?? 'backoffice',
      hashes: { admin, operator, customer },
    });
    const reasons = await trx.selectFrom('reasons').select('id').orderBy('id').execute();
    const activity = { now, rng, days };
    for (const tenant of tenants)
      await seedTenantActivity(
        trx,
        tenant,
        reasons.map((r) => r.id),
        activity,
      );
    const campaignMessages = await seedCampaignMessages(trx, tenants, {
      now,
      days,
      seed: options.seed ?? DEFAULT_SEED,
      backofficeTenant: options.backofficeTenant ?? 'backoffice',
    });
    const users = await trx.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
    await seedLoginFailures(trx, users, activity);

    const fromDay = saoPauloDay(new Date(now.getTime() - (days - 1) * 86_400_000));
    const toDay = saoPauloDay(now);
    let analyticsDays = 0;
    for (const tenant of tenants)
      analyticsDays += (await recomputeAnalytics(trx, tenant.id, fromDay, toDay)).recomputedDays;

    const count = async (
      table: 'orders' | 'attendances' | 'instance_logs' | 'attendance_reasons' | 'login_attempts',
    ): Promise<number> => {
      const row = await trx
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    };
    return {
      tenants: tenants.length,
      users: users.length,
      orders: await count('orders'),
      attendances: await count('attendances'),
      instanceLogs: await count('instance_logs'),
      attendanceReasons: await count('attendance_reasons'),
      loginAttempts: await count('login_attempts'),
      campaignMessages,
      analyticsDays,
      durationMs: Date.now() - started,
    };
  });
}
