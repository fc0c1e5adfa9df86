/**
 * The users table's query: search text, filters, sort and page, mirrored in the address
 * (`?q=ana&sort=email&dir=desc&page=2`) so a filtered, sorted page can be bookmarked or shared. The
 * server answers it (GraphQL `usersPage`, docs/lists.md, Filters and export): nothing is filtered or
 * sorted in the browser.
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

/** The same list and page (compared as the address says them). */
export function sameUsersQuery(a: UsersQuery, b: UsersQuery): boolean {
  return serializeUsersQuery(a) === serializeUsersQuery(b);
}

/** Only the search text differs: the list waits for a pause in typing before it asks (users.machine.ts). */
export function onlySearchDiffers(a: UsersQuery, b: UsersQuery): boolean {
  return a.q !== b.q && sameUsersQuery({ ...a, q: '' }, { ...b, q: '' });
}
