import { assertEvent, assign, emit, fromPromise, setup, type PromiseActorLogic } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import type { AuditTargetType } from '../../domain/audit';
import type { I18nKey } from '../../domain/i18n-key';
import { recordNameProblem, type RecordNameProblem } from '../../domain/record-name';
import type { AppBus } from './app-bus';
import {
  checkRemote,
  conflictChoices,
  conflictGuards,
  conflictReload,
  liveConflict,
  reloadFailure,
  remoteCheckGuards,
  remoteCheckTransitions,
  remoteNoted,
  restAuditReader,
  staleOf,
  staleSave,
  versionOf,
  watchTarget,
  type Conflict,
  type ConflictEvent,
  type ConflictField,
  type RemoteCheck,
} from './conflict';
import { failed, succeeded, type Outcome } from './outcome';
import { actionError, refusedFields, type ActionError } from './request-error';

/**
 * One machine for a list of named records that are created and renamed in a name dialog and
 * activated or deactivated from their row: the departments screen (departments/departments.machine.ts)
 * and the instances panel's connections (instances/connections.machine.ts) each provide their own
 * calls and texts. A name is checked before it is sent (src/domain/record-name.ts: blank, over 80
 * characters, another record's name in the same scope ignoring case); a name the server refuses (409,
 * two staff at once) shows on the dialog's field, and a change to a record that no longer exists (404)
 * removes it from the list. Nothing is changed locally until the server agrees.
 *
 * The rename dialog is an edit form with the conflict notice (docs/lists.md, Conflict notice;
 * src/machines/shared/conflict.ts): it keeps the version of the record it opened and sends it; a stale
 * rename, or a change of the record announced while the dialog is open, shows who changed what beside the
 * name typed, to reapply or discard. Creating and (de)activating from the row send no version.
 */

/** What the machine needs of a record. */
export interface NamedRecord {
  id: number;
  name: string;
  activated: boolean;
  /** The record's version (docs/lists.md, Versions); absent from a server that keeps none. */
  version?: number;
}

/** The calls of a named-records list; each ends in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type RecordAction = 'create' | 'rename' | 'activate';

/** One change sent to the server. `scope` is where a new record goes (a connection's instance). */
export type RecordChange<TScope> =
  | { kind: 'create'; scope: TScope; name: string }
  /** `version`: the one the dialog loaded (null: none known, last write wins). */
  | { kind: 'rename'; id: number; name: string; version: number | null }
  | { kind: 'activate'; id: number; activated: boolean };

/** The open dialog: a new record in a scope, or a rename. */
export type RecordDialog<TRecord, TScope> =
  { kind: 'create'; scope: TScope } | { kind: 'rename'; record: TRecord } | null;

/** The texts of one use of the machine (i18n keys). */
export interface RecordTexts {
  nameRequired: I18nKey;
  nameTooLong: I18nKey;
  nameTaken: I18nKey;
  /** A call failed: `errors.create`, `errors.rename`, `errors.activate`. */
  errors: Readonly<Record<RecordAction, I18nKey>>;
  /** A call succeeded (`{{name}}` is the record's name). */
  notices: Readonly<Record<'created' | 'renamed' | 'activated' | 'deactivated', I18nKey>>;
}

export interface NamedRecordsInput {
  rest: RestClient;
  /** The tenant the records belong to (`tenantName` on every call). */
  tenantName: string;
  /** The app's bus: the rename dialog hears changes of its record (none: it learns of them on save). */
  bus?: AppBus | null;
}

export interface NamedRecordsContext<TRecord extends NamedRecord, TScope> extends NamedRecordsInput {
  records: TRecord[];
  listError: ActionError | null;
  dialog: RecordDialog<TRecord, TScope>;
  /** The change in flight (kept after it ends, for its outcome; replaced by the next). */
  pending: RecordChange<TScope> | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
  bus: AppBus | null;
  /** The rename dialog's record version as loaded (sent with the rename). */
  version: number | null;
  /** The rename dialog's name as typed (`records.draft`), null while untouched. */
  draft: string | null;
  /** Raised when the machine replaces the dialog's record (a reload after a change elsewhere): the form starts again. */
  formKey: number;
  conflict: Conflict | null;
  /** Audit records announced since the last check. */
  remoteIds: number[];
}

