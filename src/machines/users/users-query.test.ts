import { userRow as user } from '../test-support/user-fixtures';
import {
  DEFAULT_QUERY,
  indexUsers,
  parseUsersQuery,
  queryUsers,
  searchKey,
  serializeUsersQuery,
  userListApiQuery,
  usersPageVariables,
} from './users-query';

const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

describe('users query', () => {
  it('reads and writes the address, leaving defaults out and ignoring what it does not know', () => {
    expect(parseUsersQuery('')).toEqual(DEFAULT_QUERY);
    expect(serializeUsersQuery(DEFAULT_QUERY)).toBe('');
    const query = { ...DEFAULT_QUERY, q: 'joão silva', sort: 'presence', dir: 'descending' } as const;
    expect(parseUsersQuery(serializeUsersQuery(query))).toEqual(query);
    expect(parseUsersQuery('?sort=password&dir=sideways&q=')).toEqual(DEFAULT_QUERY);
  });

  it('keeps the filters and the page in the address, and sends them to the server as the contract names them', () => {
    const query = parseUsersQuery('?role=2&department=none&blocked=true&online=false&two_factor=true&page=3&sort=role');
    expect(query).toEqual({
      ...DEFAULT_QUERY,
      sort: 'role',
      role: 2,
      department: 'none',
      blocked: true,
      online: false,
      twoFactor: true,
      page: 3,
    });
    expect(parseUsersQuery(serializeUsersQuery(query))).toEqual(query);
    expect(parseUsersQuery('?role=x&department=-1&blocked=maybe&page=0')).toEqual(DEFAULT_QUERY);
    expect(userListApiQuery({ ...query, q: ' ana ' })).toEqual({
      q: 'ana',
      role: 2,
      department: 'none',
      blocked: true,
      online: false,
      two_factor: true,
      sort: 'role',
      dir: 'asc',
    });
    expect(usersPageVariables(query)).toMatchObject({
      filter: { q: null, role: 2, department: 'none', blocked: true, online: false, twoFactor: true },
      sort: { field: 'role', direction: 'asc' },
      page: 3,
    });
  });

  it('filters by role, department (or none), blocked, online and two-factor, each and together', () => {
    const rows = [
      user(1, { role: { id: 1, name: 'administrador', display_name: 'Administrador' }, isConnected: true }),
      user(2, { userDepartment: null, blocked: true }),
      user(3, { userDepartment: { id: 7, name: 'Vendas', activated: true }, twoFactorEnabled: true }),
    ];
    const index = indexUsers(rows);
    const ids = (change: Partial<typeof DEFAULT_QUERY>) =>
      queryUsers(index, { ...DEFAULT_QUERY, ...change }, collator).map((u) => u.id);
    expect(ids({ role: 1 })).toEqual([1]);
    expect(ids({ department: 'none' })).toEqual([2]);
    expect(ids({ department: 7 })).toEqual([3]);
    expect(ids({ blocked: true })).toEqual([2]);
    expect(ids({ online: false })).toEqual([2, 3]);
    expect(ids({ twoFactor: true })).toEqual([3]);
    expect(ids({ online: false, twoFactor: false })).toEqual([2]);
  });

  it('searches name, email and username without accents or case', () => {
    expect(searchKey('João ÁLVARES')).toBe('joao alvares');
    const index = indexUsers([
      user(1, { name: 'João Álvares' }),
      user(2, { email: 'MARIA@demo.local' }),
      user(3, { username: 'zé.ninguém' }),
    ]);
    const ids = (q: string) => queryUsers(index, { ...DEFAULT_QUERY, q }, collator).map((u) => u.id);
    expect(ids('alvares')).toEqual([1]);
    expect(ids('maria@')).toEqual([2]);
    expect(ids('ze.ningu')).toEqual([3]);
    expect(ids('   ')).toHaveLength(3);
  });

  it('sorts by a column either way with a stable tie-break (name, then id)', () => {
    const rows = [
      user(3, { name: 'Bia', isConnected: true }),
      user(1, { name: 'Ana' }),
      user(2, { name: 'ana' }),
      user(4, { name: 'Caio', isConnected: true }),
    ];
    const ids = (sort: 'name' | 'presence', dir: 'ascending' | 'descending') =>
      queryUsers(indexUsers(rows), { ...DEFAULT_QUERY, sort, dir }, collator).map((u) => u.id);
    expect(ids('name', 'ascending')).toEqual([1, 2, 3, 4]);
    // "Ana" and "ana" are one name to the collator: the tie keeps id order whichever way the sort goes.
    expect(ids('name', 'descending')).toEqual([4, 3, 1, 2]);
    // Online first, then by name.
    expect(ids('presence', 'ascending')).toEqual([3, 4, 1, 2]);
    expect(ids('presence', 'descending')).toEqual([1, 2, 3, 4]);
  });

  it('filters and sorts 10,000 users', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      user(i + 1, { name: `Usuário ${10_000 - i}`, email: `u${i}@demo.local` }),
    );
    const index = indexUsers(many);
    const sorted = queryUsers(index, { ...DEFAULT_QUERY, sort: 'email', dir: 'descending' }, collator);
    const found = queryUsers(index, { ...DEFAULT_QUERY, q: 'usuario 99' }, collator);
    expect(sorted).toHaveLength(10_000);
    expect(found.map((u) => u.name).slice(0, 3)).toEqual(['Usuário 99', 'Usuário 990', 'Usuário 991']);
    expect(sorted[0]?.email).toBe('u9999@demo.local');
  });
});
