import {
  DEFAULT_QUERY,
  onlySearchDiffers,
  parseUsersQuery,
  sameUsersQuery,
  serializeUsersQuery,
  userListApiQuery,
  usersPageVariables,
} from './users-query';

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

  it('tells a search-only change (which the list debounces) from any other', () => {
    const query = { ...DEFAULT_QUERY, q: 'ana', blocked: true, page: 2 };
    expect(sameUsersQuery(query, { ...query })).toBe(true);
    expect(onlySearchDiffers(query, { ...query, q: 'anab' })).toBe(true);
    expect(onlySearchDiffers(query, { ...query, q: 'anab', page: 1 })).toBe(false);
    expect(onlySearchDiffers(query, { ...query, blocked: null })).toBe(false);
    expect(onlySearchDiffers(query, query)).toBe(false);
  });
});
