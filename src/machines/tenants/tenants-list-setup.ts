import { assertEvent, assign, emit, raise, setup, stateIn } from 'xstate';
import { cnpjProblem, isValidCnpj } from '../../domain/cnpj';
import type { I18nKey } from '../../domain/i18n-key';
import {
  clampSearch,
  isQueryChange,
  nextQuery,
  parseTenantsQuery,
  serializeTenantsQuery,
} from '../../domain/tenants-query';
import { failed, succeeded } from '../shared/outcome';
import { actionError, refusedFields } from '../shared/request-error';
import { tenantsActors, type TenantPageResult } from './tenants-actors';
import {
  subjectOf,
  type TenantAction,
  type TenantsListContext,
  type TenantsListEmitted,
  type TenantsListEvent,
  type TenantsListInput,
} from './tenants-list-context';

/** The tenants list machine's types, actors, delays, guards and actions; its chart is in tenants-list.machine.ts. */
export const tenantsListSetup = setup({
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
    // The address's list part differs from the list's: the machine's own writes coming back, or a
    // change of the panel's part only, reload nothing.
    locationChanged: ({ context, event }) => {
      assertEvent(event, 'tenants.location');
      return serializeTenantsQuery(parseTenantsQuery(event.search)) !== context.queryString;
    },
    upToDate: ({ context }) => context.shownSeq === context.requestSeq && context.listError === null,
    listShown: stateIn({ list: 'ready' }),
    staff: ({ context }) => context.staff,
    validCnpj: ({ event }) => {
      assertEvent(event, ['tenants.create', 'tenants.edit']);
      return isValidCnpj(event.tenant.cnpj);
    },
    isActive: ({ event }) => {
      assertEvent(event, 'tenants.delete');
      return event.tenant.deleted_at === null;
    },
    isDeleted: ({ event }) => {
      assertEvent(event, 'tenants.restore');
      return event.tenant.deleted_at !== null;
    },
  },
  actions: {
    applyQuery: assign(({ context, event }) => {
      if (!isQueryChange(event)) return {};
      const query = nextQuery(context.query, context.searchText, event);
      return { query, searchText: query.search, queryString: serializeTenantsQuery(query) };
    }),
    typeSearch: assign(({ event }) => {
      assertEvent(event, 'tenants.search');
      return { searchText: event.text };
    }),
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
    // No fallback for a failed tenants list: the rows of the last good answer stay, with the error.
    listFailed: assign((_, params: { error: unknown }) => ({
      listError: actionError('tenants.errors.load', params.error),
    })),
    reloadList: raise({ type: 'tenants.reload' }),
    setTarget: assign(({ event }) => {
      assertEvent(event, ['tenants.editOpen', 'tenants.planOpen', 'tenants.delete', 'tenants.restore']);
      return { target: event.tenant };
    }),
    setCreate: assign(({ event }) => {
      assertEvent(event, 'tenants.create');
      return { pending: { create: event.tenant } };
    }),
    setEdit: assign(({ event }) => {
      assertEvent(event, 'tenants.edit');
      return { pending: { edit: event.tenant } };
    }),
    setPlan: assign(({ event }) => {
      assertEvent(event, 'tenants.setPlan');
      return { pending: { plan: event.plan, user: event.user, ticket: event.ticket } };
    }),
    clearDialog: assign({ target: null, pending: null, actionError: null, fieldErrors: () => ({}) }),
    // Says what is wrong with it (incomplete, a letter in a check digit, wrong check digits…), not just "invalid".
    badCnpj: assign(({ event }) => {
      assertEvent(event, ['tenants.create', 'tenants.edit']);
      const problem = cnpjProblem(event.tenant.cnpj) ?? 'checkDigits';
      return { fieldErrors: { cnpj: `tenants.errors.cnpj.${problem}` as const }, actionError: null };
    }),
    // "Tenant excluído." — farmacia-central
    reportChanged: emit(({ context }, params: { action: TenantAction; notice: I18nKey }) =>
      succeeded(params.action, { key: params.notice }, subjectOf(context)),
    ),
    refused: assign((_, params: { key: I18nKey; error: unknown }) => ({
      actionError: actionError(params.key, params.error),
      fieldErrors: refusedFields(params.error),
    })),
    reportRefused: emit(({ context }, params: { action: TenantAction; toast: boolean }) => {
      const error = context.actionError;
      if (!params.toast || !error) return failed(params.action, null);
      const name = subjectOf(context);
      const why = { key: error.reason };
      return failed(params.action, {
        variant: 'error',
        title: { key: error.key },
        description: name ? { key: 'tenants.screen.failureFor', params: { name, why } } : why,
      });
    }),
  },
});
