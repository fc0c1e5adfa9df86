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
}

export const DEFAULT_QUERY: UsersQuery = { q: '', sort: 'name', dir: 'ascending' };

const isSortColumn = (value: string | null): value is SortColumn => SORT_COLUMNS.some((column) => column === value);

/** Reads the query from a search string; anything unknown falls back to the default. */
export function parseUsersQuery(search: string): UsersQuery {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  return {
    q: params.get('q') ?? DEFAULT_QUERY.q,
    sort: isSortColumn(sort) ? sort : DEFAULT_QUERY.sort,
    dir: params.get('dir') === 'desc' ? 'descending' : 'ascending',
  };
}

/** The search string for a query, leaving defaults out (the plain `/users` stays plain). */
export function serializeUsersQuery(query: UsersQuery): string {
  const params = new URLSearchParams();
  if (query.q.trim() !== '') params.set('q', query.q);
  if (query.sort !== DEFAULT_QUERY.sort) params.set('sort', query.sort);
  if (query.dir !== DEFAULT_QUERY.dir) params.set('dir', 'desc');
  return params.toString();
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
 * Rows matching `q` (name, email or username, accent- and case-insensitive), sorted by the column
 * with ties broken by name then id so the order is stable whatever the input order.
 */
export function queryUsers(index: readonly IndexedUser[], query: UsersQuery, collator: Intl.Collator): UserRow[] {
  const needle = searchKey(query.q.trim());
  const matches = needle === '' ? index : index.filter((entry) => entry.key.includes(needle));
  const value = sortValue[query.sort];
  const sign = query.dir === 'descending' ? -1 : 1;
  const compare = (a: string | number, b: string | number) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
  return matches
    .map((entry) => entry.row)
    .sort((a, b) => sign * compare(value(a), value(b)) || collator.compare(a.name, b.name) || a.id - b.id);
}
