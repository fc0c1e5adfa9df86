import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { formulaLead, parseCsv } from '../test-support/csv';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import { tenantExportIds, type TenantCursor, type TenantSortName } from './search';

// The tenants list's filters (docs/lists.md, Filters and export): plan, feature on/off and deletion on
// POST /api/tenant/paginated, every matching id (POST /api/tenant/ids) and the CSV export
// (GET /api/tenant/export), against a model computed here from the tables; and as an attacker would ask.

interface Row {
  id: number;
  name: string;
  cnpj: string;
  plan: string;
  user_limit: number;
  ticket_limit: number;
  template: string;
  pool: string;
  created_at: string;
  deleted_at: string | null;
  features: string[];
  users: number;
}

const PLANS = ['starter', 'professional', 'enterprise'] as const;
const SORTS: TenantSortName[] = [
  'id',
  'name',
  'cnpj',
  'plan',
  'userLimit',
  'ticketLimit',
  'template',
  'pool',
  'created_at',
  'deleted_at',
];
const COLUMN: Record<TenantSortName, keyof Row> = {
  id: 'id',
  name: 'name',
  cnpj: 'cnpj',
  plan: 'plan',
  userLimit: 'user_limit',
  ticketLimit: 'ticket_limit',
  template: 'template',
  pool: 'pool',
  created_at: 'created_at',
  deleted_at: 'deleted_at',
};

interface Filter {
  search?: string;
  plan?: string;
  feature?: string;
  feature_enabled?: boolean;
  deleted?: 'live' | 'only' | 'all';
  filter_users?: boolean;
}

/** Byte order (the test databases' C collation); a null sorts last ascending, first descending, as PostgreSQL's. */
function compare(a: Row, b: Row, sort: TenantSortName): number {
  const x = a[COLUMN[sort]];
  const y = b[COLUMN[sort]];
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return (x as string | number) < (y as string | number) ? -1 : 1;
}

function model(rows: readonly Row[], filter: Filter, sort: TenantSortName, dir: 'ASC' | 'DESC'): number[] {
  const deleted = filter.deleted ?? 'live';
  const search = (filter.search ?? '').trim().toLowerCase();
  const sign = dir === 'ASC' ? 1 : -1;
  return rows
    .filter(
      (r) =>
        (deleted === 'all' || (deleted === 'only') === (r.deleted_at !== null)) &&
        (search === '' ||
          r.name.includes(search) ||
          r.cnpj.toLowerCase().includes(search) ||
          // Digits are read as part of a CNPJ: the CNPJ without its marks holds them (./search.ts).
          (/^[0-9]+$/.test(search) && r.cnpj.replace(/[./-]/g, '').includes(search))) &&
        (filter.plan === undefined || r.plan === filter.plan) &&
        (filter.feature === undefined || r.features.includes(filter.feature) === (filter.feature_enabled ?? true)) &&
        (!filter.filter_users || r.users > 0),
    )
    .sort((a, b) => sign * (compare(a, b, sort) || a.id - b.id))
    .map((r) => r.id);
}

