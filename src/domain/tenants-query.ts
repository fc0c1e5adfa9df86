import type { components } from '../generated/openapi';

/**
 * The tenants list view as it lives in the address (`?page=2&search=farm&sort=-name&view=deleted`;
 * `view=all` lists live and deleted tenants together, docs/lists.md, Filters and export),
 * so a link or a reload restores it. A pure parse/serialize pair: the machine keeps a
 * {@link TenantsQuery}, the view writes {@link serializeTenantsQuery} into the URL.
 */

export type TenantPageRequest = components['schemas']['TenantPageRequest'];
export type TenantSortName = NonNullable<TenantPageRequest['sort_name']>;
export type SortDirection = 'ASC' | 'DESC';

/** The contract's sort allow-list (the server maps exactly these to columns). */
export const TENANT_SORT_NAMES = [
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
] as const satisfies readonly TenantSortName[];

// Fails to compile if the contract gains a sort name this list lacks.
type MissingSortName = Exclude<TenantSortName, (typeof TENANT_SORT_NAMES)[number]>;
const everySortNameListed: [MissingSortName] extends [never] ? true : MissingSortName = true;
void everySortNameListed;

export interface TenantsQuery {
  page: number;
  limit: number;
  search: string;
  sortName: TenantSortName;
  sortType: SortDirection;
  /**
   * Which tenants by deletion, as the server's `deleted` (contracts/openapi.yaml `TenantDeletedFilter`):
   * `live` the active list, `only` the deleted tenants (for restore), `all` both, deleted rows marked.
   * Only staff are offered anything but `live`.
   */
  deleted: TenantDeleted;
  /** Only tenants on this plan; null: any (docs/lists.md, Filters and export). */
  plan: TenantPlan | null;
  /** Only tenants with this feature on (`featureEnabled`) or off; null: any. */
  feature: string | null;
  featureEnabled: boolean;
}

export type TenantPlan = NonNullable<TenantPageRequest['plan']>;
export type TenantDeleted = NonNullable<TenantPageRequest['deleted']>;
/** The address's `view` of each value but the default (`view=deleted` kept for existing links). */
const VIEW_OF: Readonly<Record<Exclude<TenantDeleted, 'live'>, string>> = { only: 'deleted', all: 'all' };
export const TENANT_PLANS = ['starter', 'professional', 'enterprise'] as const satisfies readonly TenantPlan[];
/** A feature option as the contract allows it (`FeatureOption`). */
const FEATURE_OPTION = /^[a-z][a-z0-9_-]{1,39}$/;

