import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { AppBus } from '../shared/app-bus';
import {
  chainedBulkActor,
  bulkDoneTransitions,
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
import {
  checkRemote,
  conflictChoices,
  conflictGuards,
  conflictReload,
  liveConflict,
  notedRemote,
  remoteCheckGuards,
  remoteCheckTransitions,
  restAuditReader,
  saveConflict,
  staleOf,
  watchTarget,
  type Conflict,
  type ConflictChange,
  type ConflictEvent,
  type ConflictField,
  type RemoteCheck,
} from '../shared/conflict';
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
  /**
   * Feature POSTs in flight at once when the feature set carries no version (a server that keeps none;
   * default {@link DEFAULT_BULK_CONCURRENCY}). With a version they go one at a time, each with the version
   * the previous answer carried.
   */
  concurrency?: number;
  /** The app's bus: the editor hears changes of the tenant's features (none: it learns of them on save). */
  bus?: AppBus | null;
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
  bus: AppBus | null;
  staff: boolean;
  /** Option names in the server's order. */
  options: string[];
  /** The state as stored on the server (updated by each successful POST). */
  saved: Record<string, boolean>;
  /** The state being edited. */
  draft: Record<string, boolean>;
  run: BulkRun<FeatureChange, Feature>;
  /** Loading failed: `features.errors.load` and why; a reload for the conflict notice failed: `conflict.errors.reload`. */
  error: ActionError | null;
  /**
   * The feature set's version (`Tenant.features_version`) as loaded, then as each saved POST answered:
   * the next POST sends it (docs/lists.md, Conflict notice).
   */
  version: number | null;
  conflict: Conflict | null;
  /** Audit records announced since the last check. */
  remoteIds: number[];
  /** The versions those records produced (null: not told), to tell the editor's own POSTs from others' after a save. */
  remoteVersions: (number | null)[];
  /** The tenant's id, once an event about it told it (its audit records are read by id). */
  tenantId: number | null;
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
  | BulkEvent<Feature>
  | ConflictEvent;

/** The features whose draft differs from the stored state: what a save sends, one POST each. */
export function changedFeatures(context: Pick<FeatureBulkContext, 'options' | 'saved' | 'draft'>): FeatureChange[] {
  return context.options
    .filter((option) => context.draft[option] !== context.saved[option])
    .map((option) => ({ option, enabled: context.draft[option] === true }));
}

/** The feature set as read, with its version (each `Feature` carries it; none from a server that keeps none). */
export interface FeatureSet {
  version: number | null;
  features: Feature[];
}

/** The features whose draft differs from the stored state, as the conflict notice shows them: stored → edited. */
export function unsavedFeatures(context: Pick<FeatureBulkContext, 'options' | 'saved' | 'draft'>): ConflictField[] {
  return changedFeatures(context).map((change) => ({
    field: change.option,
    before: JSON.stringify(context.saved[change.option] === true),
    after: JSON.stringify(change.enabled),
  }));
}

/** The feature set's own changes: the tenant's other records are the tenant form's (versioned apart). */
const featureChanges = (changes: ConflictChange[]) => changes.filter((c) => c.operation === 'tenant.feature');

async function readFeatures(rest: RestClient, tenantName: string, signal: AbortSignal): Promise<FeatureSet> {
  const features = unwrap(await rest.GET('/api/tenant/feature', { params: { query: { tenantName } }, signal }));
  return { version: features[0]?.version ?? null, features };
}

/**
 * A tenant's feature flags: load (`GET /api/tenant/feature`), edit, and save as one
 * `POST /api/tenant/feature` per changed feature, one at a time, each sending the feature set's version
 * the previous answer carried (src/machines/shared/bulk-run.ts `chainedBulkActor`; docs/lists.md,
 * Conflict notice). Every feature gets a result; failures stay listed and `features.retry` reruns exactly
 * those. A stale answer stops the run: the features saved so far show as saved, and the conflict notice
 * (src/machines/shared/conflict.ts) shows who changed what beside the unsaved ones, to reapply or discard.
 * A change of the tenant's features announced while the editor is open (the bus's `auditRecorded`, by the
 * tenant's name) does the same at once, or reloads the editor when nothing is unsaved. The loading
 * overlay is held off while saving and resumed in every outcome. Only back-office staff (input `staff`)
 * edit; for anyone else the machine only loads (the server refuses their changes).
 *
 * States: `loading`, `loadFailed`, `editing`, `checking`, `saving` (tag `busy`), `done` (outcome in
 * `context.run`), `conflict`, `reapplying` and `discarding` (tag `busy`). Read rows with
 * {@link featureRows} and progress with {@link featureProgress}.
 */
/** The editor's state for a feature set as read: stored = edited, no run, its version. */
function stored(set: FeatureSet) {
  const saved = Object.fromEntries(set.features.map((f) => [f.option, f.enabled]));
  return {
    options: set.features.map((f) => f.option),
    saved,
    draft: { ...saved },
    error: null,
    run: emptyRun<FeatureChange, Feature>(),
    version: set.version,
  };
}

/** What the editor takes while it is open for edits (`editing`, and `checking` meanwhile). */
const editingEvents = {
  'features.toggle': { guard: 'knownOption', actions: 'edit' },
  'features.set': { guard: 'knownOption', actions: 'edit' },
  'features.reset': { actions: 'resetDraft' },
  'features.save': { guard: 'hasChanges', target: 'saving', actions: 'startSave' },
  'features.reload': 'loading',
} as const;

/** Reads the features again for a reapply or a discard (src/machines/shared/conflict.ts `conflictReload`). */
const reloadFeatures = {
  id: 'loadFeatures',
  src: 'loadFeatures',
  input: ({ context }: { context: FeatureBulkContext }) => ({ rest: context.rest, tenantName: context.tenantName }),
} as const;

export const featureBulkMachine = setup({
  types: {
    input: {} as FeatureBulkInput,
    context: {} as FeatureBulkContext,
    events: {} as FeatureBulkEvent,
  },
  actors: {
    loadFeatures: fromPromise<FeatureSet, { rest: RestClient; tenantName: string }>(({ input, signal }) =>
      readFeatures(input.rest, input.tenantName, signal),
    ),
    saveFeatures: chainedBulkActor<{ rest: RestClient; tenantName: string }, FeatureChange, Feature>(
      async ({ rest, tenantName }, change, version, signal) =>
        unwrap(
          await rest.POST('/api/tenant/feature', {
            body: { option: change.option, enabled: change.enabled, tenantName, ...(version !== null && { version }) },
            signal,
          }),
        ),
      (feature) => feature.version ?? null,
      (error) => staleOf(error) !== null,
    ),
    overlayHold,
    watchTarget,
    checkRemote: checkRemote<FeatureSet>(),
  },
  guards: {
    // Edits, saves and retries are staff's: for anyone else the features are read-only.
    knownOption: ({ context, event }) => {
      assertEvent(event, ['features.toggle', 'features.set']);
      return context.staff && context.options.includes(event.option);
    },
    hasChanges: ({ context }) => context.staff && changedFeatures(context).length > 0,
    hasFailures: ({ context }) => context.staff && failedItems(context.run).length > 0,
    ...conflictGuards,
    ...remoteCheckGuards((context: FeatureBulkContext) => changedFeatures(context).length > 0),
  },
  actions: {
    storeFeatures: assign((_, set: FeatureSet) => stored(set)),
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
      const feature = params.result.value;
      return {
        run,
        saved: { ...context.saved, [feature.option]: feature.enabled },
        // The next POST sends the version this one produced.
        version: feature.version ?? context.version,
      };
    }),
    noteRemote: assign(({ context, event }) => {
      assertEvent(event, 'conflict.remote');
      return {
        remoteIds: notedRemote(context.remoteIds, event.id),
        remoteVersions: [...context.remoteVersions, event.version],
        tenantId: event.targetId ?? context.tenantId,
      };
    }),
    checked: assign({ remoteIds: () => [], remoteVersions: () => [] }),
    // After a run: the changes announced during it that the run's own POSTs made (versions it now holds) are not news.
    forgetOwn: assign(({ context }) =>
      context.version !== null &&
      context.remoteVersions.every((v) => v !== null && context.version !== null && v <= context.version)
        ? { remoteIds: [], remoteVersions: [] }
        : {},
    ),
    conflictLive: assign((_, check: RemoteCheck<FeatureSet>) => ({
      conflict: liveConflict({ ...check, changes: featureChanges(check.changes) }, true),
      remoteIds: [],
      remoteVersions: [],
    })),
    // Nothing unsaved: the editor shows the features as stored now, and says what changed.
    refreshedLive: assign((_, check: RemoteCheck<FeatureSet>) => ({
      ...stored(check.record),
      conflict: liveConflict({ ...check, changes: featureChanges(check.changes) }, false),
      remoteIds: [],
      remoteVersions: [],
    })),
    // The run stops at the stale answer: the features saved before it stay listed as saved.
    conflictSave: assign(({ context }, params: { error: unknown }) => {
      const conflict = saveConflict(params.error);
      return {
        conflict: { ...conflict, changes: featureChanges(conflict.changes) },
        run: finishRun({ entries: context.run.entries.filter((entry) => entry.result !== null), outcome: null }, false),
      };
    }),
    dismissConflict: assign({ conflict: null }),
    // The features the user changed, laid over the set as stored now; saved at once with its version.
    reapplied: assign(({ context }, set: FeatureSet) => {
      const fresh = stored(set);
      const draft = { ...fresh.draft };
      for (const change of changedFeatures(context)) if (change.option in draft) draft[change.option] = change.enabled;
      return { ...fresh, draft, conflict: null, remoteIds: [], remoteVersions: [] };
    }),
    discarded: assign((_, set: FeatureSet) => ({
      ...stored(set),
      conflict: null,
      remoteIds: [],
      remoteVersions: [],
    })),
    reloadFailed: assign((_, params: { error: unknown }) => ({
      error: actionError('conflict.errors.reload', params.error),
    })),
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
    bus: input.bus ?? null,
    staff: input.staff ?? false,
    options: [],
    saved: {},
    draft: {},
    run: emptyRun(),
    error: null,
    version: null,
    conflict: null,
    remoteIds: [],
    remoteVersions: [],
    tenantId: null,
  }),
  // The tenant's feature changes, by its name (the editor knows no id), while the editor is open.
  invoke: {
    id: 'watchTarget',
    src: 'watchTarget',
    input: ({ context }) => ({
      bus: context.bus,
      targetType: 'tenant' as const,
      targetId: null,
      targetName: context.tenantName,
      operations: ['tenant.feature'],
    }),
  },
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
      always: { guard: 'remotePending', target: 'checking' },
      on: {
        ...editingEvents,
        'conflict.remote': { guard: 'news', target: 'checking', actions: 'noteRemote' },
        'conflict.dismiss': { actions: 'dismissConflict' },
      },
    },
    // Whether an announced change is one the editor has not loaded; the user keeps ticking meanwhile.
    checking: {
      invoke: {
        id: 'checkRemote',
        src: 'checkRemote',
        input: ({ context }) => ({
          targetType: 'tenant' as const,
          targetId: context.tenantId ?? 0,
          version: context.version,
          ids: context.remoteIds,
          load: (signal: AbortSignal) => readFeatures(context.rest, context.tenantName, signal),
          audit: restAuditReader(context.rest),
        }),
        ...remoteCheckTransitions({ conflict: 'conflict', form: 'editing' }),
      },
      on: {
        ...editingEvents,
        'conflict.remote': { guard: 'news', target: 'checking', reenter: true, actions: 'noteRemote' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: [
        { id: 'overlayHold', src: 'overlayHold', input: ({ context }) => ({ overlay: context.overlay }) },
        {
          id: 'saveFeatures',
          src: 'saveFeatures',
          input: ({ context }) => ({
            rest: context.rest,
            tenantName: context.tenantName,
            items: context.run.entries.map((entry) => entry.item),
            concurrency: context.concurrency,
            version: context.version,
          }),
        },
      ],
      on: {
        'bulk.result': {
          actions: {
            type: 'recordResult',
            params: ({ event }) => ({ index: event.index, result: event.result }),
          },
        },
        'bulk.finished': {
          target: 'done',
          actions: [{ type: 'finishRun', params: { cancelled: false } }, 'forgetOwn'],
        },
        'bulk.stopped': {
          target: 'conflict',
          actions: { type: 'conflictSave', params: ({ event }) => ({ error: event.error }) },
        },
        'features.cancel': {
          target: 'done',
          actions: [{ type: 'finishRun', params: { cancelled: true } }, 'forgetOwn'],
        },
        // A change announced during the save: checked once the run ends, unless its own POSTs made it.
        'conflict.remote': { guard: 'news', actions: 'noteRemote' },
      },
    },
    done: {
      always: { guard: 'remotePending', target: 'checking', actions: 'clearRun' },
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
        'conflict.remote': { guard: 'news', target: 'checking', actions: ['clearRun', 'noteRemote'] },
      },
    },
    // The unsaved features beside the other person's change: reapply them or discard them.
    conflict: { on: conflictChoices({ reapply: 'reapplying', discard: 'discarding' }) },
    reapplying: conflictReload(reloadFeatures, 'reapplied', { done: 'reapplied', conflict: 'conflict' }),
    // Saved with the new version at once when something is left to save (the other person may have made
    // the same change).
    reapplied: {
      always: [{ guard: 'hasChanges', target: 'saving', actions: 'startSave' }, { target: 'editing' }],
    },
    discarding: conflictReload(reloadFeatures, 'discarded', { done: 'editing', conflict: 'conflict' }),
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
