import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import { cnpjProblem, isValidCnpj } from '../../domain/cnpj';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import { tenantsActors, type Plan, type Tenant, type TenantCreate, type TenantPageResult } from './tenants-actors';
import {
  clampSearch,
  isQueryChange,
  nextQuery,
  parseTenantsQuery,
  serializeTenantsQuery,
  type TenantsQuery,
  type TenantsQueryChange,
} from '../../domain/tenants-query';

/** Search keystrokes are sent after this pause unless the input says otherwise. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface TenantsListInput {
  rest: RestClient;
  /** The address's query string at start (`location.search`), so a link or reload restores the view. */
  search?: string;
  debounceMs?: number;
}

export interface TenantsListContext {
  rest: RestClient;
  debounceMs: number;
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
  /** What the create or set-plan call in flight sends. */
  pending: { create: TenantCreate } | { plan: Plan; user: number; ticket: number } | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
  notice: I18nKey | null;
}

export type TenantsListEvent =
  | TenantsQueryChange
  | { type: 'tenants.search'; text: string }
  | { type: 'tenants.reload' }
  | { type: 'tenants.createOpen' }
  | { type: 'tenants.create'; tenant: TenantCreate }
  | { type: 'tenants.planOpen'; tenant: Tenant }
  | { type: 'tenants.setPlan'; plan: Plan; user: number; ticket: number }
  | { type: 'tenants.delete'; tenant: Tenant }
  | { type: 'tenants.confirm' }
  | { type: 'tenants.restore'; tenant: Tenant }
  | { type: 'tenants.close' };

/** Emitted whenever the applied query changes: the view replaces the address's query with `search`. */
export type TenantsListEmitted = { type: 'tenants.queryChanged'; search: string };

const queryEvents = {
  // reenter: a change while loading restarts the request (the one in flight is stopped and aborted).
  'tenants.page': { target: '#tenants.loading', reenter: true, actions: ['applyQuery', 'announceQuery'] },
  'tenants.limit': { target: '#tenants.loading', reenter: true, actions: ['applyQuery', 'announceQuery'] },
  'tenants.sort': { target: '#tenants.loading', reenter: true, actions: ['applyQuery', 'announceQuery'] },
  'tenants.view': { target: '#tenants.loading', reenter: true, actions: ['applyQuery', 'announceQuery'] },
  'tenants.location': { target: '#tenants.loading', reenter: true, actions: ['applyQuery', 'announceQuery'] },
  'tenants.search': { target: '#tenants.debouncing', actions: 'typeSearch' },
  'tenants.reload': { target: '#tenants.loading', reenter: true },
} as const;

/** Only reachable through a transition that did not store what the call needs: a bug, not a user error. */
function invalidState(state: string): never {
  throw new Error(`tenants: entered ${state} without its request`);
}

/** A finished change: its notice, then the list reloads. */
const changed = (notice: I18nKey) => ({
  target: '#tenants.loading',
  actions: [{ type: 'changed' as const, params: { notice } }],
});
const refused = (key: I18nKey, back: string) => ({
  target: back,
  actions: [
    { type: 'refused' as const, params: ({ event }: { event: { error: unknown } }) => ({ key, error: event.error }) },
  ],
});

/**
 * The tenants list (`POST /api/tenant/paginated`): page, limit, debounced search and sort with the
 * SPEC §9 defaults, mirrored in the address (input `search`, context `queryString`, emitted
 * `tenants.queryChanged`); only the latest request's answer is ever shown. Create, set plan,
 * delete (after `tenants.confirm`) and restore, the deleted-tenants view, and a reload after each
 * change.
 *
 * States: `loading` (tag `loading`; the previous rows stay visible), `debouncing`, `failed`
 * (`listError`), `ready.{idle, createForm, creating, planForm, settingPlan, confirmingDelete,
 * deleting, restoring}` (in-flight ones tagged `busy`).
 */
