import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import { holdsEveryRoute } from '../../domain/route-access';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import { roleCreateProblems, roleRenameProblems } from './role-rules';

export { ROLE_NAME, roleCreateProblems, roleRenameProblems } from './role-rules';

export type Role = components['schemas']['Role'];
export type RoleCreate = components['schemas']['RoleCreate'];

export interface RolesInput {
  rest: RestClient;
}

export interface RolesContext {
  rest: RestClient;
  roles: Role[];
  listError: ActionError | null;
  pending: RoleCreate | null;
  /** The rename in flight (`PUT /api/roles/{id}`). */
  renaming: { id: number; displayName: string } | null;
  /** The role being deleted (`DELETE /api/roles/{id}`). */
  deleting: number | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
  notice: I18nKey | null;
}

export type RolesEvent =
  | { type: 'roles.reload' }
  | { type: 'roles.create'; name: string; displayName: string }
  | { type: 'roles.rename'; id: number; displayName: string }
  | { type: 'roles.delete'; id: number };

/**
 * The role list (`GET /api/roles`), role creation (`POST /api/roles`), renaming a role's display
 * name (`PUT /api/roles/{id}`) and deleting a role no user holds (`DELETE /api/roles/{id}`), contract
 * extensions; permissions live in the role editor ({@link rolePermissionsMachine}). The administrador
 * role is never renamed or deleted here. A delete the server refuses because users hold the role (409)
 * says so (`roles.errors.inUse`) and leaves the list as it was.
 *
 * States: `loading`, `failed`, `ready.idle`, `ready.creating`, `ready.renaming`, `ready.deleting`
 * (calls tagged `busy`).
 */
