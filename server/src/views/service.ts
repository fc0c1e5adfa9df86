import type { Kysely } from 'kysely';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import { holdsAny } from '../access/permissions';
import { checkAll, conflict, forbidden, invalid, isUniqueViolation, notFound } from '../base/domain-error';
import type { Database } from '../db/schema';
import {
  isViewList,
  VIEW_COLUMNS,
  VIEW_NAME_MAX_LENGTH,
  VIEW_QUERY_MAX_LENGTH,
  VIEW_STATE_MAX_BYTES,
  VIEWS_PER_LIST,
  type SavedView,
  type ViewList,
  type ViewState,
} from '../../../src/domain/views';
import * as repo from './repository';

/**
 * Saved views (docs/lists.md, Views; contracts: REST `viewList`, `viewCreate`, `viewUpdate`,
 * `viewDelete`). A view belongs to one signed-in user: every query is scoped by the caller's id, so
 * another user's view is as unknown as a missing one (404), whoever asks. Reading, creating and
 * changing the views of a list needs that list's route permission (`users`, `tenants`, `audit`: the
 * permission of the screen the view opens); deleting one's own view does not, so a user who lost a
 * permission can still clear what it kept.
 *
 * Views are personal settings, not records others rely on: their changes are not audited.
 *
 * Every change takes the owner's row lock first (./repository.ts `lockViewOwner`): the limit of
 * `VIEWS_PER_LIST` is counted and the default switched (clear the old, set the new) with no other
 * change of the same user's views in between, so concurrent switches leave exactly one default.
 */

/** The route each list's screen needs (src/domain/paths.ts). */
const LIST_ROUTE: Readonly<Record<ViewList, string>> = { users: 'users', tenants: 'tenants', audit: 'audit' };

/**
 * Characters a name may not hold: control characters, and the invisible ones that make two names look
 * alike or reorder what follows (zero-width space, word joiner, byte-order mark, bidirectional embeddings,
 * overrides and isolates). Zero-width (non-)joiners stay: scripts and emoji sequences need them.
 */
const FORBIDDEN_IN_NAME =
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

function checkList(value: unknown): ViewList {
  if (!isViewList(value)) throw invalid('list', 'must be one of users, tenants, audit');
  return value;
}

/** A view name: NFC, trimmed, 1–60 characters, no control or invisible characters. */
function checkName(value: unknown): string {
  if (typeof value !== 'string') throw invalid('name', 'must be a string');
  if (value.length > VIEW_NAME_MAX_LENGTH * 4)
    throw invalid('name', `must have at most ${VIEW_NAME_MAX_LENGTH} characters`);
  const name = value.normalize('NFC').trim();
  if (!name) throw invalid('name', 'must not be blank');
  if ([...name].length > VIEW_NAME_MAX_LENGTH)
    throw invalid('name', `must have at most ${VIEW_NAME_MAX_LENGTH} characters`);
  if (FORBIDDEN_IN_NAME.test(name)) throw invalid('name', 'must not contain control or invisible characters');
  return name;
}

/**
 * A view's state for `list`: the address search string (a leading `?` dropped; at most 2,000 characters,
 * no control characters) and the hidden columns (each a hideable column of the list, once); as JSON at
 * most 4 KB. Answers the JSON to store.
 */
function checkState(list: ViewList, value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('state', 'must be an object');
  const { query, columns, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw invalid('state', 'holds only query and columns');
  if (typeof query !== 'string') throw invalid('state.query', 'must be a string');
  const search = query.startsWith('?') ? query.slice(1) : query;
  if (search.length > VIEW_QUERY_MAX_LENGTH)
    throw invalid('state.query', `must have at most ${VIEW_QUERY_MAX_LENGTH} characters`);
  if (CONTROL.test(search)) throw invalid('state.query', 'must not contain control characters');
  if (!Array.isArray(columns)) throw invalid('state.columns', 'must be a list of column names');
  const hideable = VIEW_COLUMNS[list].hideable;
  const seen = new Set<string>();
  for (const column of columns) {
    if (typeof column !== 'string' || !hideable.includes(column))
      throw invalid(
        'state.columns',
        `names only columns of the ${list} list that can be hidden: ${hideable.join(', ')}`,
      );
    if (seen.has(column)) throw invalid('state.columns', `names ${column} twice`);
    seen.add(column);
  }
  const state: ViewState = { query: search, columns: hideable.filter((column) => seen.has(column)) };
  const json = JSON.stringify(state);
  if (Buffer.byteLength(json, 'utf8') > VIEW_STATE_MAX_BYTES)
    throw invalid('state', `must be at most ${VIEW_STATE_MAX_BYTES} bytes as JSON`);
  return json;
}

/** The name ignoring case: Unicode's default lower case, the same whatever the database's locale. */
const nameKey = (name: string) => name.toLowerCase();

function assertMayUseList(actor: Actor, list: ViewList): void {
  const route = LIST_ROUTE[list];
  if (!holdsAny(actor, [route])) throw forbidden([route], `views of the ${list} list need the ${route} permission`);
}

const nameTaken = () => conflict('You already have a view with this name for this list', 'name', 'view_name_taken');

type Row = Awaited<ReturnType<typeof repo.userViews>>[number];

function toDto(row: Row): SavedView {
  const state = (typeof row.state === 'string' ? JSON.parse(row.state) : row.state) as ViewState;
  return {
    id: row.id,
    list: row.list,
    name: row.name,
    state: { query: state.query, columns: [...state.columns] },
    is_default: row.is_default,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The name index's violation (a race the check before it could not see) as the contract's conflict. */
async function naming<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error) && error.constraint === 'saved_views_name_key') throw nameTaken();
    throw error;
  }
}

