import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { I18nKey } from '../../domain/i18n-key';
import type { Instance } from './instances-actors';
import { POLL_INTERVAL_MS, type InstanceAction } from './instances-context';
import { billingProblem, nameProblems, syncProblems } from './instances-rows';
import { instancesSetup, invalidState } from './instances-setup';

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
  selectConnectionsActor,
  selectListStatus,
  type InstancesFeedback,
} from './instances-selectors';

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
      input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
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
              on: {
                'instances.update': [
                  { guard: 'unchanged', target: '#instances.action.idle', actions: 'clearDialog' },
                  { guard: 'validUpdate', target: '#instances.action.updating', actions: 'pendUpdate' },
                  {
                    actions: {
                      type: 'refuseLocally',
                      params: ({ context, event }) => ({
                        fieldErrors: nameProblems(event.fields.name),
                        refusal: {
                          key: 'instances.errors.update',
                          reason: billingProblem(context.staff, event.fields, context.target),
                        },
                      }),
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