/** The calls of the roles list; each ends in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type RoleAction = 'create' | 'rename' | 'delete';

export const rolesMachine = setup({
  types: {
    input: {} as RolesInput,
    context: {} as RolesContext,
    events: {} as RolesEvent,
    emitted: {} as Outcome<RoleAction>,
  },
  actors: {
    loadRoles: fromPromise<Role[], { rest: RestClient }>(async ({ input, signal }) =>
      unwrap(await input.rest.GET('/api/roles', { signal })),
    ),
    createRole: fromPromise<Role, { rest: RestClient; role: RoleCreate }>(async ({ input }) =>
      unwrap(await input.rest.POST('/api/roles', { body: input.role })),
    ),
    renameRole: fromPromise<Role, { rest: RestClient; id: number; displayName: string }>(async ({ input }) =>
      unwrap(
        await input.rest.PUT('/api/roles/{id}', {
          params: { path: { id: input.id } },
          body: { display_name: input.displayName },
        }),
      ),
    ),
    deleteRole: fromPromise<void, { rest: RestClient; id: number }>(async ({ input }) => {
      unwrap(await input.rest.DELETE('/api/roles/{id}', { params: { path: { id: input.id } } }));
    }),
  },
  guards: {
    deletableRole: ({ context, event }) => {
      assertEvent(event, 'roles.delete');
      const role = context.roles.find((r) => r.id === event.id);
      return role !== undefined && !holdsEveryRoute(role.name);
    },
    validRole: ({ event }) => {
      assertEvent(event, 'roles.create');
      return Object.keys(roleCreateProblems(event.name, event.displayName)).length === 0;
    },
    validRename: ({ context, event }) => {
      assertEvent(event, 'roles.rename');
      const role = context.roles.find((r) => r.id === event.id);
      return (
        role !== undefined &&
        !holdsEveryRoute(role.name) &&
        Object.keys(roleRenameProblems(event.displayName)).length === 0
      );
    },
  },
  actions: {
    storeRoles: assign((_, roles: Role[]) => ({ roles, listError: null })),
    listFailed: assign((_, params: { error: unknown }) => ({
      roles: [],
      listError: actionError('roles.errors.load', params.error),
    })),
    begin: assign(({ event }) => {
      assertEvent(event, 'roles.create');
      return {
        pending: { name: event.name, display_name: event.displayName.trim() },
        actionError: null,
        fieldErrors: {},
        notice: null,
      };
    }),
    refuse: assign((_, params: { fieldErrors: RolesContext['fieldErrors'] }) => ({
      fieldErrors: params.fieldErrors,
      actionError: null,
      notice: null,
    })),
    beginRename: assign(({ event }) => {
      assertEvent(event, 'roles.rename');
      return {
        renaming: { id: event.id, displayName: event.displayName.trim() },
        actionError: null,
        fieldErrors: {},
        notice: null,
      };
    }),
    renamed: assign(({ context }, role: Role) => ({
      roles: context.roles.map((r) => (r.id === role.id ? role : r)),
      renaming: null,
      notice: 'roles.notices.renamed' as const,
    })),
    renameFailed: assign((_, params: { error: unknown }) => ({
      actionError: actionError('roles.errors.rename', params.error),
      fieldErrors: refusedFields(params.error),
      renaming: null,
    })),
    beginDelete: assign(({ event }) => {
      assertEvent(event, 'roles.delete');
      return { deleting: event.id, actionError: null, fieldErrors: {}, notice: null };
    }),
    deleted: assign(({ context }) => ({
      roles: context.roles.filter((r) => r.id !== context.deleting),
      deleting: null,
      notice: 'roles.notices.deleted' as const,
    })),
    deleteFailed: assign((_, params: { error: unknown }) => ({
      // 409: users (live or deleted) still hold the role; anything else says why in general terms.
      actionError:
        params.error instanceof ApiError && params.error.status === 409
          ? { key: 'roles.errors.delete' as const, reason: 'roles.errors.inUse' as const }
          : actionError('roles.errors.delete', params.error),
      deleting: null,
    })),
    created: assign(({ context }, role: Role) => ({
      roles: [...context.roles, role],
      pending: null,
      notice: 'roles.notices.created' as const,
    })),
    createFailed: assign((_, params: { error: unknown }) => ({
      actionError: actionError('roles.errors.create', params.error),
      fieldErrors: refusedFields(params.error),
      pending: null,
    })),
    // A success toasts its notice; a refusal shows in the dialog that asked.
    report: emit((_, params: { action: RoleAction; notice: I18nKey | null }) =>
      params.notice ? succeeded(params.action, { key: params.notice }) : failed(params.action, null),
    ),
  },
}).createMachine({
  id: 'roles',
  context: ({ input }) => ({
    rest: input.rest,
    roles: [],
    listError: null,
    pending: null,
    renaming: null,
    deleting: null,
    actionError: null,
    fieldErrors: {},
    notice: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadRoles',
        src: 'loadRoles',
        input: ({ context }) => ({ rest: context.rest }),
        onDone: { target: 'ready', actions: { type: 'storeRoles', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: { on: { 'roles.reload': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'roles.reload': '#roles.loading',
            'roles.create': [
              { guard: 'validRole', target: 'creating', actions: 'begin' },
              {
                actions: {
                  type: 'refuse',
                  params: ({ event }) => ({ fieldErrors: roleCreateProblems(event.name, event.displayName) }),
                },
              },
            ],
            'roles.delete': { guard: 'deletableRole', target: 'deleting', actions: 'beginDelete' },
            'roles.rename': [
              { guard: 'validRename', target: 'renaming', actions: 'beginRename' },
              {
                actions: {
                  type: 'refuse',
                  params: ({ event }) => ({ fieldErrors: roleRenameProblems(event.displayName) }),
                },
              },
            ],
          },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createRole',
            src: 'createRole',
            input: ({ context }) => {
              if (!context.pending) throw new Error('roles: creating without a role');
              return { rest: context.rest, role: context.pending };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'created', params: ({ event }) => event.output },
                { type: 'report', params: { action: 'create', notice: 'roles.notices.created' } },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'createFailed', params: ({ event }) => ({ error: event.error }) },
                { type: 'report', params: { action: 'create', notice: null } },
              ],
            },
          },
        },
        renaming: {
          tags: ['busy'],
          invoke: {
            id: 'renameRole',
            src: 'renameRole',
            input: ({ context }) => {
              if (!context.renaming) throw new Error('roles: renaming without a role');
              return { rest: context.rest, ...context.renaming };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'renamed', params: ({ event }) => event.output },
                { type: 'report', params: { action: 'rename', notice: 'roles.notices.renamed' } },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'renameFailed', params: ({ event }) => ({ error: event.error }) },
                { type: 'report', params: { action: 'rename', notice: null } },
              ],
            },
          },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteRole',
            src: 'deleteRole',
            input: ({ context }) => {
              if (context.deleting === null) throw new Error('roles: deleting without a role');
              return { rest: context.rest, id: context.deleting };
            },
            onDone: {
              target: 'idle',
              actions: ['deleted', { type: 'report', params: { action: 'delete', notice: 'roles.notices.deleted' } }],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'deleteFailed', params: ({ event }) => ({ error: event.error }) },
                { type: 'report', params: { action: 'delete', notice: null } },
              ],
            },
          },
        },
      },
    },
  },
});

export type RolesSnapshot = SnapshotFrom<typeof rolesMachine>;

/** The list's status: loading, failed to load, or shown. */
export const selectRolesStatus = (s: RolesSnapshot): 'loading' | 'error' | 'ready' =>
  s.matches('loading') ? 'loading' : s.matches('failed') ? 'error' : 'ready';
