import { assertEvent, assign, emit, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { AppBus } from '../shared/app-bus';
import type { SocketActor } from '../realtime/socket.machine';
import { actionError, type ActionError } from '../shared/request-error';
import type { WebhookEndpoint } from './webhook-endpoint-checks';
import { historySearch, parseHistoryQuery, sameHistoryQuery, type WebhookHistoryQuery } from './webhook-history-query';
import {
  emptyLiveRuns,
  liveProgress,
  liveRead,
  runOpen,
  runReader,
  watchRuns,
  type LiveRuns,
  type RunReadAnswer,
  type RunsLiveEvent,
  type WebhookRun,
} from './webhook-runs-live';

export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];
export type WebhookAttemptError = components['schemas']['WebhookAttemptError'];
export type WebhookRedeliveryResult = components['schemas']['WebhookRedeliveryResult'];

/** Records per page of each list. */
export const HISTORY_PAGE = 50;

export interface WebhookHistoryInput {
  rest: RestClient;
  /** The address's query string. */
  search: string;
  /** Whose history when the address names no tenant: the session's. */
  defaultTenant: string;
  bus?: AppBus | null;
  socket?: SocketActor | null;
}

/** What the last redelivery did, said once above the lists. */
export type HistoryNotice =
  { kind: 'redelivered'; id: number } | { kind: 'requeued'; runId: number; requeued: number; skipped: number };

export interface WebhookHistoryContext {
  rest: RestClient;
  bus: AppBus | null;
  socket: SocketActor | null;
  defaultTenant: string;
  query: WebhookHistoryQuery;
  runs: WebhookRun[];
  runsNext: string | null;
  deliveries: WebhookDelivery[];
  deliveriesNext: string | null;
  endpoints: WebhookEndpoint[];
  /** The runs' latest progress from the socket and reads (docs/webhooks.md), over `runs`. */
  live: LiveRuns;
  error: ActionError | null;
  moreError: ActionError | null;
  /** The delivery whose detail is open, with its answer once read. */
  detail: { id: number; data: WebhookDeliveryDetail | null; error: ActionError | null } | null;
  notice: HistoryNotice | null;
  /** Why the last redelivery was refused, and of what (a delivery's id, or a run's). */
  actionError: { target: 'delivery' | 'run'; id: number; error: ActionError } | null;
  /** The delivery or run a redelivery is under way for. */
  pendingId: number | null;
}

export type WebhookHistoryEvent =
  | { type: 'history.location'; search: string }
  | { type: 'history.filter'; patch: Partial<Omit<WebhookHistoryQuery, 'tenant'>> }
  | { type: 'history.reload' }
  | { type: 'history.moreRuns' }
  | { type: 'history.moreDeliveries' }
  | { type: 'history.open'; id: number }
  | { type: 'history.close' }
  | { type: 'history.redeliver'; id: number }
  | { type: 'history.redeliverFailed'; runId: number }
  | { type: 'history.dismissNotice' }
  | RunsLiveEvent
  | RunReadAnswer;

export type WebhookHistoryEmitted = { type: 'history.queryChanged'; search: string };

const tenantOf = (context: Pick<WebhookHistoryContext, 'query' | 'defaultTenant'>) =>
  context.query.tenant ?? context.defaultTenant;

async function readDeliveries(rest: RestClient, tenantName: string, query: WebhookHistoryQuery, after: string | null) {
  return unwrap(
    await rest.GET('/api/webhooks/deliveries', {
      params: {
        query: {
          tenantName,
          limit: HISTORY_PAGE,
          ...(query.run !== null && { runId: query.run }),
          ...(query.endpoint !== null && { endpointId: query.endpoint }),
          ...(query.state && { state: query.state }),
          ...(query.type && { type: query.type }),
          ...(after !== null && { after }),
        },
      },
    }),
  );
}

async function readRuns(rest: RestClient, tenantName: string, after: string | null) {
  return unwrap(
    await rest.GET('/api/webhooks/runs', {
      params: { query: { tenantName, limit: HISTORY_PAGE, ...(after !== null && { after }) } },
    }),
  );
}

/** The page's runs with the socket's and the reads' latest counters laid over them. */
export function shownRuns(context: Pick<WebhookHistoryContext, 'runs' | 'live'>): WebhookRun[] {
  return context.runs.map((run) => context.live.runs[run.id] ?? run);
}

