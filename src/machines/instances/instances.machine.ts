import { assertEvent, assign, emit, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { SocketActor } from '../realtime/socket.machine';
import type { PreferencesActor } from '../preferences/preferences.machine';
import { connectionsMachine } from './connections.machine';
import type { RestClient } from '../../api/rest-client';
import type { AppBus } from '../shared/app-bus';
import type { I18nKey } from '../../domain/i18n-key';
import {
  type Connection,
  type Instance,
  type InstanceChanges,
  type InstanceDraft,
  type LiveEvent,
  type SyncRequest,
  instancesActors,
  readInstance,
  type TenantChannels,
} from './instances-actors';
import {
  type InstanceFields,
  type SyncAnnouncement,
  announcementAcross,
  announcementFor,
  anySyncing,
  billingProblem,
  changesOf,
  mergeFetched,
  nameProblems,
  renameConnections,
  syncProblems,
  upsertInstance,
} from './instances-rows';
import type { Outcome } from '../shared/outcome';
import { type ActionError, actionError, refusedFields } from '../shared/request-error';
import { ApiError } from '../../api/api-error';
import {
  checkRemote,
  conflictChoices,
  conflictGuards,
  conflictReload,
  liveConflict,
  reloadFailure,
  reloadedTarget,
  remoteCheckGuards,
  remoteCheckTransitions,
  remoteNoted,
  restAuditReader,
  staleSave,
  versionOf,
  watchEditedTarget,
  watchTarget,
  type Conflict,
  type ConflictEvent,
  type ConflictField,
  type RemoteCheck,
} from '../shared/conflict';

export type { Connection, Instance, InstanceDraft, SyncRequest } from './instances-actors';
export type { InstanceFields } from './instances-rows';
export {
  sameFeedback,
  selectBusy,
  selectDialog,
  selectFeedback,
  selectConflictHeld,
  selectConnectionsActor,
  selectListStatus,
  selectResolving,
  type InstancesFeedback,
} from './instances-selectors';

// The instances machine's input, context and events.

/** Without socket events for this page, a running sync is re-read this often. */
export const POLL_INTERVAL_MS = 1500;

export interface InstancesInput {
  rest: RestClient;
  /** The app bus, where the socket forwards `instanceUpdated`. */
  bus: AppBus;
  /** The tenant whose instances and connections are shown. */
  tenantName: string;
  /** Poll period while a sync runs and no socket event arrives (default {@link POLL_INTERVAL_MS}; must be > 0). */
  pollMs?: number;
  /**
   * Back-office staff: only they make an instance official or unlimited (instances-rows.ts
   * `billingProblem`); anyone else creates with both off and keeps them. Default false.
   */
  staff?: boolean;
  /** The app's preferences: the active instance's name follows a rename seen here. Default: none. */
  preferences?: PreferencesActor;
  /** The app's socket: the list reloads each time it opens again. Default: none. */
  socket?: SocketActor;
}

export interface InstancesContext {
  rest: RestClient;
  bus: AppBus;
  tenantName: string;
  pollMs: number;
  staff: boolean;
  preferences: PreferencesActor | null;
  socket: SocketActor | null;
  instances: Instance[];
  connections: Connection[];
  /** Rows changed since the list request in flight started; they win over its (older) answer. */
  recent: Record<number, Instance>;
  /** A socket event for this tenant arrived since the last poll tick (then no poll is needed). */
  heardLive: boolean;
  listError: ActionError | null;
  /** The list answered at least once (a reload keeps showing the rows it has). */
  loaded: boolean;
  /** The instance the update or sync dialog is about, as it was when the dialog opened. */
  target: Instance | null;
  pending: { create: InstanceDraft } | { changes: InstanceChanges } | { sync: SyncRequest } | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
  /** The latest sync milestone for a polite live region; `seq` grows with each one. */
  announcement: (SyncAnnouncement & { seq: number }) | null;
  /** The edit dialog's instance version as loaded (sent with the update; src/machines/shared/conflict.ts). */
  version: number | null;
  /** The edit dialog's values as typed (`instances.updateDraft`), null while untouched. */
  draft: InstanceFields | null;
  /** Raised when the machine replaces the dialog's instance (a reload after a change elsewhere). */
  formKey: number;
  conflict: Conflict | null;
  /** Audit records announced since the last check. */
  remoteIds: number[];
}

export type InstancesEvent =
  | { type: 'instances.reload' }
  /** The socket opened again: events missed meanwhile are lost (socket.md §2.2), so refetch. */
  | { type: 'instances.reconnected' }
  | { type: 'instances.createOpen' }
  | { type: 'instances.create'; draft: InstanceDraft }
  | { type: 'instances.updateOpen'; id: number }
  | { type: 'instances.update'; fields: InstanceFields }
  | { type: 'instances.syncOpen'; id: number }
  | { type: 'instances.sync'; daysAgo: number | null; unlimited: boolean }
  | { type: 'instances.close' }
  /** The edit dialog's values as typed. */
  | { type: 'instances.updateDraft'; fields: InstanceFields }
  | LiveEvent
  | ConflictEvent;

/** The calls that end in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type InstanceAction = 'create' | 'update' | 'sync';

/** A call succeeded: its notice (with the instance's `name`) as a toast. */
export type InstancesEmitted = Outcome<InstanceAction>;

/** Only reachable through a transition that did not store what the call needs: a bug, not a user error. */
export function invalidState(state: string): never {
  throw new Error(`instances: entered ${state} without its request`);
}

/**
 * The active instance carries its name (preferences.machine.ts): the event that follows a rename
 * seen in `rows`, or null when its name is current or it is not among them.
 */
function activeRenamed(preferences: PreferencesActor | null, rows: readonly Instance[]) {
  const active = preferences?.getSnapshot().context.activeInstance;
  const row = active ? rows.find((r) => r.id === active.id) : undefined;
  if (!row || row.name === active?.name) return null;
  return { type: 'prefs.instance.set' as const, instance: { id: row.id, name: row.name } };
}

/** The user's unsaved values of the edit dialog as the conflict notice shows them: each changed field, stored → edited. */
export function unsavedInstanceFields(context: Pick<InstancesContext, 'target' | 'draft'>): ConflictField[] {
  const { target, draft } = context;
  if (!target || !draft) return [];
  return Object.entries(changesOf(target, draft)).map(([field, value]) => ({
    field,
    before: JSON.stringify(target[field as keyof InstanceFields]),
    after: JSON.stringify(value),
  }));
}

/** The dialog's values of an instance as stored. */
const fieldsOf = (instance: Instance): InstanceFields => ({
  name: instance.name,
  activated: instance.activated,
  isOfficial: instance.isOfficial,
  isUnlimited: instance.isUnlimited,
});

/** The instances machine's types, actors, delays, guards and actions; its chart follows. */
export const instancesSetup = setup({
  types: {
    input: {} as InstancesInput,
    context: {} as InstancesContext,
    events: {} as InstancesEvent,
    emitted: {} as InstancesEmitted,
  },
  actors: { ...instancesActors, connections: connectionsMachine, watchTarget, checkRemote: checkRemote<Instance>() },
  delays: {
    pollInterval: ({ context }) => context.pollMs,
  },
  guards: {
    knownInstance: ({ context, event }) => {
      assertEvent(event, 'instances.live');
      return context.instances.some((row) => row.id === event.instance.id);
    },
    needsPoll: ({ context }) => !context.heardLive && anySyncing(context.instances),
    knownTarget: ({ context, event }) => {
      assertEvent(event, 'instances.updateOpen');
      return context.instances.some((row) => row.id === event.id);
    },
    canSync: ({ context, event }) => {
      assertEvent(event, 'instances.syncOpen');
      return context.instances.some((row) => row.id === event.id && row.status !== 'syncing');
    },
    validCreate: ({ context, event }) => {
      assertEvent(event, 'instances.create');
      const flags = { isOfficial: event.draft.isOfficial, isUnlimited: event.draft.isUnlimited };
      return Object.keys(nameProblems(event.draft.name)).length === 0 && !billingProblem(context.staff, flags, null);
    },
    unchanged: ({ context, event }) => {
      assertEvent(event, 'instances.update');
      return context.target !== null && Object.keys(changesOf(context.target, event.fields)).length === 0;
    },
    validUpdate: ({ context, event }) => {
      assertEvent(event, 'instances.update');
      return (
        Object.keys(nameProblems(event.fields.name)).length === 0 &&
        !billingProblem(context.staff, event.fields, context.target)
      );
    },
    validSync: ({ event }) => {
      assertEvent(event, 'instances.sync');
      return Object.keys(syncProblems(event.daysAgo, event.unlimited)).length === 0;
    },
    ...conflictGuards,
    ...remoteCheckGuards((context: InstancesContext) => unsavedInstanceFields(context).length > 0),
    // The reapplied values: something left to send, and it passes the dialog's checks.
    pendingValid: ({ context }) => {
      const { draft, target, pending } = context;
      if (!draft || !target || !pending || !('changes' in pending) || Object.keys(pending.changes).length === 0)
        return false;
      return Object.keys(nameProblems(draft.name)).length === 0 && !billingProblem(context.staff, draft, target);
    },
  },
  actions: {
    // The connections child shows the loaded list; changes made there replace its rows until the next load.
    shareLoaded: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('connections', { type: 'records.set', records: context.connections });
      const renamed = activeRenamed(context.preferences, context.instances);
      if (renamed && context.preferences) enqueue.sendTo(context.preferences, renamed);
    }),
    followPolled: enqueueActions(({ context, enqueue }) => {
      const renamed = activeRenamed(context.preferences, context.instances);
      if (renamed && context.preferences) enqueue.sendTo(context.preferences, renamed);
    }),
    // Runs before the row is applied: a rename reaches the connections child and the active instance.
    followRename: enqueueActions(({ context, enqueue }, instance: Instance) => {
      const connections = renameConnections(context.connections, instance);
      if (connections !== context.connections)
        enqueue.sendTo('connections', { type: 'records.set', records: connections });
      const renamed = activeRenamed(context.preferences, [instance]);
      if (renamed && context.preferences) enqueue.sendTo(context.preferences, renamed);
    }),
    forgetRecent: assign({ recent: () => ({}) }),
    forgetHeard: assign({ heardLive: false }),
    showChannels: assign(({ context }, channels: TenantChannels) => ({
      instances: mergeFetched(channels.instances, context.recent),
      connections: channels.connections,
      listError: null,
      loaded: true,
    })),
    showPolled: assign(({ context }, fetched: Instance[]) => {
      const instances = mergeFetched(fetched, context.recent);
      const said = announcementAcross(context.instances, instances);
      return {
        instances,
        announcement: said ? { ...said, seq: (context.announcement?.seq ?? 0) + 1 } : context.announcement,
      };
    }),
    listFailed: assign((_, params: { error: unknown }) => ({
      listError: actionError('instances.errors.load', params.error),
    })),
    applyLive: assign(({ context, event }) => {
      assertEvent(event, 'instances.live');
      const { instance } = event;
      const said = announcementFor(
        context.instances.find((row) => row.id === instance.id),
        instance,
      );
      return {
        instances: upsertInstance(context.instances, instance),
        connections: renameConnections(context.connections, instance),
        recent: { ...context.recent, [instance.id]: instance },
        heardLive: true,
        announcement: said ? { ...said, seq: (context.announcement?.seq ?? 0) + 1 } : context.announcement,
      };
    }),
    // The panel's own call: its toast says what happened, so no live announcement.
    applyOwn: assign(({ context }, instance: Instance) => ({
      instances: upsertInstance(context.instances, instance),
      connections: renameConnections(context.connections, instance),
      recent: { ...context.recent, [instance.id]: instance },
    })),
    setTarget: assign(({ context, event }) => {
      assertEvent(event, ['instances.updateOpen', 'instances.syncOpen']);
      const target = context.instances.find((row) => row.id === event.id) ?? null;
      return { target, version: versionOf(target) };
    }),
    setDraft: assign(({ event }) => {
      assertEvent(event, 'instances.updateDraft');
      return { draft: event.fields };
    }),
    noteRemote: assign(({ context, event }) => remoteNoted(context, event)),
    checked: assign({ remoteIds: () => [] }),
    conflictLive: assign((_, check: RemoteCheck<Instance>) => ({ conflict: liveConflict(check, true), remoteIds: [] })),
    // Nothing unsaved: the dialog shows the instance as stored now, and says what changed.
    refreshedLive: assign(({ context }, check: RemoteCheck<Instance>) => ({
      target: check.record,
      version: check.version,
      draft: null,
      formKey: context.formKey + 1,
      conflict: liveConflict(check, false),
      remoteIds: [],
    })),
    conflictSave: assign((_, params: { error: unknown }) => staleSave(params.error)),
    dismissConflict: assign({ conflict: null }),
    // The fields the user changed laid over the instance as stored now, sent with its version.
    reapplied: assign(({ context }, fresh: Instance) => {
      const values = fieldsOf(fresh);
      const mine = context.target && context.draft ? changesOf(context.target, context.draft) : {};
      const draft: InstanceFields = { ...values, ...mine } as InstanceFields;
      return { ...reloadedTarget(context, fresh), draft, pending: { changes: changesOf(fresh, draft) } };
    }),
    discarded: assign(({ context }, fresh: Instance) => ({
      ...reloadedTarget(context, fresh),
      draft: null,
      pending: null,
      fieldErrors: {},
    })),
    reloadFailed: assign((_, params: { error: unknown }) => reloadFailure(params.error)),
    pendCreate: assign(({ event }) => {
      assertEvent(event, 'instances.create');
      return {
        pending: { create: { ...event.draft, name: event.draft.name.trim() } },
        actionError: null,
        fieldErrors: {},
      };
    }),
    pendUpdate: assign(({ context, event }) => {
      assertEvent(event, 'instances.update');
      const target = context.target ?? invalidState('form.update');
      return {
        pending: { changes: changesOf(target, event.fields) },
        draft: event.fields,
        actionError: null,
        fieldErrors: {},
      };
    }),
    pendSync: assign(({ event }) => {
      assertEvent(event, 'instances.sync');
      return {
        pending: { sync: { daysAgo: event.unlimited ? null : event.daysAgo, unlimited: event.unlimited } },
        actionError: null,
        fieldErrors: {},
      };
    }),
    // A refusal of the flags is the form's, not a field's: it names what only staff may do.
    refuseLocally: assign(
      (
        _,
        params: { fieldErrors: InstancesContext['fieldErrors']; refusal?: { key: I18nKey; reason: I18nKey | null } },
      ) => ({
        fieldErrors: params.fieldErrors,
        actionError: params.refusal?.reason ? { key: params.refusal.key, reason: params.refusal.reason } : null,
      }),
    ),
    clearDialog: assign({
      target: null,
      pending: null,
      actionError: null,
      fieldErrors: () => ({}),
      version: null,
      draft: null,
      conflict: null,
      remoteIds: () => [],
    }),
    refused: assign((_, params: { key: I18nKey; error: unknown }) => {
      const error = actionError(params.key, params.error);
      const fields = refusedFields(params.error);
      if (!(params.error instanceof ApiError && params.error.status === 409))
        return { actionError: error, fieldErrors: fields };
      // Say which conflict it was rather than a generic one: a sync already running, or a taken name.
      if (params.key === 'instances.errors.sync') {
        delete fields['id'];
        return { actionError: { ...error, reason: 'instances.errors.syncRunning' as const }, fieldErrors: fields };
      }
      return {
        actionError: fields['name'] ? { ...error, reason: 'instances.errors.nameTaken' as const } : error,
        fieldErrors: fields,
      };
    }),
    announceNotice: emit((_, params: { action: InstanceAction; notice: I18nKey; name: string }) => ({
      type: 'outcome' as const,
      action: params.action,
      ok: true,
      toast: { variant: 'success' as const, title: { key: params.notice, params: { name: params.name } } },
    })),
  },
});

