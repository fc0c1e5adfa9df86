import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { liveSession } from '../users/repository';
import { likeLiteral } from '../base/like';

/**
 * The support desk's reads and writes (docs/support-desk.md), SQL only; the rules are ./service.ts's.
 * Users of every tenant, deleted ones included: the desk works across tenants.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** A user as the desk lists it (contracts/openapi.yaml `SupportUser`), before it is shaped. */
export interface SupportUserRow {
  id: number;
  name: string;
  username: string;
  email: string;
  tenant_name: string;
  tenant_deleted: boolean;
  role_id: number;
  role_name: string;
  role_display_name: string;
  blocked: boolean;
  two_factor_enabled: boolean;
  two_factor_enrolment_required: boolean;
  is_connected: boolean;
  last_sign_in_at: Date | null;
  deleted_at: Date | null;
}

/** The users with these ids, as the desk lists them, in no order. */
export function supportUsers(db: Db, ids: readonly number[]): Promise<SupportUserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id',
      'u.name',
      'u.username',
      'u.email',
      't.name as tenant_name',
      sql<boolean>`t.deleted_at is not null`.as('tenant_deleted'),
      'r.id as role_id',
      'r.name as role_name',
      'r.display_name as role_display_name',
      'u.blocked',
      'u.two_factor_enabled',
      'u.two_factor_enrolment_required',
      'u.is_connected',
      'u.last_sign_in_at',
      'u.deleted_at',
    ])
    .where('u.id', 'in', [...ids])
    .execute();
}

/** How many users, in the answer's order, a search reads before it asks the trigram index instead. */
export const SEARCH_WALK_ROWS = 2000;

/**
 * The ids of the users whose e-mail, name or username contains `text` without case or accents, live
 * first, then by name: `support_search` and `support_fold` of migration 0019. The plan is chosen here,
 * not left to estimates (pg_trgm's estimate of a substring's matches is off by orders of magnitude, and
 * a wrong guess either sorts tens of thousands of matches or walks every user for a text nobody has):
 * - the first {@link SEARCH_WALK_ROWS} users in the answer's order (`users_support_order_idx`) are read;
 *   when `limit` of them match, they are the page (a common text: an e-mail domain, a frequent word);
 * - otherwise every match is found through the trigram index and sorted (a rare text, or one whose
 *   matches lie further down the order, such as a first name far in the alphabet).
 * Where pg_trgm is missing (migration 0004 leaves it optional) the second step scans the table.
 */
