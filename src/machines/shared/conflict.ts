import { assertEvent, fromCallback, fromPromise } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { Execute } from '../../api/graphql-client';
import { GraphqlError } from '../../api/graphql-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import { AuditRecordsDocument } from '../../generated/graphql';
import type { AuditTargetType } from '../../domain/audit';
import type { AppBus } from './app-bus';
import { actionError } from './request-error';

/**
 * The conflict notice every edit form shares (docs/lists.md, Conflict notice): a form keeps the version it
 * loaded and sends it; a save the server refuses as stale (REST 409 `stale`, GraphQL `STALE`), or a change
 * to the form's record made elsewhere while the form is open (the socket's `AuditRecorded`,
 * contracts/socket.md §3), becomes a {@link Conflict}: who changed what since, beside the user's unsaved
 * values. The user then reapplies their values over the current record or discards them.
 *
 * What a form machine adds, the same in each (src/machines/roles/role-permissions.machine.ts is the first):
 * - context `version` (as loaded) and `conflict` (null, or the open notice);
 * - the root invoke of {@link watchTarget} with id `watchTarget`, which sends {@link ConflictEvent}
 *   `conflict.remote` for the form's own record;
 * - a state `checking` invoking {@link checkRemote} (id `checkRemote`) on `conflict.remote`: a change the
 *   form has not loaded opens the notice (`conflict` state) when the form holds unsaved values, and
 *   reloads the form at once with an informational notice when it holds none;
 * - a save's error read with {@link staleOf}: stale opens the notice;
 * - in the `conflict` state, `conflict.reapply` (reload, lay the user's values over the record, save with
 *   the new version) and `conflict.discard` (reload); `conflict.dismiss` closes an informational notice.
 *
 * The states' transitions and the shared actions' assignments are built here (from
 * {@link remoteCheckGuards} on); a machine keeps what is its own: which record, how it is read, and what
 * its `reapplied`, `discarded` and `refreshedLive` actions assign.
 */

/** One field of a change: its values as the audit log records them (JSON text, null for none). */
export interface ConflictField {
  field: string;
  before: string | null;
  after: string | null;
}

/** One change made since the form's version: the audit record's who, when and what. */
export interface ConflictChange {
  id: number;
  at: string;
  /** Null where the reader may not see who (the provider's staff, contracts/openapi.yaml `AuditRecord`). */
  actorName: string | null;
  /** The provider's staff made it (shown as the provider's team when the name is hidden). */
  actorStaff: boolean;
  operation: string;
  changes: ConflictField[];
}

/**
 * The open notice. `source`: the server refused the save (`save`), or a change arrived while the form was
 * open (`live`). `kept`: the form held unsaved values (reapply or discard); false when it held none and
 * was reloaded at once (the notice only says what changed). `version`: the record's current version when
 * known.
 */
export interface Conflict {
  source: 'save' | 'live';
  kept: boolean;
  version: number | null;
  changes: ConflictChange[];
}

/** The events of the shared fragment. */
export type ConflictEvent =
  /**
   * `version`: the version the change produced (the event's `targetVersion`), null when not told.
   * `targetId`: the record's id, for a form that watches its record by name (the features editor).
   */
  | { type: 'conflict.remote'; id: number; version: number | null; targetId?: number }
  | { type: 'conflict.reapply' }
  | { type: 'conflict.discard' }
  | { type: 'conflict.dismiss' };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function readField(value: unknown): ConflictField | null {
  if (!isRecord(value) || typeof value.field !== 'string') return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { field: value.field, before: text(value.before), after: text(value.after) };
}

/** One change of a stale answer or an audit record, or null when it does not have the shape. */
export function readChange(value: unknown): ConflictChange | null {
  if (!isRecord(value) || typeof value.id !== 'number' || typeof value.at !== 'string') return null;
  const changes = Array.isArray(value.changes) ? value.changes.map(readField).filter((c) => c !== null) : [];
  return {
    id: value.id,
    at: value.at,
    actorName: typeof value.actor_name === 'string' ? value.actor_name : null,
    actorStaff: value.actor_staff === true,
    operation: typeof value.operation === 'string' ? value.operation : '',
    changes,
  };
}

function readChanges(value: unknown): ConflictChange[] {
  return Array.isArray(value) ? value.map(readChange).filter((c) => c !== null) : [];
}