/** The edited instance's audit events, while its dialog is open (src/machines/shared/conflict.ts). */
const watchEdited = watchEditedTarget('instance');

/** What the user may do in the update dialog while it is shown (also while a remote change is checked). */
const UPDATE_EDITS = {
  'instances.updateDraft': { actions: 'setDraft' },
  'instances.update': [
    { guard: 'unchanged', target: '#instances.action.idle', actions: 'clearDialog' },
    { guard: 'validUpdate', target: '#instances.action.updating', actions: 'pendUpdate' },
    {
      actions: {
        type: 'refuseLocally',
        params: ({
          context,
          event,
        }: {
          context: InstancesContext;
          event: Extract<InstancesEvent, { type: 'instances.update' }>;
        }) => ({
          fieldErrors: nameProblems(event.fields.name),
          refusal: {
            key: 'instances.errors.update' as const,
            reason: billingProblem(context.staff, event.fields, context.target),
          },
        }),
      },
    },
  ],
} as const;

/** Reads the edited instance as stored now, for a reapply or a discard (`state`: the state that reads it). */
const reloadEdited = (state: string) =>
  ({
    id: 'loadInstance',
    src: 'loadInstance',
    input: ({ context }: { context: InstancesContext }) => ({
      rest: context.rest,
      tenantName: context.tenantName,
      id: context.target?.id ?? invalidState(state),
    }),
  }) as const;

