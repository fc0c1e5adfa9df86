import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema';
import type { ViewList } from '../../../src/domain/views';

/** The views service's SQL (server/src/views/service.ts). */

type Db = Kysely<Database> | Transaction<Database>;

const COLUMNS = ['id', 'list', 'name', 'state', 'is_default', 'created_at', 'updated_at'] as const;

/** A user's views of a list: by name ignoring case, then id. */
export function userViews(db: Db, userId: number, list: ViewList) {
  return db
    .selectFrom('saved_views')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('list', '=', list)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
}

/**
 * The user's row, locked until the transaction ends: every change of one user's views takes it first,
 * so the count against the limit and the switch of the default see each other's writes.
 */
export function lockViewOwner(trx: Transaction<Database>, userId: number) {
  return trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();
}

/** One of the user's views, or undefined (another user's is as unknown as a missing one). */
export function ownView(db: Db, userId: number, id: number) {
  return db
    .selectFrom('saved_views')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function countViews(db: Db, userId: number, list: ViewList): Promise<number> {
  const row = await db
    .selectFrom('saved_views')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('list', '=', list)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether another view of the user's list has this name key (the name ignoring case). */
export async function viewNameTaken(db: Db, userId: number, list: ViewList, nameKey: string, exceptId?: number) {
  let query = db
    .selectFrom('saved_views')
    .select('id')
    .where('user_id', '=', userId)
    .where('list', '=', list)
    .where('name_key', '=', nameKey);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

/** Clears the default of the user's list (but `exceptId`): the first half of a switch. */
export function clearDefault(db: Db, userId: number, list: ViewList, exceptId?: number) {
  let query = db
    .updateTable('saved_views')
    .set({ is_default: false, updated_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('list', '=', list)
    .where('is_default', '=', true);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return query.execute();
}

export function insertView(
  db: Db,
  values: { user_id: number; list: ViewList; name: string; name_key: string; state: string; is_default: boolean },
) {
  return db.insertInto('saved_views').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
}

export function updateView(
  db: Db,
  id: number,
  set: { name?: string; name_key?: string; state?: string; is_default?: boolean },
) {
  return db
    .updateTable('saved_views')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deleteView(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('saved_views')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
