import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';
import { searchTenants } from '../tenants/search';

/**
 * An attack on the tenants list's bounded count (server/src/tenants/search.ts, docs/lists.md "Counts",
 * contracts/openapi.yaml `TenantPage.total_is_lower_bound`) by a reviewer who did not write it, on the embedded
 * database and on PostgreSQL, with a bound of 5 so that a few tenants reach it:
 *
 * - every sort (id, name, plan, user limit) in both directions, every deletion filter, a plan filter, no search,
 *   a word (the exact index and its walk of the list's order) and a name fragment (the trigram path), every page
 *   from the first to one past the last: the page's ids, `total`, `total_is_lower_bound` and `last_page` against
 *   a reference computed here — exact below the bound, "more than" above it, and `last_page` a page that exists;
 * - a customer's staff: whatever the search, the filters or the page, the answer is about its own tenant only and
 *   never says "more than" (the bound says nothing of the tenants outside its scope);
 * - the largest page the contract takes (1,000,000 × 100): answers 200 with an exact count, nothing past it;
 * - the ids operation ("select all matching") stays exact past the bound.
 */

const BOUND = 5;
const WORDS = ['alfa', 'beta', 'gama'] as const;
const PLANS = ['starter', 'professional', 'enterprise'] as const;

type Sort = 'id' | 'name' | 'plan' | 'userLimit';
type Deleted = 'live' | 'only' | 'all';

interface Row {
  id: number;
  name: string;
  plan: string;
  userLimit: number;
  deleted: boolean;
}

