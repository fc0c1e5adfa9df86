import {
  and,
  assertEvent,
  assign,
  emit,
  fromCallback,
  fromPromise,
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
  /** Pages shown: 1 is the first page only (live records then refresh it in place unless it is held). */
  pages: number;
  error: ActionError | null;
  moreError: ActionError | null;
  /**
   * The last live read of the first page while it was held (the user engaged with the list, or later
   * pages shown): shown by `audit.showNew`, or when the engagement ends with only the first page shown.
   */
  pending: AuditPage | null;
  /** The records of `pending` not shown (the "new records" notice); 0 without `pending`. */
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
  /** The user engages with the list (pointer or focus in it, a record expanded, scrolled into it) or stops. */
  | { type: 'audit.engage' }
  | { type: 'audit.release' }
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

/** How many of `page`'s records are not among `records` (the ones a live read brings). */
const freshCount = (records: readonly AuditRecord[], page: AuditPage) => {
  const known = new Set(records.map((r) => r.id));
  return page.data.filter((r) => !known.has(r.id)).length;
};

/** `page` as the rows shown: the first page only, nothing held. */
const firstPageShown = (page: AuditPage) => ({
  records: page.data,
  next: page.next,
  pages: 1,
  error: null,
  moreError: null,
  pending: null,
  unseen: 0,
});

/** `page` as the rows shown: the first page only, its new records announced. */
const showLive = (context: AuditContext, page: AuditPage) => ({
  ...firstPageShown(page),
  added: { kind: 'live' as const, count: freshCount(context.records, page), seq: nextSeq(context) },
});

/**
 * The Auditoria screen (`/audit`, docs/product.md, Audit log): records newest first under the filters
 * of the address (`GET /api/audit`), paged by cursor ("Carregar mais" appends the page after `next`).
 * Filters are edited in `draft` (`audit.draft`) and applied with `audit.apply` (refused with `invalid`
 * when the period is reversed or a target id has no type), which emits `audit.queryChanged` for the
 * address; an address change (`audit.location`) reloads when it differs. Live: an `auditRecorded`
 * the filters can match reads the first page again at once, and records arriving within
 * {@link LIVE_SPACING_MS} of that read are read together after it; a record arriving while a read
 * runs reads again when it ends (never cancelling it, so a steady stream still shows). The page read
 * replaces the rows only when the first page alone is shown and the user is not engaged with the list
 * (`audit.engage` / `audit.release`, sent by the screen); otherwise it is held as `pending`, its new
 * records counted in `unseen` (the notice), and shown by `audit.showNew`, or by `audit.release` when
 * only the first page is shown (docs/product.md, Audit log, Live).
 *
 * Regions: `list` (`loading`, `ready`, `loadingMore`, `refreshing`, `failed`; `loading`, `loadingMore`
 * and `refreshing` are `current`, or `stale` once a record came during their read; tag `busy` while a
 * page loads), `live` (`idle`, `spacing` (`clear`, `owed`)) and `attention` (`free`, `engaged`).
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
    hasPending: ({ context }) => context.pending !== null,
    /** A live read may replace the rows: the first page alone is shown and the user is not engaged. */
    showsLive: and(['onFirstPage', stateIn({ attention: 'free' })]),
    loadStale: stateIn({ list: { loading: 'stale' } }),
    moreStale: stateIn({ list: { loadingMore: 'stale' } }),
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
    applyDraft: assign(({ context }) => ({ query: context.draft, pending: null, unseen: 0 })),
    announceQuery: emit(({ context }) => ({
      type: 'audit.queryChanged' as const,
      search: serializeAuditQuery(context.query),
    })),
    applyLocation: assign(({ event }) => {
      assertEvent(event, 'audit.location');
      const query = parseAuditQuery(event.search);
      return { query, draft: query, invalid: null, pending: null, unseen: 0 };
    }),
    storeFirst: assign(({ context }, page: PageOutput) => ({
      ...firstPageShown(page),
      added: { kind: 'first' as const, count: page.data.length, seq: nextSeq(context) },
    })),
    storeLive: assign(({ context }, page: PageOutput) => showLive(context, page)),
    /** The rows stay: the page waits behind the notice (nothing new in it: nothing waits). */
    holdLive: assign(({ context }, page: PageOutput) => {
      const unseen = freshCount(context.records, page);
      return { pending: unseen > 0 ? page : null, unseen };
    }),
    showPending: assign(({ context }) => (context.pending ? showLive(context, context.pending) : {})),
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
      pending: null,
      unseen: 0,
      error: actionError('audit.errors.load', params.error),
    })),
    moreFailed: assign((_, params: { error: unknown }) => ({
      moreError: actionError('audit.errors.more', params.error),
    })),
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
      pending: null,
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
        // Nothing held (or "more" being read): the first page is read again.
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
          // Nothing holds the rows any more: the held page is shown (the user left the list, or a read failed).
          always: { guard: and(['showsLive', 'hasPending']), actions: 'showPending' },
          on: {
            'audit.more': { guard: 'hasNext', target: 'loadingMore' },
            'audit.refresh': 'refreshing',
            'audit.showNew': { guard: 'hasPending', actions: 'showPending' },
          },
        },
        loadingMore: {
          tags: ['busy'],
          initial: 'current',
          invoke: {
            id: 'loadMore',
            src: 'loadPage',
            input: ({ context }) => ({ rest: context.rest, query: context.query, after: context.next }),
            // A record came during this read: the first page is read when it ends (and held: later pages are shown).
            onDone: [
              {
                guard: 'moreStale',
                target: 'refreshing',
                actions: { type: 'appendPage', params: ({ event }) => event.output },
              },
              { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => event.output } },
            ],
            onError: [
              {
                guard: 'moreStale',
                target: 'refreshing',
                actions: { type: 'moreFailed', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'ready', actions: { type: 'moreFailed', params: ({ event }) => ({ error: event.error }) } },
            ],
          },
          states: {
            current: { on: { 'audit.refresh': 'stale' } },
            stale: {},
          },
        },
        refreshing: {
          initial: 'current',
          invoke: {
            id: 'loadLive',
            src: 'loadPage',
            input: ({ context }) => ({ rest: context.rest, query: context.query, after: null }),
            // A record committed while this read ran may be missed by it: use this page, read again.
            // The page replaces the rows only while nothing holds them; else it waits behind the notice.
            onDone: [
              {
                guard: and(['refreshStale', 'showsLive']),
                target: 'refreshing',
                reenter: true,
                actions: { type: 'storeLive', params: ({ event }) => event.output },
              },
              {
                guard: 'refreshStale',
                target: 'refreshing',
                reenter: true,
                actions: { type: 'holdLive', params: ({ event }) => event.output },
              },
              {
                guard: 'showsLive',
                target: 'ready',
                actions: { type: 'storeLive', params: ({ event }) => event.output },
              },
              { target: 'ready', actions: { type: 'holdLive', params: ({ event }) => event.output } },
            ],
            // The rows shown stay; the next record or a reload tries again.
            onError: 'ready',
          },
          on: { 'audit.showNew': { guard: 'hasPending', actions: 'showPending' } },
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
          on: { 'audit.recorded': { guard: 'matches', target: 'spacing', actions: raise({ type: 'audit.refresh' }) } },
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
            clear: { on: { 'audit.recorded': { guard: 'matches', target: 'owed' } } },
            owed: {},
          },
        },
      },
    },
    // Whether the user is engaged with the list (the screen says: pointer or focus in it, a record
    // expanded, scrolled past its top); while engaged, live reads wait behind the notice.
    attention: {
      initial: 'free',
      states: {
        free: { on: { 'audit.engage': 'engaged' } },
        engaged: { on: { 'audit.release': 'free' } },
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