/** A call that answered with the instance: its row is applied, the dialog closed and the outcome emitted. */
const succeeded = (action: InstanceAction, notice: I18nKey) => ({
  target: 'idle',
  actions: [
    { type: 'followRename' as const, params: ({ event }: { event: { output: Instance } }) => event.output },
    { type: 'applyOwn' as const, params: ({ event }: { event: { output: Instance } }) => event.output },
    'clearDialog' as const,
    {
      type: 'announceNotice' as const,
      params: ({ event }: { event: { output: Instance } }) => ({ action, notice, name: event.output.name }),
    },
  ],
});
/** A refused call: back to its dialog `back`, the reason in `actionError` and `fieldErrors`. */
const refused = (key: I18nKey, back: string) => ({
  target: back,
  actions: [
    { type: 'refused' as const, params: ({ event }: { event: { error: unknown } }) => ({ key, error: event.error }) },
  ],
});

/**
 * A tenant's instances and connections (docs/product.md, Instances and connections): `GET /api/instance` and `/api/connection`,
 * create, update (only the changed fields; the billing flags only by staff, input `staff`) and message sync, with live rows from `instanceUpdated`
 * on the app bus (a known id replaces its row, an unknown one reloads the list) and a refetch on
 * `instances.reconnected`. While a sync runs and no event for this tenant arrives (a back-office page
 * has the back-office tenant's socket: contracts/socket.md §5 sends it no other tenant's events), the
 * instances are polled every `pollMs`. Answers that are older than events received while they were
 * in flight never undo those events.
 *
 * Regions: `list` (`loading` tagged `loading`, `failed` with `listError`, `ready.{watching,polling}`)
 * and `action` (`idle`, `form.{create,update,sync}`, and their calls `creating`, `updating`,
 * `startingSync`, tagged `busy`). Failures carry i18n keys; 400/409 field refusals land in
 * `fieldErrors`; successes emit an `outcome`; sync milestones land in `announcement`.
 */
