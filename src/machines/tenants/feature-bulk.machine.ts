import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
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
import { actionError, type ActionError } from '../shared/request-error';

export type Feature = components['schemas']['Feature'];

/** One POST of a save: the feature's new state. */
export interface FeatureChange {
  option: string;
  enabled: boolean;
}

export interface FeatureBulkInput {
  rest: RestClient;
  tenantName: string;
  /** The global loading overlay, switched off during a save and back on in every outcome. */
  overlay: OverlayControl;
  /** Feature POSTs in flight at once (default {@link DEFAULT_BULK_CONCURRENCY}). */
  concurrency?: number;
  /**
   * Back-office staff: only they turn features on or off (server/src/access/policies.ts
   * `tenants.setFeature`); anyone else reads them. Default false.
   */
  staff?: boolean;
}

export interface FeatureBulkContext {
  rest: RestClient;
  tenantName: string;
  overlay: OverlayControl;
  concurrency: number;
  staff: boolean;
  /** Option names in the server's order. */
  options: string[];
  /** The state as stored on the server (updated by each successful POST). */
  saved: Record<string, boolean>;
  /** The state being edited. */
  draft: Record<string, boolean>;
  run: BulkRun<FeatureChange, Feature>;
  /** Loading failed: `features.errors.load` and why. */
  error: ActionError | null;
}

export type FeatureBulkEvent =
  | { type: 'features.toggle'; option: string }
  | { type: 'features.set'; option: string; enabled: boolean }
  | { type: 'features.reset' }
  | { type: 'features.save' }
  | { type: 'features.cancel' }
  | { type: 'features.retry' }
  | { type: 'features.dismiss' }
  | { type: 'features.reload' }
  | BulkEvent<Feature>;

/** The features whose draft differs from the stored state: what a save sends, one POST each. */
export function changedFeatures(context: Pick<FeatureBulkContext, 'options' | 'saved' | 'draft'>): FeatureChange[] {
  return context.options
    .filter((option) => context.draft[option] !== context.saved[option])
    .map((option) => ({ option, enabled: context.draft[option] === true }));
}

/**
 * A tenant's feature flags: load (`GET /api/tenant/feature`), edit, and save as one
 * `POST /api/tenant/feature` per changed feature with bounded concurrency. Every feature gets a
 * result; failures stay listed and `features.retry` reruns exactly those. The loading overlay is
 * held off while saving and resumed in every outcome. Only back-office staff (input `staff`) edit; for
 * anyone else the machine only loads (the server refuses their changes).
 *
 * States: `loading`, `loadFailed`, `editing`, `saving` (tag `busy`), `done` (outcome in `context.run`).
 * Read rows with {@link featureRows} and progress with {@link featureProgress}.
 */
