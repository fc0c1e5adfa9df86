import fc from 'fast-check';
import {
  DEFAULT_TENANTS_QUERY,
  MAX_LIMIT,
  MAX_PAGE,
  MAX_SEARCH_LENGTH,
  nextQuery,
  parseTenantsQuery,
  serializeTenantsQuery,
  TENANT_PLANS,
  TENANT_SORT_NAMES,
  toExportQuery,
  toPageRequest,
  type TenantsQuery,
} from './tenants-query';

const RUNS = { numRuns: 1000 };

/** Any query the list can hold: every field within the contract's bounds. */
const queryArb: fc.Arbitrary<TenantsQuery> = fc
  .record({
    page: fc.integer({ min: 1, max: MAX_PAGE }),
    limit: fc.integer({ min: 1, max: MAX_LIMIT }),
    // Well-formed Unicode (lone surrogates cannot travel in a URL), at most 100 code points.
    search: fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => Array.from(s).length <= MAX_SEARCH_LENGTH),
    sortName: fc.constantFrom(...TENANT_SORT_NAMES),
    sortType: fc.constantFrom('ASC' as const, 'DESC' as const),
    deleted: fc.constantFrom('live' as const, 'only' as const, 'all' as const),
    plan: fc.constantFrom(null, ...TENANT_PLANS),
    feature: fc.constantFrom(null, 'chat', 'chatbot', 'webhooks'),
    featureEnabled: fc.boolean(),
  })
  .map((q) => (q.feature === null ? { ...q, featureEnabled: true } : q));

/** Hand-edited or hostile query strings: known keys with junk values, unknown keys, raw text. */
const junkArb = fc.oneof(
  fc.string(),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('page', 'limit', 'search', 'sort', 'view', 'x'),
        fc.oneof(
          fc.string(),
          fc.integer().map(String),
          fc.constantFrom('-name', 'id', '-x', 'deleted', '0', '101', '1000001', '007'),
        ),
      ),
    )
    .map((pairs) => new URLSearchParams(pairs).toString()),
);

describe('tenants query in the address', () => {
  it('defaults to page 1, 4 per page, no search, id DESC and writes nothing for them', () => {
    expect(parseTenantsQuery('')).toEqual({
      page: 1,
      limit: 4,
      search: '',
      sortName: 'id',
      sortType: 'DESC',
      deleted: 'live',
      plan: null,
      feature: null,
      featureEnabled: true,
    });
    expect(serializeTenantsQuery(DEFAULT_TENANTS_QUERY)).toBe('');
  });

  it('reads and writes the documented form', () => {
    const query = parseTenantsQuery('?page=2&search=farm%C3%A1cia&sort=-name&view=deleted&limit=10');
    expect(query).toEqual({
      page: 2,
      limit: 10,
      search: 'farmácia',
      sortName: 'name',
      sortType: 'DESC',
      deleted: 'only',
      plan: null,
      feature: null,
      featureEnabled: true,
    });
    expect(serializeTenantsQuery(query)).toBe('page=2&limit=10&search=farm%C3%A1cia&sort=-name&view=deleted');
    expect(parseTenantsQuery('view=all').deleted).toBe('all');
    expect(serializeTenantsQuery({ ...DEFAULT_TENANTS_QUERY, deleted: 'all' })).toBe('view=all');
    expect(parseTenantsQuery('view=todos').deleted).toBe('live');
    expect(parseTenantsQuery('sort=plan').sortType).toBe('ASC');
    expect(parseTenantsQuery('sort=-password').sortName).toBe('id');
    expect(parseTenantsQuery('page=0&limit=101').page).toBe(1);
    expect(parseTenantsQuery('search=' + 'a'.repeat(150)).search).toHaveLength(MAX_SEARCH_LENGTH);
  });

  it('round-trips every valid query: parse(serialize(q)) = q (1000 runs)', () => {
    fc.assert(
      fc.property(queryArb, (query) => {
        expect(parseTenantsQuery(serializeTenantsQuery(query))).toEqual(query);
        expect(parseTenantsQuery(`?${serializeTenantsQuery(query)}`)).toEqual(query);
      }),
      RUNS,
    );
  });

  it('reads any string into a valid query that then round-trips (1000 runs)', () => {
    fc.assert(
      fc.property(junkArb, (text) => {
        const query = parseTenantsQuery(text);
        expect(query.page).toBeGreaterThanOrEqual(1);
        expect(query.page).toBeLessThanOrEqual(MAX_PAGE);
        expect(query.limit).toBeGreaterThanOrEqual(1);
        expect(query.limit).toBeLessThanOrEqual(MAX_LIMIT);
        expect(Array.from(query.search).length).toBeLessThanOrEqual(MAX_SEARCH_LENGTH);
        expect(TENANT_SORT_NAMES).toContain(query.sortName);
        const canonical = serializeTenantsQuery(query);
        expect(parseTenantsQuery(canonical)).toEqual(query);
        expect(serializeTenantsQuery(parseTenantsQuery(canonical))).toBe(canonical);
      }),
      RUNS,
    );
  });

  it('keeps the plan and feature filters in the address and sends them as the contract names them', () => {
    const query = parseTenantsQuery('?plan=starter&feature=chat&feature_enabled=false');
    expect(query).toMatchObject({ plan: 'starter', feature: 'chat', featureEnabled: false });
    expect(serializeTenantsQuery(query)).toBe('plan=starter&feature=chat&feature_enabled=false');
    expect(toPageRequest(query)).toMatchObject({ plan: 'starter', feature: 'chat', feature_enabled: false });
    expect(toExportQuery({ ...query, deleted: 'only' })).toEqual({
      search: '',
      sort_name: 'id',
      sort_type: 'DESC',
      deleted: 'only',
      plan: 'starter',
      feature: 'chat',
      feature_enabled: false,
    });
    expect(parseTenantsQuery('?plan=gratis&feature=NOT%20ONE')).toEqual(DEFAULT_TENANTS_QUERY);
    // A filter change goes back to page 1; the same filter again changes nothing.
    const paged = { ...DEFAULT_TENANTS_QUERY, page: 4 };
    expect(nextQuery(paged, '', { type: 'tenants.filter', plan: 'enterprise' })).toMatchObject({
      plan: 'enterprise',
      page: 1,
    });
    expect(nextQuery(paged, '', { type: 'tenants.filter', plan: null })).toBe(paged);
  });

  it('builds the paginated request body from a query', () => {
    expect(
      toPageRequest({
        ...DEFAULT_TENANTS_QUERY,
        page: 3,
        limit: 10,
        search: 'x',
        sortName: 'plan',
        sortType: 'ASC',
        deleted: 'only',
      }),
    ).toEqual({
      filter_users: false,
      pagination_page: 3,
      pagination_limit: 10,
      search: 'x',
      sort_name: 'plan',
      sort_type: 'ASC',
      only_deleted: true,
    });
    // The all view: the server's `deleted: all` (only_deleted false, which never contradicts it).
    expect(toPageRequest({ ...DEFAULT_TENANTS_QUERY, deleted: 'all' })).toMatchObject({
      only_deleted: false,
      deleted: 'all',
    });
    expect(toExportQuery({ ...DEFAULT_TENANTS_QUERY, deleted: 'all' })).toMatchObject({ deleted: 'all' });
  });
});

