import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import { checkAll, invalid } from '../base/domain-error';
import { likeLiteral } from '../base/like';

/**
 * The users list filtered and sorted on the server (docs/lists.md, Filters and export): one tenant's live
 * users, narrowed by the filters, in the asked order with ties by name then id in the same direction.
 * One filter serves the page (offset), every id ("select all N matching") and the export (keyset
 * pages after the last row read), so the three always agree on who matches; the order is the joined
 * sort's (role and department by the names they show), which the page reaches without the join.
 *
 * Indexes (migration 0021): the tenant's live users by name hold every filtered column, so a filter walks
 * that index in the answer's order without reading a table row; e-mail and presence have their own. A page
 * counts and reads the users alone (no join: the count of 100,000 entries is an index-only scan), and the
 * role and department sorts walk their groups (below) over `users_list_role_idx` / `_department_idx`
 * (docs/performance.md, Users list).
 */

export const USER_SORTS = ['name', 'email', 'role', 'department', 'presence'] as const;
export type UserSortName = (typeof USER_SORTS)[number];

export interface UserListFilter {
  /** One user by id (the form's reload of one row); another tenant's id matches nobody. */
  id?: number;
  /** Part of the name, e-mail or username, without case or accents; '' or absent matches every user. */
  q?: string;
  role?: number;
  /** A department id, or `none` for users without one. */
  department?: number | 'none';
  blocked?: boolean;
  online?: boolean;
  twoFactor?: boolean;
}

export interface UserListSort {
  sort: UserSortName;
  dir: 'asc' | 'desc';
}

/** The most ids one "select all N matching" answers (docs/lists.md). */
export const MAX_SELECTED_IDS = 100_000;

/** The longest `q` (contracts/openapi.yaml `UserFilterQ`). */
const MAX_Q = 254;

/** The largest id (contracts/openapi.yaml `Id`). */
const MAX_ID = 2_147_483_647;

/**
 * Checks what the contract's schema cannot say the same way in both protocols, every bad field at once
 * (as REST's schema answers them); answers the filter as the queries read it.
 */
export function checkUserFilter(filter: {
  id?: number | null;
  q?: string | null;
  role?: number | null;
  department?: string | number | null;
  blocked?: boolean | null;
  online?: boolean | null;
  twoFactor?: boolean | null;
}): UserListFilter {
  const checked = checkAll({
    id: () => {
      if (filter.id == null) return undefined;
      if (!Number.isInteger(filter.id) || filter.id < 1 || filter.id > MAX_ID)
        throw invalid('id', `id must be a user id (1 to ${MAX_ID})`);
      return filter.id;
    },
    q: () => {
      if (filter.q == null) return undefined;
      if (filter.q.length > MAX_Q) throw invalid('q', `q must be at most ${MAX_Q} characters`);
      return filter.q.trim() === '' ? undefined : filter.q.trim();
    },
    role: () => {
      if (filter.role == null) return undefined;
      if (!Number.isInteger(filter.role) || filter.role < 1) throw invalid('role', 'role must be a role id');
      return filter.role;
    },
    department: (): number | 'none' | undefined => {
      if (filter.department == null) return undefined;
      const text = String(filter.department);
      if (text === 'none') return 'none';
      if (/^[1-9][0-9]{0,8}$/.test(text)) return Number(text);
      throw invalid('department', 'department must be a department id or none');
    },
  });
  const out: UserListFilter = {};
  if (checked.id !== undefined) out.id = checked.id;
  if (checked.q !== undefined) out.q = checked.q;
  if (checked.role !== undefined) out.role = checked.role;
  if (checked.department !== undefined) out.department = checked.department;
  if (filter.blocked != null) out.blocked = filter.blocked;
  if (filter.online != null) out.online = filter.online;
  if (filter.twoFactor != null) out.twoFactor = filter.twoFactor;
  return out;
}

/**
 * The sort key of a column: role and department by the names the list shows (joined as `r` and `d`,
 * a join rather than a subquery per row: the planner then walks the roles in name order and each
 * role's users by name, instead of reading a subquery for each of 100,000 users), presence puts online
 * users first.
 */
function sortKey(sort: UserSortName): Expression<unknown> {
  switch (sort) {
    case 'name':
      return sql.ref('u.name');
    case 'email':
      return sql.ref('u.email');
    case 'role':
      return sql.ref('r.display_name');
    case 'department':
      return sql`coalesce(d.name, '')`;
    case 'presence':
      return sql`(not u.is_connected)`;
  }
}

