import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components, operations } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import {
  emptyRun,
  failedItems,
  finishRun,
  overlayHold,
  recordResult,
  runProgress,
  startRun,
  type BulkProgress,
  type BulkRun,
  type OverlayControl,
} from './bulk-run';
import { actionError, reasonKeyOf, type ActionError } from './request-error';

/**
 * The one machine of every bulk action (docs/lists.md, Bulk actions): users (block, unblock, require
 * two-factor, end sessions, delete) and tenants (a feature on or off). A run is:
 *
 * 1. `resolving` — "all N matching" becomes ids (`GET /api/users/ids`, `POST /api/tenant/ids`); a
 *    selection of ids skips it;
 * 2. `dryRunning` — the ids in chunks of at most 100 with `dry_run: true`: nothing is written;
 * 3. `review` — what would change, what is already as asked, what would be refused and why;
 * 4. `running` — the rows that would change, chunk by chunk; the first chunk opens the batch and the
 *    others send its `batch_id` back; `bulk.cancel` stops between chunks (the chunk in flight finishes:
 *    the server is already doing it), the rows never sent end failed as cancelled;
 * 5. `done` — a result per row; `bulk.retry` runs the failed rows again in the same batch.
 *
 * The run's bookkeeping is src/machines/shared/bulk-run.ts's (one entry per row, each reported once;
 * outcome success / partial / error / cancelled; the failed rows are what a retry runs), and so is the
 * global loading overlay held off while chunks run. `failed` holds a refusal of the whole request
 * (ids could not be listed, a dry run failed): `bulk.retry` starts over, `bulk.close` gives up.
 */

export type BulkAnswer = components['schemas']['BulkAnswer'];
export type BulkRowResult = components['schemas']['BulkResult'];
export type UserBulkAction = components['schemas']['UserBulkRequest']['action'];
type UserIdsQuery = NonNullable<operations['userIds']['parameters']['query']>;
type TenantIdsBody = components['schemas']['TenantFilterRequest'];

/** What is done to each row. */
export type BulkTarget =
  { kind: 'users'; action: UserBulkAction } | { kind: 'tenantFeature'; option: string; enabled: boolean };

/** Which rows: ids picked by hand, or every row a list's filters match (resolved when the run starts). */
export type BulkSelection =
  | { kind: 'ids'; ids: readonly number[] }
  | { kind: 'matching'; list: 'users'; query: UserIdsQuery }
  | { kind: 'matching'; list: 'tenants'; body: Partial<TenantIdsBody> };

/** The most ids one request carries (contracts/openapi.yaml `BulkIds`). */
export const BULK_CHUNK = 100;

export interface BulkActionInput {
  rest: RestClient;
  target: BulkTarget;
  selection: BulkSelection;
  overlay: OverlayControl;
  /** Ids per request (1–100, default {@link BULK_CHUNK}); tests use smaller chunks. */
  chunkSize?: number;
}

/** A row of the dry run, by id. */
export type DryRow = Pick<BulkRowResult, 'id' | 'name' | 'outcome' | 'reason' | 'message'>;

export interface BulkActionContext {
  rest: RestClient;
  target: BulkTarget;
  selection: BulkSelection;
  overlay: OverlayControl;
  chunkSize: number;
  /** Every selected id, in the list's order (after `resolving`). */
  ids: number[];
  /** The dry run's answer per id, in the order answered. */
  dry: DryRow[];
  /** Where the next chunk starts, in `ids` (dry run) or in the run's entries (real run). */
  cursor: number;
  /** The batch's audit record, once the first real chunk answered it. */
  batchId: number | null;
  /** The real run: one entry per row sent, each with the server's answer or why it failed. */
  run: BulkRun<number, BulkRowResult>;
  /** Cancel asked while a chunk was in flight: stop once it answers. */
  cancelling: boolean;
  /** Why the whole request failed (`failed`). */
  error: ActionError | null;
}

export type BulkActionEvent =
  { type: 'bulk.confirm' } | { type: 'bulk.cancel' } | { type: 'bulk.retry' } | { type: 'bulk.close' };

interface ChunkInput {
  rest: RestClient;
  target: BulkTarget;
  ids: number[];
  dryRun: boolean;
  batchId: number | null;
  total: number;
}

/** One request of a run: the target's operation with these ids. */
export async function sendChunk(input: ChunkInput, signal?: AbortSignal): Promise<BulkAnswer> {
  const common = {
    ids: input.ids,
    dry_run: input.dryRun,
    total: input.total,
    ...(input.batchId === null ? {} : { batch_id: input.batchId }),
  };
  if (input.target.kind === 'users')
    return unwrap(
      await input.rest.POST('/api/users/bulk', { body: { ...common, action: input.target.action }, signal }),
    );
  return unwrap(
    await input.rest.POST('/api/tenant/features/bulk', {
      body: { ...common, option: input.target.option, enabled: input.target.enabled },
      signal,
    }),
  );
}

