import type { SocketActor } from '../realtime/socket.machine';
import { fromCallback, fromPromise } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { AppBus } from '../shared/app-bus';

export type Instance = components['schemas']['Instance'];
export type Connection = components['schemas']['Connection'];
/** The create dialog's fields (the tenant comes from the machine's input). */
export type InstanceDraft = Omit<components['schemas']['InstanceCreate'], 'tenantName'>;
/** The update dialog's changed fields (id and tenant come from the machine). */
export type InstanceChanges = Omit<components['schemas']['InstanceUpdate'], 'id' | 'tenantName'>;
/** The sync dialog: how far back, or everything. */
export interface SyncRequest {
  daysAgo: number | null;
  unlimited: boolean;
}

/** What the list load answers: both lists of the tenant. */
export interface TenantChannels {
  instances: Instance[];
  connections: Connection[];
}

/** A live row from the socket (sent back by {@link instancesActors.watchInstances}). */
export type LiveEvent = { type: 'instances.live'; instance: Instance };

/** One instance of the tenant as stored now, or a 404 when it is gone. */
export async function readInstance(
  rest: RestClient,
  tenantName: string,
  id: number,
  signal: AbortSignal,
): Promise<Instance> {
  const list = unwrap(await rest.GET('/api/instance', { params: { query: { tenantName } }, signal }));
  const found = list.find((instance) => instance.id === id);
  if (!found) throw new ApiError(404, { message: 'Instance not found' });
  return found;
}

/** The I/O of the instances panel: every call goes through the typed REST client in `input`. */
export const instancesActors = {
  loadChannels: fromPromise<TenantChannels, { rest: RestClient; tenantName: string }>(async ({ input, signal }) => {
    const query = { params: { query: { tenantName: input.tenantName } }, signal };
    const [instances, connections] = await Promise.all([
      input.rest.GET('/api/instance', query),
      input.rest.GET('/api/connection', query),
    ]);
    return { instances: unwrap(instances), connections: unwrap(connections) };
  }),
  /** The instances alone: the fallback while a sync runs and no socket event reaches this page. */
  pollInstances: fromPromise<Instance[], { rest: RestClient; tenantName: string }>(async ({ input, signal }) =>
    unwrap(await input.rest.GET('/api/instance', { params: { query: { tenantName: input.tenantName } }, signal })),
  ),
  createInstance: fromPromise<Instance, { rest: RestClient; tenantName: string; draft: InstanceDraft }>(
    async ({ input }) =>
      unwrap(await input.rest.POST('/api/instance', { body: { ...input.draft, tenantName: input.tenantName } })),
  ),
  /** `version`: the one the dialog loaded (docs/lists.md, Versions); null sends none (last write wins). */
  updateInstance: fromPromise<
    Instance,
    { rest: RestClient; tenantName: string; id: number; changes: InstanceChanges; version: number | null }
  >(async ({ input }) =>
    unwrap(
      await input.rest.POST('/api/instance/update', {
        body: {
          ...input.changes,
          id: input.id,
          tenantName: input.tenantName,
          ...(input.version !== null && { version: input.version }),
        },
      }),
    ),
  ),
  /** One instance as stored now (the contract reads instances only as the tenant's list); 404 when gone. */
  loadInstance: fromPromise<Instance, { rest: RestClient; tenantName: string; id: number }>(({ input, signal }) =>
    readInstance(input.rest, input.tenantName, input.id, signal),
  ),
  syncInstance: fromPromise<Instance, { rest: RestClient; tenantName: string; id: number; sync: SyncRequest }>(
    async ({ input }) =>
      unwrap(
        await input.rest.POST('/api/instance/syncMessages', {
          body: {
            id: input.id,
            tenantName: input.tenantName,
            unlimitedSync: input.sync.unlimited,
            daysAgo: input.sync.unlimited ? null : input.sync.daysAgo,
          },
        }),
      ),
  ),
  /**
   * Events missed while the socket was away are lost (contracts/socket.md §2.2): `instances.reconnected`
   * each time a connection opens after this started (the socket's `socket.connected`). Without a socket
   * (tests) it says nothing.
   */
  watchReconnects: fromCallback<{ type: 'instances.reconnected' }, { socket: SocketActor | null }>(
    ({ input, sendBack }) => {
      if (!input.socket) return undefined;
      const subscription = input.socket.on('socket.connected', () => sendBack({ type: 'instances.reconnected' }));
      return () => subscription.unsubscribe();
    },
  ),
  /** Forwards `instanceUpdated` bus messages about this tenant's instances as `instances.live`. */
  watchInstances: fromCallback<LiveEvent, { bus: AppBus; tenantName: string }>(({ input, sendBack }) =>
    input.bus.on('instanceUpdated', (message) => {
      if (message.tenantName === input.tenantName && message.data.tenantName === input.tenantName)
        sendBack({ type: 'instances.live', instance: message.data });
    }),
  ),
};
