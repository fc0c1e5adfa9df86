import {
  and,
  assertEvent,
  assign,
  emit,
  fromCallback,
  fromPromise,
  not,
  raise,
  setup,
  stateIn,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import type { AppBus } from '../shared/app-bus';
import { actionError, type ActionError } from '../shared/request-error';
import {
  auditApiQuery,
  auditEventMatches,
  auditQueryProblem,
  parseAuditQuery,
  sameAuditQuery,
  serializeAuditQuery,
  type AuditQuery,
} from './audit-query';

export type AuditRecord = components['schemas']['AuditRecord'];
export type AuditPage = components['schemas']['AuditPage'];

/**
 * The least time between two live reads of the first page: the first record of a burst is read at
 * once, the rest of the burst by one read when this has passed (a burst costs at most one read per
 * this many ms).
 */
export const LIVE_SPACING_MS = 250;

export interface AuditInput {
  rest: RestClient;
  bus: AppBus;
  /** The address's query string (the filters). */
  search: string;
}

export interface AuditContext {
  rest: RestClient;
  bus: AppBus;
  /** The filters of the rows shown. */
  query: AuditQuery;
  /** The filters being edited (applied with `audit.apply`). */
  draft: AuditQuery;
  invalid: I18nKey | null;
  records: AuditRecord[];
  /** The cursor of the page after the rows shown; null at the end. */
  next: string | null;
  /** Pages shown: 1 is the first page only (live records then refresh it in place). */
  pages: number;
  error: ActionError | null;
  moreError: ActionError | null;
  /** Records announced live while later pages were shown (the "new records" notice). */
  unseen: number;
  /** What the last load added, for the screen readers' announcement; `seq` changes on each. */
  added: { kind: 'first' | 'more' | 'live'; count: number; seq: number } | null;
}

export type AuditEvent =
  | { type: 'audit.draft'; patch: Partial<AuditQuery> }
  | { type: 'audit.apply' }
  | { type: 'audit.location'; search: string }
  | { type: 'audit.more' }
  | { type: 'audit.reload' }
  | { type: 'audit.showNew' }
  | { type: 'audit.recorded'; at: string; operation: string; targetType: string; targetId: number | null }
  | { type: 'audit.refresh' };

export type AuditEmitted = { type: 'audit.queryChanged'; search: string };

type PageOutput = AuditPage;

const loadPage = fromPromise<PageOutput, { rest: RestClient; query: AuditQuery; after: string | null }>(
  async ({ input, signal }) => {
    const body = unwrap(
      await input.rest.GET('/api/audit', {
        headers: { Accept: 'application/json' },
        params: { query: auditApiQuery(input.query, { after: input.after }) },
        signal,
      }),
    );
    if (typeof body !== 'object') throw new Error('GET /api/audit answered something other than a page');
    return body;
  },
);

/** `auditRecorded` on the app bus (contracts/socket.md §3), forwarded as `audit.recorded`. */
const watchAudit = fromCallback<AuditEvent, { bus: AppBus }>(({ input, sendBack }) =>
  input.bus.on('auditRecorded', (message) =>
    sendBack({
      type: 'audit.recorded',
      at: message.data.at,
      operation: message.data.operation,
      targetType: message.data.targetType,
      targetId: message.data.targetId,
    }),
  ),
);

const nextSeq = (context: AuditContext) => (context.added?.seq ?? 0) + 1;

/**
 * The Auditoria screen (`/audit`, docs/product.md, Audit log): records newest first under the filters
 * of the address (`GET /api/audit`), paged by cursor ("Carregar mais" appends the page after `next`).
 * Filters are edited in `draft` (`audit.draft`) and applied with `audit.apply` (refused with `invalid`
 * when the period is reversed or a target id has no type), which emits `audit.queryChanged` for the
 * address; an address change (`audit.location`) reloads when it differs. Live: an `auditRecorded`
 * the filters can match reads the first page again at once when only the first page is shown, and
 * records arriving within {@link LIVE_SPACING_MS} of that read are read together after it; a record
 * arriving while a read runs reads again when it ends (never cancelling it, so a steady stream still
 * shows). With later pages shown it counts `unseen` instead, and `audit.showNew` goes back to the
 * first page.
 *
 * Regions: `list` (`loading`, `ready`, `loadingMore`, `refreshing`, `failed`; `loading` and `refreshing`
 * are `current`, or `stale` once a record came during their read; tag `busy` while a page loads) and
 * `live` (`idle`, `spacing` (`clear`, `owed`)).
 */
export const auditMachine = setup({
  types: {
    input: {} as AuditInput,
    context: {} as AuditContext,
    events: {} as AuditEvent,
    emitted: {} as AuditEmitted,
  },
  actors: { loadPage, watchAudit },
  delays: { liveSpacing: LIVE_SPACING_MS },
  guards: {
    draftValid: ({ context }) => auditQueryProblem(context.draft) === null,
    locationChanged: ({ context, event }) => {
      assertEvent(event, 'audit.location');
      return !sameAuditQuery(parseAuditQuery(event.search), context.query);
    },
    hasNext: ({ context }) => context.next !== null,
    onFirstPage: ({ context }) => context.pages <= 1,
    loadStale: stateIn({ list: { loading: 'stale' } }),
    refreshStale: stateIn({ list: { refreshing: 'stale' } }),
    liveOwed: stateIn({ live: { spacing: 'owed' } }),
    matches: ({ context, event }) => {
      assertEvent(event, 'audit.recorded');
      return auditEventMatches(context.query, event);
    },
  },
  actions: {
    editDraft: assign(({ context, event }) => {
      assertEvent(event, 'audit.draft');
      return { draft: { ...context.draft, ...event.patch }, invalid: null };
    }),
    refuseDraft: assign(({ context }) => ({ invalid: auditQueryProblem(context.draft) })),
    applyDraft: assign(({ context }) => ({ query: context.draft, unseen: 0 })),
    announceQuery: emit(({ context }) => ({
      type: 'audit.queryChanged' as const,
      search: serializeAuditQuery(context.query),
    })),
    applyLocation: assign(({ event }) => {
      assertEvent(event, 'audit.location');
      const query = parseAuditQuery(event.search);
      return { query, draft: query, invalid: null, unseen: 0 };
    }),
    storeFirst: assign(({ context }, page: PageOutput) => ({
      records: page.data,
      next: page.next,
      pages: 1,
      error: null,
      moreError: null,
      unseen: 0,
      added: { kind: 'first' as const, count: page.data.length, seq: nextSeq(context) },
    })),
    storeLive: assign(({ context }, page: PageOutput) => {
      const known = new Set(context.records.map((r) => r.id));
      return {
        records: page.data,
        next: page.next,
        pages: 1,
        error: null,
        added: {
          kind: 'live' as const,
          count: page.data.filter((r) => !known.has(r.id)).length,
          seq: nextSeq(context),
        },
      };
    }),
    appendPage: assign(({ context }, page: PageOutput) => {
      const known = new Set(context.records.map((r) => r.id));
      const fresh = page.data.filter((r) => !known.has(r.id));
      return {
        records: [...context.records, ...fresh],
        next: page.next,
        pages: context.pages + 1,
        moreError: null,
        added: { kind: 'more' as const, count: fresh.length, seq: nextSeq(context) },
      };
    }),
    listFailed: assign((_, params: { error: unknown }) => ({
      records: [],
      next: null,
      pages: 1,
      error: actionError('audit.errors.load', params.error),
    })),
    moreFailed: assign((_, params: { error: unknown }) => ({
      moreError: actionError('audit.errors.more', params.error),
    })),
    countUnseen: assign(({ context }) => ({ unseen: context.unseen + 1 })),
  },
}).createMachine({
  id: 'audit',
  context: ({ input }) => {
    const query = parseAuditQuery(input.search);
    return {
      rest: input.rest,
      bus: input.bus,
      query,
      draft: query,
      invalid: null,
      records: [],
      next: null,
      pages: 1,
      error: null,
      moreError: null,
      unseen: 0,
      added: null,
    };
  },
  invoke: { id: 'watchAudit', src: 'watchAudit', input: ({ context }) => ({ bus: context.bus }) },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      on: {
        'audit.draft': { actions: 'editDraft' },
        'audit.apply': [
          { guard: 'draftValid', target: '.loading', actions: ['applyDraft', 'announceQuery'] },
          { actions: 'refuseDraft' },
        ],
        'audit.location': { guard: 'locationChanged', target: '.loading', actions: 'applyLocation' },
        'audit.reload': '.loading',
        'audit.showNew': '.loading',
      },
      states: {
        loading: {
          tags: ['busy'],
          initial: 'current',
          invoke: {
            id: 'loadFirst',
            src: 'loadPage',
            input: ({ context }) => ({ rest: context.rest, query: context.query, after: null }),
            onDone: [
              // A record committed while this read ran may be missed by it: show this page, read again.
              {
                guard: 'loadStale',
                target: 'refreshing',
                actions: { type: 'storeFirst', params: ({ event }) => event.output },
              },
              { target: 'ready', actions: { type: 'storeFirst', params: ({ event }) => event.output } },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
          states: {
            current: { on: { 'audit.refresh': 'stale' } },
            stale: {},
          },
        },
        ready: {
          on: {
            'audit.more': { guard: 'hasNext', target: 'loadingMore' },
            'audit.refresh': { guard: 'onFirstPage', target: 'refreshing' },
          },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'loadPage',
            input: ({ context }) => ({ rest: context.rest, query: context.query, after: context.next }),
            onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => event.output } },
            onError: {
              target: 'ready',
              actions: { type: 'moreFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
          // Later pages are being shown: the new record waits behind the notice.
          on: { 'audit.refresh': { actions: 'countUnseen' } },
        },
        refreshing: {
          initial: 'current',
          invoke: {
            id: 'loadLive',
            src: 'loadPage',
            input: ({ context }) => ({ rest: context.rest, query: context.query, after: null }),
            onDone: [
              // A record committed while this read ran may be missed by it: show this page, read again.
              {
                guard: 'refreshStale',
                target: 'refreshing',
                reenter: true,
                actions: { type: 'storeLive', params: ({ event }) => event.output },
              },
              { target: 'ready', actions: { type: 'storeLive', params: ({ event }) => event.output } },
            ],
            // The rows shown stay; the next record or a reload tries again.
            onError: 'ready',
          },
          states: {
            current: { on: { 'audit.refresh': 'stale' } },
            stale: {},
          },
        },
        failed: { on: { 'audit.refresh': 'loading' } },
      },
    },
    live: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'audit.recorded': [
              { guard: and(['matches', 'onFirstPage']), target: 'spacing', actions: raise({ type: 'audit.refresh' }) },
              { guard: 'matches', actions: 'countUnseen' },
            ],
          },
        },
        // A read just started: records of the same burst wait for the one read at the end of the spacing.
        spacing: {
          initial: 'clear',
          after: {
            liveSpacing: [
              { guard: 'liveOwed', target: 'spacing', reenter: true, actions: raise({ type: 'audit.refresh' }) },
              { target: 'idle' },
            ],
          },
          states: {
            clear: {
              on: {
                'audit.recorded': [
                  { guard: and(['matches', 'onFirstPage']), target: 'owed' },
                  { guard: 'matches', actions: 'countUnseen' },
                ],
              },
            },
            owed: {
              on: { 'audit.recorded': { guard: and(['matches', not('onFirstPage')]), actions: 'countUnseen' } },
            },
          },
        },
      },
    },
  },
});

export type AuditActor = ActorRefFrom<typeof auditMachine>;
export type AuditSnapshot = SnapshotFrom<typeof auditMachine>;

/** The table's state: the first page loading, failed, or rows (a live refresh or "more" keeps them shown). */
export function selectAuditStatus(s: AuditSnapshot): 'loading' | 'error' | 'ready' {
  if (s.matches({ list: 'loading' })) return 'loading';
  if (s.matches({ list: 'failed' })) return 'error';
  return 'ready';
}

export const selectLoadingMore = (s: AuditSnapshot) => s.matches({ list: 'loadingMore' });