/**
 * The current version and the changes since the sent one, when `error` is a stale refusal: REST 409
 * `{ error: 'stale', version, changes }`, GraphQL `STALE` with the same in `extensions`
 * (docs/lists.md, Versions); null for any other error.
 */
export function staleOf(error: unknown): { version: number | null; changes: ConflictChange[] } | null {
  if (error instanceof GraphqlError) {
    const item = error.errors.find((e) => e.extensions?.['code'] === 'STALE');
    if (!item) return null;
    const version = item.extensions?.['version'];
    return {
      version: typeof version === 'number' ? version : null,
      changes: readChanges(item.extensions?.['changes']),
    };
  }
  if (!(error instanceof ApiError) || error.status !== 409 || !isRecord(error.body)) return null;
  if (error.body.error !== 'stale') return null;
  const version = error.body.version;
  return { version: typeof version === 'number' ? version : null, changes: readChanges(error.body.changes) };
}

/** A record's version (docs/lists.md, Versions), or null from a server that keeps none. */
export function versionOf(record: unknown): number | null {
  return isRecord(record) && typeof record.version === 'number' ? record.version : null;
}

/** Input of {@link watchTarget}: the bus (absent: nothing is watched) and the form's record. */
export interface WatchTargetInput {
  bus: AppBus | null;
  targetType: AuditTargetType;
  /** The record's id; null for a form that knows its record by name only (`targetName`). */
  targetId: number | null;
  /** The record's name as the events carry it (`targetName`), matched when `targetId` is null. */
  targetName?: string;
  /** Only these operations are the form's (a tenant's feature set is versioned apart from the tenant). */
  operations?: readonly string[];
}

/**
 * Sends `conflict.remote` for each `auditRecorded` about the form's record (contracts/socket.md §3: the
 * event goes to holders of `audit` only, so a form whose user lacks it learns of a change on save).
 */
export const watchTarget = fromCallback<ConflictEvent, WatchTargetInput>(({ input, sendBack }) => {
  if (!input.bus) return undefined;
  return input.bus.on('auditRecorded', (message) => {
    const { data } = message;
    if (data.targetType !== input.targetType) return;
    if (input.targetId !== null ? data.targetId !== input.targetId : data.targetName !== input.targetName) return;
    if (input.operations && !input.operations.includes(data.operation)) return;
    // `targetVersion` (contracts/socket.md §3): lets a form skip a change it already holds, its own save's.
    const version = data.targetVersion;
    sendBack({
      type: 'conflict.remote',
      id: data.id,
      version: typeof version === 'number' ? version : null,
      ...(typeof data.targetId === 'number' && { targetId: data.targetId }),
    });
  });
});

/**
 * The {@link watchTarget} invoke of an edit dialog that holds its record in `target` (the tenant and
 * instance edit dialogs): that record's changes, while the dialog is open.
 */
export function watchEditedTarget(targetType: AuditTargetType) {
  return {
    id: 'watchTarget',
    src: 'watchTarget',
    input: ({ context }: { context: { bus: AppBus | null; target: { id: number } | null } }) => ({
      bus: context.bus,
      targetType,
      targetId: context.target?.id ?? 0,
    }),
  } as const;
}

/**
 * Whether an announced change may be one the form has not loaded: not when the event says which version it
 * produced and the form holds that version or a later one.
 */
export function mayBeNews(formVersion: number | null, event: { version: number | null }): boolean {
  return event.version === null || formVersion === null || event.version > formVersion;
}

/** Reads the latest audit records of one record (raw, newest first), or fails when the reader may not. */
export type AuditReader = (
  target: { targetType: AuditTargetType; targetId: number },
  signal: AbortSignal,
) => Promise<unknown[]>;

/** The audit records through REST `GET /api/audit?targetType=&targetId=` (forms that speak REST). */
export const restAuditReader =
  (rest: RestClient): AuditReader =>
  async (target, signal) => {
    const page = unwrap(
      await rest.GET('/api/audit', {
        headers: { Accept: 'application/json' },
        params: { query: { targetType: target.targetType, targetId: target.targetId, limit: 20 } },
        signal,
      }),
    );
    return isRecord(page) && Array.isArray(page.data) ? (page.data as unknown[]) : [];
  };

/** The audit records through GraphQL `auditRecords` (forms that speak GraphQL). */
export const graphqlAuditReader =
  (execute: Execute): AuditReader =>
  async (target, signal) =>
    (
      await execute(
        AuditRecordsDocument,
        { targetType: target.targetType, targetId: target.targetId, limit: 20 },
        { signal },
      )
    ).auditRecords.data;