export type NamedRecordsEvent<TRecord extends NamedRecord, TScope> =
  /** Load the list again (a machine that loads its own list). */
  | { type: 'records.reload' }
  /** The list as its owner loaded it (a machine that does not load its own); replaces this one. */
  | { type: 'records.set'; records: TRecord[] }
  | { type: 'records.createOpen'; scope: TScope }
  | { type: 'records.renameOpen'; id: number }
  | { type: 'records.close' }
  | { type: 'records.submit'; name: string }
  | { type: 'records.activate'; id: number; activated: boolean }
  /** The rename dialog's name as typed. */
  | { type: 'records.draft'; name: string }
  | ConflictEvent;

/** The calls of one use: `save` always; `load` (and the text of its failure) when the machine loads its own list. */
export interface RecordCalls<TRecord extends NamedRecord, TScope> {
  load?: { call: PromiseActorLogic<TRecord[], NamedRecordsInput>; failed: I18nKey };
  save: PromiseActorLogic<TRecord, NamedRecordsInput & { change: RecordChange<TScope> }>;
  /** Reads one record as stored now (the conflict notice's reload); fails 404 when it is gone. */
  loadOne: (input: NamedRecordsInput & { id: number }, signal: AbortSignal) => Promise<TRecord>;
}

export interface NamedRecordsSpec<TRecord extends NamedRecord, TScope> {
  /** The machine's id (and the root of its state ids). */
  id: string;
  /** The audit target type of a record (its `AuditRecorded` events, its audit records). */
  targetType: AuditTargetType;
  texts: RecordTexts;
  calls: RecordCalls<TRecord, TScope>;
  /**
   * Names are unique within a scope: the key of a record's scope, and of the scope a new record goes
   * to (compared with `===`).
   */
  scopeKey: { ofRecord: (record: TRecord) => unknown; ofCreate: (scope: TScope) => unknown };
  /** Keeps the list's order after a load or a change (default: as the server answered, new ones last). */
  order?: (a: TRecord, b: TRecord) => number;
}

function actionOf(pending: RecordChange<unknown> | null): RecordAction {
  return pending?.kind ?? 'create';
}

/** The state of the `ready` region (`idle`, `renaming`, `conflict`…), null while loading or failed. */
export function renameStep(snapshot: { value: unknown }): string | null {
  const { value } = snapshot;
  return typeof value === 'object' && value !== null && 'ready' in value && typeof value.ready === 'string'
    ? value.ready
    : null;
}

/** The rename dialog's unsaved name as the conflict notice shows it: stored → typed, none when unchanged. */
export function unsavedName(context: {
  dialog: RecordDialog<NamedRecord, unknown>;
  draft: string | null;
}): ConflictField[] {
  const { dialog, draft } = context;
  if (dialog?.kind !== 'rename' || draft === null || draft.trim() === dialog.record.name) return [];
  return [{ field: 'name', before: JSON.stringify(dialog.record.name), after: JSON.stringify(draft.trim()) }];
}

/**
 * A named-records machine for one use. With `calls.load` it starts in `loading` (then `failed` or
 * `ready`); without, in `ready`, and its owner sends `records.set`.
 *
 * States: `loading` (tagged `loading`), `failed` (tagged `failed`), `ready.idle` (no dialog, or the create
 * dialog: `dialog`), `ready.renaming` (the rename dialog), `ready.saving` (tagged `busy`), and the rename
 * dialog's conflict notice: `ready.checking`, `ready.conflict`, `ready.reapplying`, `ready.discarding`
 * (tagged `busy`).
 */
