import { assertEvent, assign, enqueueActions, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import {
  bulkActor,
  bulkDoneTransitions,
  bulkRunningState,
  DEFAULT_BULK_CONCURRENCY,
  emptyRun,
  failedItems,
  finishRun,
  overlayHold,
  recordResult,
  runProgress,
  startRun,
  type BulkEvent,
  type BulkItemResult,
  type BulkProgress,
  type BulkRun,
  type OverlayControl,
} from '../shared/bulk-run';
import { isValidRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import type { AppBus } from '../shared/app-bus';
import type { SocketActor } from '../realtime/socket.machine';
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
} from '../webhooks/webhook-runs-live';

export type CampaignStatusType = components['schemas']['CampaignStatusType'];
export type WebhookGenerationResult = components['schemas']['WebhookGenerationResult'];

/** Every type the contract knows, in its order (the checklist the view shows). */
export const CAMPAIGN_STATUS_TYPES = [
  'sent',
  'delivered',
  'read',
  'failed',
  'replied',
] as const satisfies readonly CampaignStatusType[];

/** One GET of a run. */
export interface WebhookRequest {
  type: CampaignStatusType;
  startAt: string;
  finishAt: string;
}

export interface WebhookGenerationInput {
  rest: RestClient;
  tenantName: string;
  overlay: OverlayControl;
  concurrency?: number;
  /** Initial range, `YYYY-MM-DD` (the view usually passes today). */
  startAt?: string;
  finishAt?: string;
  /** Where runs' progress arrives (`webhookRunProgress`); absent: the runs are read once, when generated. */
  bus?: AppBus | null;
  /** Its reconnects make the runs be read again (contracts/socket.md: events are not replayed). */
  socket?: SocketActor | null;
}

export interface WebhookGenerationContext {
  rest: RestClient;
  tenantName: string;
  overlay: OverlayControl;
  concurrency: number;
  selected: CampaignStatusType[];
  startAt: string;
  finishAt: string;
  run: BulkRun<WebhookRequest, WebhookGenerationResult>;
  /** Why `webhooks.generate` was refused: no type selected, or a bad range. */
  invalid: I18nKey | null;
  bus: AppBus | null;
  socket: SocketActor | null;
  /** The runs the generation started, as last read or told by the socket (docs/webhooks.md). */
  live: LiveRuns;
}

export type WebhookGenerationEvent =
  | { type: 'webhooks.toggleType'; webhookType: CampaignStatusType }
  | { type: 'webhooks.range'; startAt: string; finishAt: string }
  | { type: 'webhooks.generate' }
  | { type: 'webhooks.cancel' }
  | { type: 'webhooks.retry' }
  | { type: 'webhooks.dismiss' }
  | BulkEvent<WebhookGenerationResult>
  | RunsLiveEvent
  | RunReadAnswer;

/** The runs the current generation started (one per type that succeeded). */
export function startedRunIds(context: Pick<WebhookGenerationContext, 'run'>): number[] {
  return context.run.entries.flatMap((entry) => (entry.result?.status === 'ok' ? [entry.result.value.deliveryId] : []));
}

/** Why the current selection cannot be generated, or null when it can. */
export function webhookRequestProblem(
  context: Pick<WebhookGenerationContext, 'selected' | 'startAt' | 'finishAt'>,
): I18nKey | null {
  if (context.selected.length === 0) return 'webhooks.errors.noType';
  if (!isValidRange(context)) return 'webhooks.errors.range';
  return null;
}

const editActions = {
  'webhooks.toggleType': { actions: 'toggleType' },
  'webhooks.range': { actions: 'setRange' },
} as const;

/**
 * Campaign-status webhook generation for one tenant: one
 * `GET /api/tenant/generate-campaign-status-webhook` per selected type over a date range, with
 * bounded concurrency, a result per type (deliveries queued), progress, failures listed and
 * `webhooks.retry` rerunning exactly the failed types. The loading overlay is held off while
 * running and resumed in every outcome.
 *
 * States: `editing`, `running` (tag `busy`), `done` (outcome in `context.run`).
 */
export const webhookGenerationMachine = setup({
  types: {
    input: {} as WebhookGenerationInput,
    context: {} as WebhookGenerationContext,
    events: {} as WebhookGenerationEvent,
  },
  actors: {
    generateWebhooks: bulkActor<{ rest: RestClient; tenantName: string }, WebhookRequest, WebhookGenerationResult>(
      async ({ rest, tenantName }, request, signal) =>
        unwrap(
          await rest.GET('/api/tenant/generate-campaign-status-webhook', {
            params: { query: { tenantName, startAt: request.startAt, finishAt: request.finishAt, type: request.type } },
            signal,
          }),
        ),
    ),
    overlayHold,
    watchRuns,
    runReader,
  },
  guards: {
    canGenerate: ({ context }) => webhookRequestProblem(context) === null,
    hasFailures: ({ context }) => failedItems(context.run).length > 0,
  },
  actions: {
    toggleType: assign(({ context, event }) => {
      assertEvent(event, 'webhooks.toggleType');
      const on = context.selected.includes(event.webhookType);
      // Kept in contract order so runs and results read the same way every time.
      const selected = CAMPAIGN_STATUS_TYPES.filter((type) =>
        type === event.webhookType ? !on : context.selected.includes(type),
      );
      return { selected, invalid: null };
    }),
    setRange: assign(({ event }) => {
      assertEvent(event, 'webhooks.range');
      return { startAt: event.startAt, finishAt: event.finishAt, invalid: null };
    }),
    refuse: assign(({ context }) => ({ invalid: webhookRequestProblem(context) })),
    startRun: assign(({ context }) => ({
      run: startRun<WebhookRequest, WebhookGenerationResult>(
        context.selected.map((type) => ({ type, startAt: context.startAt, finishAt: context.finishAt })),
      ),
    })),
    startRetry: assign(({ context }) => ({
      run: startRun<WebhookRequest, WebhookGenerationResult>(failedItems(context.run)),
    })),
    recordResult: assign(({ context }, params: { index: number; result: BulkItemResult<WebhookGenerationResult> }) => ({
      run: recordResult(context.run, params.index, params.result),
    })),
    finishRun: assign(({ context }, params: { cancelled: boolean }) => ({
      run: finishRun(context.run, params.cancelled),
    })),
    clearRun: assign({ run: () => emptyRun<WebhookRequest, WebhookGenerationResult>(), live: emptyLiveRuns }),
    applyProgress: assign(({ context, event }) => {
      assertEvent(event, 'runs.progress');
      return startedRunIds(context).includes(event.run.id) ? { live: liveProgress(context.live, event.run) } : {};
    }),
    applyRead: assign(({ context, event }) => {
      assertEvent(event, 'runs.answer');
      return { live: liveRead(context.live, event.run, event.seq) };
    }),
    // Every started run not known to have finished is read (after a generation, and after a reconnect).
    readRuns: enqueueActions(({ context, enqueue }) => {
      for (const id of startedRunIds(context)) {
        const known = context.live.runs[id];
        if (known && !runOpen(known)) continue;
        enqueue.sendTo('runReader', { type: 'runs.read', id, seq: context.live.seq[id] ?? 0 });
      }
    }),
  },
}).createMachine({
  id: 'webhookGeneration',
  context: ({ input }) => ({
    rest: input.rest,
    tenantName: input.tenantName,
    overlay: input.overlay,
    concurrency: input.concurrency ?? DEFAULT_BULK_CONCURRENCY,
    selected: [],
    startAt: input.startAt ?? '',
    finishAt: input.finishAt ?? input.startAt ?? '',
    run: emptyRun(),
    invalid: null,
    bus: input.bus ?? null,
    socket: input.socket ?? null,
    live: emptyLiveRuns(),
  }),
  invoke: [
    {
      id: 'watchRuns',
      src: 'watchRuns',
      input: ({ context }) => ({ bus: context.bus, socket: context.socket, tenantName: context.tenantName }),
    },
    { id: 'runReader', src: 'runReader', input: ({ context }) => ({ rest: context.rest }) },
  ],
  on: {
    'runs.progress': { actions: 'applyProgress' },
    'runs.answer': { actions: 'applyRead' },
    'runs.reconnected': { actions: 'readRuns' },
  },
  initial: 'editing',
  states: {
    editing: {
      on: {
        ...editActions,
        'webhooks.generate': [{ guard: 'canGenerate', target: 'running', actions: 'startRun' }, { actions: 'refuse' }],
      },
    },
    running: bulkRunningState<
      WebhookRequest,
      WebhookGenerationResult,
      RestClient,
      'generateWebhooks',
      'webhooks.cancel'
    >({ worker: 'generateWebhooks', cancel: 'webhooks.cancel' }),
    done: {
      entry: 'readRuns',
      on: {
        ...bulkDoneTransitions({
          running: 'running',
          back: 'editing',
          retry: 'webhooks.retry',
          dismiss: 'webhooks.dismiss',
        }),
        'webhooks.toggleType': { target: 'editing', actions: ['clearRun', 'toggleType'] },
        'webhooks.range': { target: 'editing', actions: ['clearRun', 'setRange'] },
      },
    },
  },
});

export type WebhookGenerationSnapshot = SnapshotFrom<typeof webhookGenerationMachine>;

/** "n of m" for the current or last run. */
export function webhookProgress(snapshot: WebhookGenerationSnapshot): BulkProgress {
  return runProgress(snapshot.context.run);
}
