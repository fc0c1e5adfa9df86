import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import {
  VIEW_NAME_MAX_LENGTH,
  VIEWS_PER_LIST,
  type SavedView,
  type ViewList,
  type ViewState,
} from '../../domain/views';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { reasonKeyOf } from '../shared/request-error';

/**
 * The "Visões" menu of a list (docs/lists.md, Views): the signed-in user's saved views of the list
 * (`GET /api/views`), saving the list as it is (`POST`), renaming one, making it the default or not
 * (`PUT /api/views/{id}`) and deleting one (`DELETE`). Choosing a view, or opening the list with no query in
 * the address when a view is the default, emits `views.apply` with the view: the screen puts its query in
 * the address and its hidden columns on the table. The view applied last is `active` until another is.
 *
 * States: `loading`, `failed` (the list works without its views; `views.reload` tries again),
 * `ready.idle`, `ready.saving` (tagged `busy`). A name is checked before any request (blank, too long,
 * taken ignoring case, as the server would answer); the server's 409s land on the same field.
 */

export type ViewAction = 'create' | 'update' | 'rename' | 'default' | 'delete';

export type ViewChange =
  | { kind: 'create'; name: string; state: ViewState; isDefault: boolean }
  | { kind: 'update'; id: number; state: ViewState }
  | { kind: 'rename'; id: number; name: string }
  | { kind: 'default'; id: number; isDefault: boolean }
  | { kind: 'delete'; id: number };

export interface ViewsInput {
  rest: RestClient;
  list: ViewList;
  /** The address's query string when the list opened: empty opens the default view. */
  search: string;
}

export type ViewsDialog = { kind: 'save' } | { kind: 'rename'; id: number } | { kind: 'delete'; id: number };

export interface ViewsContext {
  rest: RestClient;
  list: ViewList;
  /** Whether the next load opens the default view: the first, when the address had no query. */
  opensDefault: boolean;
  views: SavedView[];
  active: number | null;
  dialog: ViewsDialog | null;
  /** Why the dialog's name was refused. */
  nameError: I18nKey | null;
  pending: ViewChange | null;
}

export type ViewsEvent =
  | { type: 'views.reload' }
  | { type: 'views.apply'; id: number }
  | { type: 'views.saveOpen' }
  | { type: 'views.renameOpen'; id: number }
  | { type: 'views.deleteOpen'; id: number }
  | { type: 'views.close' }
  | { type: 'views.submit'; name: string; state: ViewState; isDefault: boolean }
  | { type: 'views.confirmDelete' }
  | { type: 'views.setDefault'; id: number; isDefault: boolean }
  /** Puts the list as it is now (query, hidden columns) in a saved view. */
  | { type: 'views.replace'; id: number; state: ViewState };

export type ViewsEmitted = { type: 'views.apply'; view: SavedView } | Outcome<ViewAction>;

const byName = (a: SavedView, b: SavedView) =>
  a.name.toLocaleLowerCase().localeCompare(b.name.toLocaleLowerCase(), 'pt-BR') || a.id - b.id;

/** Why a name would be refused (the server's rules, src/domain/views.ts), or null. */
export function nameProblem(views: readonly SavedView[], name: string, exceptId?: number): I18nKey | null {
  const trimmed = name.normalize('NFC').trim();
  if (!trimmed) return 'views.errors.nameRequired';
  if ([...trimmed].length > VIEW_NAME_MAX_LENGTH) return 'views.errors.nameTooLong';
  const key = trimmed.toLowerCase();
  if (views.some((v) => v.id !== exceptId && v.name.toLowerCase() === key)) return 'views.errors.nameTaken';
  return null;
}

/** The list after a change the server accepted. */
function afterChange(views: readonly SavedView[], change: ViewChange, saved: SavedView | null): SavedView[] {
  if (change.kind === 'delete') return views.filter((v) => v.id !== change.id);
  if (!saved) return [...views];
  const others = views
    .filter((v) => v.id !== saved.id)
    .map((v) => (saved.is_default && v.is_default ? { ...v, is_default: false } : v));
  return [...others, saved].sort(byName);
}

const ACTION_TEXT: Record<ViewAction, { done: I18nKey; failed: I18nKey }> = {
  create: { done: 'views.notices.created', failed: 'views.errors.create' },
  update: { done: 'views.notices.updated', failed: 'views.errors.update' },
  rename: { done: 'views.notices.renamed', failed: 'views.errors.rename' },
  default: { done: 'views.notices.defaultSet', failed: 'views.errors.default' },
  delete: { done: 'views.notices.deleted', failed: 'views.errors.delete' },
};

