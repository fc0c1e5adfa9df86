import { sql, type Kysely } from 'kysely';
import { cnpjSearchFragment } from '../../../src/domain/cnpj';
import type { components } from '../../../src/generated/openapi';
import type { Database, Plan } from '../db/schema';
import { isBroken } from '../base/broken-promises';
import { likeLiteral } from '../base/like';

/** Which tenants a search covers: one tenant (a customer tenant's staff), or every tenant (`null`, back-office staff). */
export interface TenantSearchScope {
  tenantId: number | null;
}

export type TenantSortName = NonNullable<components['schemas']['TenantPageRequest']['sort_name']>;

export interface TenantSearchParams {
  /** As typed; surrounding whitespace is ignored and '' lists every tenant. */
  search: string;
  sort: TenantSortName;
  direction: 'asc' | 'desc';
  /** 1-based. */
  page: number;
  limit: number;
  /** Which tenants by deletion: the live ones, the soft-deleted ones, or both (docs/lists.md). */
  deleted: TenantDeletedFilter;
  /** Only tenants with at least one live user. */
  filterUsers: boolean;
  /** Only tenants on this plan. */
  plan?: string;
  /** Only tenants with this feature on (`enabled` true) or off (false; a feature never set is off). */
  feature?: { option: string; enabled: boolean };
}

export type TenantDeletedFilter = 'live' | 'only' | 'all';

/**
 * One page of a tenant search: the ids in order, and how many tenants match in all — or, when
 * `totalIsLowerBound`, that more than `total` match (the count stopped at its bound, docs/lists.md).
 */
export interface TenantSearchResult {
  ids: number[];
  total: number;
  totalIsLowerBound: boolean;
}

/**
 * Above this many matches a page sorted by name walks the names in order instead of reading every
 * match (server/src/tenants/search.ts `searchTenants`); below it reading them is the cheaper.
 */
export const COMMON_MATCHES = 1_000;

/** The largest cap of a bounded count: the cap and one past it fit the int the count is. */
const MAX_COUNT_CAP = 2 ** 31 - 2;

/** Where the tenants list stops counting by default (`TENANT_COUNT_BOUND`, docs/lists.md, Counts). */
export const TENANT_COUNT_BOUND = 1_000;

/** Contract sort names → columns; the enum in the contract is the allow-list. */
const SORT_COLUMNS: Readonly<Record<TenantSortName, string>> = {
  id: 't.id',
  name: 't.name',
  cnpj: 't.cnpj',
  plan: 't.plan',
  userLimit: 't.user_limit',
  ticketLimit: 't.ticket_limit',
  template: 't.template',
  pool: 't.pool',
  created_at: 't.created_at',
  deleted_at: 't.deleted_at',
};

/**
 * A regular expression (PostgreSQL's and JavaScript's alike) for a CNPJ fragment in the masked CNPJ:
 * each of its characters as it is, and between two letters or digits the mark the fragment may have
 * left out (the mask never has two marks in a row). `ABC345/01` → `A[./-]?B…5/0[./-]?1`.
 */
export function maskedFragmentPattern(fragment: string): string {
  let pattern = '';
  let previousIsCharacter = false;
  for (const char of fragment) {
    const isCharacter = /[0-9A-Z]/.test(char);
    if (isCharacter && previousIsCharacter) pattern += '[./-]?';
    pattern += char === '.' ? '\\.' : char;
    previousIsCharacter = isCharacter;
  }
  return pattern;
}

/** The tenants a search reads before its text: the scope, deletion, users, plan and feature filters. */
function scopedTenants(
  db: Kysely<Database>,
  scope: TenantSearchScope,
  params: Omit<TenantSearchParams, 'search' | 'sort' | 'direction' | 'page' | 'limit'>,
) {
  let q = db.selectFrom('tenants as t');
  if (params.deleted === 'live' && !isBroken('deleted-tenant-listed')) q = q.where('t.deleted_at', 'is', null);
  if (params.deleted === 'only') q = q.where('t.deleted_at', 'is not', null);
  if (scope.tenantId !== null) q = q.where('t.id', '=', scope.tenantId);
  if (params.filterUsers)
    q = q.where(sql<boolean>`exists (select 1 from users u where u.tenant_id = t.id and u.deleted_at is null)`);
  if (params.plan !== undefined) q = q.where('t.plan', '=', params.plan as Plan);
  const feature = params.feature;
  if (feature !== undefined) {
    const on = sql<boolean>`exists (select 1 from tenant_features f where f.tenant_id = t.id and f.option = ${feature.option} and f.enabled)`;
    q = q.where(feature.enabled ? on : sql<boolean>`not ${on}`);
  }
  return q;
}