export const instancesMachine = instancesSetup.createMachine({
  id: 'instances',
  type: 'parallel',
  context: ({ input }) => ({
    rest: input.rest,
    bus: input.bus,
    tenantName: input.tenantName,
    pollMs: input.pollMs ?? POLL_INTERVAL_MS,
    staff: input.staff ?? false,
    preferences: input.preferences ?? null,
    socket: input.socket ?? null,
    instances: [],
    connections: [],
    recent: {},
    heardLive: false,
    listError: null,
    loaded: false,
    target: null,
    pending: null,
    actionError: null,
    fieldErrors: {},
    announcement: null,
    version: null,
    draft: null,
    formKey: 0,
    conflict: null,
    remoteIds: [],
  }),
  invoke: [
    {
      id: 'watchInstances',
      src: 'watchInstances',
      input: ({ context }) => ({ bus: context.bus, tenantName: context.tenantName }),
    },
    { id: 'watchReconnects', src: 'watchReconnects', input: ({ context }) => ({ socket: context.socket }) },
    {
      id: 'connections',
      src: 'connections',
      // The bus: its rename dialog hears changes of its connection (src/machines/shared/conflict.ts).
      input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName, bus: context.bus }),
    },
  ],
  states: {
    list: {
      initial: 'loading',
      // No `reenter`: that would exit the parallel root and reset the `action` region too.
      on: {
        'instances.reload': { target: '.loading' },
        'instances.reconnected': { target: '.loading' },
      },
      states: {
        loading: {
          tags: ['loading'],
          entry: 'forgetRecent',
          invoke: {
            id: 'loadChannels',
            src: 'loadChannels',
            input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
            onDone: {
              target: 'ready',
              actions: [{ type: 'showChannels', params: ({ event }) => event.output }, 'shareLoaded'],
            },
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
          on: {
            'instances.live': {
              actions: [{ type: 'followRename', params: ({ event }) => event.instance }, 'applyLive'],
            },
          },
        },
        failed: {},
        ready: {
          initial: 'watching',
          on: {
            'instances.live': [
              {
                guard: 'knownInstance',
                actions: [{ type: 'followRename', params: ({ event }) => event.instance }, 'applyLive'],
              },
              { target: 'loading' },
            ],
          },
          states: {
            watching: {
              after: {
                pollInterval: [
                  { guard: 'needsPoll', target: 'polling' },
                  { target: 'watching', reenter: true, actions: 'forgetHeard' },
                ],
              },
            },
            polling: {
              entry: 'forgetRecent',
              invoke: {
                id: 'pollInstances',
                src: 'pollInstances',
                input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
                onDone: {
                  target: 'watching',
                  actions: [{ type: 'showPolled', params: ({ event }) => event.output }, 'followPolled'],
                },
                // A failed poll changes nothing shown; the next tick tries again.
                onError: { target: 'watching' },
              },
            },
          },
        },
      },
    },
    action: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'instances.createOpen': { target: 'form.create', actions: 'clearDialog' },
            'instances.updateOpen': {
              guard: 'knownTarget',
              target: 'form.update',
              actions: ['clearDialog', 'setTarget'],
            },
            'instances.syncOpen': { guard: 'canSync', target: 'form.sync', actions: ['clearDialog', 'setTarget'] },
          },
        },
        /** A dialog open for input; it closes from any of them, but not while its call runs. */
        form: {
          initial: 'create',
          on: { 'instances.close': { target: 'idle', actions: 'clearDialog' } },
          states: {
            create: {
              on: {
                'instances.create': [
                  { guard: 'validCreate', target: '#instances.action.creating', actions: 'pendCreate' },
                  {
                    actions: {
                      type: 'refuseLocally',
                      params: ({ context, event }) => ({
                        fieldErrors: nameProblems(event.draft.name),
                        refusal: {
                          key: 'instances.errors.create',
                          reason: billingProblem(context.staff, event.draft, null),
                        },
                      }),
                    },
                  },
                ],
              },
            },
            update: {
              invoke: watchEdited,
              always: { guard: 'remotePending', target: 'updateChecking' },
              on: {
                ...UPDATE_EDITS,
                'conflict.remote': { guard: 'news', target: 'updateChecking', actions: 'noteRemote' },
                'conflict.dismiss': { actions: 'dismissConflict' },
              },
            },
            // Whether an announced change is one the dialog has not loaded; the user keeps typing meanwhile.
            updateChecking: {
              invoke: [
                watchEdited,
                {
                  id: 'checkRemote',
                  src: 'checkRemote',
                  input: ({ context }) => ({
                    targetType: 'instance' as const,
                    targetId: context.target?.id ?? invalidState('form.updateChecking'),
                    version: context.version,
                    ids: context.remoteIds,
                    load: (signal: AbortSignal) =>
                      readInstance(context.rest, context.tenantName, context.target?.id ?? 0, signal),
                    audit: restAuditReader(context.rest),
                  }),
                  ...remoteCheckTransitions({ conflict: 'updateConflict', form: 'update' }),
                },
              ],
              on: {
                ...UPDATE_EDITS,
                'conflict.remote': { guard: 'news', target: 'updateChecking', reenter: true, actions: 'noteRemote' },
              },
            },
            // The user's unsaved values beside the other person's change: reapply them or discard them.
            updateConflict: {
              invoke: watchEdited,
              on: conflictChoices({
                reapply: '#instances.action.updateReapplying',
                discard: '#instances.action.updateDiscarding',
              }),
            },
            sync: {
              on: {
                'instances.sync': [
                  { guard: 'validSync', target: '#instances.action.startingSync', actions: 'pendSync' },
                  {
                    actions: {
                      type: 'refuseLocally',
                      params: ({ event }) => ({ fieldErrors: syncProblems(event.daysAgo, event.unlimited) }),
                    },
                  },
                ],
              },
            },
          },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createInstance',
            src: 'createInstance',
            input: ({ context }) => ({
              rest: context.rest,
              tenantName: context.tenantName,
              draft: context.pending && 'create' in context.pending ? context.pending.create : invalidState('creating'),
            }),
            onDone: succeeded('create', 'instances.notices.created'),
            onError: refused('instances.errors.create', 'form.create'),
          },
        },
        updating: {
          tags: ['busy'],
          // A change announced during the update is checked if the update is refused for another reason.
          on: { 'conflict.remote': { guard: 'news', actions: 'noteRemote' } },
          invoke: [
            watchEdited,
            {
              id: 'updateInstance',
              src: 'updateInstance',
              input: ({ context }) => ({
                rest: context.rest,
                tenantName: context.tenantName,
                id: context.target?.id ?? invalidState('updating'),
                changes:
                  context.pending && 'changes' in context.pending ? context.pending.changes : invalidState('updating'),
                version: context.version,
              }),
              onDone: succeeded('update', 'instances.notices.updated'),
              onError: [
                {
                  guard: 'stale',
                  target: 'form.updateConflict',
                  actions: { type: 'conflictSave', params: ({ event }) => ({ error: event.error }) },
                },
                refused('instances.errors.update', 'form.update'),
              ],
            },
          ],
        },
        updateReapplying: conflictReload(reloadEdited('updateReapplying'), 'reapplied', {
          done: 'updateReapplied',
          conflict: 'form.updateConflict',
        }),
        // Sent with the new version at once when something is left and it passes the checks; otherwise back to the form.
        updateReapplied: {
          always: [{ guard: 'pendingValid', target: 'updating' }, { target: 'form.update' }],
        },
        updateDiscarding: conflictReload(reloadEdited('updateDiscarding'), 'discarded', {
          done: 'form.update',
          conflict: 'form.updateConflict',
        }),
        startingSync: {
          tags: ['busy'],
          invoke: {
            id: 'syncInstance',
            src: 'syncInstance',
            input: ({ context }) => ({
              rest: context.rest,
              tenantName: context.tenantName,
              id: context.target?.id ?? invalidState('startingSync'),
              sync: context.pending && 'sync' in context.pending ? context.pending.sync : invalidState('startingSync'),
            }),
            onDone: succeeded('sync', 'instances.notices.syncStarted'),
            onError: refused('instances.errors.sync', 'form.sync'),
          },
        },
      },
    },
  },
});

export type InstancesActor = ActorRefFrom<typeof instancesMachine>;
export type InstancesSnapshot = SnapshotFrom<typeof instancesMachine>;
