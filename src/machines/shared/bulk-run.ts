import { fromCallback, type EventObject } from 'xstate';
import type { I18nKey } from '../../domain/i18n-key';
import { reasonKeyOf } from './request-error';

/**
 * The bounded-concurrency runner shared by the feature bulk update and webhook generation
 * (one call per feature, one call per selected type: docs/product.md, Tenants), and the run bookkeeping both
 * machines keep in their context: one entry per item, each reported exactly once.
 */

/** Calls in flight at once unless the machine's input says otherwise. */
export const DEFAULT_BULK_CONCURRENCY = 4;

/** The result of one item: its answer, or why it failed. */
export type BulkItemResult<V> = { status: 'ok'; value: V } | { status: 'failed'; reason: I18nKey };

export interface RunBulkOptions {
  /** Most calls in flight at once (at least 1). */
  concurrency: number;
  /** Aborting stops new calls; items not started yet are reported failed with `apiErrors.cancelled`. */
  signal?: AbortSignal;
}

/**
 * Runs `work` over `items` with at most `concurrency` calls in flight and reports every item exactly
 * once through `onResult` (ok or failed, never thrown). Resolves when every item has been reported.
 */
export async function runBulk<T, V>(
  items: readonly T[],
  work: (item: T, signal: AbortSignal) => Promise<V>,
  onResult: (index: number, result: BulkItemResult<V>) => void,
  options: RunBulkOptions,
): Promise<void> {
  const limit = Math.max(1, Math.floor(options.concurrency) || 1);
  const signal = options.signal ?? new AbortController().signal;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      if (signal.aborted) {
        onResult(index, { status: 'failed', reason: 'apiErrors.cancelled' });
        continue;
      }
      let result: BulkItemResult<V>;
      try {
        result = { status: 'ok', value: await work(items[index] as T, signal) };
      } catch (error) {
        result = { status: 'failed', reason: reasonKeyOf(error) };
      }
      onResult(index, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * What a bulk actor sends its parent. `index` is the item's position in the run's `items`. `bulk.stopped`
 * (a {@link chainedBulkActor} only): the item's error stops the run; it and the items after it are not
 * reported.
 */
export type BulkEvent<V> =
  | { type: 'bulk.result'; index: number; result: BulkItemResult<V> }
  | { type: 'bulk.finished' }
  | { type: 'bulk.stopped'; index: number; error: unknown };

/** Input of every bulk actor: the machine's own fields plus the items and the bound. */
export type BulkInput<TBase, T> = TBase & { items: readonly T[]; concurrency: number };

/**
 * A callback actor running {@link runBulk} with `work`, reporting each result and then `bulk.finished`.
 * Leaving the invoking state (cancel) or stopping the machine aborts the run; nothing is sent after.
 */
export function bulkActor<TBase, T, V>(work: (input: TBase, item: T, signal: AbortSignal) => Promise<V>) {
  return fromCallback<EventObject, BulkInput<TBase, T>>(({ input, sendBack }) => {
    const controller = new AbortController();
    let open = true;
    const report = (event: BulkEvent<V>) => {
      if (open) sendBack(event);
    };
    void runBulk(
      input.items,
      (item, signal) => work(input, item, signal),
      (index, result) => report({ type: 'bulk.result', index, result }),
      {
        concurrency: input.concurrency,
        signal: controller.signal,
      },
    ).then(() => report({ type: 'bulk.finished' }));
    return () => {
      open = false;
      controller.abort();
    };
  });
}

/** Input of a {@link chainedBulkActor}: a bulk actor's, and the version the first call sends. */
export type ChainedBulkInput<TBase, T> = BulkInput<TBase, T> & { version: number | null };

/**
 * A callback actor running the items one at a time, each call sending the version the previous answer
 * carried (`next` reads it; the first sends `input.version`): a record whose every change raises one
 * version, saved as several calls (docs/lists.md, Conflict notice: the features editor). Parallel calls
 * with one version would refuse all but the first as stale. An error `stops` accepts ends the run with
 * `bulk.stopped` (nothing after it is sent); any other error fails its item and the run goes on with the
 * same version (a refused call raises none). Without a version (a server that keeps none) nothing
 * chains: the items run `concurrency` at a time, as {@link bulkActor}'s. Leaving the invoking state or
 * stopping the machine aborts it.
 */
export function chainedBulkActor<TBase, T, V>(
  work: (input: TBase, item: T, version: number | null, signal: AbortSignal) => Promise<V>,
  next: (value: V) => number | null,
  stops: (error: unknown) => boolean,
) {
  return fromCallback<EventObject, ChainedBulkInput<TBase, T>>(({ input, sendBack }) => {
    const controller = new AbortController();
    let open = true;
    const report = (event: BulkEvent<V>) => {
      if (open) sendBack(event);
    };
    const run = async () => {
      if (input.version === null) {
        await runBulk(
          input.items,
          (item, signal) => work(input, item, null, signal),
          (index, result) => report({ type: 'bulk.result', index, result }),
          { concurrency: input.concurrency, signal: controller.signal },
        );
        report({ type: 'bulk.finished' });
        return;
      }
      let version: number | null = input.version;
      for (const [index, item] of input.items.entries()) {
        try {
          const value = await work(input, item, version, controller.signal);
          version = next(value) ?? version;
          report({ type: 'bulk.result', index, result: { status: 'ok', value } });
        } catch (error) {
          if (controller.signal.aborted) return;
          if (stops(error)) {
            report({ type: 'bulk.stopped', index, error });
            return;
          }
          report({ type: 'bulk.result', index, result: { status: 'failed', reason: reasonKeyOf(error) } });
        }
      }
      report({ type: 'bulk.finished' });
    };
    void run();
    return () => {
      open = false;
      controller.abort();
    };
  });
}

/**
 * The global loading overlay (docs/product.md, Loading indicator) as the parent wires it, usually to the preferences machine.
 * Bulk runs suspend it so N calls do not flash it N times, and always resume it.
 */
export interface OverlayControl {
  suspend(): void;
  resume(): void;
}

/**
 * Holds the overlay off while it runs. Invoked by the running state, so the overlay is resumed on every
 * way out: success, partial failure, error, cancel, and the machine being stopped mid-run (exit actions
 * do not run on stop; an invoked actor's cleanup does).
 */
export const overlayHold = fromCallback<EventObject, { overlay: OverlayControl }>(({ input }) => {
  input.overlay.suspend();
  return () => input.overlay.resume();
});

/** How a run ended. */
export type BulkOutcome = 'success' | 'partial' | 'error' | 'cancelled';

/** One item of a run: `result` is null until it is reported. */
export interface BulkEntry<T, V> {
  item: T;
  result: BulkItemResult<V> | null;
}

/** A run as machines keep it in context. */
export interface BulkRun<T, V> {
  entries: readonly BulkEntry<T, V>[];
  outcome: BulkOutcome | null;
}

/** Progress for "n of m": reported items, failed items, all items. */
export interface BulkProgress {
  done: number;
  failed: number;
  total: number;
}

export const emptyRun = <T, V>(): BulkRun<T, V> => ({ entries: [], outcome: null });

export function startRun<T, V>(items: readonly T[]): BulkRun<T, V> {
  return { entries: items.map((item) => ({ item, result: null })), outcome: null };
}

/** Stores a result; a second report for the same item is ignored, so each item counts once. */
export function recordResult<T, V>(run: BulkRun<T, V>, index: number, result: BulkItemResult<V>): BulkRun<T, V> {
  if (run.entries[index]?.result !== null) return run;
  return { ...run, entries: run.entries.map((entry, i) => (i === index ? { ...entry, result } : entry)) };
}

/** Ends a run: after a cancel, every unreported item is failed as cancelled (its outcome is unknown). */
export function finishRun<T, V>(run: BulkRun<T, V>, cancelled: boolean): BulkRun<T, V> {
  const cancelledResult: BulkItemResult<V> = { status: 'failed', reason: 'apiErrors.cancelled' };
  const entries = run.entries.map((entry) => (entry.result === null ? { ...entry, result: cancelledResult } : entry));
  const failed = entries.filter((entry) => entry.result?.status === 'failed').length;
  const outcome: BulkOutcome = cancelled
    ? 'cancelled'
    : failed === 0
      ? 'success'
      : failed === entries.length
        ? 'error'
        : 'partial';
  return { entries, outcome };
}

export function runProgress(run: BulkRun<unknown, unknown>): BulkProgress {
  let done = 0;
  let failed = 0;
  for (const entry of run.entries) {
    if (entry.result === null) continue;
    done += 1;
    if (entry.result.status === 'failed') failed += 1;
  }
  return { done, failed, total: run.entries.length };
}

/** The items whose last result is a failure: what a retry runs again. */
export function failedItems<T>(run: BulkRun<T, unknown>): T[] {
  return run.entries.filter((entry) => entry.result?.status === 'failed').map((entry) => entry.item);
}

/** What a machine running bulk runs keeps in its context for {@link bulkRunStates}. */
export interface BulkRunContext<T, V, TRest = unknown> {
  rest: TRest;
  tenantName: string;
  overlay: OverlayControl;
  concurrency: number;
  run: BulkRun<T, V>;
}

/** The names a machine gives the shared running state's actor and cancel event. */
export interface BulkRunNames<TWorker extends string, TCancel extends string> {
  /** The bulk actor's id and `src` in the machine's `setup`. */
  worker: TWorker;
  /** The event that cancels the run. */
  cancel: TCancel;
}

/**
 * The running state every bulk run goes through (features save, webhook generation): the overlay held
 * off, the bulk actor over the run's items, each result recorded, and `done` when the last item is
 * reported or the run is cancelled (unstarted items then fail as cancelled). The machine's `setup`
 * names `overlayHold`, the `worker` actor and the actions `recordResult` and `finishRun`.
 */
export function bulkRunningState<T, V, TRest, TWorker extends string, TCancel extends string>(
  names: BulkRunNames<TWorker, TCancel>,
) {
  type Context = BulkRunContext<T, V, TRest>;
  return {
    tags: ['busy'],
    invoke: [
      {
        id: 'overlayHold' as const,
        src: 'overlayHold' as const,
        input: ({ context }: { context: Context }) => ({ overlay: context.overlay }),
      },
      {
        id: names.worker,
        src: names.worker,
        input: ({ context }: { context: Context }) => ({
          rest: context.rest,
          tenantName: context.tenantName,
          items: context.run.entries.map((entry) => entry.item),
          concurrency: context.concurrency,
        }),
      },
    ],
    on: {
      'bulk.result': {
        actions: {
          type: 'recordResult',
          params: ({ event }: { event: { index: number; result: BulkItemResult<V> } }) => ({
            index: event.index,
            result: event.result,
          }),
        },
      },
      'bulk.finished': { target: 'done', actions: { type: 'finishRun', params: { cancelled: false } } },
      ...({
        [names.cancel]: { target: 'done', actions: { type: 'finishRun', params: { cancelled: true } } },
      } as Record<TCancel, { target: 'done'; actions: { type: 'finishRun'; params: { cancelled: true } } }>),
    } as const,
  };
}

/**
 * The transitions out of `done` every bulk run shares: `retry` runs the failed items again (guard
 * `hasFailures`, action `startRetry`), `dismiss` forgets the run (action `clearRun`) and goes `back` to
 * editing. The machine adds its own edits that leave `done`.
 */
export function bulkDoneTransitions<
  TRunning extends string,
  TBack extends string,
  TRetry extends string,
  TDismiss extends string,
>(names: { running: TRunning; back: TBack; retry: TRetry; dismiss: TDismiss }) {
  return {
    ...({ [names.retry]: { guard: 'hasFailures', target: names.running, actions: 'startRetry' } } as Record<
      TRetry,
      { guard: 'hasFailures'; target: TRunning; actions: 'startRetry' }
    >),
    ...({ [names.dismiss]: { target: names.back, actions: 'clearRun' } } as Record<
      TDismiss,
      { target: TBack; actions: 'clearRun' }
    >),
  };
}