export async function searchIds(db: Kysely<Database>, text: string, limit: number): Promise<number[]> {
  const matches = sql<boolean>`support_search like '%' || support_fold(${likeLiteral(text)}) || '%'`;
  return db.transaction().execute(async (trx) => {
    const first = trx
      .selectFrom('users')
      .select(['id', 'name', 'deleted_at', 'support_search'])
      .orderBy(sql`deleted_at is not null`)
      .orderBy('name')
      .orderBy('id')
      .limit(SEARCH_WALK_ROWS)
      .as('w');
    const walked = await trx
      .selectFrom(first)
      .select('w.id')
      .where(sql<boolean>`w.support_search like '%' || support_fold(${likeLiteral(text)}) || '%'`)
      .orderBy(sql`w.deleted_at is not null`)
      .orderBy('w.name')
      .orderBy('w.id')
      .limit(limit)
      .execute();
    if (walked.length >= limit) return walked.map((r) => r.id);
    // The trigram index, then a sort: neither a scan of the table nor the walk again (with a common
    // text the planner would walk every user in order, which the first step has shown to be long).
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_indexscan = off`.execute(trx);
    const rows = await trx
      .selectFrom('users')
      .select('id')
      .where(matches)
      .orderBy(sql`deleted_at is not null`)
      .orderBy('name')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  });
}

/** The person acted on, locked for the rest of the transaction; undefined when there is no such user. */
export function lockPerson(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('users')
    .select([
      'id',
      'tenant_id',
      'role_id',
      'name',
      'username',
      'email',
      'blocked',
      'deleted_at',
      'email_reserved',
      'two_factor_enabled',
      'two_factor_enrolment_required',
      'two_factor_pending_secret',
    ])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The person read without a lock (the desk's view). */
export function personRow(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'tenant_id', 'role_id', 'email', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Counted failures of an e-mail and of the address keys it failed from, in the window (the throttle's scopes). */
export async function countedFailures(db: Db, email: string, windowSeconds: number) {
  const { rows } = await sql<{ email: string; address_key: string | null; created_at: Date; now: Date }>`
    with mine as (
      select distinct address_key from login_attempts
       where email = ${email} and throttle_counted
         and created_at > statement_timestamp() - ${windowSeconds} * interval '1 second'
    )
    select la.email, la.address_key, la.created_at, statement_timestamp() as now
      from login_attempts la
     where la.throttle_counted
       and la.created_at > statement_timestamp() - ${windowSeconds} * interval '1 second'
       and (la.email = ${email} or la.address_key in (select address_key from mine))`.execute(db);
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at), now: new Date(r.now) }));
}

/**
 * Marks the e-mail's resolved counted failures in the window as lifted (the throttle ignores them in
 * every scope); attempts in flight are left to resolve. Answers how many were lifted.
 */
export async function liftFailures(trx: Transaction<Database>, email: string, windowSeconds: number): Promise<number> {
  const lifted = await trx
    .updateTable('login_attempts')
    .set({ lifted_at: sql<Date>`now()` })
    .where('email', '=', email)
    .where('throttle_counted', '=', true)
    .where('success', '=', false)
    .where(sql<boolean>`created_at > statement_timestamp() - ${windowSeconds} * interval '1 second'`)
    .returning('id')
    .execute();
  return lifted.length;
}

/** The 50 newest sign-in attempts with the e-mail, newest first. */
export function attemptsOf(db: Db, email: string, limit = 50) {
  return db
    .selectFrom('login_attempts')
    .select(['id', 'created_at', 'success', 'reason', 'remote_address', 'ip'])
    .where('email', '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// A live session: not revoked, its refresh window not over (server/src/users/repository.ts `liveSession`).
const live = liveSession;

/** The user's live sessions, most recently used first. */
export function liveSessionsOf(db: Db, userId: number, longestWindowSeconds: number) {
  return db
    .selectFrom('token_families')
    .select(['id', 'user_agent', 'address', 'remember', 'created_at', 'refreshed_at'])
    .where('user_id', '=', userId)
    .where(live(longestWindowSeconds))
    .orderBy('refreshed_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/**
 * Ends live sessions of the user (one when `familyId` is given) in `trx`, as TokenService does
 * (server/src/auth/tokens.ts: `revoked_at`); answers the ids ended. The caller tells the sockets after
 * the commit (TokenService.revokeFamily / revokeUser).
 */
export async function endSessionsIn(
  trx: Transaction<Database>,
  userId: number,
  longestWindowSeconds: number,
  familyId?: string,
): Promise<string[]> {
  let q = trx
    .updateTable('token_families')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where(live(longestWindowSeconds));
  if (familyId !== undefined) q = q.where('id', '=', familyId);
  return (await q.returning('id').execute()).map((r) => r.id);
}

/** Whether another user than `id` holds the (lower-cased) e-mail: a live one or a reserved deleted one. */
export async function emailHeldByAnother(db: Db, id: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('id', '!=', id)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('email_reserved', '=', true)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a live user of the tenant other than `id` holds the username (ignoring case). */
export async function usernameHeldByAnother(db: Db, id: number, tenantId: number, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('id', '!=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The tenant's deletion time (null: live) and its user limit, the tenant row locked as user creation locks
 * it (`FOR NO KEY UPDATE`: the foreign key's check of a user being changed meanwhile goes through;
 * server/src/users/repository.ts `lockTenantUserLimit`).
 */
export function lockTenant(trx: Transaction<Database>, tenantId: number) {
  return trx
    .selectFrom('tenants')
    .select(['deleted_at', 'user_limit'])
    .where('id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
}