/** docs/product.md, Tenants: page 1, 4 per page, empty search, sort by id DESC. */
export const DEFAULT_TENANTS_QUERY: Readonly<TenantsQuery> = Object.freeze({
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

/** The contract's bounds for the paginated call. */
export const MAX_PAGE = 1_000_000;
export const MAX_LIMIT = 100;
export const MAX_SEARCH_LENGTH = 100;

const POSITIVE_INT = /^[1-9]\d{0,6}$/;

function boundedInt(value: string | null, max: number, fallback: number): number {
  if (value === null || !POSITIVE_INT.test(value)) return fallback;
  const n = Number(value);
  return n <= max ? n : fallback;
}

/** Cuts a search to the contract's 100 characters (code points, as JSON Schema counts them). */
export function clampSearch(value: string): string {
  const chars = Array.from(value);
  return chars.length > MAX_SEARCH_LENGTH ? chars.slice(0, MAX_SEARCH_LENGTH).join('') : value;
}

function isSortName(value: string): value is TenantSortName {
  return (TENANT_SORT_NAMES as readonly string[]).includes(value);
}

/**
 * Reads a query string (with or without `?`). Anything missing, malformed or out of the contract's
 * bounds falls back to its default, so a hand-edited link never breaks the list.
 */
export function parseTenantsQuery(search: string): TenantsQuery {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const sort = params.get('sort') ?? '';
  const descending = sort.startsWith('-');
  const sortName = descending ? sort.slice(1) : sort;
  const validSort = isSortName(sortName);
  return {
    page: boundedInt(params.get('page'), MAX_PAGE, DEFAULT_TENANTS_QUERY.page),
    limit: boundedInt(params.get('limit'), MAX_LIMIT, DEFAULT_TENANTS_QUERY.limit),
    search: clampSearch(params.get('search') ?? DEFAULT_TENANTS_QUERY.search),
    sortName: validSort ? sortName : DEFAULT_TENANTS_QUERY.sortName,
    sortType: validSort ? (descending ? 'DESC' : 'ASC') : DEFAULT_TENANTS_QUERY.sortType,
    deleted: params.get('view') === 'deleted' ? 'only' : params.get('view') === 'all' ? 'all' : 'live',
    plan: (TENANT_PLANS as readonly string[]).includes(params.get('plan') ?? '')
      ? (params.get('plan') as TenantPlan)
      : null,
    feature: FEATURE_OPTION.test(params.get('feature') ?? '') ? params.get('feature') : null,
    featureEnabled: params.get('feature_enabled') !== 'false',
  };
}

/**
 * Writes a query string without `?`, omitting defaults (`''` for the default view). `sort` is the
 * column name, prefixed with `-` for descending.
 */
export function serializeTenantsQuery(query: TenantsQuery): string {
  const params = new URLSearchParams();
  const d = DEFAULT_TENANTS_QUERY;
  if (query.page !== d.page) params.set('page', String(query.page));
  if (query.limit !== d.limit) params.set('limit', String(query.limit));
  if (query.search !== d.search) params.set('search', query.search);
  if (query.sortName !== d.sortName || query.sortType !== d.sortType)
    params.set('sort', `${query.sortType === 'DESC' ? '-' : ''}${query.sortName}`);
  if (query.deleted !== 'live') params.set('view', VIEW_OF[query.deleted]);
  if (query.plan !== null) params.set('plan', query.plan);
  if (query.feature !== null) {
    params.set('feature', query.feature);
    if (!query.featureEnabled) params.set('feature_enabled', 'false');
  }
  return params.toString();
}

/** The `POST /api/tenant/paginated` body for a query. */
export function toPageRequest(query: TenantsQuery): TenantPageRequest {
  return {
    filter_users: false,
    pagination_page: query.page,
    pagination_limit: query.limit,
    search: query.search,
    sort_name: query.sortName,
    sort_type: query.sortType,
    only_deleted: query.deleted === 'only',
    ...(query.deleted === 'all' ? { deleted: 'all' as const } : {}),
    ...tenantFilters(query),
  };
}

/** The list's filters as the contract's fields (`TenantFilterRequest`), only those set. */
export function tenantFilters(
  query: Pick<TenantsQuery, 'plan' | 'feature' | 'featureEnabled'>,
): Pick<TenantPageRequest, 'plan' | 'feature' | 'feature_enabled'> {
  return {
    ...(query.plan === null ? {} : { plan: query.plan }),
    ...(query.feature === null ? {} : { feature: query.feature, feature_enabled: query.featureEnabled }),
  };
}

/** The `GET /api/tenant/export` query for the list as shown (its filters and sort, every page). */
export function toExportQuery(query: TenantsQuery) {
  return {
    search: query.search,
    sort_name: query.sortName,
    sort_type: query.sortType,
    deleted: query.deleted,
    ...tenantFilters(query),
  };
}

/** The view events that change the query (the search box goes through the debounce instead). */
export type TenantsQueryChange =
  | { type: 'tenants.page'; page: number }
  | { type: 'tenants.limit'; limit: number }
  | { type: 'tenants.sort'; sortName: TenantSortName; sortType?: SortDirection }
  | { type: 'tenants.view'; deleted: TenantDeleted }
  | { type: 'tenants.filter'; plan?: TenantPlan | null; feature?: string | null; featureEnabled?: boolean }
  | { type: 'tenants.location'; search: string };

const QUERY_CHANGES: readonly string[] = [
  'tenants.page',
  'tenants.limit',
  'tenants.sort',
  'tenants.view',
  'tenants.filter',
  'tenants.location',
] satisfies TenantsQueryChange['type'][];

export function isQueryChange(event: { type: string }): event is TenantsQueryChange {
  return QUERY_CHANGES.includes(event.type);
}

/**
 * The query after one view event. A pending search (`searchText`) is applied first, so the search box
 * always matches the list being loaded; any change but paging goes back to page 1; sorting the same
 * column again flips its direction, a new column starts ascending.
 */
export function nextQuery(current: TenantsQuery, searchText: string, event: TenantsQueryChange): TenantsQuery {
  const search = clampSearch(searchText);
  const base = search === current.search ? current : { ...current, search, page: 1 };
  switch (event.type) {
    case 'tenants.page':
      return { ...base, page: Math.min(MAX_PAGE, Math.max(1, Math.floor(event.page) || 1)) };
    case 'tenants.limit':
      return {
        ...base,
        limit: Math.min(MAX_LIMIT, Math.max(1, Math.floor(event.limit) || DEFAULT_TENANTS_QUERY.limit)),
        page: 1,
      };
    case 'tenants.sort': {
      const sortType =
        event.sortType ?? (base.sortName === event.sortName ? (base.sortType === 'ASC' ? 'DESC' : 'ASC') : 'ASC');
      return { ...base, sortName: event.sortName, sortType, page: 1 };
    }
    case 'tenants.view':
      return event.deleted === base.deleted ? base : { ...base, deleted: event.deleted, page: 1 };
    case 'tenants.filter': {
      const next = {
        ...base,
        ...(event.plan === undefined ? {} : { plan: event.plan }),
        ...(event.feature === undefined ? {} : { feature: event.feature }),
        ...(event.featureEnabled === undefined ? {} : { featureEnabled: event.featureEnabled }),
      };
      return serializeTenantsQuery(next) === serializeTenantsQuery(base) ? base : { ...next, page: 1 };
    }
    case 'tenants.location':
      return parseTenantsQuery(event.search);
  }
}