const conflictCode = (error: unknown): unknown =>
  error instanceof ApiError && error.status === 409 ? (error.body as { error?: unknown } | null)?.error : undefined;

export const viewsMachine = setup({
  types: {
    context: {} as ViewsContext,
    events: {} as ViewsEvent,
    input: {} as ViewsInput,
    emitted: {} as ViewsEmitted,
  },
  actors: {
    loadViews: fromPromise<SavedView[], { rest: RestClient; list: ViewList }>(async ({ input, signal }) => {
      const answer = unwrap(await input.rest.GET('/api/views', { params: { query: { list: input.list } }, signal }));
      return answer.data as SavedView[];
    }),
    saveView: fromPromise<SavedView | null, { rest: RestClient; list: ViewList; change: ViewChange }>(
      async ({ input: { rest, list, change } }) => {
        if (change.kind === 'create')
          return unwrap(
            await rest.POST('/api/views', {
              body: { list, name: change.name, state: change.state, is_default: change.isDefault },
            }),
          ) as SavedView;
        if (change.kind === 'delete') {
          unwrap(await rest.DELETE('/api/views/{id}', { params: { path: { id: change.id } } }));
          return null;
        }
        const body =
          change.kind === 'rename'
            ? { name: change.name }
            : change.kind === 'update'
              ? { state: change.state }
              : { is_default: change.isDefault };
        return unwrap(await rest.PUT('/api/views/{id}', { params: { path: { id: change.id } }, body })) as SavedView;
      },
    ),
  },
  guards: {
    opensDefault: ({ context, event }) =>
      context.opensDefault && (event as unknown as { output: SavedView[] }).output.some((v) => v.is_default),
    knownView: ({ context, event }) =>
      'id' in event && context.views.some((v) => v.id === (event as { id: number }).id),
    full: ({ context }) => context.views.length >= VIEWS_PER_LIST,
    nameRefused: ({ context, event }) => {
      assertEvent(event, 'views.submit');
      const except = context.dialog?.kind === 'rename' ? context.dialog.id : undefined;
      return nameProblem(context.views, event.name, except) !== null;
    },
    renaming: ({ context }) => context.dialog?.kind === 'rename',
    deleting: ({ context }) => context.dialog?.kind === 'delete',
    nameTaken: ({ event }) => conflictCode((event as unknown as { error: unknown }).error) === 'view_name_taken',
  },
  actions: {
    applyDefault: emit(({ context }) => {
      const view = context.views.find((v) => v.is_default);
      if (!view) throw new Error('views: no default to open');
      return { type: 'views.apply' as const, view };
    }),
  },
}).createMachine({
  id: 'views',
  context: ({ input }) => ({
    rest: input.rest,
    list: input.list,
    opensDefault: input.search === '',
    views: [],
    active: null,
    dialog: null,
    nameError: null,
    pending: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadViews',
        src: 'loadViews',
        input: ({ context }) => ({ rest: context.rest, list: context.list }),
        onDone: [
          {
            guard: 'opensDefault',
            target: 'ready',
            actions: [
              assign(({ event }) => {
                const views = [...event.output].sort(byName);
                return { views, active: views.find((v) => v.is_default)?.id ?? null, opensDefault: false };
              }),
              'applyDefault',
            ],
          },
          {
            target: 'ready',
            actions: assign(({ event }) => ({ views: [...event.output].sort(byName), opensDefault: false })),
          },
        ],
        // Also when a default was due: the list opens as its address says, the menu offers a retry.
        onError: { target: 'failed', actions: assign({ opensDefault: false }) },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'views.reload': { target: 'loading', actions: assign({ opensDefault: false }) } },
    },
    ready: {
      initial: 'idle',
      on: { 'views.reload': { target: 'loading', actions: assign({ opensDefault: false, dialog: null }) } },
      states: {
        idle: {
          on: {
            'views.apply': {
              guard: 'knownView',
              actions: [
                assign({ active: ({ event }) => event.id }),
                emit(({ context, event }) => ({
                  type: 'views.apply' as const,
                  view: context.views.find((v) => v.id === event.id) as SavedView,
                })),
              ],
            },
            'views.saveOpen': [
              {
                guard: 'full',
                actions: emit(() =>
                  failed<ViewAction>('create', {
                    variant: 'error',
                    title: { key: 'views.errors.create' },
                    description: { key: 'views.errors.limit', params: { limit: VIEWS_PER_LIST } },
                  }),
                ),
              },
              { actions: assign({ dialog: { kind: 'save' }, nameError: null }) },
            ],
            'views.renameOpen': {
              guard: 'knownView',
              actions: assign({ dialog: ({ event }) => ({ kind: 'rename', id: event.id }), nameError: null }),
            },
            'views.deleteOpen': {
              guard: 'knownView',
              actions: assign({ dialog: ({ event }) => ({ kind: 'delete', id: event.id }), nameError: null }),
            },
            'views.close': { actions: assign({ dialog: null, nameError: null }) },
            'views.submit': [
              {
                guard: 'nameRefused',
                actions: assign({
                  nameError: ({ context, event }) =>
                    nameProblem(
                      context.views,
                      event.name,
                      context.dialog?.kind === 'rename' ? context.dialog.id : undefined,
                    ),
                }),
              },
              {
                guard: 'renaming',
                target: 'saving',
                actions: assign({
                  pending: ({ context, event }) => ({
                    kind: 'rename' as const,
                    id: (context.dialog as { id: number }).id,
                    name: event.name.normalize('NFC').trim(),
                  }),
                }),
              },
              {
                target: 'saving',
                actions: assign({
                  pending: ({ event }) => ({
                    kind: 'create' as const,
                    name: event.name.normalize('NFC').trim(),
                    state: event.state,
                    isDefault: event.isDefault,
                  }),
                }),
              },
            ],
            'views.confirmDelete': {
              guard: 'deleting',
              target: 'saving',
              actions: assign({
                pending: ({ context }) => ({ kind: 'delete' as const, id: (context.dialog as { id: number }).id }),
              }),
            },
            'views.replace': {
              guard: 'knownView',
              target: 'saving',
              actions: assign({
                pending: ({ event }) => ({ kind: 'update' as const, id: event.id, state: event.state }),
              }),
            },
            'views.setDefault': {
              guard: 'knownView',
              target: 'saving',
              actions: assign({
                pending: ({ event }) => ({ kind: 'default' as const, id: event.id, isDefault: event.isDefault }),
              }),
            },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'saveView',
            src: 'saveView',
            input: ({ context }) => ({
              rest: context.rest,
              list: context.list,
              change: context.pending as ViewChange,
            }),
            onDone: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => {
                  const change = context.pending as ViewChange;
                  const name =
                    event.output?.name ?? context.views.find((v) => 'id' in change && v.id === change.id)?.name ?? '';
                  const key =
                    change.kind === 'default' && !change.isDefault
                      ? ('views.notices.defaultCleared' as const)
                      : ACTION_TEXT[change.kind].done;
                  return succeeded<ViewAction>(change.kind, { key }, name);
                }),
                assign(({ context, event }) => {
                  const change = context.pending as ViewChange;
                  return {
                    views: afterChange(context.views, change, event.output),
                    active:
                      change.kind === 'create'
                        ? (event.output?.id ?? context.active)
                        : change.kind === 'delete' && context.active === change.id
                          ? null
                          : context.active,
                    dialog: null,
                    nameError: null,
                    pending: null,
                  };
                }),
              ],
            },
            onError: [
              {
                guard: 'nameTaken',
                target: 'idle',
                actions: assign({ nameError: 'views.errors.nameTaken', pending: null }),
              },
              {
                target: 'idle',
                actions: [
                  emit(({ context, event }) => {
                    const change = context.pending as ViewChange;
                    const limit = conflictCode(event.error) === 'view_limit_reached';
                    return failed<ViewAction>(change.kind, {
                      variant: 'error',
                      title: { key: ACTION_TEXT[change.kind].failed },
                      description: limit
                        ? { key: 'views.errors.limit', params: { limit: VIEWS_PER_LIST } }
                        : { key: reasonKeyOf(event.error) },
                    });
                  }),
                  assign({ pending: null }),
                ],
              },
            ],
          },
        },
      },
    },
  },
});

export type ViewsSnapshot = SnapshotFrom<typeof viewsMachine>;

export const selectViews = (s: ViewsSnapshot) => s.context.views;
export const selectActiveView = (s: ViewsSnapshot) => s.context.views.find((v) => v.id === s.context.active) ?? null;