export const tenantsListMachine = setup({
  types: {
    input: {} as TenantsListInput,
    context: {} as TenantsListContext,
    events: {} as TenantsListEvent,
    emitted: {} as TenantsListEmitted,
  },
  actors: tenantsActors,
  delays: {
    searchDebounce: ({ context }) => context.debounceMs,
  },
  guards: {
    isLatest: ({ context }, result: TenantPageResult) => result.seq === context.requestSeq,
    pastLastPage: ({ context }, result: TenantPageResult) =>
      result.seq === context.requestSeq && result.page.data.length === 0 && context.query.page > result.page.last_page,
    searchChanged: ({ context }) => clampSearch(context.searchText) !== context.query.search,
    upToDate: ({ context }) => context.shownSeq === context.requestSeq && context.listError === null,
    validCnpj: ({ event }) => event.type === 'tenants.create' && isValidCnpj(event.tenant.cnpj),
    isActive: ({ event }) => event.type === 'tenants.delete' && event.tenant.deleted_at === null,
    isDeleted: ({ event }) => event.type === 'tenants.restore' && event.tenant.deleted_at !== null,
  },
  actions: {
    applyQuery: assign(({ context, event }) => {
      if (!isQueryChange(event)) return {};
      const query = nextQuery(context.query, context.searchText, event);
      return { query, searchText: query.search, queryString: serializeTenantsQuery(query) };
    }),
    typeSearch: assign(({ event }) => (event.type === 'tenants.search' ? { searchText: event.text } : {})),
    commitSearch: assign(({ context }) => {
      const query = { ...context.query, search: clampSearch(context.searchText), page: 1 };
      return { query, queryString: serializeTenantsQuery(query) };
    }),
    announceQuery: emit(({ context }) => ({ type: 'tenants.queryChanged' as const, search: context.queryString })),
    nextRequest: assign(({ context }) => ({ requestSeq: context.requestSeq + 1 })),
    showPage: assign((_, result: TenantPageResult) => ({
      rows: result.page.data,
      total: result.page.total,
      lastPage: result.page.last_page,
      shownSeq: result.seq,
      listError: null,
    })),
    goToLastPage: assign(({ context }, result: TenantPageResult) => {
      const query = { ...context.query, page: result.page.last_page };
      return { query, queryString: serializeTenantsQuery(query) };
    }),
    // SPEC §8 lists no fallback for the tenants list: the rows of the last good answer stay, with the error.
    listFailed: assign((_, params: { error: unknown }) => ({
      listError: actionError('tenants.errors.load', params.error),
    })),
    setTarget: assign(({ event }) =>
      event.type === 'tenants.planOpen' || event.type === 'tenants.delete' || event.type === 'tenants.restore'
        ? { target: event.tenant }
        : {},
    ),
    setPending: assign(({ event }) => {
      if (event.type === 'tenants.create') return { pending: { create: event.tenant } };
      if (event.type === 'tenants.setPlan')
        return { pending: { plan: event.plan, user: event.user, ticket: event.ticket } };
      return {};
    }),
    clearDialog: assign({ target: null, pending: null, actionError: null, fieldErrors: () => ({}) }),
    clearFeedback: assign({ actionError: null, fieldErrors: () => ({}), notice: null }),
    // Says what is wrong with it (incomplete, a letter in a check digit, wrong check digits…), not just "invalid".
    badCnpj: assign({
      fieldErrors: ({ event }) => {
        const problem =
          event.type === 'tenants.create' ? (cnpjProblem(event.tenant.cnpj) ?? 'checkDigits') : 'checkDigits';
        return { cnpj: `tenants.errors.cnpj.${problem}` as const };
      },
      actionError: null,
    }),
    changed: assign((_, params: { notice: I18nKey }) => ({
      notice: params.notice,
      target: null,
      pending: null,
      actionError: null,
      fieldErrors: {},
    })),
    refused: assign((_, params: { key: I18nKey; error: unknown }) => ({
      actionError: actionError(params.key, params.error),
      fieldErrors: refusedFields(params.error),
    })),
  },
}).createMachine({
  id: 'tenants',
  context: ({ input }) => {
    const query = parseTenantsQuery(input.search ?? '');
    return {
      rest: input.rest,
      debounceMs: input.debounceMs ?? SEARCH_DEBOUNCE_MS,
      query,
      searchText: query.search,
      queryString: serializeTenantsQuery(query),
      rows: [],
      total: 0,
      lastPage: 1,
      requestSeq: 0,
      shownSeq: 0,
      listError: null,
      target: null,
      pending: null,
      actionError: null,
      fieldErrors: {},
      notice: null,
    };
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      entry: 'nextRequest',
      invoke: {
        id: 'fetchTenantPage',
        src: 'fetchTenantPage',
        input: ({ context }) => ({ rest: context.rest, query: context.query, seq: context.requestSeq }),
        onDone: [
          // After a delete emptied the last page, show the new last page instead of an empty one.
          {
            guard: { type: 'pastLastPage', params: ({ event }) => event.output },
            target: 'loading',
            reenter: true,
            actions: [{ type: 'goToLastPage', params: ({ event }) => event.output }, 'announceQuery'],
          },
          {
            guard: { type: 'isLatest', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'showPage', params: ({ event }) => event.output },
          },
        ],
        onError: { target: 'failed', actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) } },
      },
      on: queryEvents,
    },
    debouncing: {
      tags: ['loading'],
      after: {
        searchDebounce: [
          { guard: 'searchChanged', target: 'loading', actions: ['commitSearch', 'announceQuery'] },
          // Typing may have interrupted a load: only the latest request's answer may show as ready.
          { guard: 'upToDate', target: 'ready' },
          { target: 'loading' },
        ],
      },
      on: { ...queryEvents, 'tenants.search': { target: 'debouncing', reenter: true, actions: 'typeSearch' } },
    },
    failed: {
      on: queryEvents,
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            ...queryEvents,
            'tenants.createOpen': { target: 'createForm', actions: ['clearFeedback', 'clearDialog'] },
            'tenants.planOpen': { target: 'planForm', actions: ['clearFeedback', 'clearDialog', 'setTarget'] },
            'tenants.delete': {
              guard: 'isActive',
              target: 'confirmingDelete',
              actions: ['clearFeedback', 'clearDialog', 'setTarget'],
            },
            'tenants.restore': { guard: 'isDeleted', target: 'restoring', actions: ['clearFeedback', 'setTarget'] },
          },
        },
        createForm: {
          on: {
            ...queryEvents,
            'tenants.create': [
              { guard: 'validCnpj', target: 'creating', actions: 'setPending' },
              { actions: 'badCnpj' },
            ],
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
          },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createTenant',
            src: 'createTenant',
            input: ({ context }) => ({
              rest: context.rest,
              tenant:
                context.pending && 'create' in context.pending ? context.pending.create : invalidState('creating'),
            }),
            onDone: changed('tenants.notices.created'),
            onError: refused('tenants.errors.create', 'createForm'),
          },
        },
        planForm: {
          on: {
            ...queryEvents,
            'tenants.setPlan': { target: 'settingPlan', actions: 'setPending' },
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
          },
        },
        settingPlan: {
          tags: ['busy'],
          invoke: {
            id: 'setTenantPlan',
            src: 'setTenantPlan',
            input: ({ context }) => {
              const plan = context.pending && 'plan' in context.pending ? context.pending : invalidState('settingPlan');
              return { rest: context.rest, id: context.target?.id ?? invalidState('settingPlan'), ...plan };
            },
            onDone: changed('tenants.notices.planSet'),
            onError: refused('tenants.errors.setPlan', 'planForm'),
          },
        },
        confirmingDelete: {
          on: {
            ...queryEvents,
            'tenants.confirm': { target: 'deleting' },
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
          },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteTenant',
            src: 'deleteTenant',
            input: ({ context }) => ({ rest: context.rest, id: context.target?.id ?? invalidState('deleting') }),
            onDone: changed('tenants.notices.deleted'),
            onError: refused('tenants.errors.delete', 'idle'),
          },
        },
        restoring: {
          tags: ['busy'],
          invoke: {
            id: 'restoreTenant',
            src: 'restoreTenant',
            input: ({ context }) => ({ rest: context.rest, id: context.target?.id ?? invalidState('restoring') }),
            onDone: changed('tenants.notices.restored'),
            onError: refused('tenants.errors.restore', 'idle'),
          },
        },
      },
    },
  },
});

export type TenantsListSnapshot = SnapshotFrom<typeof tenantsListMachine>;
