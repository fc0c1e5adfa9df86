import { and, type SnapshotFrom } from 'xstate';
import type { I18nKey } from '../../domain/i18n-key';
import { parseTenantsQuery, serializeTenantsQuery } from '../../domain/tenants-query';
import { SEARCH_DEBOUNCE_MS, type TenantAction } from './tenants-list-context';
import { tenantsListSetup } from './tenants-list-setup';

export {
  SEARCH_DEBOUNCE_MS,
  type TenantAction,
  type TenantsListContext,
  type TenantsListEmitted,
  type TenantsListEvent,
  type TenantsListInput,
} from './tenants-list-context';

/** Only reachable through a transition that did not store what the call needs: a bug, not a user error. */
function invalidState(state: string): never {
  throw new Error(`tenants: entered ${state} without its request`);
}

// Handled by the `list` region, so its active child is exited and `.loading` entered afresh: a change while
// loading restarts the request (the one in flight is stopped and aborted). No `reenter`: that would exit the
// region's parallel parent, and with it the open dialog.
const queryChange = { target: '.loading', actions: ['applyQuery', 'announceQuery'] } as const;

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
 * `editing`, `planForm`, `settingPlan`, `confirmingDelete`,
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
      lastPage: 1,
      requestSeq: 0,
      shownSeq: 0,
      listError: null,
      target: null,
      pending: null,
      actionError: null,
      fieldErrors: {},
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
          on: {
            'tenants.edit': [{ guard: 'validCnpj', target: 'editing', actions: 'setEdit' }, { actions: 'badCnpj' }],
            'tenants.close': { target: 'idle', actions: 'clearDialog' },
          },
        },
        editing: {
          tags: ['busy'],
          invoke: {
            id: 'updateTenant',
            src: 'updateTenant',
            input: ({ context }) => ({
              rest: context.rest,
              id: context.target?.id ?? invalidState('editing'),
              tenant: context.pending && 'edit' in context.pending ? context.pending.edit : invalidState('editing'),
            }),
            onDone: changed('edit', 'tenants.notices.edited'),
            onError: refused('edit', 'tenants.errors.edit', 'editForm', false),
          },
        },
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