/** The order's columns: the key, then name and id (name alone when the key is the name). */
function orderColumns(sort: UserSortName): Expression<unknown>[] {
  return sort === 'name' ? [sql.ref('u.name'), sql.ref('u.id')] : [sortKey(sort), sql.ref('u.name'), sql.ref('u.id')];
}

/** Where the previous keyset page ended: the values of {@link orderColumns} of its last row. */
export type UserCursor = readonly unknown[];

/**
 * A group of the role (department) sort: the roles that show one name (a department, or "no department",
 * which sorts as the empty name). A page of those sorts walks the groups in name order, reading each
 * one's users by name from its index (migration 0021 `users_list_role_idx`, `users_list_department_idx`)
 * and counting only the groups a deep page skips whole, instead of joining and sorting every matching user
 * for 25 of them (docs/performance.md, Users list sorts); beyond {@link WALK_MAX_GROUPS} groups it counts
 * them all in one grouped read instead.
 */
interface SortGroup {
  /** The role ids (department ids) of the group; `null` stands for "no department". */
  ids: (number | null)[];
}

/** The most groups a page walks one query each; beyond, one grouped count first (see `pageIds`). */
const WALK_MAX_GROUPS = 64;

export function userListQueries(db: Kysely<Database>, tenantId: number, filter: UserListFilter, order: UserListSort) {
  /** The tenant's live users the filters keep, without the joins: what counting and paging need. */
  const filtered = () => {
    let q = db.selectFrom('users as u').where('u.tenant_id', '=', tenantId).where('u.deleted_at', 'is', null);
    if (filter.id !== undefined) q = q.where('u.id', '=', filter.id);
    if (filter.q !== undefined)
      q = q.where(sql<SqlBool>`u.support_search like '%' || support_fold(${likeLiteral(filter.q)}) || '%'`);
    if (filter.role !== undefined) q = q.where('u.role_id', '=', filter.role);
    if (filter.department === 'none') q = q.where('u.department_id', 'is', null);
    else if (filter.department !== undefined) q = q.where('u.department_id', '=', filter.department);
    if (filter.blocked !== undefined) q = q.where('u.blocked', '=', filter.blocked);
    if (filter.online !== undefined) q = q.where('u.is_connected', '=', filter.online);
    if (filter.twoFactor !== undefined) q = q.where('u.two_factor_enabled', '=', filter.twoFactor);
    return q;
  };
  /** The same users with their role and department, for the columns and sorts that read their names. */
  const matching = () =>
    filtered().innerJoin('roles as r', 'r.id', 'u.role_id').leftJoin('departments as d', 'd.id', 'u.department_id');
  const columns = orderColumns(order.sort);
  const dir = sql.raw(order.dir);
  const orderBy = sql.join(
    columns.map((c) => sql`${c} ${dir}`),
    sql`, `,
  );

  const grouped = order.sort === 'role' || order.sort === 'department';
  const groupColumn = order.sort === 'role' ? 'u.role_id' : 'u.department_id';
  /**
   * The sort's groups in the answer's order, from the roles (the tenant's departments, and none) — a few
   * rows, not the users. Ordered by the database, as the joined sort orders them; equal names merged.
   * The tenant's departments only: a user's department is one of its tenant's (server/src/users/service.ts).
   */
  const sortGroups = async (): Promise<SortGroup[]> => {
    const { rows } =
      order.sort === 'role'
        ? await sql<{ id: number; key: string }>`select id, display_name as key from roles order by key ${dir}`.execute(
            db,
          )
        : await sql<{
            id: number | null;
            key: string;
          }>`select id, name as key from departments where tenant_id = ${tenantId}
            union all select null, '' order by key ${dir}`.execute(db);
    const groups: { key: string; ids: (number | null)[] }[] = [];
    for (const row of rows) {
      const last = groups.at(-1);
      if (last?.key === row.key) last.ids.push(row.id);
      else groups.push({ key: row.key, ids: [row.id] });
    }
    return groups;
  };
  /** The matching users of one group. */
  const inGroup = (group: SortGroup) => {
    const ids = group.ids.filter((id): id is number => id !== null);
    const none = ids.length < group.ids.length;
    return filtered().where((eb) =>
      eb.or([
        ...(ids.length === 1
          ? [eb(groupColumn, '=', ids[0] ?? 0)]
          : ids.length > 1
            ? [eb(groupColumn, 'in', ids)]
            : []),
        ...(none ? [eb(groupColumn, 'is', null)] : []),
      ]),
    );
  };

  return {
    /** How many users match: counted without the joins (every user has a role; a department is at most one). */
    async count(): Promise<number> {
      const { n } = await filtered()
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      return n;
    },
    /** One page's ids in order (`page` from 1). */
    async pageIds(page: number, limit: number): Promise<number[]> {
      let skip = (page - 1) * limit;
      if (!grouped) {
        // The sort's columns are the user's own: no join, so the walk of the sort's index reads no other table.
        const rows = await filtered().select('u.id').orderBy(orderBy).limit(limit).offset(skip).execute();
        return rows.map((r) => r.id);
      }
      const groups = await sortGroups();
      // Past a few dozen groups (a tenant may create thousands of departments, most without a matching user)
      // the walk's query per group costs more than counting every group's users at once: one grouped read
      // (28–69 ms at 100,000 users, docs/performance.md), then a query only for the groups the page shows
      // (server/src/security/lists-attack-3.test.ts).
      let counts: Map<number | null, number> | undefined;
      if (groups.length > WALK_MAX_GROUPS) {
        counts = new Map();
        for (const row of await filtered()
          .select([`${groupColumn} as g`, sql<number>`count(*)::int`.as('n')])
          .groupBy(groupColumn)
          .execute())
          counts.set(row.g, row.n);
      }
      const ids: number[] = [];
      for (const group of groups) {
        if (ids.length === limit) break;
        const known = counts;
        if (known) {
          // Every group's count is known: one the page starts after, or without a matching user, is skipped.
          const n = group.ids.reduce<number>((sum, id) => sum + (known.get(id) ?? 0), 0);
          if (skip >= n) {
            skip -= n;
            continue;
          }
        } else if (skip > 0) {
          // A group the page may start after: counted (its index's range), skipped whole when it ends before.
          const { n } = await inGroup(group)
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          if (skip >= n) {
            skip -= n;
            continue;
          }
        }
        const rows = await inGroup(group)
          .select('u.id')
          .orderBy(sql`u.name ${dir}, u.id ${dir}`)
          .limit(limit - ids.length)
          .offset(skip)
          .execute();
        ids.push(...rows.map((r) => r.id));
        skip = 0;
      }
      return ids;
    },
    /** Every matching id in order; refused (400) beyond {@link MAX_SELECTED_IDS}, before any id is read. */
    async allIds(): Promise<{ ids: number[]; total: number }> {
      const total = await this.count();
      if (total > MAX_SELECTED_IDS)
        // The query as a whole is at fault, no one parameter of it (REST `query`, server/src/rest/domain-errors.ts).
        throw invalid(
          'query',
          `${total} users match: at most ${MAX_SELECTED_IDS} can be selected at once; narrow the filters`,
        );
      const rows = await matching().select('u.id').orderBy(orderBy).limit(MAX_SELECTED_IDS).execute();
      return { ids: rows.map((r) => r.id), total };
    },
    /**
     * Up to `limit` rows after `cursor` (from the start when null) for the export: the list's columns and
     * the cursor of each row. Keyset, not offset, so every page costs the same however far in.
     */
    async exportPage(cursor: UserCursor | null, limit: number) {
      let q = matching()
        .select([
          'u.id',
          'u.name',
          'u.email',
          'u.username',
          'r.display_name as role',
          'd.name as department',
          'u.is_connected',
          'u.blocked',
          'u.two_factor_enabled',
        ])
        .select(sql<unknown[]>`array[${sql.join(columns.map((c) => sql`${c}::text`))}]`.as('cursor'));
      if (cursor) {
        const values = columns.map((c, i) => sql`${cursor[i]}::${sql.raw(castOf(order.sort, i))}`);
        q = q.where(
          sql<SqlBool>`(${sql.join(columns)}) ${sql.raw(order.dir === 'asc' ? '>' : '<')} (${sql.join(values)})`,
        );
      }
      return q.orderBy(orderBy).limit(limit).execute();
    },
  };
}

/** The SQL type of the cursor's `i`th value (the cursor carries them as text). */
function castOf(sort: UserSortName, i: number): string {
  const types = sort === 'name' ? ['text', 'int'] : [sort === 'presence' ? 'boolean' : 'text', 'text', 'int'];
  return types[i] ?? 'text';
}