interface Page {
  data: { id: number }[];
  total: number;
  total_is_lower_bound: boolean;
  page: number;
  limit: number;
  last_page: number;
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: the tenants list counted up to a bound', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let customer: { authorization: string };
  let ownId: number;
  let rows: Row[];
  /** Tenants with a live user. */
  let withUsers: Set<number>;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { tenantCountBound: BOUND },
    });
    await t.db
      .insertInto('tenants')
      .values(
        Array.from({ length: 31 }, (_, i) => ({
          name: `ataque-${WORDS[i % 3]}-${String(i).padStart(2, '0')}`,
          cnpj: `98.${String(100 + i).padStart(3, '0')}.765/0001-${String(i % 100).padStart(2, '0')}`,
          template: 'default',
          pool: 'pool-1',
          plan: PLANS[i % 3] ?? 'starter',
          user_limit: 10 + (i % 4),
          ticket_limit: 100,
          deleted_at: i % 7 === 3 ? new Date() : null,
        })),
      )
      .execute();
    rows = (await t.db.selectFrom('tenants').select(['id', 'name', 'plan', 'user_limit', 'deleted_at']).execute()).map(
      (r) => ({ id: r.id, name: r.name, plan: r.plan, userLimit: r.user_limit, deleted: r.deleted_at !== null }),
    );
    staff = await issuedBearer(t, 'admin@demo.local');
    // A customer tenant's staff allowed to list tenants: its own tenant is one of the many `ataque` ones.
    await createTestRole(t.db, 'ataque-lista', ['tenants']);
    const user = await createTestUser(t.db, {
      email: `ataque31-${postgres ? 'pg' : 'pl'}@cliente.local`,
      tenant: 'ataque-alfa-00',
      role: 'ataque-lista',
    });
    ownId = user.tenantId;
    customer = await issuedBearer(t, user.id);
    // Users in every other `ataque` tenant of an even number, for the "with users" filter.
    for (let i = 2; i < 31; i += 2)
      await createTestUser(t.db, {
        email: `ataque31-${i}-${postgres ? 'pg' : 'pl'}@cliente.local`,
        tenant: `ataque-${WORDS[i % 3]}-${String(i).padStart(2, '0')}`,
      });
    withUsers = new Set(
      (await t.db.selectFrom('users').select('tenant_id').where('deleted_at', 'is', null).execute()).map(
        (u) => u.tenant_id,
      ),
    );
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  async function list(headers: { authorization: string }, body: Record<string, unknown>) {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers,
      payload: body,
    });
    return { status: response.statusCode, body: response.json<Page>() };
  }

  function reference(
    search: string,
    sort: Sort,
    dir: 'ASC' | 'DESC',
    deleted: Deleted,
    plan?: string,
    filterUsers = false,
  ) {
    const matches = rows.filter(
      (r) =>
        r.name.includes(search) &&
        (deleted === 'all' || r.deleted === (deleted === 'only')) &&
        (plan === undefined || r.plan === plan) &&
        (!filterUsers || withUsers.has(r.id)),
    );
    const sign = dir === 'ASC' ? 1 : -1;
    // Byte order, as the C collation of the test clusters sorts; ties by id in the same direction.
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    return matches.sort((a, b) => sign * (cmp(a[sort], b[sort]) || cmp(a.id, b.id))).map((r) => r.id);
  }

  const combos: [string, Sort, 'ASC' | 'DESC', Deleted, string | undefined, boolean][] = [];
  for (const search of ['', 'ataque', 'que-be'])
    for (const sort of ['id', 'name', 'plan', 'userLimit'] as const)
      for (const dir of ['ASC', 'DESC'] as const)
        for (const deleted of ['live', 'only', 'all'] as const) {
          for (const plan of [undefined, 'professional']) combos.push([search, sort, dir, deleted, plan, false]);
          if (sort === 'id' || sort === 'name') combos.push([search, sort, dir, deleted, undefined, true]);
        }

  it.each(combos)(
    'search %j sorted by %s %s, deleted %s, plan %s, with users %s: every page, its count and its last page as a reference says',
    async (search, sort, dir, deleted, plan, filterUsers) => {
      const want = reference(search, sort, dir, deleted, plan, filterUsers);
      const limit = 4;
      const pages = Math.max(1, Math.ceil(want.length / limit));
      for (let page = 1; page <= pages + 1; page += 1) {
        const { status, body } = await list(staff, {
          search,
          sort_name: sort,
          sort_type: dir,
          deleted,
          ...(plan === undefined ? {} : { plan }),
          ...(filterUsers ? { filter_users: true } : {}),
          pagination_page: page,
          pagination_limit: limit,
        });
        expect(status).toBe(200);
        const where = `page ${page}`;
        expect(
          body.data.map((r) => r.id),
          where,
        ).toEqual(want.slice((page - 1) * limit, page * limit));
        const cap = Math.max(BOUND, page * limit);
        const lower = want.length > cap;
        expect([body.total, body.total_is_lower_bound], where).toEqual([lower ? cap : want.length, lower]);
        expect(body.last_page, where).toBe(Math.max(1, Math.ceil((lower ? cap + 1 : want.length) / limit)));
        // The last page known to exist does exist; an exact count's last page is the last with rows.
        expect(want.length > (body.last_page - 1) * limit || want.length === 0, where).toBe(true);
        if (!lower) expect(want.length <= body.last_page * limit, where).toBe(true);
      }
    },
  );

  it("a customer's staff learns nothing of the tenants outside its own, whatever it asks", async () => {
    const answers: Page[] = [];
    for (const search of ['', 'ataque', 'ataque-alfa', 'que', 'ataque-alfa-00', '98'])
      for (const deleted of ['live', 'all'] as const)
        for (const [page, limit] of [
          [1, 1],
          [1, 100],
          [2, 1],
          [1_000_000, 100],
        ] as const) {
          const { status, body } = await list(customer, {
            search,
            deleted,
            sort_name: 'name',
            sort_type: 'ASC',
            pagination_page: page,
            pagination_limit: limit,
          });
          expect(status).toBe(200);
          expect(body.data.every((r) => r.id === ownId)).toBe(true);
          expect(body.total_is_lower_bound).toBe(false);
          expect(body.last_page).toBe(1);
          if (page === 1) answers.push(body);
        }
    // The same answer for a search matching 20 tenants as for one matching its own alone.
    const shape = (p: Page) => ({ ids: p.data.map((r) => r.id), total: p.total, lower: p.total_is_lower_bound });
    expect(new Set(answers.map((p) => JSON.stringify(shape(p)))).size).toBe(1);
    expect(shape(answers[0] as Page)).toEqual({ ids: [ownId], total: 1, lower: false });
    // Deleted only: nothing of its own, and still nothing of the others.
    const only = await list(customer, { deleted: 'only', search: 'ataque', pagination_limit: 1 });
    expect(only.status).toBe(200);
    expect([only.body.total, only.body.total_is_lower_bound, only.body.data]).toEqual([0, false, []]);
  });

  it('the largest page the contract takes answers an exact count, and a larger one is refused', async () => {
    for (const search of ['', 'ataque', 'que-be']) {
      const want = reference(search, 'name', 'ASC', 'live');
      const { status, body } = await list(staff, {
        search,
        sort_name: 'name',
        sort_type: 'ASC',
        pagination_page: 1_000_000,
        pagination_limit: 100,
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({ data: [], total: want.length, total_is_lower_bound: false, page: 1_000_000 });
      expect(body.last_page).toBe(Math.max(1, Math.ceil(want.length / 100)));
    }
    for (const [page, limit] of [
      [1_000_001, 100],
      [2 ** 31, 100],
      [2 ** 53, 100],
      [1, 101],
      [0, 4],
      [1.5, 4],
      [-1, 4],
    ])
      expect((await list(staff, { pagination_page: page, pagination_limit: limit })).status, `${page}×${limit}`).toBe(
        400,
      );
  });

  if (postgres)
    it('while tenants are created and deleted, every page agrees with its own count (one statement, one snapshot)', async () => {
      let made = 0;
      const churn = async () => {
        for (let i = 0; i < 40; i += 1) {
          made += 1;
          const [row] = await t.db
            .insertInto('tenants')
            .values({
              name: `corrida-${String(made).padStart(3, '0')}`,
              cnpj: `97.${String(made).padStart(3, '0')}.555/0001-00`,
              template: 'default',
              pool: 'pool-1',
              plan: 'starter',
              user_limit: 10,
              ticket_limit: 100,
            })
            .returning('id')
            .execute();
          if (i % 2 === 1 && row)
            await t.db.updateTable('tenants').set({ deleted_at: new Date() }).where('id', '=', row.id).execute();
        }
      };
      const read = async () => {
        const problems: string[] = [];
        for (let i = 0; i < 40; i += 1) {
          for (const search of ['corrida', 'rrida-0', '']) {
            const page = 1 + (i % 4);
            const { status, body } = await list(staff, {
              search,
              sort_name: i % 2 ? 'name' : 'id',
              sort_type: 'ASC',
              pagination_page: page,
              pagination_limit: 3,
            });
            if (status !== 200) {
              problems.push(`${search} page ${page}: ${status}`);
              continue;
            }
            // "More than" means the page is full; an exact count says how many rows this page holds.
            const want = body.total_is_lower_bound ? 3 : Math.min(3, Math.max(0, body.total - (page - 1) * 3));
            if (body.data.length !== want)
              problems.push(
                `${search} page ${page}: ${body.data.length} rows, total ${body.total} ${body.total_is_lower_bound}`,
              );
          }
        }
        return problems;
      };
      const [, ...answers] = await Promise.all([churn(), read(), read()]);
      // The other tests' reference is the tenants of `beforeAll`.
      await t.db.deleteFrom('tenants').where('name', 'like', 'corrida-%').execute();
      expect(made).toBe(40);
      expect(answers.flat()).toEqual([]);
    });

  it('a bound set past what a count can hold (TENANT_COUNT_BOUND=3000000000) still answers every search path, exactly', async () => {
    for (const countBound of [2 ** 31 - 1, 3_000_000_000, 2 ** 53])
      for (const search of ['', 'ataque', 'que-be'])
        for (const sort of ['name', 'id', 'plan'] as const) {
          const answer = await searchTenants(
            t.db,
            { tenantId: null },
            { search, sort, direction: 'asc', page: 1, limit: 4, deleted: 'live', filterUsers: false },
            { countBound },
          );
          const want = reference(search, sort, 'ASC', 'live');
          expect([answer.ids, answer.total, answer.totalIsLowerBound], `${countBound} ${search} ${sort}`).toEqual([
            want.slice(0, 4),
            want.length,
            false,
          ]);
        }
  });

  it('"select all matching" stays exact past the bound', async () => {
    for (const search of ['', 'ataque', 'que-be']) {
      const response = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/tenant/ids',
        headers: staff,
        payload: { search, sort_name: 'name', sort_type: 'ASC', deleted: 'all' },
      });
      expect(response.statusCode).toBe(200);
      const want = reference(search, 'name', 'ASC', 'all');
      expect(want.length).toBeGreaterThan(BOUND);
      expect(response.json()).toEqual({ ids: want, total: want.length });
    }
  });
});
