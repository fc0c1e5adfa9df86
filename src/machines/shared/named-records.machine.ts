import { assertEvent, assign, emit, fromPromise, setup, type PromiseActorLogic } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import { recordNameProblem, type RecordNameProblem } from '../../domain/record-name';
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
 */

/** What the machine needs of a record. */
export interface NamedRecord {
  id: number;
  name: string;
  activated: boolean;
}

/** The calls of a named-records list; each ends in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type RecordAction = 'create' | 'rename' | 'activate';

/** One change sent to the server. `scope` is where a new record goes (a connection's instance). */
export type RecordChange<TScope> =
  | { kind: 'create'; scope: TScope; name: string }
  | { kind: 'rename'; id: number; name: string }
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
}

export interface NamedRecordsContext<TRecord extends NamedRecord, TScope> extends NamedRecordsInput {
  records: TRecord[];
  listError: ActionError | null;
  dialog: RecordDialog<TRecord, TScope>;
  /** The change in flight (kept after it ends, for its outcome; replaced by the next). */
  pending: RecordChange<TScope> | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
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
  | { type: 'records.activate'; id: number; activated: boolean };

/** The calls of one use: `save` always; `load` (and the text of its failure) when the machine loads its own list. */
export interface RecordCalls<TRecord extends NamedRecord, TScope> {
  load?: { call: PromiseActorLogic<TRecord[], NamedRecordsInput>; failed: I18nKey };
  save: PromiseActorLogic<TRecord, NamedRecordsInput & { change: RecordChange<TScope> }>;
}

export interface NamedRecordsSpec<TRecord extends NamedRecord, TScope> {
  /** The machine's id (and the root of its state ids). */
  id: string;
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

/**
 * A named-records machine for one use. With `calls.load` it starts in `loading` (then `failed` or
 * `ready`); without, in `ready`, and its owner sends `records.set`.
 *
 * States: `loading` (tagged `loading`), `failed` (tagged `failed`), `ready.idle` (a dialog may be open: `dialog`), `ready.saving` (tagged `busy`).
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
        return { dialog: record ? { kind: 'rename' as const, record } : null, actionError: null, fieldErrors: {} };
      }),
      close: assign({ dialog: null, actionError: null, fieldErrors: () => ({}) }),
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
              : { kind: 'rename', id: dialog?.kind === 'rename' ? dialog.record.id : 0, name: event.name.trim() };
        return { pending, actionError: null, fieldErrors: {} };
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
        const conflict = params.error instanceof ApiError && params.error.status === 409;
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
      ...input,
      records: [],
      listError: null,
      dialog: null,
      pending: null,
      actionError: null,
      fieldErrors: {},
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
          idle: {
            on: {
              ...(load && { 'records.reload': `#${spec.id}.loading` }),
              'records.createOpen': { actions: 'openCreate' },
              'records.renameOpen': { guard: 'known', actions: 'openRename' },
              'records.close': { actions: 'close' },
              'records.submit': [{ guard: 'validName', target: 'saving', actions: 'begin' }, { actions: 'refuse' }],
              'records.activate': { guard: 'known', target: 'saving', actions: 'begin' },
            },
          },
          saving: {
            tags: ['busy'],
            invoke: {
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
                ],
              },
              onError: {
                target: 'idle',
                actions: [
                  { type: 'saveFailed', params: ({ event }) => ({ error: event.error }) },
                  {
                    type: 'report',
                    params: ({ context }) => ({
                      action: actionOf(context.pending),
                      record: null,
                      error: context.actionError,
                    }),
                  },
                ],
              },
            },
          },
        },
      },
    },
  });
}
