import { sql } from 'kysely';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { startTestApp, issuedBearer, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { formulaLead, parseCsv } from '../test-support/csv';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';
import { MAX_SELECTED_IDS, USER_SORTS, userListQueries, type UserListFilter, type UserSortName } from './list';

// The users list on the server (docs/lists.md, Filters and export): GET /api/users/page, /ids, /export and
// GraphQL `usersPage`, against a model of the fixture computed here; and as an attacker would ask.
// The fixture is this file's own tenants, so the demo's users never reach the answers checked exactly.

interface Fixture {
  id: number;
  name: string;
  email: string;
  username: string;
  role: string;
  roleId: number;
  department: string | null;
  departmentId: number | null;
  online: boolean;
  blocked: boolean;
  twoFactor: boolean;
  deleted: boolean;
}

/** Lower case, accents off: what the search compares (migration 0019 `support_fold`). */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Byte order, as the C collation of the test databases sorts. */
const cmp = (a: string | number | boolean, b: string | number | boolean) => (a < b ? -1 : a > b ? 1 : 0);

function model(rows: readonly Fixture[], filter: UserListFilter, sort: UserSortName, dir: 'asc' | 'desc'): Fixture[] {
  const key: Record<UserSortName, (r: Fixture) => string | boolean> = {
    name: (r) => r.name,
    email: (r) => r.email,
    role: (r) => r.role,
    department: (r) => r.department ?? '',
    presence: (r) => !r.online,
  };
  const q = filter.q === undefined ? undefined : fold(filter.q);
  const sign = dir === 'asc' ? 1 : -1;
  return rows
    .filter(
      (r) =>
        !r.deleted &&
        (filter.id === undefined || r.id === filter.id) &&
        (q === undefined || [r.email, r.name, r.username].some((t) => fold(t).includes(q))) &&
        (filter.role === undefined || r.roleId === filter.role) &&
        (filter.department === undefined ||
          (filter.department === 'none' ? r.departmentId === null : r.departmentId === filter.department)) &&
        (filter.blocked === undefined || r.blocked === filter.blocked) &&
        (filter.online === undefined || r.online === filter.online) &&
        (filter.twoFactor === undefined || r.twoFactor === filter.twoFactor),
    )
    .sort((a, b) => sign * (cmp(key[sort](a), key[sort](b)) || cmp(a.name, b.name) || cmp(a.id, b.id)));
}

const FIRST = ['Ana', 'João', 'Márcia', 'José', 'Bruno', 'Carla', 'Zé', 'Úrsula'];
const LAST = ['Silva', 'Araújo', 'Conceição', 'Souza'];
/** Names a LIKE pattern would misread, and one a spreadsheet would run. */
const ODD = ['Cem 100% Certo', 'Sub_Linha', 'Barra\\Invertida', '=HYPERLINK("x")', 'Ponto;Virgula "aspas"'];

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let customerAdmin: { authorization: string };
  let customerUsersOnly: { authorization: string };
  let noUsers: { authorization: string };
  let fixture: Fixture[];
  let tenantA: { id: number; name: string };
  let tenantB: { id: number; name: string };
  let departmentOfB: number;
  let roles: Record<string, { id: number; display: string }>;

  async function createTenant(name: string, cnpj: string) {
    return t.db
      .insertInto('tenants')
      .values({ name, cnpj, template: 't', pool: 'p', plan: 'starter', user_limit: 5, ticket_limit: 10 })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    staff = await t.auth('admin@demo.local');
    tenantA = await createTenant('lista-a', '11.222.333/0001-81');
    tenantB = await createTenant('lista-b', '11.444.777/0001-61');
    const roleRows = await t.db.selectFrom('roles').select(['id', 'name', 'display_name']).execute();
    roles = Object.fromEntries(roleRows.map((r) => [r.name, { id: r.id, display: r.display_name }]));
    const deps = await t.db
      .insertInto('departments')
      .values([
        { tenant_id: tenantA.id, name: 'Vendas' },
        { tenant_id: tenantA.id, name: 'Atendimento' },
        { tenant_id: tenantB.id, name: 'Vendas' },
      ])
      .returning(['id', 'name', 'tenant_id'])
      .execute();
    const depsOfA = deps.filter((d) => d.tenant_id === tenantA.id);
    departmentOfB = deps.find((d) => d.tenant_id === tenantB.id)?.id ?? 0;
    const names = [...FIRST.flatMap((f) => LAST.map((l) => `${f} ${l}`)), ...ODD];
    const roleNames = [OPERATOR_ROLE, ADMIN_ROLE];
    fixture = [];
    for (const [i, name] of names.entries()) {
      const role = roles[roleNames[i % 2] ?? OPERATOR_ROLE];
      const dep = i % 3 === 2 ? null : (depsOfA[i % 2] ?? null);
      const row = {
        tenant_id: tenantA.id,
        role_id: role?.id ?? 0,
        department_id: dep?.id ?? null,
        name,
        username: `lista.${i}`,
        email: `pessoa${String(i).padStart(2, '0')}@lista-${i % 4 === 0 ? 'acme' : 'beta'}.local`,
        password_hash: 'not-a-hash',
        is_connected: i % 4 === 1,
        blocked: i % 5 === 0,
        two_factor_enabled: i % 3 === 0,
        // Stored as it is at rest; its value matters to nothing here (users_two_factor_enrolled, migration 0005).
        two_factor_secret: i % 3 === 0 ? 'not-a-secret' : null,
        deleted_at: i % 11 === 10 && i < FIRST.length * LAST.length ? new Date() : null,
      };
      const { id } = await t.db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
      fixture.push({
        id,
        name,
        email: row.email,
        username: row.username,
        role: role?.display ?? '',
        roleId: row.role_id,
        department: dep?.name ?? null,
        departmentId: dep?.id ?? null,
        online: row.is_connected,
        blocked: row.blocked,
        twoFactor: row.two_factor_enabled,
        deleted: row.deleted_at !== null,
      });
    }
    // Tenant B: users the same filters would match, which A's answers must never hold.
    for (const name of ['Ana Silva', 'Cem 100% Certo', 'Zé Souza']) {
      await t.db
        .insertInto('users')
        .values({
          tenant_id: tenantB.id,
          role_id: roles[OPERATOR_ROLE]?.id ?? 0,
          department_id: departmentOfB,
          name,
          username: fold(name).replace(/[^a-z]/g, '.'),
          email: `${fold(name).replace(/[^a-z]/g, '')}@lista-b.local`,
          password_hash: 'not-a-hash',
        })
        .execute();
    }
    const admin = await createTestUser(t.db, {
      email: 'admin@lista-b.local',
      tenant: tenantB.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    customerAdmin = await issuedBearer(t, admin.id);
    await createTestRole(t.db, 'lista-usuarios', ['users']);
    const usersOnly = await createTestUser(t.db, {
      email: 'gestor@lista-b.local',
      tenant: tenantB.name,
      role: 'lista-usuarios',
    });
    customerUsersOnly = await issuedBearer(t, usersOnly.id);
    const operador = await createTestUser(t.db, { email: 'operador@lista-b.local', tenant: tenantB.name });
    noUsers = await issuedBearer(t, operador.id);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  type Query = Record<string, string | number | boolean | undefined>;
  const url = (path: string, query: Query) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    return `${path}?${params.toString()}`;
  };
  const get = (path: string, query: Query, headers: Record<string, string> = staff) =>
    t.app.fastify.inject({ method: 'GET', url: url(path, query), headers });

  async function page(query: Query, headers = staff) {
    const response = await get('/api/users/page', { tenantName: tenantA.name, ...query }, headers);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{
      data: { id: number }[];
      total: number;
      page: number;
      limit: number;
      last_page: number;
    }>();
    expect(validateResponse('userPage', 200, body)).toEqual({ valid: true, errors: [] });
    return body;
  }

  /** The REST query of a filter. */
  const asQuery = (filter: UserListFilter): Query => ({
    id: filter.id,
    q: filter.q,
    role: filter.role,
    department: filter.department,
    blocked: filter.blocked,
    online: filter.online,
    two_factor: filter.twoFactor,
  });

  const filters = (): [string, UserListFilter][] => [
    ['nothing', {}],
    ['q without accents', { q: 'joao' }],
    ['q with accents and case', { q: 'CONCEIÇÃO' }],
    ['q in the e-mail', { q: '@lista-acme' }],
    ['q in the username', { q: 'lista.1' }],
    ['role', { role: roles[ADMIN_ROLE]?.id ?? 0 }],
    ['department', { department: fixture.find((f) => f.departmentId !== null)?.departmentId ?? 0 }],
    ['no department', { department: 'none' }],
    ['blocked', { blocked: true }],
    ['not blocked', { blocked: false }],
    ['online', { online: true }],
    ['offline', { online: false }],
    ['two-factor on', { twoFactor: true }],
    ['two-factor off', { twoFactor: false }],
    ['together', { q: 'a', online: false, twoFactor: false, role: roles[OPERATOR_ROLE]?.id ?? 0 }],
    ['nothing matches', { q: 'ninguém-aqui' }],
    ['id', { id: fixture.find((f) => !f.deleted && f.blocked)?.id ?? 0 }],
    ['id and a filter it fails', { id: fixture.find((f) => !f.deleted && f.blocked)?.id ?? 0, blocked: false }],
    ['id of a deleted user', { id: fixture.find((f) => f.deleted)?.id ?? 0 }],
  ];

  it('answers each filter, sort and direction as the model says, a page at a time', async () => {
    for (const [label, filter] of filters()) {
      for (const sort of USER_SORTS) {
        for (const dir of ['asc', 'desc'] as const) {
          const want = model(fixture, filter, sort, dir).map((r) => r.id);
          const first = await page({ ...asQuery(filter), sort, dir, limit: 7 });
          expect(
            first.data.map((u) => u.id),
            `${label} ${sort} ${dir}`,
          ).toEqual(want.slice(0, 7));
          expect(first.total).toBe(want.length);
          expect(first.last_page).toBe(Math.max(1, Math.ceil(want.length / 7)));
          if (want.length > 7) {
            const second = await page({ ...asQuery(filter), sort, dir, limit: 7, page: 2 });
            expect(
              second.data.map((u) => u.id),
              `${label} ${sort} ${dir} p2`,
            ).toEqual(want.slice(7, 14));
          }
        }
      }
    }
  }, 120_000);

  it('defaults to the first 25 by name, and answers a page past the last empty with the real total', async () => {
    const want = model(fixture, {}, 'name', 'asc');
    const first = await page({});
    expect(first).toMatchObject({ page: 1, limit: 25, total: want.length });
    expect(first.data.map((u) => u.id)).toEqual(want.slice(0, 25).map((r) => r.id));
    const past = await page({ page: 99 });
    expect(past).toMatchObject({ data: [], total: want.length, page: 99 });
  });

  it('takes %, _ and \\ in q as themselves', async () => {
    for (const [q, name] of [
      ['100%', 'Cem 100% Certo'],
      ['%', 'Cem 100% Certo'],
      ['b_l', 'Sub_Linha'],
      ['_', 'Sub_Linha'],
      ['a\\i', 'Barra\\Invertida'],
    ] as const) {
      const body = await page({ q });
      expect(
        body.data.map((u) => u.id),
        q,
      ).toEqual(fixture.filter((f) => f.name === name && !f.deleted).map((f) => f.id));
    }
  });

  it('answers every matching id in order, and the same through GraphQL', async () => {
    for (const [label, filter] of filters()) {
      const want = model(fixture, filter, 'email', 'desc').map((r) => r.id);
      const response = await get('/api/users/ids', {
        tenantName: tenantA.name,
        ...asQuery(filter),
        sort: 'email',
        dir: 'desc',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(validateResponse('userIds', 200, response.json())).toEqual({ valid: true, errors: [] });
      expect(response.json(), label).toEqual({ ids: want, total: want.length });
    }
  });

  it('GraphQL usersPage answers what REST answers, on the path tenant', async () => {
    const query = `query usersPage($filter: UserFilter, $sort: UserSort, $page: Int, $limit: Int) {
      usersPage(filter: $filter, sort: $sort, page: $page, limit: $limit) { data { id tenantName } total page limit last_page } }`;
    const filter = { q: 'silva', online: false };
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenantA.name}/graphql`,
      headers: { ...staff, 'content-type': 'application/json' },
      payload: { query, variables: { filter, sort: { field: 'presence', direction: 'desc' }, page: 1, limit: 3 } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const want = model(fixture, filter, 'presence', 'desc');
    expect(response.json()).toEqual({
      data: {
        usersPage: {
          data: want.slice(0, 3).map((r) => ({ id: r.id, tenantName: tenantA.name })),
          total: want.length,
          page: 1,
          limit: 3,
          last_page: Math.ceil(want.length / 3),
        },
      },
    });
    for (const variables of [
      { limit: 101 },
      { limit: 0 },
      { page: 0 },
      { filter: { department: 'x' } },
      { filter: { q: 'x'.repeat(255) } },
      { filter: { id: 0 } },
      { filter: { id: -1 } },
    ]) {
      const refused = await t.app.fastify.inject({
        method: 'POST',
        url: `/${tenantA.name}/graphql`,
        headers: { ...staff, 'content-type': 'application/json' },
        payload: { query, variables },
      });
      expect(
        refused.json<{ errors: { extensions: { code: string } }[] }>().errors[0]?.extensions.code,
        JSON.stringify(variables),
      ).toBe('BAD_USER_INPUT');
    }
  });

  it('exports the filtered list in its order as the sheets write CSV, in pt-BR or English', async () => {
    const filter: UserListFilter = { twoFactor: false };
    const response = await get('/api/users/export', {
      tenantName: tenantA.name,
      ...asQuery(filter),
      sort: 'role',
      dir: 'desc',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="usuarios-${tenantA.name}.csv"`);
    expect(
      response.body.startsWith('\uFEFFid;nome;email;usuario;perfil;departamento;online;bloqueado;dois_fatores\r\n'),
    ).toBe(true);
    const [header, ...records] = parseCsv(response.body.slice(1));
    expect(header).toHaveLength(9);
    const want = model(fixture, filter, 'role', 'desc');
    expect(records.map((r) => Number(r[0]))).toEqual(want.map((r) => r.id));
    for (const [i, r] of want.entries()) {
      const cells = records[i] ?? [];
      expect(cells.slice(2)).toEqual([
        r.email,
        r.username,
        r.role,
        r.department ?? '',
        r.online ? 'sim' : 'não',
        r.blocked ? 'sim' : 'não',
        r.twoFactor ? 'sim' : 'não',
      ]);
      // A name a spreadsheet would run as a formula is written as text.
      expect(formulaLead(cells[1] ?? '')).toBeNull();
      expect((cells[1] ?? '').replace(/^'/, '')).toBe(r.name);
    }
    const english = await t.app.fastify.inject({
      method: 'GET',
      url: url('/api/users/export', { tenantName: tenantA.name, q: 'zé' }),
      headers: { ...staff, 'accept-language': 'en-GB,en;q=0.9,pt-BR;q=0.8' },
    });
    const [enHeader, ...enRows] = parseCsv(english.body.slice(1));
    expect(enHeader).toEqual([
      'id',
      'name',
      'email',
      'username',
      'role',
      'department',
      'online',
      'blocked',
      'two_factor',
    ]);
    expect(enRows.map((r) => r[7])).toEqual(
      model(fixture, { q: 'zé' }, 'name', 'asc').map((r) => (r.blocked ? 'yes' : 'no')),
    );
  });

  it('reads the export in keyset pages that together are the list, for every sort and direction', async () => {
    for (const sort of USER_SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const queries = userListQueries(t.db, tenantA.id, {}, { sort, dir });
        const seen: number[] = [];
        let cursor: readonly unknown[] | null = null;
        for (let guard = 0; guard < 100; guard++) {
          const rows = await queries.exportPage(cursor, 4);
          seen.push(...rows.map((r) => r.id));
          if (rows.length < 4) break;
          cursor = rows.at(-1)?.cursor ?? null;
        }
        expect(seen, `${sort} ${dir}`).toEqual(model(fixture, {}, sort, dir).map((r) => r.id));
      }
    }
  });

  it('pages the role and department sorts group by group as the joined sort orders them, roles of one name merged', async () => {
    // Its own tenant: three roles, two of them showing one name, two departments and none, a few deleted.
    const tenant = await createTenant('lista-grupos', '11.555.999/0001-50');
    const operator = roles[OPERATOR_ROLE];
    const twin = await t.db
      .insertInto('roles')
      .values({ name: 'operador-gemeo', display_name: operator?.display ?? 'Operador' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const roleIds = [operator?.id ?? 0, roles[ADMIN_ROLE]?.id ?? 0, twin.id];
    const deps = await t.db
      .insertInto('departments')
      .values([
        { tenant_id: tenant.id, name: 'Vendas' },
        { tenant_id: tenant.id, name: 'Atendimento' },
      ])
      .returning('id')
      .execute();
    const names = FIRST.flatMap((f) => LAST.slice(0, 3).map((l) => `${f} ${l}`));
    for (const [i, name] of names.entries())
      await t.db
        .insertInto('users')
        .values({
          tenant_id: tenant.id,
          role_id: roleIds[i % 3] ?? 0,
          department_id: i % 3 === 1 ? null : (deps[i % 2]?.id ?? null),
          // Repeated names: the tie-break by id within a group.
          name: i % 7 === 0 ? 'Nome Repetido' : name,
          username: `grupo.${i}`,
          email: `grupo${i}@lista-grupos.local`,
          password_hash: 'not-a-hash',
          blocked: i % 4 === 0,
          deleted_at: i % 10 === 9 ? new Date() : null,
        })
        .execute();
    for (const sort of ['role', 'department'] as const)
      for (const dir of ['asc', 'desc'] as const)
        for (const filter of [{}, { blocked: false }, { department: 'none' as const }]) {
          const label = `${sort} ${dir} ${JSON.stringify(filter)}`;
          // The reference: every id, read with the joins and sorted by the database (allIds).
          const { ids: want } = await userListQueries(t.db, tenant.id, filter, { sort, dir }).allIds();
          expect(want.length, label).toBeGreaterThan(3);
          const seen: number[] = [];
          for (let page = 1; page <= Math.ceil(want.length / 3) + 1; page++) {
            const queries = userListQueries(t.db, tenant.id, filter, { sort, dir });
            expect(await queries.count(), label).toBe(want.length);
            seen.push(...(await queries.pageIds(page, 3)));
          }
          expect(seen, label).toEqual(want);
        }
  });

  it("never answers another tenant's users: a customer sees its own, cannot name another tenant, and their department filters nothing in", async () => {
    const own = await page({ tenantName: undefined, limit: 100 }, customerAdmin);
    const ownIds = new Set(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('tenant_id', '=', tenantB.id)
          .where('deleted_at', 'is', null)
          .execute()
      ).map((r) => r.id),
    );
    expect(own.total).toBe(ownIds.size);
    expect(own.data.every((u) => ownIds.has(u.id))).toBe(true);
    for (const path of ['/api/users/page', '/api/users/ids', '/api/users/export']) {
      for (const who of [customerAdmin, customerUsersOnly]) {
        const refused = await get(path, { tenantName: tenantA.name }, who);
        expect(refused.statusCode, path).toBe(403);
        expect(refused.body).not.toContain('pessoa');
      }
      const noPermission = await get(path, {}, noUsers);
      expect(noPermission.statusCode, path).toBe(403);
      expect((await get(path, {}, {})).statusCode, path).toBe(401);
    }
    // B's department named in A's list: nobody of B comes along.
    expect((await page({ department: departmentOfB })).total).toBe(0);
    // A user of B named by id in A's list, or in the customer's own: not found, an empty page.
    const ofB = await t.db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantB.id)
      .executeTakeFirstOrThrow();
    expect(await page({ id: ofB.id })).toMatchObject({ data: [], total: 0 });
    const ofA = fixture.find((f) => !f.deleted)?.id ?? 0;
    expect(await page({ tenantName: undefined, id: ofA }, customerAdmin)).toMatchObject({ data: [], total: 0 });
    expect((await page({ tenantName: undefined, id: ofB.id }, customerAdmin)).data.map((u) => u.id)).toEqual([ofB.id]);
    const gqlById = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenantA.name}/graphql`,
      headers: { ...staff, 'content-type': 'application/json' },
      payload: { query: `{ usersPage(filter: { id: ${ofB.id} }) { total data { id } } }` },
    });
    expect(gqlById.json()).toEqual({ data: { usersPage: { total: 0, data: [] } } });
    const ids = await get('/api/users/ids', { tenantName: tenantA.name, q: 'a' });
    const allOfA = new Set(fixture.map((f) => f.id));
    expect(ids.json<{ ids: number[] }>().ids.every((id) => allOfA.has(id))).toBe(true);
    // A GraphQL path of another tenant is refused before the document runs.
    const gql = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenantA.name}/graphql`,
      headers: { ...customerAdmin, 'content-type': 'application/json' },
      payload: { query: '{ usersPage { total data { id } } }' },
    });
    expect(gql.body).not.toContain('"total"');
  });

  it('refuses limits, pages and filters outside the contract', async () => {
    for (const query of [
      { limit: 0 },
      { limit: 101 },
      { page: 0 },
      { page: 1_000_001 },
      { q: 'x'.repeat(255) },
      { department: 'vendas' },
      { department: '0' },
      { role: 0 },
      { id: 0 },
      { id: 2_147_483_648 },
      { id: 'um' },
      { blocked: 'talvez' },
      { sort: 'password_hash' },
      { dir: 'sideways' },
    ]) {
      const response = await get('/api/users/page', { tenantName: tenantA.name, ...query });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
    }
    // An id out of range is named: REST `query/id` (its schema), GraphQL `id`.
    const badId = await get('/api/users/page', { tenantName: tenantA.name, id: 0 });
    expect(badId.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['query/id']);
    const gql = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenantA.name}/graphql`,
      headers: { ...staff, 'content-type': 'application/json' },
      payload: { query: '{ usersPage(filter: { id: 0 }) { total } }' },
    });
    expect(gql.json<{ errors: { extensions: unknown }[] }>().errors[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'id',
    });
  });

  it('refuses more than 100,000 ids with a clear message, and answers 100,000', async () => {
    const big = await createTenant('lista-grande', '45.723.174/0001-10');
    await sql`insert into users (tenant_id, role_id, name, username, email, password_hash)
      select ${big.id}, ${roles[OPERATOR_ROLE]?.id ?? 0}, 'Grande ' || g, 'grande.' || g, 'grande' || g || '@lista-grande.local', 'x'
        from generate_series(1, ${MAX_SELECTED_IDS + 1}) as g`.execute(t.db);
    const refused = await get('/api/users/ids', { tenantName: big.name });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string; errors: { field: string; message: string }[] }>().errors[0]).toEqual({
      field: 'query',
      message: '100001 users match: at most 100000 can be selected at once; narrow the filters',
    });
    const allowed = await get('/api/users/ids', { tenantName: big.name, q: 'grande.1' });
    const want = fixtureCount('grande.1', MAX_SELECTED_IDS + 1);
    expect(allowed.json<{ total: number }>().total).toBe(want);
    // Exactly 100,000 matching is allowed.
    await t.db
      .updateTable('users')
      .set({ blocked: true })
      .where('tenant_id', '=', big.id)
      .where('username', '=', 'grande.1')
      .execute();
    const exactly = await get('/api/users/ids', { tenantName: big.name, blocked: false });
    expect(exactly.statusCode, exactly.body).toBe(200);
    const body = exactly.json<{ ids: number[]; total: number }>();
    expect(body.total).toBe(MAX_SELECTED_IDS);
    expect(new Set(body.ids).size).toBe(MAX_SELECTED_IDS);
  }, 180_000);
});

/** How many of `grande.1` … `grande.<n>` hold `q` (the usernames of the big tenant). */
function fixtureCount(q: string, n: number): number {
  let count = 0;
  for (let g = 1; g <= n; g++)
    if (`grande.${g}`.includes(q) || `grande ${g}`.includes(q) || `grande${g}@lista-grande.local`.includes(q)) count++;
  return count;
}