/** Input of a {@link checkRemote} actor. */
export interface CheckRemoteInput<TRecord> {
  targetType: AuditTargetType;
  targetId: number;
  /** The version the form holds. */
  version: number | null;
  /** The audit records the events named (the ones shown when the records carry no version). */
  ids: readonly number[];
  load: (signal: AbortSignal) => Promise<TRecord>;
  audit: AuditReader;
}

/** What {@link checkRemote} found: the record now, and what changed since the form's version (none: nothing new). */
export interface RemoteCheck<TRecord> {
  record: TRecord;
  version: number | null;
  /** The record's version is above the form's (a server that keeps no versions: never). */
  newer: boolean;
  changes: ConflictChange[];
}

/**
 * Whether the form's record changed since the version it holds: reads the record and, when it did, its
 * latest audit records. The form's own save raised its version already, so its own record is never news.
 * Changes are the audit records with `target_version` above the form's version where the server gives it,
 * else the records the events named. An audit log the reader cannot read leaves the notice without
 * details, never without the notice.
 */
export function checkRemote<TRecord>() {
  return fromPromise<RemoteCheck<TRecord>, CheckRemoteInput<TRecord>>(async ({ input, signal }) => {
    const record = await input.load(signal);
    const version = versionOf(record);
    const newer = version !== null && input.version !== null && version > input.version;
    if (!newer) return { record, version, newer, changes: [] };
    let changes: ConflictChange[] = [];
    try {
      const data = await input.audit({ targetType: input.targetType, targetId: input.targetId }, signal);
      const wanted = data.filter((r) => {
        if (!isRecord(r)) return false;
        const targetVersion = r.target_version;
        if (typeof targetVersion === 'number' && input.version !== null) return targetVersion > input.version;
        return typeof r.id === 'number' && input.ids.includes(r.id);
      });
      // Oldest first, as a stale answer lists them.
      changes = readChanges(wanted).sort((a, b) => a.id - b.id);
    } catch (error) {
      if (signal.aborted) throw error;
    }
    return { record, version, newer, changes };
  });
}

/**
 * The guards every form's conflict states repeat (the tenant edit dialog's first,
 * src/machines/tenants/tenants-list.machine.ts): a save's error is stale; changes announced since the
 * last check wait; an announced change may be news to the form. Spread into a machine's `guards`.
 */
export const conflictGuards = {
  stale: ({ event }: { event: unknown }) => staleOf((event as { error?: unknown }).error) !== null,
  remotePending: ({ context }: { context: { remoteIds: readonly number[] } }) => context.remoteIds.length > 0,
  news: ({ context, event }: { context: { version: number | null }; event: unknown }) => {
    const remote = event as Partial<Extract<ConflictEvent, { type: 'conflict.remote' }>>;
    return remote.type === 'conflict.remote' && mayBeNews(context.version, { version: remote.version ?? null });
  },
};

/** The audit records announced since the last check, with `id` added once. */
export function notedRemote(remoteIds: readonly number[], id: number): number[] {
  return remoteIds.includes(id) ? [...remoteIds] : [...remoteIds, id];
}

/** The notice of a change announced while the form was open: `kept` when the form held unsaved values. */
export function liveConflict(check: Pick<RemoteCheck<unknown>, 'version' | 'changes'>, kept: boolean): Conflict {
  return { source: 'live', kept, version: check.version, changes: check.changes };
}

/** The notice of a save refused as stale (its version and changes; none when the answer did not say). */
export function saveConflict(error: unknown): Conflict {
  const stale = staleOf(error);
  return { source: 'save', kept: true, version: stale?.version ?? null, changes: stale?.changes ?? [] };
}

/** The answer of `checkRemote` (invoked with id `checkRemote`) an event carries, if it is that actor's done event. */
function remoteCheckOf(event: { type: string }): RemoteCheck<unknown> | null {
  return event.type === 'xstate.done.actor.checkRemote'
    ? (event as unknown as { output: RemoteCheck<unknown> }).output
    : null;
}

/**
 * The guards on the answer of `checkRemote`, read from its done event (no params: guards with params do not
 * mix with the enqueueActions of src/machines/instances/instances.machine.ts): `newer`, the record changed
 * since the form's version; `newerWithEdits`, and the form holds unsaved values (`unsaved`). Spread into a
 * machine's `guards`; {@link remoteCheckTransitions} names them.
 */
