import { DEFAULT_QUERY, usersPageVariables, type UsersQuery } from '../users/users-query';
import { userRow as user } from './user-fixtures';
import { fold, usersPageOf } from './users-page';

// The fake `usersPage` the SPA's users tests read (the browser no longer filters: the server does, and
// server/src/users/list.api.test.ts checks it against the same model). A wrong fake would let a screen
// test pass against answers the server never gives.
const ids = (rows: Parameters<typeof usersPageOf>[0], change: Partial<UsersQuery>) =>
  usersPageOf(rows, usersPageVariables({ ...DEFAULT_QUERY, ...change })).usersPage.data.map((u) => u.id);

describe('fake usersPage (server semantics)', () => {
  it('filters by role, department (or none), blocked, online and two-factor, each and together', () => {
    const rows = [
      user(1, { role: { id: 1, name: 'administrador', display_name: 'Administrador' }, isConnected: true }),
      user(2, { userDepartment: null, blocked: true }),
      user(3, { userDepartment: { id: 7, name: 'Vendas', activated: true }, twoFactorEnabled: true }),
    ];
    expect(ids(rows, { role: 1 })).toEqual([1]);
    expect(ids(rows, { department: 'none' })).toEqual([2]);
    expect(ids(rows, { department: 7 })).toEqual([3]);
    expect(ids(rows, { blocked: true })).toEqual([2]);
    expect(ids(rows, { online: false })).toEqual([2, 3]);
    expect(ids(rows, { twoFactor: true })).toEqual([3]);
    expect(ids(rows, { online: false, twoFactor: false })).toEqual([2]);
  });

  it('searches name, email and username without accents or case', () => {
    expect(fold('João ÁLVARES')).toBe('joao alvares');
    const rows = [
      user(1, { name: 'João Álvares' }),
      user(2, { email: 'MARIA@demo.local' }),
      user(3, { username: 'zé.ninguém' }),
    ];
    expect(ids(rows, { q: 'alvares' })).toEqual([1]);
    expect(ids(rows, { q: 'maria@' })).toEqual([2]);
    expect(ids(rows, { q: 'ze.ningu' })).toEqual([3]);
    expect(ids(rows, { q: '   ' })).toHaveLength(3);
  });

  it('sorts by a column either way with ties broken by name then id in the same direction', () => {
    const rows = [
      user(3, { name: 'Bia', isConnected: true }),
      user(2, { name: 'Ana' }),
      user(1, { name: 'Ana' }),
      user(4, { name: 'Caio', isConnected: true }),
    ];
    expect(ids(rows, { sort: 'name' })).toEqual([1, 2, 3, 4]);
    expect(ids(rows, { sort: 'name', dir: 'descending' })).toEqual([4, 3, 2, 1]);
    // Online first ascending, then by name.
    expect(ids(rows, { sort: 'presence' })).toEqual([3, 4, 1, 2]);
    expect(ids(rows, { sort: 'presence', dir: 'descending' })).toEqual([2, 1, 4, 3]);
  });

  it('pages: at most the limit, the real total, and a page past the last answers no rows', () => {
    const rows = Array.from({ length: 250 }, (_, i) => user(i + 1, { name: `U ${String(i + 1).padStart(3, '0')}` }));
    const page = (n: number) => usersPageOf(rows, usersPageVariables({ ...DEFAULT_QUERY, page: n })).usersPage;
    expect(page(1)).toMatchObject({ total: 250, page: 1, limit: 100, last_page: 3 });
    expect(page(3).data.map((u) => u.id)).toEqual(rows.slice(200).map((u) => u.id));
    expect(page(4)).toMatchObject({ data: [], total: 250, page: 4, last_page: 3 });
  });
});
