import type { UserRow } from './users-actors';

/**
 * The users table's client-side query: search text and sort, mirrored in the address
 * (`?q=ana&sort=email&dir=desc`) so a filtered, sorted list can be bookmarked or shared. Pure, so
 * the 10,000-row path is tested without rendering.
 */

export const SORT_COLUMNS = ['name', 'email', 'role', 'department', 'presence'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface UsersQuery {
  q: string;
  sort: SortColumn;
  /** As the table's sort descriptor says it. */
  dir: 'ascending' | 'descending';
  /** Filters (docs/lists.md, Filters and export); null: any. */
  role: number | null;
  /** A department id, or `none` for users without one. */
  department: number | 'none' | null;
  blocked: boolean | null;
  online: boolean | null;
  twoFactor: boolean | null;
  /** The page, from 1. */
  page: number;
}

export const DEFAULT_QUERY: UsersQuery = {
  q: '',
  sort: 'name',
  dir: 'ascending',
  role: null,
  department: null,
  blocked: null,
  online: null,
  twoFactor: null,
  page: 1,
};

/** Users per page read from the server (contracts/openapi.yaml `userPage`, at most 100). */
export const USERS_PAGE_SIZE = 100;

const ID = /^[1-9][0-9]{0,8}$/;
const flag = (value: string | null): boolean | null => (value === 'true' ? true : value === 'false' ? false : null);

const isSortColumn = (value: string | null): value is SortColumn => SORT_COLUMNS.some((column) => column === value);

/** Reads the query from a search string; anything unknown falls back to the default. */
export function parseUsersQuery(search: string): UsersQuery {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  const role = params.get('role') ?? '';
  const department = params.get('department') ?? '';
  const page = params.get('page') ?? '';
  return {
    q: params.get('q') ?? DEFAULT_QUERY.q,
    sort: isSortColumn(sort) ? sort : DEFAULT_QUERY.sort,
    dir: params.get('dir') === 'desc' ? 'descending' : 'ascending',
    role: ID.test(role) ? Number(role) : null,
    department: department === 'none' ? 'none' : ID.test(department) ? Number(department) : null,
    blocked: flag(params.get('blocked')),
    online: flag(params.get('online')),
    twoFactor: flag(params.get('two_factor')),
    page: /^[1-9][0-9]{0,5}$/.test(page) ? Number(page) : 1,
  };
}

/** The search string for a query, leaving defaults out (the plain `/users` stays plain). */
export function serializeUsersQuery(query: UsersQuery): string {
  const params = new URLSearchParams();
  if (query.q.trim() !== '') params.set('q', query.q);
  if (query.sort !== DEFAULT_QUERY.sort) params.set('sort', query.sort);
  if (query.dir !== DEFAULT_QUERY.dir) params.set('dir', 'desc');
  if (query.role !== null) params.set('role', String(query.role));
  if (query.department !== null) params.set('department', String(query.department));
  if (query.blocked !== null) params.set('blocked', String(query.blocked));
  if (query.online !== null) params.set('online', String(query.online));
  if (query.twoFactor !== null) params.set('two_factor', String(query.twoFactor));
  if (query.page !== 1) params.set('page', String(query.page));
  return params.toString();
}

/** The filters and sort as `userPage` / `userIds` / `userExport` take them (contracts/openapi.yaml). */
export function userListApiQuery(query: UsersQuery) {
  return {
    ...(query.q.trim() === '' ? {} : { q: query.q.trim() }),
    ...(query.role === null ? {} : { role: query.role }),
    ...(query.department === null ? {} : { department: String(query.department) }),
    ...(query.blocked === null ? {} : { blocked: query.blocked }),
    ...(query.online === null ? {} : { online: query.online }),
    ...(query.twoFactor === null ? {} : { two_factor: query.twoFactor }),
    sort: query.sort,
    dir: query.dir === 'descending' ? ('desc' as const) : ('asc' as const),
  };
}

/** The same as GraphQL `usersPage` variables. */
export function usersPageVariables(query: UsersQuery) {
  const api = userListApiQuery(query);
  return {
    filter: {
      q: api.q ?? null,
      role: api.role ?? null,
      department: api.department ?? null,
      blocked: api.blocked ?? null,
      online: api.online ?? null,
      twoFactor: api.two_factor ?? null,
    },
    sort: { field: query.sort, direction: api.dir },
    page: query.page,
    limit: USERS_PAGE_SIZE,
  };
}

/** Lower case without accents, so "joao" finds "João" (pt-BR names). */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A row with its search text computed once per list, not once per keystroke. */
export interface IndexedUser {
  row: UserRow;
  key: string;
}

export function indexUsers(users: readonly UserRow[]): IndexedUser[] {
  return users.map((row) => ({ row, key: searchKey(`${row.name}\u0000${row.email}\u0000${row.username}`) }));
}

const sortValue: Record<SortColumn, (row: UserRow) => string | number> = {
  name: (row) => row.name,
  email: (row) => row.email,
  role: (row) => row.role.display_name,
  department: (row) => row.userDepartment?.name ?? '',
  // Online first when ascending: the question an admin usually asks is "who is on now?".
  presence: (row) => (row.isConnected ? 0 : 1),
};

/**
 * Rows matching `q` (name, email or username, accent- and case-insensitive) and the filters (as the
 * server's `userPage` reads them, so the list and its export agree), sorted by the column
 * with ties broken by name then id so the order is stable whatever the input order.
 */
export function queryUsers(index: readonly IndexedUser[], query: UsersQuery, collator: Intl.Collator): UserRow[] {
  const needle = searchKey(query.q.trim());
  const matches = index.filter(
    ({ key, row }) =>
      (needle === '' || key.includes(needle)) &&
      (query.role === null || row.role.id === query.role) &&
      (query.department === null ||
        (query.department === 'none' ? row.userDepartment === null : row.userDepartment?.id === query.department)) &&
      (query.blocked === null || row.blocked === query.blocked) &&
      (query.online === null || row.isConnected === query.online) &&
      (query.twoFactor === null || row.twoFactorEnabled === query.twoFactor),
  );
  const value = sortValue[query.sort];
  const sign = query.dir === 'descending' ? -1 : 1;
  const compare = (a: string | number, b: string | number) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
  return matches
    .map((entry) => entry.row)
    .sort((a, b) => sign * compare(value(a), value(b)) || collator.compare(a.name, b.name) || a.id - b.id);
}
