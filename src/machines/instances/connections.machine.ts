import { fromPromise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap } from '../../api/rest-client';
import {
  namedRecordsMachine,
  type NamedRecordsInput,
  type RecordAction,
  type RecordChange,
  type RecordDialog,
} from '../shared/named-records.machine';
import type { Connection } from './instances-actors';

export type ConnectionsInput = NamedRecordsInput;

/** Where a new connection goes: its instance (the dialog's title names it). */
export interface ConnectionScope {
  instanceId: number;
  instanceName: string;
}

/** The open dialog: a new connection of an instance, or a rename. */
export type ConnectionDialog = RecordDialog<Connection, ConnectionScope>;

export type ConnectionAction = RecordAction;

/**
 * Creating, renaming, activating and deactivating a tenant's connections from the instances panel
 * (`POST /api/connection`, `POST /api/connection/update`, contract extensions), as a named-records
 * machine (src/machines/shared/named-records.machine.ts). The list comes from the panel's load
 * (`records.set`); names are unique among the connections of the same instance.
 *
 * Events: `records.set`, `records.createOpen` (scope: the instance), `records.renameOpen`,
 * `records.close`, `records.submit`, `records.activate`, `records.draft` and the conflict notice's
 * (src/machines/shared/conflict.ts). States: `ready.*` (named-records.machine.ts).
 */
export const connectionsMachine = namedRecordsMachine<Connection, ConnectionScope>({
  id: 'connections',
  targetType: 'connection',
  texts: {
    nameRequired: 'instances.connections.errors.nameRequired',
    nameTooLong: 'instances.connections.errors.nameTooLong',
    nameTaken: 'instances.connections.errors.nameTaken',
    errors: {
      create: 'instances.connections.errors.create',
      rename: 'instances.connections.errors.rename',
      activate: 'instances.connections.errors.activate',
    },
    notices: {
      created: 'instances.connections.notices.created',
      renamed: 'instances.connections.notices.renamed',
      activated: 'instances.connections.notices.activated',
      deactivated: 'instances.connections.notices.deactivated',
    },
  },
  scopeKey: { ofRecord: (connection) => connection.instance_id, ofCreate: (scope) => scope.instanceId },
  calls: {
    // The contract reads connections only as the tenant's list.
    loadOne: async (input, signal) => {
      const list = unwrap(
        await input.rest.GET('/api/connection', { params: { query: { tenantName: input.tenantName } }, signal }),
      );
      const found = list.find((c) => c.id === input.id);
      if (!found) throw new ApiError(404, { message: 'Connection not found' });
      return found;
    },
    save: fromPromise<Connection, NamedRecordsInput & { change: RecordChange<ConnectionScope> }>(async ({ input }) => {
      const { change, tenantName } = input;
      if (change.kind === 'create')
        return unwrap(
          await input.rest.POST('/api/connection', {
            body: { instance_id: change.scope.instanceId, name: change.name, tenantName },
          }),
        );
      const body =
        change.kind === 'rename'
          ? // The version its dialog loaded (docs/lists.md, Versions); an activation from the row sends none.
            {
              id: change.id,
              name: change.name,
              tenantName,
              ...(change.version !== null && { version: change.version }),
            }
          : { id: change.id, activated: change.activated, tenantName };
      return unwrap(await input.rest.POST('/api/connection/update', { body }));
    }),
  },
});

export type ConnectionsActor = ActorRefFrom<typeof connectionsMachine>;
export type ConnectionsSnapshot = SnapshotFrom<typeof connectionsMachine>;