/**
 * The tenants whose name or CNPJ holds the search (case-insensitive), one page of them in the asked
 * order (ties by id in the same direction), and the count of all of them.
 *
 * A search matches a tenant when
 * - it holds no whitespace and the name, or the masked CNPJ, holds it (`farm`, `12.abc`, `-35`); or
 * - it reads as part of a CNPJ (`cnpjSearchFragment` in src/domain/cnpj.ts: only CNPJ characters and
 *   marks, fits the mask, holds a digit, `.`, `/` or space) and the masked CNPJ holds it with any
 *   of the mask's marks the search left out put back (`12ABC`, `abc345`, `ABC345/01`, `11 222`).
 * A name like `loja-2` is matched against CNPJs letter for letter, so it does not find every CNPJ
 * holding a 2.
 */
export async function searchTenants(
  db: Kysely<Database>,
  scope: TenantSearchScope,
  params: TenantSearchParams,
  options: { commonMatches?: number; countBound?: number } = {},
): Promise<TenantSearchResult> {
  const { page, limit, direction } = params;
  const offset = (page - 1) * limit;
  const search = params.search.trim();
  const column = SORT_COLUMNS[params.sort];

  const scoped = () => scopedTenants(db, scope, params);

  // With a bound the count stops after `cap` matches (docs/lists.md, Counts): the bound, or the end of the
  // asked page when that lies further, so a page past the bound still learns whether one follows it.
  // Below the cap the count is exact; without a bound (the ids operation) it always is.
  // The count is an int (`count(*)::int`) compared with the cap in SQL: a cap past what an int holds
  // (TENANT_COUNT_BOUND=3000000000, an operator's "always exact") would fail every such search, and counts
  // exactly anyway, so it stops there.
  const cap =
    options.countBound === undefined ? null : Math.min(Math.max(options.countBound, page * limit), MAX_COUNT_CAP);
  /** The count of `q` as a scalar subquery: exact, or up to one row past the cap. */
  const countSql = (q: ReturnType<typeof scoped>) =>
    cap === null
      ? sql<number>`(${q.select(sql<number>`count(*)::int`.as('n'))})`
      : sql<number>`(select count(*)::int from (${q.select(sql<number>`1`.as('one')).limit(cap + 1)}) as c)`;
  const countedOf = (n: number): Omit<TenantSearchResult, 'ids'> =>
    cap !== null && n > cap ? { total: cap, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };

  // Count and page in one statement (one round trip): PostgreSQL runs an uncorrelated subquery only when
  // the expression that holds it is evaluated, so the CASE below runs one of its two page reads.
  if (!search) {
    const page = scoped()
      .select('t.id')
      .orderBy(sql.ref(column), direction)
      .orderBy('t.id', direction)
      .limit(limit)
      .offset(offset);
    const row = await db
      .selectNoFrom([countSql(scoped()).as('n'), sql<number[]>`array(${page})`.as('ids')])
      .executeTakeFirstOrThrow();
    return { ids: row.ids.map(Number), ...countedOf(row.n) };
  }

  const withSort = (q: ReturnType<typeof scoped>) => q.select(['t.id', sql.ref(column).as('s')]);
  const dir = sql.raw(direction);
  /** The page's ids out of the matches `m` (a CTE of id and sort value `s`), sorted. */
  const readAll = sql<
    number[]
  >`array(select m.id from m order by m.s ${dir}, m.id ${dir} limit ${limit} offset ${offset})`;

  // Letters and digits only (the common search: a word, a name's number, CNPJ digits, `12abc`): the exact
  // index of migration 0011, which needs no recheck. Soft-deleted tenants are not in it.
  if (/^[0-9a-z]+$/i.test(search) && params.deleted === 'live') {
    const lower = search.toLowerCase();
    const upper = cnpjSearchFragment(search);
    // Name and CNPJ words as typed (`search_text`), and the bare CNPJ for a search that reads as part of one.
    const query = upper === null ? `'${lower}':*` : `'${lower}':* | '${upper}':*`;
    const matching = () => scoped().where(sql<boolean>`tenant_search_lexemes(t.name, t.cnpj) @@ ${query}::tsquery`);
    // Few matches: read them all from the exact index (`m`, materialised: inlined, PostgreSQL may walk an
    // index testing the lexemes row by row) and sort them.
    if (!((params.sort === 'name' || params.sort === 'id') && scope.tenantId === null)) {
      const row = await db
        .with(
          (cte) => cte('m').materialized(),
          () => withSort(matching()),
        )
        .selectNoFrom([countSql(matching()).as('n'), readAll.as('ids')])
        .executeTakeFirstOrThrow();
      return { ids: row.ids.map(Number), ...countedOf(row.n) };
    }
    // Many matches (past the bound, or past COMMON_MATCHES when counted exactly): reading each to sort them
    // costs more than walking the list's order on its index (`tenants_live_name_idx`, migration 0007, index
    // only; by id `tenants_live_idx`, migration 0001) until the page is full. The walk sees names only, so
    // the tenants matched by their CNPJ alone (few, as a rule) are looked up apart and merged.
    const like = `%${lower}%`;
    const sortKey = params.sort === 'name' ? 't.name' : 't.id';
    const byName = scoped()
      .select(['t.id', `${sortKey} as s`])
      .where('t.name', 'like', like)
      .orderBy(sortKey, direction)
      .orderBy('t.id', direction)
      .limit(offset + limit);
    const byCnpj = scoped()
      .select(['t.id', `${sortKey} as s`])
      .where(sql<boolean>`tenant_search_lexemes(t.name, t.cnpj) @@ ${`'${upper ?? lower.toUpperCase()}':*`}::tsquery`)
      .where('t.name', 'not like', like)
      .where(upper === null ? sql<boolean>`lower(t.cnpj) like ${like}` : sql<boolean>`true`);
    const walk = db
      // The walk is a subquery of its own: its ORDER BY and LIMIT would otherwise apply to the union.
      .selectFrom(db.selectFrom(byName.as('n')).select(['n.id', 'n.s']).unionAll(byCnpj).as('u'))
      .select('u.id')
      .orderBy('u.s', direction)
      .orderBy('u.id', direction)
      .limit(limit)
      .offset(offset);
    const threshold = options.commonMatches ?? COMMON_MATCHES;
    const many = cap === null ? sql`c.n > ${threshold}` : sql`(c.n > ${cap} or c.n > ${threshold})`;
    const row = await db
      // Both materialised: the count once (not once per mention of `c.n`), and the matches only if read.
      .with(
        (cte) => cte('c').materialized(),
        () => db.selectNoFrom(countSql(matching()).as('n')),
      )
      .with(
        (cte) => cte('m').materialized(),
        () => withSort(matching()),
      )
      .selectFrom('c')
      .select([
        'c.n',
        sql<number[]>`case when c.n = 0 then '{}'::int[] when ${many} then array(${walk}) else ${readAll} end`.as(
          'ids',
        ),
      ])
      .executeTakeFirstOrThrow();
    return { ids: row.ids.map(Number), ...countedOf(row.n) };
  }

  const like = `%${likeLiteral(search)}%`;
  const fragment = cnpjSearchFragment(search);
  const branches = [
    // Name and CNPJ are searched through `search_text` (`name || ' ' || lower(cnpj)`, migrations 0007 and
    // 0008): one trigram index and a plain LIKE instead of ILIKE on each column (docs/performance.md).
    // Neither part holds a space, so a search with one can match only across the join, never a real tenant.
    ...(/\s/.test(search) ? [] : [withSort(scoped().where('t.search_text', 'like', sql<string>`lower(${like})`))]),
    // A CNPJ fragment typed with fewer marks than the mask: the stored bare CNPJ, not an expression over
    // cnpj, so its trigram index (migration 0008) serves `like '%…%'` — an expression forced a scan of every
    // tenant (~0.8 s at 100,000, docs/performance.md). The pattern then checks the marks the search kept,
    // on the few rows the index found. A union, not an OR: for an OR PostgreSQL prices the two bitmap
    // scans like reading every tenant.
    ...(fragment === null
      ? []
      : [
          withSort(
            scoped()
              .where('t.cnpj_bare', 'like', `%${fragment.replace(/[./-]/g, '')}%`)
              .where('t.cnpj', '~', maskedFragmentPattern(fragment)),
          ),
        ]),
  ];
  const [first, ...rest] = branches;
  // A search that no tenant can match (a space, and not part of a CNPJ): no query at all.
  if (!first) return { ids: [], total: 0, totalIsLowerBound: false };
  const matches = rest.reduce((all, next) => all.union(next), first);
  // One scan of the matches for both the count and the page. Two queries read the trigram matches
  // twice, and the page query often walked the sort column's index instead, filtering row by row
  // until ten matched: ~100 ms when the matches sort late (bench/scale.ts, 100,000 tenants).
  const row = await db
    .with(
      (cte) => cte('m').materialized(),
      () => matches,
    )
    .selectNoFrom([
      cap === null
        ? sql<number>`(select count(*)::int from m)`.as('total')
        : sql<number>`(select count(*)::int from (select 1 from m limit ${cap + 1}) as c)`.as('total'),
      readAll.as('ids'),
    ])
    .executeTakeFirstOrThrow();
  return { ids: row.ids.map(Number), ...countedOf(row.total) };
}

