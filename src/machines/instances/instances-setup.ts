import { assertEvent, assign, emit, enqueueActions, setup } from 'xstate';
import type { PreferencesActor } from '../preferences/preferences.machine';
import { connectionsMachine } from './connections.machine';
import { ApiError } from '../../api/api-error';
import type { I18nKey } from '../../domain/i18n-key';
import { instancesActors, type Instance, type TenantChannels } from './instances-actors';
import type {
  InstanceAction,
  InstancesContext,
  InstancesEmitted,
  InstancesEvent,
  InstancesInput,
} from './instances-context';
import {
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
import { actionError, refusedFields } from '../shared/request-error';

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

/** The instances machine's types, actors, delays, guards and actions; its chart is in instances.machine.ts. */
export const instancesSetup = setup({
  types: {
    input: {} as InstancesInput,
    context: {} as InstancesContext,
    events: {} as InstancesEvent,
    emitted: {} as InstancesEmitted,
  },
  actors: { ...instancesActors, connections: connectionsMachine },
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
  },
  actions: {
    // The connections child shows the loaded list; changes made there replace its rows until the next load.
    shareLoaded: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('connections', { type: 'connections.set', connections: context.connections });
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
      if (connections !== context.connections) enqueue.sendTo('connections', { type: 'connections.set', connections });
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
      return { target: context.instances.find((row) => row.id === event.id) ?? null };
    }),
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
      return { pending: { changes: changesOf(target, event.fields) }, actionError: null, fieldErrors: {} };
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
    clearDialog: assign({ target: null, pending: null, actionError: null, fieldErrors: () => ({}) }),
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