describe('nextQuery', () => {
  const base: TenantsQuery = { ...DEFAULT_TENANTS_QUERY, page: 3 };

  it('pages within bounds and keeps everything else', () => {
    expect(nextQuery(base, '', { type: 'tenants.page', page: 5 })).toEqual({ ...base, page: 5 });
    expect(nextQuery(base, '', { type: 'tenants.page', page: 0 }).page).toBe(1);
    expect(nextQuery(base, '', { type: 'tenants.page', page: 2e9 }).page).toBe(MAX_PAGE);
  });

  it('goes back to page 1 on limit, sort, view and a new search; sorting a column twice flips it', () => {
    expect(nextQuery(base, '', { type: 'tenants.limit', limit: 10 })).toEqual({ ...base, limit: 10, page: 1 });
    expect(nextQuery(base, '', { type: 'tenants.sort', sortName: 'name' })).toEqual({
      ...base,
      sortName: 'name',
      sortType: 'ASC',
      page: 1,
    });
    expect(nextQuery(base, '', { type: 'tenants.sort', sortName: 'id' })).toMatchObject({
      sortName: 'id',
      sortType: 'ASC',
    });
    expect(nextQuery({ ...base, sortType: 'ASC' }, '', { type: 'tenants.sort', sortName: 'id' }).sortType).toBe('DESC');
    expect(nextQuery(base, '', { type: 'tenants.sort', sortName: 'plan', sortType: 'DESC' }).sortType).toBe('DESC');
    expect(nextQuery(base, '', { type: 'tenants.view', deleted: 'only' })).toEqual({
      ...base,
      deleted: 'only',
      page: 1,
    });
    expect(nextQuery(base, '', { type: 'tenants.view', deleted: 'all' })).toEqual({ ...base, deleted: 'all', page: 1 });
    expect(nextQuery(base, '', { type: 'tenants.view', deleted: 'live' })).toEqual(base);
    expect(nextQuery(base, 'farm', { type: 'tenants.page', page: 2 })).toEqual({ ...base, search: 'farm', page: 2 });
    expect(nextQuery(base, 'farm', { type: 'tenants.view', deleted: 'only' })).toEqual({
      ...base,
      search: 'farm',
      deleted: 'only',
      page: 1,
    });
  });

  it('takes the address as it is on tenants.location', () => {
    expect(nextQuery(base, 'typed', { type: 'tenants.location', search: '?page=7' })).toEqual({
      ...DEFAULT_TENANTS_QUERY,
      page: 7,
    });
  });
});