export function namedRecordsMachine<TRecord extends NamedRecord, TScope>(spec: NamedRecordsSpec<TRecord, TScope>) {
  const { texts, scopeKey } = spec;
  const load = spec.calls.load;
  const problemKeys: Readonly<Record<RecordNameProblem, I18nKey>> = {
    blank: texts.nameRequired,
    tooLong: texts.nameTooLong,
    taken: texts.nameTaken,
  };
  const sorted = (records: TRecord[]) => (spec.order ? [...records].sort(spec.order) : records);
  /** The rename dialog on `fresh`, the record as stored now (also in the list), with its version and no typing. */
  const freshRecord = (context: NamedRecordsContext<TRecord, TScope>, fresh: TRecord) => ({
    records: sorted(context.records.map((r) => (r.id === fresh.id ? fresh : r))),
    dialog: { kind: 'rename' as const, record: fresh } as RecordDialog<TRecord, TScope>,
    version: versionOf(fresh),
    draft: null,
    formKey: context.formKey + 1,
    remoteIds: [],
    actionError: null,
    fieldErrors: {},
  });
  type Context = NamedRecordsContext<TRecord, TScope>;
  const renamedId = (context: Context) => (context.dialog?.kind === 'rename' ? context.dialog.record.id : null);
  /** The rename dialog's record's audit events (none while no rename dialog is open). */
  const watchRenamed = {
    id: 'watchTarget',
    src: 'watchTarget',
    input: ({ context }: { context: Context }) => ({
      bus: renamedId(context) === null ? null : context.bus,
      targetType: spec.targetType,
      targetId: renamedId(context) ?? 0,
    }),
  } as const;
  /** Reads the rename dialog's record as stored now. */
  const loadRenamed = {
    id: 'loadRecord',
    src: 'loadRecord',
    input: ({ context }: { context: Context }) => ({
      rest: context.rest,
      tenantName: context.tenantName,
      id: renamedId(context) ?? 0,
    }),
  } as const;

  /** The field errors of `name` among the records of the scope `key`, but for the record `exceptId`. */
  const nameProblems = (
    name: string,
    records: readonly TRecord[],
    key: unknown,
    exceptId: number | null,
  ): Record<string, I18nKey> => {
    const others = records.filter((r) => r.id !== exceptId && scopeKey.ofRecord(r) === key).map((r) => r.name);
    const problem = recordNameProblem(name, others);
    return problem ? { name: problemKeys[problem] } : {};
  };
  const problemsOf = (context: NamedRecordsContext<TRecord, TScope>, name: string): Record<string, I18nKey> => {
    const { dialog } = context;
    if (dialog?.kind === 'create') return nameProblems(name, context.records, scopeKey.ofCreate(dialog.scope), null);
    if (dialog?.kind === 'rename')
      return nameProblems(name, context.records, scopeKey.ofRecord(dialog.record), dialog.record.id);
    return { name: texts.nameRequired };
  };

  const refusedReport = (context: Context) => ({
    action: actionOf(context.pending),
    record: null,
    error: context.actionError,
  });

  const machineSetup = setup({
    types: {
      input: {} as NamedRecordsInput,
      context: {} as NamedRecordsContext<TRecord, TScope>,
      events: {} as NamedRecordsEvent<TRecord, TScope>,
      emitted: {} as Outcome<RecordAction>,
    },
    actors: {
      // A machine without a load of its own has no `loading` state, so this stand-in is never invoked.
      loadRecords:
        load?.call ??
        fromPromise<TRecord[], NamedRecordsInput>(() => Promise.reject(new Error(`${spec.id} has no load`))),
      saveRecord: spec.calls.save,
      loadRecord: fromPromise<TRecord, NamedRecordsInput & { id: number }>(({ input, signal }) =>
        spec.calls.loadOne(input, signal),
      ),
      watchTarget,
      checkRemote: checkRemote<TRecord>(),
    },
    guards: {
      validName: ({ context, event }) => {
        assertEvent(event, 'records.submit');
        return context.dialog !== null && Object.keys(problemsOf(context, event.name)).length === 0;
      },
      known: ({ context, event }) => {
        assertEvent(event, ['records.renameOpen', 'records.activate']);
        return context.records.some((r) => r.id === event.id);
      },
      ...conflictGuards,
      renameStale: ({ context, event }) =>
        context.pending?.kind === 'rename' && staleOf((event as { error?: unknown }).error) !== null,
      renamePending: ({ context }) => context.pending?.kind === 'rename',
      ...remoteCheckGuards((context: Context) => unsavedName(context).length > 0),
      pendingValid: ({ context }) =>
        context.pending?.kind === 'rename' && Object.keys(problemsOf(context, context.pending.name)).length === 0,
    },
    actions: {
      store: assign((_, records: TRecord[]) => ({ records: sorted(records), listError: null })),
      listFailed: assign((_, params: { error: unknown }) => ({
        records: [],
        listError: actionError(load?.failed ?? texts.errors.create, params.error),
      })),
      openCreate: assign(({ event }) => {
        assertEvent(event, 'records.createOpen');
        return { dialog: { kind: 'create' as const, scope: event.scope }, actionError: null, fieldErrors: {} };
      }),
      openRename: assign(({ context, event }) => {
        assertEvent(event, 'records.renameOpen');
        const record = context.records.find((r) => r.id === event.id);
        return {
          dialog: record ? { kind: 'rename' as const, record } : null,
          version: versionOf(record),
          draft: null,
          conflict: null,
          remoteIds: [],
          actionError: null,
          fieldErrors: {},
        };
      }),
      close: assign({
        dialog: null,
        actionError: null,
        fieldErrors: () => ({}),
        version: null,
        draft: null,
        conflict: null,
        remoteIds: () => [],
      }),
      setDraft: assign(({ event }) => {
        assertEvent(event, 'records.draft');
        return { draft: event.name };
      }),
      noteRemote: assign(({ context, event }) => remoteNoted(context, event)),
      checked: assign({ remoteIds: () => [] }),
      conflictLive: assign((_, check: RemoteCheck<TRecord>) => ({
        conflict: liveConflict(check, true),
        remoteIds: [],
      })),
      // Nothing unsaved: the dialog shows the record as stored now, and says what changed.
      refreshedLive: assign(({ context }, check: RemoteCheck<TRecord>) => ({
        ...freshRecord(context, check.record),
        conflict: liveConflict(check, false),
      })),
      conflictSave: assign(({ context }, params: { error: unknown }) => ({
        ...staleSave(params.error),
        // The name sent is what the notice shows as the user's.
        draft: context.pending?.kind === 'rename' ? context.pending.name : context.draft,
      })),
      dismissConflict: assign({ conflict: null }),
      closeRename: assign(({ context }) =>
        context.dialog === null ? { version: null, draft: null, conflict: null, remoteIds: [] } : {},
      ),
      // The name the user typed, laid over the record as stored now, sent with its version.
      reapplied: assign(({ context }, fresh: TRecord) => {
        const name = unsavedName(context).length > 0 ? (context.draft ?? fresh.name).trim() : fresh.name;
        return {
          ...freshRecord(context, fresh),
          draft: name,
          pending: { kind: 'rename' as const, id: fresh.id, name, version: versionOf(fresh) },
          conflict: null,
        };
      }),
      discarded: assign(({ context }, fresh: TRecord) => ({ ...freshRecord(context, fresh), conflict: null })),
      refusePending: assign(({ context }) => ({
        fieldErrors: context.pending?.kind === 'rename' ? problemsOf(context, context.pending.name) : {},
      })),
      reloadFailed: assign((_, params: { error: unknown }) => reloadFailure(params.error)),
      refuse: assign(({ context, event }) => {
        assertEvent(event, 'records.submit');
        return { fieldErrors: problemsOf(context, event.name), actionError: null };
      }),
      begin: assign(({ context, event }) => {
        assertEvent(event, ['records.submit', 'records.activate']);
        const { dialog } = context;
        const pending: RecordChange<TScope> =
          event.type === 'records.activate'
            ? { kind: 'activate', id: event.id, activated: event.activated }
            : dialog?.kind === 'create'
              ? { kind: 'create', scope: dialog.scope, name: event.name.trim() }
              : {
                  kind: 'rename',
                  id: dialog?.kind === 'rename' ? dialog.record.id : 0,
                  name: event.name.trim(),
                  version: context.version,
                };
        return {
          pending,
          actionError: null,
          fieldErrors: {},
          draft: pending.kind === 'rename' ? pending.name : context.draft,
        };
      }),
      saved: assign(({ context }, { record }: { record: TRecord }) => {
        const exists = context.records.some((r) => r.id === record.id);
        return {
          records: sorted(
            exists ? context.records.map((r) => (r.id === record.id ? record : r)) : [...context.records, record],
          ),
          // The dialog that asked closes; an activation has none.
          dialog: actionOf(context.pending) === 'activate' ? context.dialog : null,
        };
      }),
      saveFailed: assign(({ context }, params: { error: unknown }) => {
        const conflict = params.error instanceof ApiError && params.error.status === 409 && !staleOf(params.error);
        const gone = params.error instanceof ApiError && params.error.status === 404;
        const { pending } = context;
        return {
          actionError: actionError(texts.errors[actionOf(pending)], params.error),
          fieldErrors: conflict ? { name: texts.nameTaken } : refusedFields(params.error),
          // A record another session removed or moved: gone from this list too.
          records:
            gone && pending && pending.kind !== 'create'
              ? context.records.filter((r) => r.id !== pending.id)
              : context.records,
        };
      }),
      // A create or rename refused shows on its dialog; an (de)activation refused has no dialog, so it toasts.
      report: emit((_, params: { action: RecordAction; record: TRecord | null; error: ActionError | null }) => {
        if (params.record) {
          const notice =
            params.action === 'activate'
              ? params.record.activated
                ? 'activated'
                : 'deactivated'
              : params.action === 'create'
                ? 'created'
                : 'renamed';
          return succeeded(params.action, { key: texts.notices[notice], params: { name: params.record.name } });
        }
        return failed(
          params.action,
          params.action === 'activate' && params.error
            ? { variant: 'error', title: { key: params.error.key }, description: { key: params.error.reason } }
            : null,
        );
      }),
    },
  });

  return machineSetup.createMachine({
    id: spec.id,
    context: ({ input }) => ({
      rest: input.rest,
      tenantName: input.tenantName,
      bus: input.bus ?? null,
      records: [],
      listError: null,
      dialog: null,
      pending: null,
      actionError: null,
      fieldErrors: {},
      version: null,
      draft: null,
      formKey: 0,
      conflict: null,
      remoteIds: [],
    }),
    initial: load ? 'loading' : 'ready',
    states: {
      // Only a machine that loads its own list has `loading` and `failed`.
      ...(load && {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadRecords',
            src: 'loadRecords',
            input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
            onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: { tags: ['failed'], on: { 'records.reload': 'loading' } },
      }),
      ready: {
        initial: 'idle',
        // A list its owner loads arrives whenever the owner has it, even while a change is saved.
        ...(!load && { on: { 'records.set': { actions: { type: 'store', params: ({ event }) => event.records } } } }),
        states: {
          // No dialog, or the create dialog.
          idle: {
            on: {
              ...(load && { 'records.reload': `#${spec.id}.loading` }),
              'records.createOpen': { actions: 'openCreate' },
              'records.renameOpen': { guard: 'known', target: 'renaming', actions: 'openRename' },
              'records.close': { actions: 'close' },
              'records.submit': [{ guard: 'validName', target: 'saving', actions: 'begin' }, { actions: 'refuse' }],
              'records.activate': { guard: 'known', target: 'saving', actions: 'begin' },
            },
          },
          // The rename dialog, hearing changes of its record.
          renaming: {
            invoke: watchRenamed,
            always: { guard: 'remotePending', target: 'checking' },
            on: {
              'records.draft': { actions: 'setDraft' },
              'records.close': { target: 'idle', actions: 'close' },
              'records.submit': [{ guard: 'validName', target: 'saving', actions: 'begin' }, { actions: 'refuse' }],
              'conflict.remote': { guard: 'news', target: 'checking', actions: 'noteRemote' },
              'conflict.dismiss': { actions: 'dismissConflict' },
            },
          },
          // Whether an announced change is one the dialog has not loaded; the user keeps typing meanwhile.
          checking: {
            invoke: [
              watchRenamed,
              {
                id: 'checkRemote',
                src: 'checkRemote',
                input: ({ context }) => ({
                  targetType: spec.targetType,
                  targetId: renamedId(context) ?? 0,
                  version: context.version,
                  ids: context.remoteIds,
                  load: (signal: AbortSignal) =>
                    spec.calls.loadOne(
                      { rest: context.rest, tenantName: context.tenantName, id: renamedId(context) ?? 0 },
                      signal,
                    ),
                  audit: restAuditReader(context.rest),
                }),
                ...remoteCheckTransitions({ conflict: 'conflict', form: 'renaming' }),
              },
            ],
            on: {
              'records.draft': { actions: 'setDraft' },
              'records.close': { target: 'idle', actions: 'close' },
              'records.submit': [{ guard: 'validName', target: 'saving', actions: 'begin' }, { actions: 'refuse' }],
              'conflict.remote': { guard: 'news', target: 'checking', reenter: true, actions: 'noteRemote' },
            },
          },
          saving: {
            tags: ['busy'],
            // A change announced during a rename is checked if the rename is refused for another reason.
            on: { 'conflict.remote': { guard: 'news', actions: 'noteRemote' } },
            invoke: [
              watchRenamed,
              {
                id: 'saveRecord',
                src: 'saveRecord',
                input: ({ context }) => {
                  if (!context.pending) throw new Error(`${spec.id}: saving without a change`);
                  return { rest: context.rest, tenantName: context.tenantName, change: context.pending };
                },
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'saved', params: ({ event }) => ({ record: event.output }) },
                    {
                      type: 'report',
                      params: ({ context, event }) => ({
                        action: actionOf(context.pending),
                        record: event.output,
                        error: null,
                      }),
                    },
                    // The rename dialog closed: forget its version and notice.
                    'closeRename',
                  ],
                },
                onError: [
                  {
                    guard: 'renameStale',
                    target: 'conflict',
                    actions: { type: 'conflictSave', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    guard: 'renamePending',
                    target: 'renaming',
                    actions: [
                      { type: 'saveFailed', params: ({ event }) => ({ error: event.error }) },
                      { type: 'report', params: ({ context }) => refusedReport(context) },
                    ],
                  },
                  {
                    target: 'idle',
                    actions: [
                      { type: 'saveFailed', params: ({ event }) => ({ error: event.error }) },
                      { type: 'report', params: ({ context }) => refusedReport(context) },
                    ],
                  },
                ],
              },
            ],
          },
          // The name typed beside the other person's change: reapply it or discard it.
          conflict: {
            invoke: watchRenamed,
            on: {
              ...conflictChoices({ reapply: 'reapplying', discard: 'discarding' }),
              'records.close': { target: 'idle', actions: 'close' },
            },
          },
          reapplying: conflictReload(loadRenamed, 'reapplied', { done: 'reapplied', conflict: 'conflict' }),
          // Sent with the new version at once when the name passes its checks; otherwise back to the dialog.
          reapplied: {
            always: [
              { guard: 'pendingValid', target: 'saving' },
              { target: 'renaming', actions: 'refusePending' },
            ],
          },
          discarding: conflictReload(loadRenamed, 'discarded', { done: 'renaming', conflict: 'conflict' }),
        },
      },
    },
  });
}
