import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import type { TenantsQuery, TenantsQueryChange } from '../../domain/tenants-query';
import type { Outcome } from '../shared/outcome';
import type { ActionError } from '../shared/request-error';
import type { Plan, Tenant, TenantCreate, TenantEdit } from './tenants-actors';

/** Search keystrokes are sent after this pause unless the input says otherwise. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface TenantsListInput {
  rest: RestClient;
  /** The address's query string at start (`location.search`), so a link or reload restores the view. */
  search?: string;
  debounceMs?: number;
  /**
   * Back-office staff: only they create, edit, delete or restore tenants and set plans and limits
   * (server/src/access/policies.ts `tenants`). Anyone else reads its own tenant. Default false.
   */
  staff?: boolean;
}

export interface TenantsListContext {
  rest: RestClient;
  debounceMs: number;
  staff: boolean;
  query: TenantsQuery;
  /** The search box; applied to `query` after the debounce. */
  searchText: string;
  /** `serializeTenantsQuery(query)`: what the view writes into the address. */
  queryString: string;
  rows: Tenant[];
  total: number;
  lastPage: number;
  /** The latest page request issued; answers to any other are never shown. */
  requestSeq: number;
  /** The request whose rows are shown (0: none yet). */
  shownSeq: number;
  listError: ActionError | null;
  /** The tenant a dialog or action is about. */
  target: Tenant | null;
  /** What the create, edit or set-plan call in flight sends. */
  pending: { create: TenantCreate } | { edit: TenantEdit } | { plan: Plan; user: number; ticket: number } | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
}

export type TenantsListEvent =
  | TenantsQueryChange
  | { type: 'tenants.search'; text: string }
  | { type: 'tenants.reload' }
  | { type: 'tenants.createOpen' }
  | { type: 'tenants.create'; tenant: TenantCreate }
  | { type: 'tenants.editOpen'; tenant: Tenant }
  | { type: 'tenants.edit'; tenant: TenantEdit }
  | { type: 'tenants.planOpen'; tenant: Tenant }
  | { type: 'tenants.setPlan'; plan: Plan; user: number; ticket: number }
  | { type: 'tenants.delete'; tenant: Tenant }
  | { type: 'tenants.confirm' }
  | { type: 'tenants.restore'; tenant: Tenant }
  | { type: 'tenants.close' };

/** The changes the dialog region makes; each ends in an `outcome`. */
export type TenantAction = 'create' | 'edit' | 'setPlan' | 'delete' | 'restore';

/**
 * `tenants.queryChanged` whenever the applied query changes (the view replaces the address's query
 * with `search`); `outcome` when a change ends (src/machines/shared/outcome.ts).
 */
export type TenantsListEmitted = { type: 'tenants.queryChanged'; search: string } | Outcome<TenantAction>;

/** The tenant a change in flight is about: the target, or the one being created. */
export function subjectOf(context: TenantsListContext): string | undefined {
  if (context.target) return context.target.name;
  return context.pending && 'create' in context.pending ? context.pending.create.name : undefined;
}
