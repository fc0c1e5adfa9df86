/**
 * GraphQL `usersPage` as the server answers it (contracts/schema.graphql `usersPage`, server/src/users/list.ts),
 * over an in-memory list, for the users screen's machine and view tests: the filters narrow, `q` matches
 * name, e-mail or username without case or accents, the sort breaks ties by name then id in the same
 * direction (`presence` ascending lists online users first), and a page past the last answers no rows with
 * the real total. Strings compare by code point, as the server's test databases (C collation) sort them;
 * server/src/users/list.api.test.ts checks the server against the same model.
 */
import type { UserRow } from '../users/users-actors';
import type { UsersPageQuery, UsersPageQueryVariables } from '../../generated/graphql';

/** Lower case without accents: what the server's search compares (server/src/db/migrations/0019-support-desk.ts `support_fold`). */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

const SORT_KEY = {
  name: (row: UserRow) => row.name,
  email: (row: UserRow) => row.email,
  role: (row: UserRow) => row.role.display_name,
  department: (row: UserRow) => row.userDepartment?.name ?? '',
  presence: (row: UserRow) => (row.isConnected ? 0 : 1),
} as const;

/** Every row matching `variables`' filter, in its order (what REST `userIds` answers). */
export function usersMatching(rows: readonly UserRow[], variables: UsersPageQueryVariables): UserRow[] {
  const filter = variables.filter ?? {};
  const q = filter.q ? fold(filter.q) : null;
  const department = filter.department ?? null;
  const matches = rows.filter(
    (row) =>
      (filter.id == null || row.id === filter.id) &&
      (q === null || [row.name, row.email, row.username].some((text) => fold(text).includes(q))) &&
      (filter.role == null || row.role.id === filter.role) &&
      (department === null ||
        (department === 'none' ? row.userDepartment === null : row.userDepartment?.id === Number(department))) &&
      (filter.blocked == null || row.blocked === filter.blocked) &&
      (filter.online == null || row.isConnected === filter.online) &&
      (filter.twoFactor == null || row.twoFactorEnabled === filter.twoFactor),
  );
  const key = SORT_KEY[variables.sort?.field ?? 'name'];
  const sign = variables.sort?.direction === 'desc' ? -1 : 1;
  return matches.sort((a, b) => sign * (cmp(key(a), key(b)) || cmp(a.name, b.name) || cmp(a.id, b.id)));
}

/** The page `variables` ask for (`limit` default 25, as the server's). */
export function usersPageOf(rows: readonly UserRow[], variables: UsersPageQueryVariables): UsersPageQuery {
  const page = variables.page ?? 1;
  const limit = variables.limit ?? 25;
  const all = usersMatching(rows, variables);
  return {
    usersPage: {
      data: all.slice((page - 1) * limit, page * limit),
      total: all.length,
      page,
      limit,
      last_page: Math.max(1, Math.ceil(all.length / limit)),
    },
  };
}
