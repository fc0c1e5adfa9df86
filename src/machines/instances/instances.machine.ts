import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { I18nKey } from '../../domain/i18n-key';
import { instancesActors, type Instance, type TenantChannels } from './instances-actors';
import {
  POLL_INTERVAL_MS,
  type InstanceAction,
  type InstancesContext,
  type InstancesEmitted,
  type InstancesEvent,
  type InstancesInput,
} from './instances-context';
import {
  announcementAcross,
  announcementFor,
  anySyncing,
  changesOf,
  mergeFetched,
  nameProblems,
  renameConnections,
  syncProblems,
  upsertInstance,
} from './instances-rows';
import { actionError, refusedFields } from '../shared/request-error';

export type { Connection, Instance, InstanceDraft, SyncRequest } from './instances-actors';
export {
  POLL_INTERVAL_MS,
  type InstancesContext,
  type InstancesEmitted,
  type InstancesEvent,
  type InstancesInput,
} from './instances-context';
export type { InstanceFields } from './instances-rows';
export {
  sameFeedback,
  selectBusy,
  selectDialog,
  selectFeedback,
  selectListStatus,
  type InstancesFeedback,
} from './instances-selectors';

/** Only reachable through a transition that did not store what the call needs: a bug, not a user error. */
function invalidState(state: string): never {
  throw new Error(`instances: entered ${state} without its request`);
}

const succeeded = (action: InstanceAction, notice: I18nKey) => ({
  target: 'idle',
  actions: [
    { type: 'applyOwn' as const, params: ({ event }: { event: { output: Instance } }) => event.output },
    'clearDialog' as const,
    {
      type: 'announceNotice' as const,
      params: ({ event }: { event: { output: Instance } }) => ({ action, notice, name: event.output.name }),
    },
  ],
});
const refused = (key: I18nKey, back: string) => ({
  target: back,
  actions: [
    { type: 'refused' as const, params: ({ event }: { event: { error: unknown } }) => ({ key, error: event.error }) },
  ],
});

/**
 * A tenant's instances and connections (docs/product.md, Instances and connections): `GET /api/instance` and `/api/connection`,
 * create, update (only the changed fields) and message sync, with live rows from `instanceUpdated`
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
export const instancesMachine = setup({
  types: {
    input: {} as InstancesInput,
    context: {} as InstancesContext,
    events: {} as InstancesEvent,
    emitted: {} as InstancesEmitted,
  },
  actors: instancesActors,
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
    validCreate: ({ event }) => {
      assertEvent(event, 'instances.create');
      return Object.keys(nameProblems(event.draft.name)).length === 0;
    },
    unchanged: ({ context, event }) => {
      assertEvent(event, 'instances.update');
      return context.target !== null && Object.keys(changesOf(context.target, event.fields)).length === 0;
    },
    validUpdate: ({ event }) => {
      assertEvent(event, 'instances.update');
      return Object.keys(nameProblems(event.fields.name)).length === 0;
    },
    validSync: ({ event }) => {
      assertEvent(event, 'instances.sync');
      return Object.keys(syncProblems(event.daysAgo, event.unlimited)).length === 0;
    },
  },
  actions: {
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
    refuseLocally: assign((_, params: { fieldErrors: InstancesContext['fieldErrors'] }) => ({
      fieldErrors: params.fieldErrors,
      actionError: null,
    })),
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
}).createMachine({
  id: 'instances',
  type: 'parallel',
  context: ({ input }) => ({
    rest: input.rest,
    bus: input.bus,
    tenantName: input.tenantName,
    pollMs: input.pollMs ?? POLL_INTERVAL_MS,
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
  }),
  invoke: {
    id: 'watchInstances',
    src: 'watchInstances',
    input: ({ context }) => ({ bus: context.bus, tenantName: context.tenantName }),
  },
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
            onDone: { target: 'ready', actions: { type: 'showChannels', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
          on: { 'instances.live': { actions: 'applyLive' } },
        },
        failed: {},
        ready: {
          initial: 'watching',
          on: {
            'instances.live': [{ guard: 'knownInstance', actions: 'applyLive' }, { target: 'loading' }],
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
                onDone: { target: 'watching', actions: { type: 'showPolled', params: ({ event }) => event.output } },
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
                      params: ({ event }) => ({ fieldErrors: nameProblems(event.draft.name) }),
                    },
                  },
                ],
              },
            },
            update: {
              on: {
                'instances.update': [
                  { guard: 'unchanged', target: '#instances.action.idle', actions: 'clearDialog' },
                  { guard: 'validUpdate', target: '#instances.action.updating', actions: 'pendUpdate' },
                  {
                    actions: {
                      type: 'refuseLocally',
                      params: ({ event }) => ({ fieldErrors: nameProblems(event.fields.name) }),
                    },
                  },
                ],
              },
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
          invoke: {
            id: 'updateInstance',
            src: 'updateInstance',
            input: ({ context }) => ({
              rest: context.rest,
              tenantName: context.tenantName,
              id: context.target?.id ?? invalidState('updating'),
              changes:
                context.pending && 'changes' in context.pending ? context.pending.changes : invalidState('updating'),
            }),
            onDone: succeeded('update', 'instances.notices.updated'),
            onError: refused('instances.errors.update', 'form.update'),
          },
        },
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
