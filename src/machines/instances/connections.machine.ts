import { assertEvent, assign, emit, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import { recordNameProblem, type RecordNameProblem } from '../../domain/record-name';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import type { Connection } from './instances-actors';

export interface ConnectionsInput {
  rest: RestClient;
  /** The tenant of the instances panel. */
  tenantName: string;
}

/** The open dialog: a new connection of an instance, or a rename. */
export type ConnectionDialog =
  { kind: 'create'; instanceId: number; instanceName: string } | { kind: 'rename'; connection: Connection } | null;

type Change = { create: { instance_id: number; name: string } } | { id: number; name?: string; activated?: boolean };

export interface ConnectionsContext extends ConnectionsInput {
  connections: Connection[];
  dialog: ConnectionDialog;
  /** The change in flight (kept after it ends, for its outcome; replaced by the next). */
  pending: Change | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
}

export type ConnectionsEvent =
  /** The list as the instances panel loaded it (`GET /api/connection`); replaces this one. */
  | { type: 'connections.set'; connections: Connection[] }
  | { type: 'connections.createOpen'; instanceId: number; instanceName: string }
  | { type: 'connections.renameOpen'; id: number }
  | { type: 'connections.close' }
  | { type: 'connections.submit'; name: string }
  | { type: 'connections.activate'; id: number; activated: boolean };

export type ConnectionAction = 'create' | 'rename' | 'activate';

const NAME_PROBLEMS: Readonly<Record<RecordNameProblem, I18nKey>> = {
  blank: 'instances.connections.errors.nameRequired',
  tooLong: 'instances.connections.errors.nameTooLong',
  taken: 'instances.connections.errors.nameTaken',
};

/** The field errors of a connection name among the other connections of its instance (src/domain/record-name.ts). */
export function connectionNameProblems(
  name: string,
  connections: readonly Connection[],
  instanceId: number,
  exceptId: number | null = null,
): Record<string, I18nKey> {
  const others = connections.filter((c) => c.instance_id === instanceId && c.id !== exceptId).map((c) => c.name);
  const problem = recordNameProblem(name, others);
  return problem ? { name: NAME_PROBLEMS[problem] } : {};
}

function problemsOf(context: ConnectionsContext, name: string): Record<string, I18nKey> {
  const { dialog } = context;
  if (dialog?.kind === 'create') return connectionNameProblems(name, context.connections, dialog.instanceId);
  if (dialog?.kind === 'rename')
    return connectionNameProblems(name, context.connections, dialog.connection.instance_id, dialog.connection.id);
  return { name: 'instances.connections.errors.nameRequired' };
}

function actionOf(pending: Change | null): ConnectionAction {
  if (!pending || 'create' in pending) return 'create';
  return pending.name === undefined ? 'activate' : 'rename';
}

const NOTICES = { create: 'created', rename: 'renamed' } as const;

/**
 * Creating, renaming, activating and deactivating a tenant's connections from the instances panel
 * (`POST /api/connection`, `POST /api/connection/update`, contract extensions). The list comes from the
 * panel's load (`connections.set`); a change the server accepts replaces its row. A name is checked
 * before it is sent (blank, over 80 characters, another connection of the same instance ignoring case);
 * a 409 shows on the dialog's name field, a connection gone meanwhile (404) leaves the list.
 *
 * States: `idle` (a dialog may be open: `dialog`), `saving` (tagged `busy`).
 */
export const connectionsMachine = setup({
  types: {
    input: {} as ConnectionsInput,
    context: {} as ConnectionsContext,
    events: {} as ConnectionsEvent,
    emitted: {} as Outcome<ConnectionAction>,
  },
  actors: {
    saveConnection: fromPromise<Connection, { rest: RestClient; tenantName: string; change: Change }>(
      async ({ input }) => {
        const { change, tenantName } = input;
        if ('create' in change)
          return unwrap(await input.rest.POST('/api/connection', { body: { ...change.create, tenantName } }));
        return unwrap(await input.rest.POST('/api/connection/update', { body: { ...change, tenantName } }));
      },
    ),
  },
  guards: {
    validName: ({ context, event }) => {
      assertEvent(event, 'connections.submit');
      return context.dialog !== null && Object.keys(problemsOf(context, event.name)).length === 0;
    },
    knownConnection: ({ context, event }) => {
      assertEvent(event, ['connections.renameOpen', 'connections.activate']);
      return context.connections.some((c) => c.id === event.id);
    },
  },
  actions: {
    store: assign(({ event }) => {
      assertEvent(event, 'connections.set');
      return { connections: event.connections };
    }),
    openCreate: assign(({ event }) => {
      assertEvent(event, 'connections.createOpen');
      return {
        dialog: { kind: 'create' as const, instanceId: event.instanceId, instanceName: event.instanceName },
        actionError: null,
        fieldErrors: {},
      };
    }),
    openRename: assign(({ context, event }) => {
      assertEvent(event, 'connections.renameOpen');
      const connection = context.connections.find((c) => c.id === event.id);
      return {
        dialog: connection ? { kind: 'rename' as const, connection } : null,
        actionError: null,
        fieldErrors: {},
      };
    }),
    close: assign({ dialog: null, actionError: null, fieldErrors: () => ({}) }),
    refuse: assign(({ context, event }) => {
      assertEvent(event, 'connections.submit');
      return { fieldErrors: problemsOf(context, event.name), actionError: null };
    }),
    begin: assign(({ context, event }) => {
      assertEvent(event, ['connections.submit', 'connections.activate']);
      const { dialog } = context;
      const pending: Change =
        event.type === 'connections.activate'
          ? { id: event.id, activated: event.activated }
          : dialog?.kind === 'create'
            ? { create: { instance_id: dialog.instanceId, name: event.name.trim() } }
            : { id: dialog?.kind === 'rename' ? dialog.connection.id : 0, name: event.name.trim() };
      return { pending, actionError: null, fieldErrors: {} };
    }),
    saved: assign(({ context }, connection: Connection) => {
      const exists = context.connections.some((c) => c.id === connection.id);
      return {
        connections: exists
          ? context.connections.map((c) => (c.id === connection.id ? connection : c))
          : [...context.connections, connection],
        dialog: actionOf(context.pending) === 'activate' ? context.dialog : null,
      };
    }),
    saveFailed: assign(({ context }, params: { error: unknown }) => {
      const conflict = params.error instanceof ApiError && params.error.status === 409;
      const gone = params.error instanceof ApiError && params.error.status === 404;
      const pending = context.pending;
      return {
        actionError: actionError(`instances.connections.errors.${actionOf(pending)}`, params.error),
        fieldErrors: conflict
          ? { name: 'instances.connections.errors.nameTaken' as const }
          : refusedFields(params.error),
        connections:
          gone && pending && 'id' in pending
            ? context.connections.filter((c) => c.id !== pending.id)
            : context.connections,
      };
    }),
    report: emit(
      (_, params: { action: ConnectionAction; connection: Connection | null; error: ActionError | null }) => {
        if (params.connection) {
          const notice =
            params.action === 'activate'
              ? params.connection.activated
                ? 'activated'
                : 'deactivated'
              : NOTICES[params.action];
          return succeeded(params.action, {
            key: `instances.connections.notices.${notice}`,
            params: { name: params.connection.name },
          });
        }
        // A create or rename refused shows on its dialog; an (de)activation has none, so it toasts.
        return failed(
          params.action,
          params.action === 'activate' && params.error
            ? { variant: 'error', title: { key: params.error.key }, description: { key: params.error.reason } }
            : null,
        );
      },
    ),
  },
}).createMachine({
  id: 'connections',
  context: ({ input }) => ({
    ...input,
    connections: [],
    dialog: null,
    pending: null,
    actionError: null,
    fieldErrors: {},
  }),
  on: { 'connections.set': { actions: 'store' } },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'connections.createOpen': { actions: 'openCreate' },
        'connections.renameOpen': { guard: 'knownConnection', actions: 'openRename' },
        'connections.close': { actions: 'close' },
        'connections.submit': [{ guard: 'validName', target: 'saving', actions: 'begin' }, { actions: 'refuse' }],
        'connections.activate': { guard: 'knownConnection', target: 'saving', actions: 'begin' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveConnection',
        src: 'saveConnection',
        input: ({ context }) => {
          if (!context.pending) throw new Error('connections: saving without a change');
          return { rest: context.rest, tenantName: context.tenantName, change: context.pending };
        },
        onDone: {
          target: 'idle',
          actions: [
            { type: 'saved', params: ({ event }) => event.output },
            {
              type: 'report',
              params: ({ context, event }) => ({
                action: actionOf(context.pending),
                connection: event.output,
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
                connection: null,
                error: context.actionError,
              }),
            },
          ],
        },
      },
    },
  },
});

export type ConnectionsActor = ActorRefFrom<typeof connectionsMachine>;
export type ConnectionsSnapshot = SnapshotFrom<typeof connectionsMachine>;
