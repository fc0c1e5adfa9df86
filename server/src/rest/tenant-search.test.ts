import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * Paginated tenant search (POST /api/tenant/paginated) against a reference computed here: one query
 * for count and page when searching (rest/tenants.ts), the same answers as filtering, sorting and
 * slicing every tenant in JavaScript — on PGlite and on PostgreSQL.
 */
interface Row {
  id: number;
  name: string;
  cnpj: string;
  plan: string;
  deleted: boolean;
}

const PLANS = ['starter', 'professional', 'enterprise'] as const;
const WORDS = ['alfa', 'beta', 'gama', 'delta'];

function cnpjOf(i: number): string {
  const d = String(10_000_000_000_000 + i * 7_919).slice(-14);
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('tenant search on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let rows: Row[];

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    await t.db
      .insertInto('tenants')
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          name: `busca-${WORDS[i % WORDS.length]}-${String(i).padStart(2, '0')}`,
          cnpj: cnpjOf(i),
          template: 'default',
          pool: 'pool-1',
          plan: PLANS[i % 3] ?? 'starter',
          user_limit: 10 + (i % 7),
          ticket_limit: 100,
          deleted_at: i % 11 === 0 ? new Date() : null,
        })),
      )
      .execute();
    rows = (await t.db.selectFrom('tenants').select(['id', 'name', 'cnpj', 'plan', 'deleted_at']).execute()).map((r) => ({ id: r.id, name: r.name, cnpj: r.cnpj, plan: r.plan, deleted: r.deleted_at !== null }));
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  async function search(body: Record<string, unknown>) {
    const response = await t.app.fastify.inject({ method: 'POST', url: '/api/tenant/paginated', headers: admin, payload: body });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: { id: number; name: string }[]; total: number; page: number; limit: number; last_page: number }>();
  }

  function expected(search: string, sort: 'name' | 'id' | 'plan', dir: 'ASC' | 'DESC', page: number, limit: number, onlyDeleted = false) {
    const term = search.toLowerCase();
    // Digits reach CNPJs only when the search reads as part of one (digits and CNPJ punctuation).
    const digits = /^[\d./\s-]*\d[\d./\s-]*$/.test(search) ? search.replace(/\D/g, '') : '';
    const matches = rows.filter(
      (r) => r.deleted === onlyDeleted && (r.name.toLowerCase().includes(term) || r.cnpj.toLowerCase().includes(term) || (digits !== '' && r.cnpj.replace(/\D/g, '').includes(digits))),
    );
    const sign = dir === 'ASC' ? 1 : -1;
    // Byte order, as the C collation of the test clusters sorts.
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    matches.sort((a, b) => sign * (cmp(a[sort], b[sort]) || cmp(a.id, b.id)));
    return { ids: matches.slice((page - 1) * limit, page * limit).map((r) => r.id), total: matches.length };
  }

  const cases: [string, 'name' | 'id' | 'plan', 'ASC' | 'DESC', number, number][] = [
    ['alfa', 'name', 'ASC', 1, 4],
    ['alfa', 'name', 'DESC', 2, 4],
    ['busca', 'id', 'DESC', 3, 7],
    ['busca', 'plan', 'ASC', 2, 10],
    ['GAMA', 'name', 'ASC', 1, 100],
    ['-1', 'name', 'ASC', 1, 5],
    [cnpjOf(17).slice(3, 10), 'id', 'ASC', 1, 10],
    [cnpjOf(23).replace(/\D/g, '').slice(4, 11), 'id', 'ASC', 1, 10],
    ['zzz-nothing', 'name', 'ASC', 1, 10],
    // A name with a digit is a name: not every CNPJ holding that digit.
    ['alfa-0', 'id', 'ASC', 1, 100],
    ['busca', 'name', 'ASC', 99, 10],
    // Name and CNPJ are one column joined by a space (migration 0007): a space must not match across it.
    ['alfa-00 10.', 'id', 'ASC', 1, 100],
    // A CNPJ typed with spaces still reaches the digits.
    [`${cnpjOf(31).slice(0, 2)} ${cnpjOf(31).slice(3, 6)}`, 'id', 'ASC', 1, 100],
  ];

  it.each(cases)('search %j sorted by %s %s, page %i of %i', async (term, sort, dir, page, limit) => {
    const answer = await search({ search: term, sort_name: sort, sort_type: dir, pagination_page: page, pagination_limit: limit });
    const want = expected(term, sort, dir, page, limit);
    expect(answer.data.map((r) => r.id)).toEqual(want.ids);
    expect(answer.total).toBe(want.total);
    expect(answer.last_page).toBe(Math.max(1, Math.ceil(want.total / limit)));
  });

  it('searches the soft-deleted tenants when asked', async () => {
    const answer = await search({ search: 'busca', sort_name: 'id', sort_type: 'ASC', pagination_page: 1, pagination_limit: 100, only_deleted: true });
    const want = expected('busca', 'id', 'ASC', 1, 100, true);
    expect(answer.data.map((r) => r.id)).toEqual(want.ids);
    expect(answer.total).toBe(want.total);
  });

  it('treats % and _ in the search as plain characters', async () => {
    expect((await search({ search: '%', pagination_limit: 10 })).total).toBe(0);
    expect((await search({ search: 'busca_alfa', pagination_limit: 10 })).total).toBe(0);
  });
});