export interface ViewInput {
  list: unknown;
  name: unknown;
  state: unknown;
  is_default?: unknown;
}

export interface ViewChange {
  name?: unknown;
  state?: unknown;
  is_default?: unknown;
}

function checkDefault(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid('is_default', 'must be true or false');
  return value;
}

export function createViewsService({ db }: { db: Kysely<Database> }) {
  return guardService('views', {
    /** The caller's views of a list, by name. */
    async list(actor: Actor, listName: unknown): Promise<SavedView[]> {
      const list = checkList(listName);
      assertMayUseList(actor, list);
      return (await repo.userViews(db, actor.userId, list)).map(toDto);
    },

    /** A new view of the caller's; `is_default` makes it the list's default in place of any other. */
    async create(actor: Actor, input: ViewInput): Promise<SavedView> {
      const list = checkList(input.list);
      assertMayUseList(actor, list);
      const values = checkAll({
        name: () => checkName(input.name),
        state: () => checkState(list, input.state),
        is_default: () => checkDefault(input.is_default) ?? false,
      });
      return naming(() =>
        db.transaction().execute(async (trx) => {
          if (!(await repo.lockViewOwner(trx, actor.userId))) throw notFound('User not found');
          if (await repo.viewNameTaken(trx, actor.userId, list, nameKey(values.name))) throw nameTaken();
          if ((await repo.countViews(trx, actor.userId, list)) >= VIEWS_PER_LIST)
            throw conflict(
              `You already have ${VIEWS_PER_LIST} views of this list; delete one first`,
              'list',
              'view_limit_reached',
            );
          if (values.is_default) await repo.clearDefault(trx, actor.userId, list);
          return toDto(
            await repo.insertView(trx, { user_id: actor.userId, list, ...values, name_key: nameKey(values.name) }),
          );
        }),
      );
    },

    /** Renames a view of the caller's, replaces its state, or makes it (or stops it being) the default. */
    async update(actor: Actor, id: number, change: ViewChange): Promise<SavedView> {
      const view = await repo.ownView(db, actor.userId, id);
      if (!view) throw notFound('View not found', 'id');
      assertMayUseList(actor, view.list);
      const set = checkAll({
        name: () => (change.name === undefined ? undefined : checkName(change.name)),
        state: () => (change.state === undefined ? undefined : checkState(view.list, change.state)),
        is_default: () => checkDefault(change.is_default),
      });
      if (set.name === undefined && set.state === undefined && set.is_default === undefined)
        throw invalid('name', 'name, state or is_default is required');
      return naming(() =>
        db.transaction().execute(async (trx) => {
          await repo.lockViewOwner(trx, actor.userId);
          // Read again under the lock: a concurrent delete answers 404, not a write to nothing.
          const row = await repo.ownView(trx, actor.userId, id);
          if (!row) throw notFound('View not found', 'id');
          if (
            set.name !== undefined &&
            (await repo.viewNameTaken(trx, actor.userId, row.list, nameKey(set.name), row.id))
          )
            throw nameTaken();
          if (set.is_default === true) await repo.clearDefault(trx, actor.userId, row.list, row.id);
          const values: { name?: string; name_key?: string; state?: string; is_default?: boolean } = {};
          if (set.name !== undefined) Object.assign(values, { name: set.name, name_key: nameKey(set.name) });
          if (set.state !== undefined) values.state = set.state;
          if (set.is_default !== undefined) values.is_default = set.is_default;
          return toDto(await repo.updateView(trx, row.id, values));
        }),
      );
    },

    /** Deletes a view of the caller's (its default too: the list then opens with no view). */
    async remove(actor: Actor, id: number): Promise<void> {
      if (!(await repo.deleteView(db, actor.userId, id))) throw notFound('View not found', 'id');
    },
  });
}

export type ViewsService = ReturnType<typeof createViewsService>;
