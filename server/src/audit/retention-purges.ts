import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * What the daily retention run (./retention.ts) deletes besides audit records, SQL only: sign-in
 * attempts past their retention and token families no token of which can be used any more
 * (docs/operations.md, LOGIN_ATTEMPTS_RETENTION_DAYS; docs/security.md §3, Retention).
 *
 * Nothing references either table's rows (no foreign key points at them; `login_attempts.user_id` and
 * `token_families.user_id` point out, at users), so a row goes alone.
 *
 * - `login_attempts`: the throttle (server/src/auth/login.ts) counts failures within
 *   LOGIN_WINDOW_SECONDS, and the login-failure report reads them by date; rows older than the
 *   retention, never shorter than that window, are read by neither.
 * - `token_families`: a token is verified against its family (server/src/auth/tokens.ts `verify`): a
 *   missing family is refused like a revoked one, and a token past its refresh window (`rxp`, at most
 *   REFRESH_WINDOW after its family began) is refused before the family is read, except an access token
 *   still within its lifetime, which lasts at most ACCESS_TOKEN_TTL past `rxp`. So a family revoked a
 *   while ago, or begun more than REFRESH_WINDOW + ACCESS_TOKEN_TTL ago, changes no answer by going;
 *   {@link TOKEN_FAMILY_GRACE_MS} more covers clocks that disagree and requests in flight. The rotation
 *   grace (`previous_jti`, ROTATION_GRACE seconds) lives inside the family's own window.
 */

type Db = Kysely<Database> | Transaction<Database>;

const DAY_MS = 86_400_000;

/** How long past revocation, or past the last use any token could have, a token family is kept. */
export const TOKEN_FAMILY_GRACE_MS = DAY_MS;

export interface SessionRetention {
  /** LOGIN_ATTEMPTS_RETENTION_DAYS. */
  loginAttemptsDays: number;
  /** LOGIN_WINDOW_SECONDS: attempts are kept at least this long, whatever the retention says. */
  loginWindowSeconds: number;
  /** REFRESH_WINDOW: the longest a session may refresh. */
  refreshWindowSeconds: number;
  /** ACCESS_TOKEN_TTL: how long an access token lasts past its last refresh. */
  accessTokenTtlSeconds: number;
}

export interface SessionCutoffs {
  /** Attempts made before this instant go. */
  loginAttempts: Date;
  /** Families begun before this instant go. */
  familiesBegun: Date;
  /** Families revoked before this instant go. */
  familiesRevoked: Date;
}

export function sessionCutoffs(now: Date, retention: SessionRetention): SessionCutoffs {
  const attemptsMs = Math.max(retention.loginAttemptsDays * DAY_MS, retention.loginWindowSeconds * 1000);
  const familyLifeMs = (retention.refreshWindowSeconds + retention.accessTokenTtlSeconds) * 1000;
  return {
    loginAttempts: new Date(now.getTime() - attemptsMs),
    familiesBegun: new Date(now.getTime() - familyLifeMs - TOKEN_FAMILY_GRACE_MS),
    familiesRevoked: new Date(now.getTime() - TOKEN_FAMILY_GRACE_MS),
  };
}

export async function countLoginAttemptsBefore(db: Db, cutoff: Date): Promise<number> {
  const row = await db
    .selectFrom('login_attempts')
    .select(sql<string>`count(*)`.as('n'))
    .where('created_at', '<', cutoff)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes up to `limit` of the oldest attempts made before `cutoff` (read by `login_attempts_created_idx`). */
export async function deleteLoginAttemptsBefore(db: Db, cutoff: Date, limit: number): Promise<number> {
  const batch = db
    .selectFrom('login_attempts')
    .select('id')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit);
  const result = await db
    .deleteFrom('login_attempts')
    .where(sql<boolean>`id = any(array(${batch}))`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Families spent: begun before `familiesBegun`, or revoked before `familiesRevoked`. */
export async function countSpentFamilies(db: Db, cutoffs: SessionCutoffs): Promise<number> {
  const row = await db
    .selectFrom('token_families')
    .select(sql<string>`count(*)`.as('n'))
    .where((eb) =>
      eb.or([eb('created_at', '<', cutoffs.familiesBegun), eb('revoked_at', '<', cutoffs.familiesRevoked)]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes up to `limit` spent families, the oldest begun first and then the longest revoked (one index
 * each: migration 0018). Returns how many went.
 */
export async function deleteSpentFamilies(db: Db, cutoffs: SessionCutoffs, limit: number): Promise<number> {
  const begun = db
    .selectFrom('token_families')
    .select('id')
    .where('created_at', '<', cutoffs.familiesBegun)
    .orderBy('created_at')
    .limit(limit);
  const old = await db
    .deleteFrom('token_families')
    .where(sql<boolean>`id = any(array(${begun}))`)
    .executeTakeFirst();
  const deleted = Number(old.numDeletedRows);
  if (deleted >= limit) return deleted;
  const revoked = db
    .selectFrom('token_families')
    .select('id')
    .where('revoked_at', '<', cutoffs.familiesRevoked)
    .orderBy('revoked_at')
    .limit(limit - deleted);
  const result = await db
    .deleteFrom('token_families')
    .where(sql<boolean>`id = any(array(${revoked}))`)
    .executeTakeFirst();
  return deleted + Number(result.numDeletedRows);
}
