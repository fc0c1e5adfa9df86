import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { failed, succeeded, type Outcome } from '../shared/outcome';

/**
 * Undo of one recorded change (docs/lists.md, Undo on the server; contracts/openapi.yaml `auditUndo`),
 * from the toast of the change ("Desfazer") or from the audit record's detail. `idle` → `undo` →
 * `undoing` (tag `busy`) → `undone` (the reversing record in `by`, which can itself be undone) or a
 * refusal: `conflict` (the record changed since: each field's recorded value beside the value now),
 * `expired`, `alreadyUndone`, `refused` (403/404/`not_undoable` or the operation's own conflict), or
 * `failed` (network, 5xx), from which `undo` tries again. Each ending emits an `outcome` whose toast
 * says what happened.
 */

export type UndoConflictRow = NonNullable<components['schemas']['UndoConflict']['conflicts']>[number];

export interface UndoInput {
  rest: RestClient;
  recordId: number;
}

export interface UndoContext {
  rest: RestClient;
  recordId: number;
  /** The record that undid it, once undone. */
  by: number | null;
  /** The rows whose target changed since (409 `undo_conflict`). */
  conflicts: UndoConflictRow[];
  /** The server's message for a refusal (`refused`). */
  message: string | null;
}

export type UndoEvent = { type: 'undo' };

/** Why a refused undo was refused, from the answer. */
type Refusal = 'conflict' | 'expired' | 'alreadyUndone' | 'refused' | 'failed';

export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 403 || error.status === 404) return 'refused';
  if (error.status !== 409) return 'failed';
  const code = (error.body as { error?: unknown } | null)?.error;
  if (code === 'undo_conflict') return 'conflict';
  if (code === 'undo_expired') return 'expired';
  if (code === 'already_undone') return 'alreadyUndone';
  return 'refused';
}

const conflictsOf = (error: unknown): UndoConflictRow[] =>
  error instanceof ApiError ? ((error.body as { conflicts?: UndoConflictRow[] } | null)?.conflicts ?? []) : [];

const messageOf = (error: unknown): string | null =>
  error instanceof ApiError ? ((error.body as { message?: unknown } | null)?.message?.toString() ?? null) : null;

export const undoMachine = setup({
  types: {
    input: {} as UndoInput,
    context: {} as UndoContext,
    events: {} as UndoEvent,
    emitted: {} as Outcome<'undo'>,
  },
  actors: {
    undoRecord: fromPromise<{ undone: number; by: number }, { rest: RestClient; recordId: number }>(
      async ({ input, signal }) =>
        unwrap(
          await input.rest.POST('/api/audit/{id}/undo', {
            params: { path: { id: input.recordId } },
            signal,
          }),
        ),
    ),
  },
  guards: {
    is: ({ event }, refusal: Refusal) => refusalOf((event as { error?: unknown }).error) === refusal,
  },
  actions: {
    keepRefusal: assign(({ event }) => {
      const error = (event as { error?: unknown }).error;
      return { conflicts: conflictsOf(error), message: messageOf(error) };
    }),
  },
}).createMachine({
  id: 'undo',
  context: ({ input }) => ({ rest: input.rest, recordId: input.recordId, by: null, conflicts: [], message: null }),
  initial: 'idle',
  states: {
    idle: { on: { undo: 'undoing' } },
    undoing: {
      tags: ['busy'],
      invoke: {
        id: 'undoRecord',
        src: 'undoRecord',
        input: ({ context }) => ({ rest: context.rest, recordId: context.recordId }),
        onDone: {
          target: 'undone',
          actions: [
            assign(({ event }) => ({ by: event.output.by })),
            emit(() => succeeded('undo', { key: 'undo.toast.undone' })),
          ],
        },
        onError: [
          {
            guard: { type: 'is', params: 'conflict' },
            target: 'conflict',
            actions: [
              'keepRefusal',
              emit(() => failed('undo', { variant: 'error', title: { key: 'undo.toast.conflict' } })),
            ],
          },
          {
            guard: { type: 'is', params: 'expired' },
            target: 'expired',
            actions: [
              'keepRefusal',
              emit(() => failed('undo', { variant: 'error', title: { key: 'undo.toast.expired' } })),
            ],
          },
          {
            guard: { type: 'is', params: 'alreadyUndone' },
            target: 'alreadyUndone',
            actions: [
              'keepRefusal',
              emit(() => failed('undo', { variant: 'info', title: { key: 'undo.toast.alreadyUndone' } })),
            ],
          },
          {
            guard: { type: 'is', params: 'refused' },
            target: 'refused',
            actions: [
              'keepRefusal',
              emit(() => failed('undo', { variant: 'error', title: { key: 'undo.toast.refused' } })),
            ],
          },
          {
            target: 'failed',
            actions: [
              'keepRefusal',
              emit(() => failed('undo', { variant: 'error', title: { key: 'undo.toast.failed' } })),
            ],
          },
        ],
      },
    },
    undone: { type: 'final' },
    conflict: { type: 'final' },
    expired: { type: 'final' },
    alreadyUndone: { type: 'final' },
    refused: { type: 'final' },
    failed: { on: { undo: 'undoing' } },
  },
});

export type UndoSnapshot = SnapshotFrom<typeof undoMachine>;

/** What the view shows of an undo: where it is, and the conflicting rows. */
export function selectUndo(snapshot: UndoSnapshot) {
  return {
    state: snapshot.value as
      'idle' | 'undoing' | 'undone' | 'conflict' | 'expired' | 'alreadyUndone' | 'refused' | 'failed',
    conflicts: snapshot.context.conflicts,
    by: snapshot.context.by,
  };
}
