import { assertEvent, assign, emit, raise, setup, stateIn, and, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import {
  type TenantsQuery,
  type TenantsQueryChange,
  clampSearch,
  isQueryChange,
  nextQuery,
  serializeTenantsQuery,
  parseTenantsQuery,
} from '../../domain/tenants-query';
import type { AppBus } from '../shared/app-bus';
import {
  checkRemote,
  conflictChoices,
  conflictGuards,
  conflictReload,
  liveConflict,
  reloadFailure,
  reloadedTarget,
  remoteCheckGuards,
  remoteCheckTransitions,
  remoteNoted,
  restAuditReader,
  staleSave,
  versionOf,
  watchEditedTarget,
  watchTarget,
  type Conflict,
  type ConflictChange,
  type ConflictEvent,
  type ConflictField,
  type RemoteCheck,
} from '../shared/conflict';
import { type Outcome, failed, succeeded } from '../shared/outcome';
import { type ActionError, actionError, refusedFields } from '../shared/request-error';
import {
  type Plan,
  type Tenant,
  type TenantCreate,
  type TenantEdit,
  tenantsActors,
  type TenantPageResult,
  loadTenant,
} from './tenants-actors';
import { cnpjProblem, isValidCnpj } from '../../domain/cnpj';

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
  /** The app bus: a change to the tenant being edited made elsewhere shows at once (left out: learnt on save). */
  bus?: AppBus | null;
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
  /** More than `total` tenants match: the server's count stopped at its bound (docs/lists.md, Counts). */
  totalIsLowerBound: boolean;
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
  bus: AppBus | null;
  /** The edited tenant's version as loaded (sent with the save; src/machines/shared/conflict.ts). */
  version: number | null;
  /** The edit form's values as typed (`tenants.editDraft`), null while untouched. */
  draft: TenantEdit | null;
  conflict: Conflict | null;
  /** Audit records of the edited tenant announced since the last check. */
  remoteIds: number[];
  /** Raised whenever the machine replaces the edit form's values (the dialog starts again from `draft ?? target`). */
  formKey: number;
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
  | { type: 'tenants.editDraft'; tenant: TenantEdit }
  | { type: 'tenants.close' }
  | ConflictEvent;

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

/** The edit form's fields, by their audit names (server/src/tenants/service.ts `EDIT_FIELDS`). */
const EDIT_FIELDS = ['name', 'cnpj', 'template', 'pool'] as const;

const editOf = (tenant: Tenant): TenantEdit => ({
  name: tenant.name,
  cnpj: tenant.cnpj,
  template: tenant.template,
  pool: tenant.pool,
});

/** The user's unsaved values of the edit form as the conflict notice shows them: each changed field, stored → edited. */
export function unsavedTenantFields(context: Pick<TenantsListContext, 'target' | 'draft'>): ConflictField[] {
  const { target, draft } = context;
  if (!target || !draft) return [];
  return EDIT_FIELDS.filter((f) => draft[f] !== target[f]).map((field) => ({
    field,
    before: JSON.stringify(target[field]),
    after: JSON.stringify(draft[field]),
  }));
}

/** The tenant form's own changes: the feature set is versioned apart (the features editor's). */
const formChanges = (changes: ConflictChange[]) => changes.filter((c) => c.operation !== 'tenant.feature');

/** The names and CNPJs the tenant may be found by now: as loaded, and as the changes since set them. */
function tenantHints(context: Pick<TenantsListContext, 'target' | 'conflict'>): string[] {
  const hints = context.target ? [context.target.name, context.target.cnpj] : [];
  for (const change of context.conflict?.changes ?? [])
    for (const field of change.changes)
      if ((field.field === 'name' || field.field === 'cnpj') && field.after !== null) {
        const value: unknown = JSON.parse(field.after);
        if (typeof value === 'string') hints.unshift(value);
      }
  return hints;
}

/** The tenants list machine's types, actors, delays, guards and actions; its chart follows. */
export const tenantsListSetup = setup({
  types: {
    input: {} as TenantsListInput,
    context: {} as TenantsListContext,
    events: {} as TenantsListEvent,
    emitted: {} as TenantsListEmitted,
  },
  actors: { ...tenantsActors, watchTarget, checkRemote: checkRemote<Tenant>() },
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
    ...conflictGuards,
    ...remoteCheckGuards((context: TenantsListContext) => unsavedTenantFields(context).length > 0),
    pendingValid: ({ context }) =>
      context.pending !== null && 'edit' in context.pending && isValidCnpj(context.pending.edit.cnpj),
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
      totalIsLowerBound: result.page.total_is_lower_bound,
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
      return { target: event.tenant, version: versionOf(event.tenant) };
    }),
    setDraft: assign(({ event }) => {
      assertEvent(event, 'tenants.editDraft');
      return { draft: event.tenant };
    }),
    noteRemote: assign(({ context, event }) => remoteNoted(context, event)),
    checked: assign({ remoteIds: () => [] }),
    conflictLive: assign((_, check: RemoteCheck<Tenant>) => ({
      conflict: liveConflict({ ...check, changes: formChanges(check.changes) }, true),
      remoteIds: [],
    })),
    // Nothing unsaved: the form shows the tenant as stored now, and says what changed.
    refreshedLive: assign(({ context }, check: RemoteCheck<Tenant>) => ({
      target: check.record,
      version: check.version,
      draft: null,
      formKey: context.formKey + 1,
      conflict: liveConflict({ ...check, changes: formChanges(check.changes) }, false),
      remoteIds: [],
    })),
    conflictSave: assign((_, params: { error: unknown }) => staleSave(params.error)),
    dismissConflict: assign({ conflict: null }),
    // The fields the user changed laid over the tenant as stored now, saved with its version.
    reapplied: assign(({ context }, fresh: Tenant) => {
      const values = editOf(fresh);
      const draft = context.draft;
      if (draft && context.target)
        for (const field of EDIT_FIELDS) if (draft[field] !== context.target[field]) values[field] = draft[field];
      return { ...reloadedTarget(context, fresh), draft: values, pending: { edit: values } };
    }),
    discarded: assign(({ context }, fresh: Tenant) => ({
      ...reloadedTarget(context, fresh),
      draft: null,
      pending: null,
      fieldErrors: {},
    })),
    reloadFailed: assign((_, params: { error: unknown }) => reloadFailure(params.error)),
    setCreate: assign(({ event }) => {
      assertEvent(event, 'tenants.create');
      return { pending: { create: event.tenant } };
    }),
    setEdit: assign(({ event }) => {
      assertEvent(event, 'tenants.edit');
      return { pending: { edit: event.tenant }, draft: event.tenant };
    }),
    setPlan: assign(({ event }) => {
      assertEvent(event, 'tenants.setPlan');
      return { pending: { plan: event.plan, user: event.user, ticket: event.ticket } };
    }),
    clearDialog: assign({
      target: null,
      pending: null,
      actionError: null,
      fieldErrors: () => ({}),
      version: null,
      draft: null,
      conflict: null,
      remoteIds: () => [],
    }),
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

/** Only reachable through a transition that did not store what the call needs: a bug, not a user error. */
function invalidState(state: string): never {
  throw new Error(`tenants: entered ${state} without its request`);
}

// Handled by the `list` region, so its active child is exited and `.loading` entered afresh: a change while
// loading restarts the request (the one in flight is stopped and aborted). No `reenter`: that would exit the
// region's parallel parent, and with it the open dialog.
const queryChange = { target: '.loading', actions: ['applyQuery', 'announceQuery'] } as const;

/** The edited tenant's audit events, while its form is open (src/machines/shared/conflict.ts). */
const watchEdited = watchEditedTarget('tenant');

/** Reads the edited tenant as stored now, for a reapply or a discard (`state`: the state that reads it). */
const reloadEdited = (state: string) =>
  ({
    id: 'loadTenant',
    src: 'loadTenant',
    input: ({ context }: { context: TenantsListContext }) => ({
      rest: context.rest,
      id: context.target?.id ?? invalidState(state),
      hints: tenantHints(context),
    }),
  }) as const;

/** A finished change: its outcome, the dialog closes, then the list reloads. */
const changed = (action: TenantAction, notice: I18nKey) => ({
  target: 'idle',
  actions: [
    { type: 'reportChanged' as const, params: { action, notice } },
    'clearDialog' as const,
    'reloadList' as const,
  ],
});
/** A refused change goes `back`; a refused form says why on its fields, a refused row action in a toast. */
const refused = (action: TenantAction, key: I18nKey, back: string, toast: boolean) => ({
  target: back,
  actions: [
    { type: 'refused' as const, params: ({ event }: { event: { error: unknown } }) => ({ key, error: event.error }) },
    { type: 'reportRefused' as const, params: { action, toast } },
  ],
});

/**
 * The tenants list (`POST /api/tenant/paginated`) and its dialogs, as two parallel regions.
 *
 * `list`: page, limit, debounced search and sort, mirrored in the address (input `search`, context
 * `queryString`, emitted `tenants.queryChanged`); only the latest request's answer is ever shown.
 * States `loading` (tag `loading`; the previous rows stay visible), `debouncing`, `failed`
 * (`listError`), `ready`. Every query event is handled here, once, whatever the dialogs do.
 *
 * `dialog`: create, edit (name, CNPJ, template, pool), set plan, delete (after `tenants.confirm`) and
 * restore, opened while the list is shown, by back-office staff only (input `staff`). States `idle`, `createForm`, `creating`, `editForm`,
 * `editing`, the edit form's conflict notice (`editChecking`, `editConflict`, `editReapplying`, `editReapplied`,
 * `editDiscarding`; src/machines/shared/conflict.ts), `planForm`, `settingPlan`, `confirmingDelete`,
 * `deleting`, `restoring` (in-flight ones tagged `busy`). A list reload never touches it; each change
 * ends in an emitted `outcome` and raises `tenants.reload` for the list.
 */
export const tenantsListMachine = tenantsListSetup.createMachine({
  id: 'tenants',
  context: ({ input }) => {
    const query = parseTenantsQuery(input.search ?? '');
    return {
      rest: input.rest,
      debounceMs: input.debounceMs ?? SEARCH_DEBOUNCE_MS,
      staff: input.staff ?? false,
      query,
      searchText: query.search,
      queryString: serializeTenantsQuery(query),
      rows: [],
      total: 0,
      totalIsLowerBound: false,
      lastPage: 1,
      requestSeq: 0,
      shownSeq: 0,
      listError: null,
      target: null,
      pending: null,
      actionError: null,
      fieldErrors: {},
      bus: input.bus ?? null,
      version: null,
      draft: null,
      conflict: null,
      remoteIds: [],
      formKey: 0,
    };
  },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      on: {
        'tenants.page': queryChange,
        'tenants.limit': queryChange,
        'tenants.sort': queryChange,
        'tenants.view': queryChange,
        'tenants.filter': queryChange,
        'tenants.location': { guard: 'locationChanged', ...queryChange },
        // Each keystroke restarts the debounce.
        'tenants.search': { target: '.debouncing', actions: 'typeSearch' },
        'tenants.reload': { target: '.loading' },
      },
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
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
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
        },
        failed: {},
        ready: {},
      },
    },
    dialog: {
      initial: 'idle',
      states: {
        idle: {
          // Every change is back-office staff's (the server refuses the rest): the view offers none to others.
          on: {
            'tenants.createOpen': { guard: and(['listShown', 'staff']), target: 'createForm', actions: 'clearDialog' },
            'tenants.editOpen': {
              guard: and(['listShown', 'staff']),
              target: 'editForm',
              actions: ['clearDialog', 'setTarget'],
            },
            'tenants.planOpen': {
              guard: and(['listShown', 'staff']),
              target: 'planForm',
              actions: ['clearDialog', 'setTarget'],
            },
            'tenants.delete': {
              guard: and(['listShown', 'staff', 'isActive']),
              target: 'confirmingDelete',
              actions: ['clearDialog', 'setTarget'],
            },
            'tenants.restore': {
              guard: and(['listShown', 'staff', 'isDeleted']),
              target: 'restoring',
              actions: ['clearDialog', 'setTarget'],
            },
          },
        },
        createForm: {
          on: {
            'tenants.create': [
              { guard: 'validCnpj', target: 'creating', actions: 'setCreate' },
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
            onDone: changed('create', 'tenants.notices.created'),
            onError: refused('create', 'tenants.errors.create', 'createForm', false),
          },
        },
        editForm: {
          invoke: watchEdited,
          always: { guard: 'remotePending', target: 'editChecking' },
          on: {
            'tenants.edit': [{ guard: 'validCnpj', target: 'editing', actions: 'setEdit' }, { actions: 'badCnpj' }],
            'tenants.editDraft': { actions: 'setDraft' },
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
            'conflict.remote': { guard: 'news', target: 'editChecking', actions: 'noteRemote' },
            'conflict.dismiss': { actions: 'dismissConflict' },
          },
        },
        // Whether an announced change is one the form has not loaded; the user keeps typing meanwhile.
        editChecking: {
          invoke: [
            watchEdited,
            {
              id: 'checkRemote',
              src: 'checkRemote',
              input: ({ context }) => ({
                targetType: 'tenant' as const,
                targetId: context.target?.id ?? invalidState('editChecking'),
                version: context.version,
                ids: context.remoteIds,
                load: (signal: AbortSignal) =>
                  loadTenant(context.rest, context.target?.id ?? 0, tenantHints(context), signal),
                audit: restAuditReader(context.rest),
              }),
              ...remoteCheckTransitions({ conflict: 'editConflict', form: 'editForm' }),
            },
          ],
          on: {
            'tenants.edit': [{ guard: 'validCnpj', target: 'editing', actions: 'setEdit' }, { actions: 'badCnpj' }],
            'tenants.editDraft': { actions: 'setDraft' },
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
            'conflict.remote': { guard: 'news', target: 'editChecking', reenter: true, actions: 'noteRemote' },
          },
        },
        editing: {
          tags: ['busy'],
          // A change announced during the save is checked if the save is refused for another reason.
          on: { 'conflict.remote': { guard: 'news', actions: 'noteRemote' } },
          invoke: [
            watchEdited,
            {
              id: 'updateTenant',
              src: 'updateTenant',
              input: ({ context }) => ({
                rest: context.rest,
                id: context.target?.id ?? invalidState('editing'),
                tenant: context.pending && 'edit' in context.pending ? context.pending.edit : invalidState('editing'),
                version: context.version,
              }),
              onDone: changed('edit', 'tenants.notices.edited'),
              onError: [
                {
                  guard: 'stale',
                  target: 'editConflict',
                  actions: { type: 'conflictSave', params: ({ event }) => ({ error: event.error }) },
                },
                refused('edit', 'tenants.errors.edit', 'editForm', false),
              ],
            },
          ],
        },
        // The user's unsaved values beside the other person's change: reapply them or discard them.
        editConflict: {
          invoke: watchEdited,
          on: {
            ...conflictChoices({ reapply: 'editReapplying', discard: 'editDiscarding' }),
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
          },
        },
        editReapplying: conflictReload(reloadEdited('editReapplying'), 'reapplied', {
          done: 'editReapplied',
          conflict: 'editConflict',
        }),
        // Saved with the new version at once when the CNPJ passes its check; otherwise back to the form.
        editReapplied: {
          always: [{ guard: 'pendingValid', target: 'editing' }, { target: 'editForm' }],
        },
        editDiscarding: conflictReload(reloadEdited('editDiscarding'), 'discarded', {
          done: 'editForm',
          conflict: 'editConflict',
        }),
        planForm: {
          on: {
            'tenants.setPlan': { target: 'settingPlan', actions: 'setPlan' },
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
            onDone: changed('setPlan', 'tenants.notices.planSet'),
            onError: refused('setPlan', 'tenants.errors.setPlan', 'planForm', false),
          },
        },
        confirmingDelete: {
          on: {
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
            onDone: changed('delete', 'tenants.notices.deleted'),
            onError: refused('delete', 'tenants.errors.delete', 'idle', true),
          },
        },
        restoring: {
          tags: ['busy'],
          invoke: {
            id: 'restoreTenant',
            src: 'restoreTenant',
            input: ({ context }) => ({ rest: context.rest, id: context.target?.id ?? invalidState('restoring') }),
            onDone: changed('restore', 'tenants.notices.restored'),
            onError: refused('restore', 'tenants.errors.restore', 'idle', true),
          },
        },
      },
    },
  },
});

export type TenantsListSnapshot = SnapshotFrom<typeof tenantsListMachine>;