/**
 * A tenant's webhook history (`/webhooks`, docs/webhooks.md): its runs newest first with live counters
 * (the socket's `WebhookRunProgress`; read again after a reconnect), its deliveries under the address's
 * filters (run, endpoint, state, type) with "Carregar mais" on both lists, a delivery's detail (body and
 * every attempt), and redelivery of one delivery or of every failed one of a run, each refusal worded
 * (contracts/openapi.yaml `webhookDeliveryRedeliver`).
 *
 * Regions: `list` (`loading`, `failed`, `ready`, `refreshing`, `moreRuns`, `moreDeliveries`,
 * `redelivering`, `redeliveringRun`) and `detail` (`closed`, `loading`, `open`).
 */
export const webhookHistoryMachine = setup({
  types: {
    input: {} as WebhookHistoryInput,
    context: {} as WebhookHistoryContext,
    events: {} as WebhookHistoryEvent,
    emitted: {} as WebhookHistoryEmitted,
  },
  actors: {
    loadAll: fromPromise<
      {
        runs: components['schemas']['WebhookRunPage'];
        deliveries: components['schemas']['WebhookDeliveryPage'];
        endpoints: WebhookEndpoint[];
      },
      { rest: RestClient; tenantName: string; query: WebhookHistoryQuery }
    >(async ({ input }) => {
      const [runs, deliveries, endpoints] = await Promise.all([
        readRuns(input.rest, input.tenantName, null),
        readDeliveries(input.rest, input.tenantName, input.query, null),
        input.rest
          .GET('/api/webhooks/endpoints', { params: { query: { tenantName: input.tenantName } } })
          .then((answer) => unwrap(answer).data),
      ]);
      return { runs, deliveries, endpoints };
    }),
    loadDeliveries: fromPromise<
      components['schemas']['WebhookDeliveryPage'],
      { rest: RestClient; tenantName: string; query: WebhookHistoryQuery; after: string | null }
    >(async ({ input }) => readDeliveries(input.rest, input.tenantName, input.query, input.after)),
    loadRuns: fromPromise<
      components['schemas']['WebhookRunPage'],
      { rest: RestClient; tenantName: string; after: string | null }
    >(async ({ input }) => readRuns(input.rest, input.tenantName, input.after)),
    loadDetail: fromPromise<WebhookDeliveryDetail, { rest: RestClient; id: number }>(async ({ input, signal }) =>
      unwrap(await input.rest.GET('/api/webhooks/deliveries/{id}', { params: { path: { id: input.id } }, signal })),
    ),
    redeliver: fromPromise<WebhookDelivery, { rest: RestClient; id: number }>(async ({ input }) =>
      unwrap(await input.rest.POST('/api/webhooks/deliveries/{id}/redeliver', { params: { path: { id: input.id } } })),
    ),
    redeliverRun: fromPromise<WebhookRedeliveryResult, { rest: RestClient; id: number }>(async ({ input }) =>
      unwrap(await input.rest.POST('/api/webhooks/runs/{id}/redeliver-failed', { params: { path: { id: input.id } } })),
    ),
    watchRuns,
    runReader,
  },
  guards: {
    otherQuery: ({ context, event }) => {
      assertEvent(event, 'history.location');
      return !sameHistoryQuery(context.query, parseHistoryQuery(event.search));
    },
    hasMoreRuns: ({ context }) => context.runsNext !== null,
    hasMoreDeliveries: ({ context }) => context.deliveriesNext !== null,
    /** News of a run the page shows or filters on: the deliveries' states have moved. */
    shownRun: ({ context, event }) => {
      assertEvent(event, 'runs.progress');
      return context.query.run === null
        ? context.runs.some((r) => r.id === event.run.id)
        : context.query.run === event.run.id;
    },
  },
  actions: {
    takeLocation: assign(({ event }) => {
      assertEvent(event, 'history.location');
      return { query: parseHistoryQuery(event.search) };
    }),
    applyFilter: assign(({ context, event }) => {
      assertEvent(event, 'history.filter');
      return { query: { ...context.query, ...event.patch }, notice: null, actionError: null };
    }),
    emitQuery: emit(({ context }) => ({ type: 'history.queryChanged' as const, search: historySearch(context.query) })),
    applyProgress: assign(({ context, event }) => {
      assertEvent(event, 'runs.progress');
      const known = context.runs.some((r) => r.id === event.run.id);
      // A run started after the page was read comes first, as the list is newest first.
      return {
        runs: known ? context.runs : [event.run, ...context.runs],
        live: liveProgress(context.live, event.run),
      };
    }),
    applyRead: assign(({ context, event }) => {
      assertEvent(event, 'runs.answer');
      return { live: liveRead(context.live, event.run, event.seq) };
    }),
    readOpenRuns: enqueueActions(({ context, enqueue }) => {
      for (const run of shownRuns(context)) {
        if (!runOpen(run)) continue;
        enqueue.sendTo('runReader', { type: 'runs.read', id: run.id, seq: context.live.seq[run.id] ?? 0 });
      }
    }),
    readRun: enqueueActions(({ context, enqueue }, params: { id: number }) => {
      enqueue.sendTo('runReader', { type: 'runs.read', id: params.id, seq: context.live.seq[params.id] ?? 0 });
    }),
  },
}).createMachine({
  id: 'webhookHistory',
  type: 'parallel',
  context: ({ input }) => ({
    rest: input.rest,
    bus: input.bus ?? null,
    socket: input.socket ?? null,
    defaultTenant: input.defaultTenant,
    query: parseHistoryQuery(input.search),
    runs: [],
    runsNext: null,
    deliveries: [],
    deliveriesNext: null,
    endpoints: [],
    live: emptyLiveRuns(),
    error: null,
    moreError: null,
    detail: null,
    notice: null,
    actionError: null,
    pendingId: null,
  }),
  invoke: [
    {
      id: 'watchRuns',
      src: 'watchRuns',
      input: ({ context }) => ({ bus: context.bus, socket: context.socket, tenantName: tenantOf(context) }),
    },
    { id: 'runReader', src: 'runReader', input: ({ context }) => ({ rest: context.rest }) },
  ],
  on: {
    'runs.answer': { actions: 'applyRead' },
    'history.dismissNotice': { actions: assign({ notice: null, actionError: null }) },
  },
  states: {
    list: {
      initial: 'loading',
      on: {
        // Another tenant, or filters from a link or back/forward: everything is read again.
        'history.location': {
          guard: 'otherQuery',
          target: ['#webhookHistory.list.loading', '#webhookHistory.detail.closed'],
          actions: ['takeLocation', assign({ notice: null, actionError: null, detail: null })],
        },
        'history.filter': { target: '.refreshing', actions: ['applyFilter', 'emitQuery'] },
        'runs.progress': { actions: 'applyProgress' },
        'runs.reconnected': { actions: 'readOpenRuns' },
      },
      states: {
        loading: {
          tags: ['busy'],
          // A filter chosen before the first answer: everything is read again with it (the runs too).
          on: { 'history.filter': { target: 'loading', reenter: true, actions: ['applyFilter', 'emitQuery'] } },
          invoke: {
            id: 'loadAll',
            src: 'loadAll',
            input: ({ context }) => ({ rest: context.rest, tenantName: tenantOf(context), query: context.query }),
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                runs: event.output.runs.data,
                runsNext: event.output.runs.next,
                deliveries: event.output.deliveries.data,
                deliveriesNext: event.output.deliveries.next,
                endpoints: event.output.endpoints,
                live: emptyLiveRuns(),
                error: null,
                moreError: null,
              })),
            },
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({ error: actionError('webhooks.history.errors.load', event.error) })),
            },
          },
        },
        failed: {
          on: {
            'history.reload': 'loading',
            'history.filter': { target: 'loading', actions: ['applyFilter', 'emitQuery'] },
          },
        },
        ready: {
          on: {
            'history.reload': 'loading',
            'history.moreRuns': { guard: 'hasMoreRuns', target: 'moreRuns' },
            'history.moreDeliveries': { guard: 'hasMoreDeliveries', target: 'moreDeliveries' },
            'history.redeliver': {
              target: 'redelivering',
              actions: assign(({ event }) => ({ actionError: null, notice: null, pendingId: event.id })),
            },
            'history.redeliverFailed': {
              target: 'redeliveringRun',
              actions: assign(({ event }) => ({ actionError: null, notice: null, pendingId: event.runId })),
            },
            'runs.progress': [
              { guard: 'shownRun', target: 'refreshing', actions: 'applyProgress' },
              { actions: 'applyProgress' },
            ],
            'runs.reconnected': { target: 'refreshing', actions: 'readOpenRuns' },
          },
        },
        refreshing: {
          tags: ['busy'],
          invoke: {
            id: 'loadDeliveries',
            src: 'loadDeliveries',
            input: ({ context }) => ({
              rest: context.rest,
              tenantName: tenantOf(context),
              query: context.query,
              after: null,
            }),
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                deliveries: event.output.data,
                deliveriesNext: event.output.next,
                error: null,
                moreError: null,
              })),
            },
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({ error: actionError('webhooks.history.errors.load', event.error) })),
            },
          },
        },
        moreRuns: {
          tags: ['busy'],
          invoke: {
            id: 'moreRuns',
            src: 'loadRuns',
            input: ({ context }) => ({ rest: context.rest, tenantName: tenantOf(context), after: context.runsNext }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                runs: [...context.runs, ...event.output.data.filter((r) => !context.runs.some((x) => x.id === r.id))],
                runsNext: event.output.next,
                moreError: null,
              })),
            },
            onError: {
              target: 'ready',
              actions: assign(({ event }) => ({ moreError: actionError('webhooks.history.errors.more', event.error) })),
            },
          },
        },
        moreDeliveries: {
          tags: ['busy'],
          invoke: {
            id: 'moreDeliveries',
            src: 'loadDeliveries',
            input: ({ context }) => ({
              rest: context.rest,
              tenantName: tenantOf(context),
              query: context.query,
              after: context.deliveriesNext,
            }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                deliveries: [
                  ...context.deliveries,
                  ...event.output.data.filter((d) => !context.deliveries.some((x) => x.id === d.id)),
                ],
                deliveriesNext: event.output.next,
                moreError: null,
              })),
            },
            onError: {
              target: 'ready',
              actions: assign(({ event }) => ({ moreError: actionError('webhooks.history.errors.more', event.error) })),
            },
          },
        },
        redelivering: {
          tags: ['busy'],
          invoke: {
            id: 'redeliver',
            src: 'redeliver',
            input: ({ context }) => ({
              rest: context.rest,
              id: context.pendingId ?? 0,
            }),
            onDone: {
              target: 'ready',
              actions: [
                assign(({ context, event }) => ({
                  deliveries: context.deliveries.map((d) => (d.id === event.output.id ? event.output : d)),
                  notice: { kind: 'redelivered' as const, id: event.output.id },
                })),
                { type: 'readRun', params: ({ event }) => ({ id: event.output.run_id }) },
              ],
            },
            onError: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                actionError: {
                  target: 'delivery' as const,
                  id: context.pendingId ?? 0,
                  error: actionError('webhooks.history.errors.redeliver', event.error),
                },
              })),
            },
          },
        },
        redeliveringRun: {
          tags: ['busy'],
          invoke: {
            id: 'redeliverRun',
            src: 'redeliverRun',
            input: ({ context }) => ({
              rest: context.rest,
              id: context.pendingId ?? 0,
            }),
            onDone: {
              target: 'refreshing',
              actions: [
                assign(({ context, event }) => ({
                  notice: {
                    kind: 'requeued' as const,
                    runId: context.pendingId ?? 0,
                    requeued: event.output.requeued,
                    skipped: event.output.skipped,
                  },
                })),
                { type: 'readRun', params: ({ context }) => ({ id: context.pendingId ?? 0 }) },
              ],
            },
            onError: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                actionError: {
                  target: 'run' as const,
                  id: context.pendingId ?? 0,
                  error: actionError('webhooks.history.errors.redeliverRun', event.error),
                },
              })),
            },
          },
        },
      },
    },
    detail: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'history.open': {
              target: 'loading',
              actions: assign(({ event }) => ({ detail: { id: event.id, data: null, error: null } })),
            },
          },
        },
        loading: {
          invoke: {
            id: 'loadDetail',
            src: 'loadDetail',
            input: ({ context }) => ({ rest: context.rest, id: context.detail?.id ?? 0 }),
            onDone: {
              target: 'open',
              actions: assign(({ context, event }) => ({
                detail: { id: context.detail?.id ?? 0, data: event.output, error: null },
              })),
            },
            onError: {
              target: 'open',
              actions: assign(({ context, event }) => ({
                detail: {
                  id: context.detail?.id ?? 0,
                  data: null,
                  error: actionError('webhooks.history.errors.detail', event.error),
                },
              })),
            },
          },
          on: {
            'history.close': { target: 'closed', actions: assign({ detail: null }) },
            'history.open': {
              target: 'loading',
              reenter: true,
              actions: assign(({ event }) => ({ detail: { id: event.id, data: null, error: null } })),
            },
          },
        },
        open: {
          on: {
            'history.close': { target: 'closed', actions: assign({ detail: null }) },
            'history.open': [
              {
                guard: ({ context, event }) => context.detail?.id === event.id,
                target: 'closed',
                actions: assign({ detail: null }),
              },
              {
                target: 'loading',
                actions: assign(({ event }) => ({ detail: { id: event.id, data: null, error: null } })),
              },
            ],
          },
        },
      },
    },
  },
});

export type WebhookHistorySnapshot = SnapshotFrom<typeof webhookHistoryMachine>;
