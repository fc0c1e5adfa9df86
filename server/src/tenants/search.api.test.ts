import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { searchTenants } from './search';

/**
 * Paginated tenant search (POST /api/tenant/paginated) against a reference computed here: one query
 * for count and page when searching (tenants/search.ts), the same answers as filtering, sorting and
 * slicing every tenant in JavaScript — on PGlite and on PostgreSQL. Numeric and alphanumeric CNPJs.
 * The app counts up to a bound of 30 (`TENANT_COUNT_BOUND`, docs/lists.md, Counts) so that these few
 * tenants reach it: above it the answer says "more than" (`total_is_lower_bound`), below it the count is exact.
 */

/** The test app's count bound: below the 60 `busca` tenants, above most searches' matches. */
const BOUND = 30;
interface Row {
  id: number;
  name: string;
  cnpj: string;
  plan: string;
  deleted: boolean;
}

const PLANS = ['starter', 'professional', 'enterprise'] as const;
const WORDS = ['alfa', 'beta', 'gama', 'delta'];

const mask = (d: string) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;

function cnpjOf(i: number): string {
  return mask(String(10_000_000_000_000 + i * 7_919).slice(-14));
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Letters and digits in the base, digits after it (the CHECK's shape; the search ignores check digits). */
function alphanumericCnpjOf(i: number): string {
  const base = Array.from({ length: 12 }, (_, k) => ALPHANUMERIC[(i * 7 + k * k * 13 + k) % 36]).join('');
  return mask(`${base}${String((i * 37) % 100).padStart(2, '0')}`);
}

/** Tenants of the alphanumeric cases, by name and CNPJ. */
const ALPHANUMERIC_TENANTS: readonly [string, string][] = [
  ['receita-exemplo', '12.ABC.345/01DE-35'], // the example of IN RFB 2.229/2024
  ['exemplo-a-mao', 'AB.12C.D34/0001-84'],
  // 'LOJA2' in the bare CNPJ, but a '.' inside it where the name 'loja-2' has a '-' after it.
  ['dados-cruzados', 'ZZ.ZLO.JA2/0001-00'],
  // 'LOJA-2' in the masked CNPJ, letter for letter.
  ['fim-da-base', 'XY.ZWV.UTS/LOJA-21'],
  // A name a CNPJ-looking search must find by name too.
  ['loja-2', '98.765.432/0001-98'],
];

/**
 * Whether the masked CNPJ holds `term` (upper-case, no spaces) with marks of the mask it left out put
 * back between two of its characters: a walk from every start, skipping a mark of the CNPJ where the
 * term has none.
 */
function maskedHolds(masked: string, term: string): boolean {
  for (let start = 0; start < masked.length; start++) {
    let i = start;
    let j = 0;
    while (j < term.length && i < masked.length) {
      if (masked[i] === term[j]) {
        i += 1;
        j += 1;
      } else if (j > 0 && './-'.includes(masked[i] ?? '')) i += 1;
      else break;
    }
    if (j === term.length) return true;
  }
  return false;
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
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { tenantCountBound: BOUND },
    });
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
    await t.db
      .insertInto('tenants')
      .values(
        [
          ...ALPHANUMERIC_TENANTS,
          ...Array.from({ length: 20 }, (_, i): [string, string] => [
            `letras-${String(i).padStart(2, '0')}`,
            alphanumericCnpjOf(i),
          ]),
        ].map(([name, cnpj], i) => ({
          name,
          cnpj,
          template: 'default',
          pool: 'pool-1',
          plan: PLANS[i % 3] ?? 'starter',
          user_limit: 10,
          ticket_limit: 100,
          deleted_at: i % 13 === 12 ? new Date() : null,
        })),
      )
      .execute();
    rows = (await t.db.selectFrom('tenants').select(['id', 'name', 'cnpj', 'plan', 'deleted_at']).execute()).map(
      (r) => ({ id: r.id, name: r.name, cnpj: r.cnpj, plan: r.plan, deleted: r.deleted_at !== null }),
    );
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  async function search(body: Record<string, unknown>) {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/paginated',
      headers: admin,
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{
      data: { id: number; name: string }[];
      total: number;
      total_is_lower_bound: boolean;
      page: number;
      limit: number;
      last_page: number;
    }>();
  }

  /** What a page answers of `total` matches: the count stops at the bound, or at the asked page's end past it. */
  function counted(total: number, page: number, limit: number) {
    const cap = Math.max(BOUND, page * limit);
    const lower = total > cap;
    const shown = lower ? cap : total;
    return { total: shown, lower, lastPage: Math.max(1, Math.ceil((lower ? shown + 1 : shown) / limit)) };
  }

  function expected(
    search: string,
    sort: 'name' | 'id' | 'plan',
    dir: 'ASC' | 'DESC',
    page: number,
    limit: number,
    onlyDeleted = false,
  ) {
    const trimmed = search.trim();
    const term = trimmed.toLowerCase();
    // As typed, without spaces: name or masked CNPJ, in any case.
    const asTyped = (r: Row) => !/\s/.test(term) && (r.name.includes(term) || r.cnpj.toLowerCase().includes(term));
    // A search of CNPJ characters, marks and spaces with a digit or a mark no name holds (names are
    // lower-case slugs) is also looked for in the CNPJ with left-out marks put back.
    const cnpjLike = /^[0-9a-z./\s-]+$/i.test(trimmed) && /[0-9a-z]/i.test(trimmed) && /[\d./\s]/.test(trimmed);
    const compact = trimmed.replace(/\s+/g, '').toUpperCase();
    const matches = rows.filter(
      (r) => r.deleted === onlyDeleted && (asTyped(r) || (cnpjLike && maskedHolds(r.cnpj, compact))),
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
    [cnpjOf(40).slice(8), 'id', 'ASC', 1, 100],
    // Alphanumeric CNPJs, masked, bare, half-masked, in any case.
    ['12ABC', 'id', 'ASC', 1, 100],
    ['12.ABC', 'id', 'ASC', 1, 100],
    ['abc.345', 'id', 'ASC', 1, 100],
    ['ABC345/01', 'id', 'ASC', 1, 100],
    ['abc345', 'name', 'DESC', 1, 100],
    ['01de-35', 'id', 'ASC', 1, 100],
    ['12abc34501de35', 'id', 'ASC', 1, 100],
    ['12.ABC.345/01DE-35', 'id', 'ASC', 1, 100],
    ['ab 12c d34', 'id', 'ASC', 1, 100],
    [alphanumericCnpjOf(7).slice(1, 9), 'id', 'ASC', 1, 100],
    [alphanumericCnpjOf(11).replace(/[./-]/g, '').slice(3, 10).toLowerCase(), 'id', 'ASC', 1, 100],
    // A name-like search is matched letter for letter against CNPJs.
    ['loja-2', 'id', 'ASC', 1, 100],
    ['loja2', 'id', 'ASC', 1, 100],
    ['LOJA', 'id', 'ASC', 1, 100],
    ['letras', 'name', 'ASC', 2, 7],
    // One case per class of the scale bench (bench/scale.ts): a common word, a rare name, CNPJ digits
    // partial and full, an alphanumeric CNPJ partial, no match.
    ['busca', 'name', 'DESC', 4, 5],
    ['busca-gama-42', 'name', 'ASC', 1, 10],
    ['42', 'name', 'ASC', 1, 10],
    [cnpjOf(12).replace(/\D/g, ''), 'name', 'ASC', 1, 10],
    [cnpjOf(12), 'name', 'ASC', 1, 10],
    ['12abc3', 'name', 'ASC', 1, 10],
    ['zzznada', 'name', 'ASC', 1, 10],
  ];

  it.each(cases)('search %j sorted by %s %s, page %i of %i', async (term, sort, dir, page, limit) => {
    const answer = await search({
      search: term,
      sort_name: sort,
      sort_type: dir,
      pagination_page: page,
      pagination_limit: limit,
    });
    const want = expected(term, sort, dir, page, limit);
    expect(answer.data.map((r) => r.id)).toEqual(want.ids);
    const count = counted(want.total, page, limit);
    expect(answer.total).toBe(count.total);
    expect(answer.total_is_lower_bound).toBe(count.lower);
    expect(answer.last_page).toBe(count.lastPage);
  });

  it('counts past the bound as "more than", exactly below it, and every page past it still answers', async () => {
    const all = expected('busca', 'name', 'ASC', 1, 1000).total;
    expect(all).toBeGreaterThan(BOUND);
    // First page: more than the bound; the page after the counted matches is the last one known.
    const first = await search({ search: 'busca', sort_name: 'name', sort_type: 'ASC', pagination_limit: 10 });
    expect([first.total, first.total_is_lower_bound, first.last_page]).toEqual([BOUND, true, 4]);
    // Walking forward page by page reaches every match, and the last page's count is exact.
    const seen: number[] = [];
    for (let page = 1; page <= 10; page += 1) {
      const answer = await search({
        search: 'busca',
        sort_name: 'name',
        sort_type: 'ASC',
        pagination_page: page,
        pagination_limit: 10,
      });
      seen.push(...answer.data.map((r) => r.id));
      if (!answer.total_is_lower_bound) {
        expect(answer.total).toBe(all);
        expect(answer.last_page).toBe(Math.ceil(all / 10));
        break;
      }
      expect(answer.last_page).toBeGreaterThan(page);
    }
    expect(seen).toEqual(expected('busca', 'name', 'ASC', 1, 1000).ids);
    // No search at all: the same bound.
    const everyone = await search({ search: '', pagination_limit: 4 });
    expect([everyone.total, everyone.total_is_lower_bound]).toEqual([BOUND, true]);
    // A search below the bound: exact.
    const few = await search({ search: 'letras', pagination_limit: 4 });
    expect([few.total, few.total_is_lower_bound]).toEqual([expected('letras', 'id', 'DESC', 1, 4).total, false]);
  });

  it('selects every match with "select all", counted exactly past the bound', async () => {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/ids',
      headers: admin,
      payload: { search: 'busca', sort_name: 'name', sort_type: 'ASC' },
    });
    expect(response.statusCode).toBe(200);
    const want = expected('busca', 'name', 'ASC', 1, 1000);
    expect(want.total).toBeGreaterThan(BOUND);
    expect(response.json()).toEqual({ ids: want.ids, total: want.total });
  });

  // The walk of the list's order for many matches (search.ts, above COMMON_MATCHES) on every
  // letters-and-digits case, by name and by id, with the threshold at 0 so these few tenants take it.
  it.each(cases.filter(([term]) => /^[0-9a-z]+$/i.test(term.trim())))(
    'name and id walk: %j sorted by %s %s, page %i of %i',
    async (term, _sort, _dir, page, limit) => {
      for (const sort of ['name', 'id'] as const) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const answer = await searchTenants(
            t.db,
            { tenantId: null },
            {
              search: term,
              sort,
              direction: direction === 'ASC' ? 'asc' : 'desc',
              page,
              limit,
              deleted: 'live',
              filterUsers: false,
            },
            { commonMatches: 0 },
          );
          const want = expected(term, sort, direction, page, limit);
          expect(answer.ids).toEqual(want.ids);
          expect(answer.total).toBe(want.total);
          expect(answer.totalIsLowerBound).toBe(false);
        }
      }
    },
  );

  it('searches the soft-deleted tenants when asked', async () => {
    const answer = await search({
      search: 'busca',
      sort_name: 'id',
      sort_type: 'ASC',
      pagination_page: 1,
      pagination_limit: 100,
      only_deleted: true,
    });
    const want = expected('busca', 'id', 'ASC', 1, 100, true);
    expect(answer.data.map((r) => r.id)).toEqual(want.ids);
    expect(answer.total).toBe(want.total);
  });

  it('finds the official example by any part of it, bare or masked, in any case', async () => {
    const names = async (term: string) =>
      (await search({ search: term, sort_name: 'name', sort_type: 'ASC', pagination_limit: 100 })).data.map(
        (r) => r.name,
      );
    for (const term of [
      '12ABC',
      '12.ABC',
      '12.abc',
      'abc.345',
      'ABC345/01',
      'abc345',
      '01DE-35',
      '01de35',
      '12abc34501de35',
      '12.ABC.345/01DE-35',
      '12 ABC 345',
    ]) {
      expect(await names(term), term).toContain('receita-exemplo');
    }
    for (const term of ['12ABD', 'abc.346', 'ABC345-01', '0001-35'])
      expect(await names(term), term).not.toContain('receita-exemplo');
  });

  it('matches a name-like search against CNPJs letter for letter, never by its digits alone', async () => {
    const names = async (term: string) =>
      (await search({ search: term, sort_name: 'name', sort_type: 'ASC', pagination_limit: 100 })).data.map(
        (r) => r.name,
      );
    // 'loja-2': the tenant so named and the CNPJ holding 'LOJA-2'; not 'LO.JA2' (a mark elsewhere), nor
    // the CNPJs that merely hold a 2.
    expect(await names('loja-2')).toEqual(['fim-da-base', 'loja-2']);
    expect(await names('loja2')).toEqual(['dados-cruzados', 'fim-da-base']);
  });

  it('treats % and _ in the search as plain characters', async () => {
    expect((await search({ search: '%', pagination_limit: 10 })).total).toBe(0);
    expect((await search({ search: 'busca_alfa', pagination_limit: 10 })).total).toBe(0);
  });
});