/** The ids a selection stands for. */
export async function resolveSelection(rest: RestClient, selection: BulkSelection, signal?: AbortSignal) {
  if (selection.kind === 'ids') return [...new Set(selection.ids)];
  if (selection.list === 'users')
    return unwrap(await rest.GET('/api/users/ids', { params: { query: selection.query }, signal })).ids;
  const body: TenantIdsBody = {
    filter_users: false,
    search: '',
    sort_type: 'DESC',
    only_deleted: false,
    ...selection.body,
  };
  return unwrap(await rest.POST('/api/tenant/ids', { body, signal })).ids;
}

const FAILED_ROW: I18nKey = 'bulkAction.reason.failed';

/** The rows that would change: what the real run sends. */
export const wouldChange = (context: Pick<BulkActionContext, 'dry'>): number[] =>
  context.dry.filter((row) => row.outcome === 'change').map((row) => row.id);

export const bulkActionMachine = setup({
  types: {
    input: {} as BulkActionInput,
    context: {} as BulkActionContext,
    events: {} as BulkActionEvent,
  },
  actors: {
    resolveIds: fromPromise<number[], { rest: RestClient; selection: BulkSelection }>(({ input, signal }) =>
      resolveSelection(input.rest, input.selection, signal),
    ),
    sendChunk: fromPromise<BulkAnswer, ChunkInput>(({ input, signal }) => sendChunk(input, signal)),
    overlayHold,
  },
  guards: {
    hasChanges: ({ context }) => wouldChange(context).length > 0,
    runLeft: ({ context }) => !context.cancelling && context.cursor < context.run.entries.length,
    hasFailures: ({ context }) => failedItems(context.run).length > 0,
  },
  actions: {
    storeIds: assign((_, ids: number[]) => ({ ids: [...new Set(ids)], dry: [], cursor: 0, error: null })),
    storeDry: assign(({ context }, answer: BulkAnswer) => ({
      dry: [
        ...context.dry,
        ...answer.results.map(({ id, name, outcome, reason, message }) => ({ id, name, outcome, reason, message })),
      ],
      cursor: context.cursor + context.chunkSize,
    })),
    storeError: assign((_, params: { key: I18nKey; error: unknown }) => ({
      error: actionError(params.key, params.error),
    })),
    restart: assign({ ids: () => [], dry: () => [], cursor: 0, error: null }),
    startRun: assign(({ context }) => ({
      run: startRun<number, BulkRowResult>(wouldChange(context)),
      cursor: 0,
      cancelling: false,
      batchId: null,
    })),
    startRetry: assign(({ context }) => ({
      run: startRun<number, BulkRowResult>(failedItems(context.run)),
      cursor: 0,
      cancelling: false,
    })),
    storeChunk: assign(({ context }, answer: BulkAnswer) => {
      let run = context.run;
      const byId = new Map(answer.results.map((row) => [row.id, row]));
      const end = Math.min(context.cursor + context.chunkSize, run.entries.length);
      for (let index = context.cursor; index < end; index += 1) {
        const row = byId.get(run.entries[index]?.item ?? -1);
        run = recordResult(
          run,
          index,
          !row
            ? { status: 'failed', reason: FAILED_ROW }
            : row.outcome === 'failed'
              ? { status: 'failed', reason: FAILED_ROW }
              : { status: 'ok', value: row },
        );
      }
      return { run, cursor: end, batchId: context.batchId ?? answer.batch_id };
    }),
    failChunk: assign(({ context }, params: { error: unknown }) => {
      let run = context.run;
      const reason = reasonKeyOf(params.error);
      const end = Math.min(context.cursor + context.chunkSize, run.entries.length);
      for (let index = context.cursor; index < end; index += 1)
        run = recordResult(run, index, { status: 'failed', reason });
      return { run, cursor: end };
    }),
    askCancel: assign({ cancelling: true }),
    finishRun: assign(({ context }) => ({ run: finishRun(context.run, context.cancelling) })),
  },
}).createMachine({
  id: 'bulkAction',
  context: ({ input }) => ({
    rest: input.rest,
    target: input.target,
    selection: input.selection,
    overlay: input.overlay,
    chunkSize: Math.min(BULK_CHUNK, Math.max(1, Math.floor(input.chunkSize ?? BULK_CHUNK))),
    ids: [],
    dry: [],
    cursor: 0,
    batchId: null,
    run: emptyRun(),
    cancelling: false,
    error: null,
  }),
  initial: 'resolving',
  states: {
    resolving: {
      tags: ['busy'],
      invoke: {
        src: 'resolveIds',
        id: 'resolveIds',
        input: ({ context }) => ({ rest: context.rest, selection: context.selection }),
        onDone: [
          {
            guard: ({ event }) => event.output.length > 0,
            target: 'dryRunning',
            actions: { type: 'storeIds', params: ({ event }) => event.output },
          },
          // Nothing matches (any more): the review says so, and there is nothing to confirm.
          { target: 'review', actions: { type: 'storeIds', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'failed',
          actions: {
            type: 'storeError',
            params: ({ event }) => ({ key: 'bulkAction.errors.select', error: event.error }),
          },
        },
      },
      on: { 'bulk.cancel': 'closed', 'bulk.close': 'closed' },
    },
    dryRunning: {
      tags: ['busy'],
      invoke: {
        src: 'sendChunk',
        id: 'dryChunk',
        input: ({ context }) => ({
          rest: context.rest,
          target: context.target,
          ids: context.ids.slice(context.cursor, context.cursor + context.chunkSize),
          dryRun: true,
          batchId: null,
          total: context.ids.length,
        }),
        onDone: [
          {
            guard: ({ context }) => context.cursor + context.chunkSize < context.ids.length,
            target: 'dryRunning',
            reenter: true,
            actions: { type: 'storeDry', params: ({ event }) => event.output },
          },
          { target: 'review', actions: { type: 'storeDry', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'failed',
          actions: {
            type: 'storeError',
            params: ({ event }) => ({ key: 'bulkAction.errors.dryRun', error: event.error }),
          },
        },
      },
      on: { 'bulk.cancel': 'closed', 'bulk.close': 'closed' },
    },
    review: {
      on: {
        'bulk.confirm': { guard: 'hasChanges', target: 'running', actions: 'startRun' },
        'bulk.close': 'closed',
        'bulk.cancel': 'closed',
      },
    },
    running: {
      tags: ['busy'],
      invoke: { id: 'overlayHold', src: 'overlayHold', input: ({ context }) => ({ overlay: context.overlay }) },
      initial: 'chunk',
      states: {
        chunk: {
          invoke: {
            src: 'sendChunk',
            id: 'runChunk',
            input: ({ context }) => ({
              rest: context.rest,
              target: context.target,
              ids: context.run.entries.slice(context.cursor, context.cursor + context.chunkSize).map((e) => e.item),
              dryRun: false,
              batchId: context.batchId,
              total: context.ids.length,
            }),
            onDone: { target: 'next', actions: { type: 'storeChunk', params: ({ event }) => event.output } },
            onError: {
              target: 'next',
              actions: { type: 'failChunk', params: ({ event }) => ({ error: event.error }) },
            },
          },
          on: { 'bulk.cancel': { actions: 'askCancel' } },
        },
        next: {
          always: [{ guard: 'runLeft', target: 'chunk' }, { target: '#bulkAction.done' }],
        },
      },
      exit: 'finishRun',
    },
    done: {
      on: {
        'bulk.retry': { guard: 'hasFailures', target: 'running', actions: 'startRetry' },
        'bulk.close': 'closed',
      },
    },
    failed: {
      on: {
        'bulk.retry': { target: 'resolving', actions: 'restart' },
        'bulk.close': 'closed',
      },
    },
    closed: { type: 'final' },
  },
});

export type BulkActionSnapshot = SnapshotFrom<typeof bulkActionMachine>;

/** The dry run in three groups, for the review. */
export function dryRunGroups(snapshot: BulkActionSnapshot): {
  change: DryRow[];
  unchanged: DryRow[];
  refused: DryRow[];
} {
  const { dry } = snapshot.context;
  return {
    change: dry.filter((row) => row.outcome === 'change'),
    unchanged: dry.filter((row) => row.outcome === 'unchanged'),
    refused: dry.filter((row) => row.outcome === 'refused'),
  };
}

/** "n of m" of the real run. */
export function bulkProgress(snapshot: BulkActionSnapshot): BulkProgress {
  return runProgress(snapshot.context.run);
}

/** A row of the results: its name (from the dry run), the server's outcome, or why it failed. */
export interface BulkResultRow {
  id: number;
  name: string | null;
  outcome: 'changed' | 'unchanged' | 'refused' | 'failed';
  reason: string | null;
  failure: I18nKey | null;
}

export function bulkResultRows(snapshot: BulkActionSnapshot): BulkResultRow[] {
  const names = new Map(snapshot.context.dry.map((row) => [row.id, row.name]));
  return snapshot.context.run.entries.map(({ item, result }) => {
    const name = names.get(item) ?? null;
    if (result === null || result.status === 'failed')
      return { id: item, name, outcome: 'failed', reason: null, failure: result?.reason ?? null };
    const value = result.value;
    const outcome = value.outcome === 'changed' || value.outcome === 'unchanged' ? value.outcome : 'refused';
    return { id: item, name: value.name ?? name, outcome, reason: value.reason ?? null, failure: null };
  });
}