export function remoteCheckGuards<TContext>(unsaved: (context: TContext) => boolean) {
  return {
    newerWithEdits: ({ context, event }: { context: TContext; event: { type: string } }) =>
      remoteCheckOf(event)?.newer === true && unsaved(context),
    newer: ({ event }: { event: { type: string } }) => remoteCheckOf(event)?.newer === true,
  };
}

/** The output of the done event a transition answers, as an action's params (any actor's output type). */
const outputOf = <TEvent extends { output: unknown }>({ event }: { event: TEvent }): TEvent['output'] => event.output;

/**
 * The answers of a form's `checkRemote` invoke, spread beside its `id`, `src` and `input`: a newer record
 * beside unsaved values opens the notice (`conflict`, action `conflictLive`); a newer record and nothing
 * unsaved reloads the form with an informational notice (back to `form`, action `refreshedLive`); nothing
 * new, or a check that failed, goes back to `form` (action `checked`). Its guards: {@link remoteCheckGuards}.
 */
export function remoteCheckTransitions(targets: { conflict: string; form: string }) {
  return {
    onDone: [
      {
        guard: 'newerWithEdits' as const,
        target: targets.conflict,
        actions: { type: 'conflictLive' as const, params: outputOf },
      },
      { guard: 'newer' as const, target: targets.form, actions: { type: 'refreshedLive' as const, params: outputOf } },
      { target: targets.form, actions: 'checked' as const },
    ],
    // Not known now: the save still carries the version, and the server refuses it if stale.
    onError: { target: targets.form, actions: 'checked' as const },
  };
}

/**
 * The state that reads the record again for a reapply or a discard (`conflict.reapply`, `conflict.discard`):
 * it invokes `reload` (the form's `id`, `src` and `input`); the record read goes to the action `reapplied`
 * or `discarded` (`action`) on the way to `done`; a failed read goes back to the notice (`conflict`, action
 * `reloadFailed`).
 */
export function conflictReload<TReload extends { id: string; src: string }, TAction extends 'reapplied' | 'discarded'>(
  reload: TReload,
  action: TAction,
  targets: { done: string; conflict: string },
) {
  return {
    tags: ['busy'],
    invoke: {
      ...reload,
      onDone: { target: targets.done, actions: { type: action, params: outputOf } },
      onError: {
        target: targets.conflict,
        actions: {
          type: 'reloadFailed' as const,
          params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
        },
      },
    },
  };
}

/**
 * The `on` of the notice's state in a form that hears changes while it is open (the rename and edit
 * dialogs, the features editor): `conflict.reapply` and `conflict.discard` go to the states that read the
 * record again (`reapply`, `discard`).
 */
export function conflictChoices(targets: { reapply: string; discard: string }) {
  return {
    'conflict.reapply': { target: targets.reapply },
    'conflict.discard': { target: targets.discard },
    // Another change while the notice is open: the reapply or discard reads the record afresh anyway.
    'conflict.remote': { guard: 'news' as const, actions: 'noteRemote' as const },
  };
}

/**
 * What a reapply or a discard assigns from the record read afresh, in an edit dialog that holds it in
 * `target` and remounts its form by `formKey` (the tenant and instance edit dialogs): its version taken,
 * the notice closed, the announced changes forgotten, the error cleared.
 */
export function reloadedTarget<TRecord>(context: { formKey: number }, fresh: TRecord) {
  return {
    target: fresh,
    version: versionOf(fresh),
    formKey: context.formKey + 1,
    conflict: null,
    remoteIds: [],
    actionError: null,
  };
}

/** What `noteRemote` assigns on `conflict.remote`: the announced audit record waits for the next check. */
export function remoteNoted(context: { remoteIds: readonly number[] }, event: { type: string }) {
  const remote = event as ConflictEvent;
  assertEvent(remote, 'conflict.remote');
  return { remoteIds: notedRemote(context.remoteIds, remote.id) };
}

/** What `conflictSave` assigns for a save refused as stale, in a form whose errors are `actionError` and `fieldErrors`. */
export function staleSave(error: unknown) {
  return { conflict: saveConflict(error), actionError: null, fieldErrors: {} };
}

/** What `reloadFailed` assigns when the reload of a reapply or a discard failed: the notice stays, saying so. */
export function reloadFailure(error: unknown) {
  return { actionError: actionError('conflict.errors.reload', error) };
}
