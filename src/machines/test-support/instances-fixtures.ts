/**
 * Test fixtures for the instances machine and panel: rows of the contract's shapes and a stateful
 * fake of the instances REST operations (answers as the reference server does), so machine and
 * component tests script only what differs.
 */
import type { Connection, Instance } from '../instances/instances-actors';
import { json, type Responder, type SeenRequest } from './fake-fetch';

export const TENANT = 'farmacia-central';

/** An instance of {@link TENANT} at rest (override any field). */
export function instance(id: number, over: Partial<Instance> = {}): Instance {
  return {
    id,
    name: `WhatsApp Loja ${id}`,
    activated: true,
    tenantName: TENANT,
    isOfficial: false,
    isUnlimited: false,
    status: 'idle',
    syncProgress: 0,
    syncedMessages: 0,
    totalMessages: null,
    created_at: '2026-01-10T12:00:00.000Z',
    version: 1,
    ...over,
  };
}

/** A connection of instance `instanceId`. */
export function connection(id: number, instanceId: number, over: Partial<Connection> = {}): Connection {
  return {
    id,
    tenantName: TENANT,
    instance_id: instanceId,
    instance_name: `WhatsApp Loja ${instanceId}`,
    name: `Conexão ${id}`,
    activated: true,
    phone: '+5511987654321',
    status: 'connected',
    last_seen_at: '2026-11-21T20:00:00.000Z',
    version: 1,
    ...over,
  };
}

/** The operations of the fake, for overrides. */
export type InstancesOperation =
  'list' | 'connections' | 'create' | 'update' | 'sync' | 'connectionCreate' | 'connectionUpdate';

const OPERATIONS: Record<string, InstancesOperation> = {
  'GET /api/instance': 'list',
  'GET /api/connection': 'connections',
  'POST /api/instance': 'create',
  'POST /api/instance/update': 'update',
  'POST /api/instance/syncMessages': 'sync',
  'POST /api/connection': 'connectionCreate',
  'POST /api/connection/update': 'connectionUpdate',
};

/** Whether another connection of the instance has this name, ignoring case (as the server's index). */
const connectionNameTaken = (connections: Connection[], instanceId: number, name: string, exceptId?: number) =>
  connections.some(
    (c) => c.instance_id === instanceId && c.id !== exceptId && c.name.toLowerCase() === name.trim().toLowerCase(),
  );

/**
 * A fake of the instances operations over a mutable state. `override[operation]` may answer a
 * request itself (an error, a held promise); returning `undefined` falls through to the fake.
 */
export function instancesApi(
  state: { instances: Instance[]; connections: Connection[] },
  override: Partial<
    Record<InstancesOperation, (request: SeenRequest) => Response | Promise<Response> | undefined>
  > = {},
): Responder {
  return (request) => {
    const operation = OPERATIONS[`${request.method} ${request.path}`];
    if (!operation) return json(404, { message: `no fake for ${request.method} ${request.path}` });
    const answer = override[operation]?.(request);
    if (answer) return answer;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const tenant = request.method === 'GET' ? request.query.get('tenantName') : body['tenantName'];
    if (tenant !== TENANT) return json(404, { message: 'Tenant not found' });
    const find = () => state.instances.find((row) => row.id === body['id']);
    switch (operation) {
      case 'list':
        return json(200, state.instances);
      case 'connections':
        return json(200, state.connections);
      case 'create': {
        const created = instance(Math.max(0, ...state.instances.map((row) => row.id)) + 1, {
          name: String(body['name']).trim(),
          isOfficial: body['isOfficial'] === true,
          isUnlimited: body['isUnlimited'] === true,
        });
        state.instances = [...state.instances, created];
        return json(201, created);
      }
      case 'update': {
        const row = find();
        if (!row) return json(404, { message: 'Instance not found' });
        const { id: _id, tenantName: _tenant, ...changes } = body;
        const updated = { ...row, ...changes } as Instance;
        state.instances = state.instances.map((r) => (r.id === row.id ? updated : r));
        return json(200, updated);
      }
      case 'sync': {
        const row = find();
        if (!row) return json(404, { message: 'Instance not found' });
        if (row.status === 'syncing')
          return json(409, { message: 'A sync of this instance is already running', field: 'id' });
        const started: Instance = {
          ...row,
          status: 'syncing',
          syncProgress: 0,
          syncedMessages: 0,
          totalMessages: 1000,
        };
        state.instances = state.instances.map((r) => (r.id === row.id ? started : r));
        return json(202, started);
      }
      case 'connectionCreate': {
        const owner = state.instances.find((row) => row.id === body['instance_id']);
        if (!owner)
          return json(400, {
            message: 'Validation failed',
            errors: [{ field: 'body/instance_id', message: 'No such instance in this tenant' }],
          });
        const name = String(body['name']).trim();
        if (connectionNameTaken(state.connections, owner.id, name))
          return json(409, { message: 'A connection with this name already exists', field: 'name' });
        const created = connection(Math.max(0, ...state.connections.map((c) => c.id)) + 1, owner.id, {
          instance_name: owner.name,
          name,
          phone: null,
          status: 'disconnected',
          last_seen_at: null,
        });
        state.connections = [...state.connections, created];
        return json(201, created);
      }
      case 'connectionUpdate': {
        const row = state.connections.find((c) => c.id === body['id']);
        if (!row) return json(404, { message: 'Connection not found' });
        const name = typeof body['name'] === 'string' ? body['name'].trim() : undefined;
        if (name !== undefined && connectionNameTaken(state.connections, row.instance_id, name, row.id))
          return json(409, { message: 'A connection with this name already exists', field: 'name' });
        const updated: Connection = {
          ...row,
          ...(name !== undefined ? { name } : {}),
          ...(typeof body['activated'] === 'boolean' ? { activated: body['activated'] } : {}),
        };
        state.connections = state.connections.map((c) => (c.id === row.id ? updated : c));
        return json(200, updated);
      }
    }
  };
}