const mask = (d: string) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let customerAdmin: { authorization: string };
  let noTenants: { authorization: string };
  let customerTenant: number;
  let rows: Row[];

  async function readRows(): Promise<Row[]> {
    const tenants = await t.db
      .selectFrom('tenants as t')
      .select(['t.id', 't.name', 't.cnpj', 't.plan', 't.user_limit', 't.ticket_limit', 't.template', 't.pool'])
      .select((eb) => [
        eb.cast<string>('t.created_at', 'text').as('created_at'),
        eb.cast<string>('t.deleted_at', 'text').as('deleted_at'),
      ])
      .execute();
    const features = await t.db
      .selectFrom('tenant_features')
      .select(['tenant_id', 'option'])
      .where('enabled', '=', true)
      .execute();
    const users = await t.db.selectFrom('users').select('tenant_id').where('deleted_at', 'is', null).execute();
    return tenants.map((r) => ({
      ...r,
      features: features.filter((f) => f.tenant_id === r.id).map((f) => f.option),
      users: users.filter((u) => u.tenant_id === r.id).length,
    }));
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    staff = await t.auth('admin@demo.local');
    const created = await t.db
      .insertInto('tenants')
      .values(
        Array.from({ length: 36 }, (_, i) => ({
          name: `filtro-${String(i).padStart(2, '0')}`,
          cnpj: mask(String(20_000_000_000_000 + i * 104_729).slice(-14)),
          template: i % 2 ? 'pharmacy' : 'default',
          pool: `pool-${i % 3}`,
          plan: PLANS[i % 3] ?? 'starter',
          user_limit: 10 + (i % 4),
          ticket_limit: 100 * (i % 5),
          deleted_at: i % 7 === 3 ? new Date(Date.UTC(2026, 0, 1 + i)) : null,
        })),
      )
      .returning('id')
      .execute();
    // chat: on for every other tenant, set off for every third, never set for the rest.
    for (const [i, { id }] of created.entries()) {
      if (i % 2 === 0)
        await t.db.insertInto('tenant_features').values({ tenant_id: id, option: 'chat', enabled: true }).execute();
      else if (i % 3 === 0)
        await t.db.insertInto('tenant_features').values({ tenant_id: id, option: 'chat', enabled: false }).execute();
    }
    const first = created[0]?.id ?? 0;
    // A name a spreadsheet would run as a formula, for the export's guard.
    await t.db.updateTable('tenants').set({ template: '=cmd|x' }).where('id', '=', first).execute();
    customerTenant = created[4]?.id ?? 0;
    const admin = await createTestUser(t.db, {
      email: 'admin@filtro-04.local',
      tenant: 'filtro-04',
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    customerAdmin = await issuedBearer(t, admin.id);
    const operador = await createTestUser(t.db, { email: 'operador@filtro-04.local', tenant: 'filtro-04' });
    noTenants = await issuedBearer(t, operador.id);
    rows = await readRows();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = staff) =>
    t.app.fastify.inject({ method: 'POST', url, headers, payload });

  async function page(body: Record<string, unknown>, headers = staff) {
    const response = await post('/api/tenant/paginated', body, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(validateResponse('tenantPaginated', 200, response.json())).toEqual({ valid: true, errors: [] });
    return response.json<{ data: { id: number }[]; total: number }>();
  }

  const filters: [string, Filter][] = [
    ['plan', { plan: 'professional' }],
    ['feature on', { feature: 'chat' }],
    ['feature on, said', { feature: 'chat', feature_enabled: true }],
    ['feature off (set off or never set)', { feature: 'chat', feature_enabled: false }],
    ['a feature nobody has, off', { feature: 'nenhum-recurso', feature_enabled: false }],
    ['deleted only', { deleted: 'only' }],
    ['deleted and live', { deleted: 'all' }],
    ['together', { search: 'filtro', plan: 'starter', feature: 'chat', feature_enabled: false, deleted: 'all' }],
    ['with users', { deleted: 'all', filter_users: true }],
  ];

  it('filters by plan, feature on or off and deletion as the model says, in every order', async () => {
    for (const [label, filter] of filters) {
      for (const sort of ['name', 'plan', 'deleted_at', 'userLimit'] as const) {
        for (const dir of ['ASC', 'DESC'] as const) {
          const want = model(rows, filter, sort, dir);
          const body = await page({ ...filter, sort_name: sort, sort_type: dir, pagination_limit: 100 });
          expect(
            body.data.map((d) => d.id),
            `${label} ${sort} ${dir}`,
          ).toEqual(want.slice(0, 100));
          expect(body.total).toBe(want.length);
        }
      }
    }
  });

  it('keeps only_deleted meaning deleted: only, and refuses the two disagreeing', async () => {
    const want = model(rows, { deleted: 'only' }, 'id', 'DESC');
    expect((await page({ only_deleted: true, pagination_limit: 100 })).data.map((d) => d.id)).toEqual(want);
    expect((await page({ only_deleted: true, deleted: 'only', pagination_limit: 100 })).data.map((d) => d.id)).toEqual(
      want,
    );
    const refused = await post('/api/tenant/paginated', { only_deleted: true, deleted: 'live' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('body/deleted');
    for (const body of [
      { plan: 'gratis' },
      { deleted: 'sometimes' },
      { feature: 'NOT A FEATURE' },
      { feature_enabled: 'yes' },
    ]) {
      expect((await post('/api/tenant/paginated', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers every matching id in order', async () => {
    for (const [label, filter] of filters) {
      const response = await post('/api/tenant/ids', { ...filter, sort_name: 'name', sort_type: 'ASC' });
      expect(response.statusCode, response.body).toBe(200);
      expect(validateResponse('tenantIds', 200, response.json())).toEqual({ valid: true, errors: [] });
      const want = model(rows, filter, 'name', 'ASC');
      expect(response.json(), label).toEqual({ ids: want, total: want.length });
    }
    // Paging fields are not the selection's: refused as the contract says.
    expect((await post('/api/tenant/ids', { pagination_page: 2 })).statusCode).toBe(400);
  });

  it('reads the export in keyset pages that together are the list, for every sort and direction', async () => {
    for (const sort of SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        for (const filter of [
          { deleted: 'all' as const },
          { search: 'filtro-1', deleted: 'all' as const },
          { search: '0001', deleted: 'live' as const },
        ]) {
          const seen: number[] = [];
          let cursor: TenantCursor | null = null;
          for (let guard = 0; guard < 200; guard++) {
            const keys = await tenantExportIds(
              t.db,
              { tenantId: null },
              { search: filter.search ?? '', sort, direction: dir, deleted: filter.deleted, filterUsers: false },
              cursor,
              4,
            );
            seen.push(...keys.map((k) => k.id));
            const last = keys.at(-1);
            if (keys.length < 4 || !last) break;
            cursor = { value: last.value, id: last.id };
          }
          const want = model(rows, filter, sort, dir === 'asc' ? 'ASC' : 'DESC');
          expect(seen, `${sort} ${dir} ${JSON.stringify(filter)}`).toEqual(want);
        }
      }
    }
  });

  it('exports the filtered list in its order as the sheets write CSV', async () => {
    const response = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/tenant/export?search=filtro&feature=chat&feature_enabled=false&deleted=all&sort_name=template&sort_type=ASC',
      headers: staff,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="empresas.csv"');
    expect(
      response.body.startsWith(
        '\uFEFFid;nome;cnpj;plano;limite_usuarios;limite_tickets;usuarios;recursos;modelo;pool;criado_em;excluido_em\r\n',
      ),
    ).toBe(true);
    const [, ...records] = parseCsv(response.body.slice(1));
    const want = model(
      rows,
      { search: 'filtro', feature: 'chat', feature_enabled: false, deleted: 'all' },
      'template',
      'ASC',
    );
    expect(records.map((r) => Number(r[0]))).toEqual(want);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const record of records) {
      const row = byId.get(Number(record[0]));
      expect(record.slice(1, 8)).toEqual([
        row?.name,
        row?.cnpj,
        row?.plan,
        String(row?.user_limit),
        String(row?.ticket_limit),
        String(row?.users),
        row?.features.join(' '),
      ]);
      expect(formulaLead(record[8] ?? '')).toBeNull();
      expect(record[11] === '').toBe(row?.deleted_at === null);
    }
    const english = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/tenant/export?plan=enterprise',
      headers: { ...staff, 'accept-language': 'en' },
    });
    expect(parseCsv(english.body.slice(1))[0]?.slice(0, 4)).toEqual(['id', 'name', 'cnpj', 'plan']);
    expect(parseCsv(english.body.slice(1)).length - 1).toBe(model(rows, { plan: 'enterprise' }, 'id', 'DESC').length);
  });

  it("shows a customer's administrador its own tenant only, whatever the filters, and refuses a role without tenants", async () => {
    const own = await page({ deleted: 'all', pagination_limit: 100 }, customerAdmin);
    expect(own.data.map((d) => d.id)).toEqual([customerTenant]);
    const ids = await post('/api/tenant/ids', { deleted: 'all', plan: 'professional' }, customerAdmin);
    expect(ids.json()).toEqual({
      ids: model(rows, { plan: 'professional' }, 'id', 'DESC').filter((id) => id === customerTenant),
      total: rows.find((r) => r.id === customerTenant)?.plan === 'professional' ? 1 : 0,
    });
    const exported = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/tenant/export?deleted=all',
      headers: customerAdmin,
    });
    expect(
      parseCsv(exported.body.slice(1))
        .slice(1)
        .map((r) => Number(r[0])),
    ).toEqual([customerTenant]);
    expect((await post('/api/tenant/ids', {}, noTenants)).statusCode).toBe(403);
    expect(
      (await t.app.fastify.inject({ method: 'GET', url: '/api/tenant/export', headers: noTenants })).statusCode,
    ).toBe(403);
    expect((await t.app.fastify.inject({ method: 'GET', url: '/api/tenant/export' })).statusCode).toBe(401);
  });
});