export const featureBulkMachine = setup({
  types: {
    input: {} as FeatureBulkInput,
    context: {} as FeatureBulkContext,
    events: {} as FeatureBulkEvent,
  },
  actors: {
    loadFeatures: fromPromise<Feature[], { rest: RestClient; tenantName: string }>(async ({ input, signal }) =>
      unwrap(
        await input.rest.GET('/api/tenant/feature', { params: { query: { tenantName: input.tenantName } }, signal }),
      ),
    ),
    saveFeatures: bulkActor<{ rest: RestClient; tenantName: string }, FeatureChange, Feature>(
      async ({ rest, tenantName }, change, signal) =>
        unwrap(
          await rest.POST('/api/tenant/feature', {
            body: { option: change.option, enabled: change.enabled, tenantName },
            signal,
          }),
        ),
    ),
    overlayHold,
  },
  guards: {
    // Edits, saves and retries are staff's: for anyone else the features are read-only.
    knownOption: ({ context, event }) => {
      assertEvent(event, ['features.toggle', 'features.set']);
      return context.staff && context.options.includes(event.option);
    },
    hasChanges: ({ context }) => context.staff && changedFeatures(context).length > 0,
    hasFailures: ({ context }) => context.staff && failedItems(context.run).length > 0,
  },
  actions: {
    storeFeatures: assign((_, features: Feature[]) => {
      const saved = Object.fromEntries(features.map((f) => [f.option, f.enabled]));
      return {
        options: features.map((f) => f.option),
        saved,
        draft: { ...saved },
        error: null,
        run: emptyRun<FeatureChange, Feature>(),
      };
    }),
    storeLoadError: assign((_, params: { error: unknown }) => ({
      error: actionError('features.errors.load', params.error),
    })),
    edit: assign(({ context, event }) => {
      assertEvent(event, ['features.toggle', 'features.set']);
      const enabled = event.type === 'features.set' ? event.enabled : !context.draft[event.option];
      return { draft: { ...context.draft, [event.option]: enabled } };
    }),
    resetDraft: assign(({ context }) => ({ draft: { ...context.saved } })),
    startSave: assign(({ context }) => ({ run: startRun<FeatureChange, Feature>(changedFeatures(context)) })),
    startRetry: assign(({ context }) => ({ run: startRun<FeatureChange, Feature>(failedItems(context.run)) })),
    recordResult: assign(({ context }, params: { index: number; result: BulkItemResult<Feature> }) => {
      const run = recordResult(context.run, params.index, params.result);
      if (run === context.run || params.result.status !== 'ok') return { run };
      const stored = params.result.value;
      return { run, saved: { ...context.saved, [stored.option]: stored.enabled } };
    }),
    finishRun: assign(({ context }, params: { cancelled: boolean }) => ({
      run: finishRun(context.run, params.cancelled),
    })),
    clearRun: assign({ run: () => emptyRun<FeatureChange, Feature>() }),
  },
}).createMachine({
  id: 'featureBulk',
  context: ({ input }) => ({
    rest: input.rest,
    tenantName: input.tenantName,
    overlay: input.overlay,
    concurrency: input.concurrency ?? DEFAULT_BULK_CONCURRENCY,
    staff: input.staff ?? false,
    options: [],
    saved: {},
    draft: {},
    run: emptyRun(),
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadFeatures',
        src: 'loadFeatures',
        input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
        onDone: { target: 'editing', actions: { type: 'storeFeatures', params: ({ event }) => event.output } },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeLoadError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { 'features.reload': 'loading' },
    },
    editing: {
      on: {
        'features.toggle': { guard: 'knownOption', actions: 'edit' },
        'features.set': { guard: 'knownOption', actions: 'edit' },
        'features.reset': { actions: 'resetDraft' },
        'features.save': { guard: 'hasChanges', target: 'saving', actions: 'startSave' },
        'features.reload': 'loading',
      },
    },
    saving: bulkRunningState<FeatureChange, Feature, RestClient, 'saveFeatures', 'features.cancel'>({
      worker: 'saveFeatures',
      cancel: 'features.cancel',
    }),
    done: {
      on: {
        ...bulkDoneTransitions({
          running: 'saving',
          back: 'editing',
          retry: 'features.retry',
          dismiss: 'features.dismiss',
        }),
        'features.toggle': { guard: 'knownOption', target: 'editing', actions: ['clearRun', 'edit'] },
        'features.set': { guard: 'knownOption', target: 'editing', actions: ['clearRun', 'edit'] },
        'features.reset': { target: 'editing', actions: ['clearRun', 'resetDraft'] },
        'features.reload': 'loading',
      },
    },
  },
});

export type FeatureBulkSnapshot = SnapshotFrom<typeof featureBulkMachine>;

/** One row of the editor: the edited value, the stored one, and this run's result for it. */
export interface FeatureRow {
  option: string;
  enabled: boolean;
  saved: boolean;
  changed: boolean;
  result: BulkItemResult<Feature> | null;
}

/** Rows for the editor (`useSelector(actor, featureRows)` with a shallow compare). */
export function featureRows(snapshot: FeatureBulkSnapshot): FeatureRow[] {
  const { options, draft, saved, run } = snapshot.context;
  const results = new Map(run.entries.map((entry) => [entry.item.option, entry.result]));
  return options.map((option) => ({
    option,
    enabled: draft[option] === true,
    saved: saved[option] === true,
    changed: draft[option] !== saved[option],
    result: results.get(option) ?? null,
  }));
}

/** "n of m" for the current or last run. */
export function featureProgress(snapshot: FeatureBulkSnapshot): BulkProgress {
  return runProgress(snapshot.context.run);
}