/** Where the previous export page ended: its last row's sort value (as text; null for a null one) and id. */
export interface TenantCursor {
  value: string | null;
  id: number;
}

/**
 * Up to `limit` tenant ids after `cursor`, in the order of {@link searchTenants} (the export reads every
 * match in keyset pages: each costs the same however far in). The text matches as the search's general
 * path does (the name or masked CNPJ holds it; or it reads as part of a CNPJ and the bare CNPJ holds it);
 * a null sort value (`deleted_at` of a live tenant) sorts where PostgreSQL puts nulls: last ascending.
 */
export async function tenantExportIds(
  db: Kysely<Database>,
  scope: TenantSearchScope,
  params: Omit<TenantSearchParams, 'page' | 'limit'>,
  cursor: TenantCursor | null,
  limit: number,
): Promise<{ id: number; value: string | null }[]> {
  const search = params.search.trim();
  const column = SORT_COLUMNS[params.sort];
  const nullable = params.sort === 'deleted_at';
  // Nulls as +infinity: the order PostgreSQL gives them (last ascending, first descending), and comparable.
  const key = nullable ? sql`coalesce(${sql.ref(column)}, 'infinity'::timestamptz)` : sql.ref(column);
  const keyType = sql.raw(
    params.sort === 'created_at' || nullable
      ? 'timestamptz'
      : typeof column === 'string' && ['t.id', 't.user_limit', 't.ticket_limit'].includes(column)
        ? 'bigint'
        : 'text',
  );
  let q = scopedTenants(db, scope, params);
  if (search) {
    const like = `%${likeLiteral(search)}%`;
    const fragment = cnpjSearchFragment(search);
    const byText = /\s/.test(search) ? sql<boolean>`false` : sql<boolean>`t.search_text like lower(${like})`;
    const byCnpj =
      fragment === null
        ? sql<boolean>`false`
        : sql<boolean>`(t.cnpj_bare like ${`%${fragment.replace(/[./-]/g, '')}%`} and t.cnpj ~ ${maskedFragmentPattern(fragment)})`;
    q = q.where(sql<boolean>`(${byText} or ${byCnpj})`);
  }
  if (cursor) {
    const value = cursor.value === null ? sql`'infinity'::timestamptz` : sql`${cursor.value}::${keyType}`;
    q = q.where(
      sql<boolean>`(${key}, t.id) ${sql.raw(params.direction === 'asc' ? '>' : '<')} (${value}, ${cursor.id})`,
    );
  }
  const rows = await q
    .select(['t.id', sql<string | null>`${sql.ref(column)}::text`.as('value')])
    .orderBy(key, params.direction)
    .orderBy('t.id', params.direction)
    .limit(limit)
    .execute();
  return rows;
}
