import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { Subject } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';
import type { AppBus } from '../shared/app-bus';
import {
  checkRemote,
  conflictGuards,
  conflictReload,
  liveConflict,
  reloadFailure,
  remoteCheckGuards,
  remoteCheckTransitions,
  remoteNoted,
  restAuditReader,
  staleSave,
  versionOf,
  watchTarget,
  type Conflict,
  type ConflictEvent,
  type RemoteCheck,
} from '../shared/conflict';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import { changeRefusal, readOnlyReason, saveRefusal } from './role-access';
import type { Role } from './roles.machine';

export type PermissionCategory = components['schemas']['PermissionCategory'];
export {
  isDirty,
  permissionGroups,
  selectConflict,
  selectConflictOpen,
  selectEditorPhase,
  selectMine,
  selectResolving,
  selectReadOnly,
  selectRenaming,
  selectSaving,
  selectShownGroups,
  type PermissionGroup,
} from './role-permissions-selectors';

export interface RolePermissionsInput {
  rest: RestClient;
  /** The `:id` of `/roles/edit/:id`. */
  roleId: number;
  /** The signed-in user (session-selectors.ts `selectSubject`); null or left out: not known. */
  subject?: Subject | null;
  /** Back-office staff: only they change roles (default false: nothing is offered that the server refuses). */
  staff?: boolean;
  /** The app bus: a change to the role made elsewhere shows at once (left out: learnt on save). */
  bus?: AppBus | null;
}

export interface RolePermissionsContext {
  rest: RestClient;
  roleId: number;
  subject: Subject | null;
  staff: boolean;
  role: Role | null;
  categories: PermissionCategory[];
  /** Route names as stored. */
  saved: string[];
  /** Route names as edited; dirty when it differs from `saved`. */
  draft: string[];
  /** The display name a rename in flight sends. */
  renameTo: string | null;
  loadError: ActionError | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
  notice: I18nKey | null;
  bus: AppBus | null;
  /** The role's version as loaded (sent with a save; src/machines/shared/conflict.ts). */
  version: number | null;
  /** The open conflict notice. */
  conflict: Conflict | null;
  /** Audit records of this role announced since the last check (`conflict.remote`). */
  remoteIds: number[];
}

export type RolePermissionsEvent =
  | { type: 'roles.toggle'; routeName: string }
  | { type: 'roles.toggleCategory'; category: string; enabled: boolean }
  | { type: 'roles.reset' }
  | { type: 'roles.save' }
  | { type: 'roles.rename'; displayName: string }
  | { type: 'roles.reload' }
  /** The signed-in user's role or routes changed (a live permission change, a profile reload). */
  | { type: 'roles.subject'; subject: Subject | null }
  | ConflictEvent;

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

function dirty(context: Pick<RolePermissionsContext, 'saved' | 'draft'>): boolean {
  return context.saved.length !== context.draft.length || context.saved.some((name, i) => context.draft[i] !== name);
}

/** Whether the permissions may be changed at all (role-access.ts `readOnlyReason`). */
export function isEditable(context: Pick<RolePermissionsContext, 'role' | 'saved' | 'subject' | 'staff'>): boolean {
  return context.role !== null && readOnlyReason(context) === null;
}

/**
 * The role editor (`/roles/edit/:id`): the role (`GET /api/roles/{id}`) and every permission grouped
 * by category (`GET /api/permission/categories`); toggle one permission or a whole category, with
 * dirty tracking; save replaces the role's set (`POST /api/permission/update {roleId, permissions}`);
 * rename changes the display name (`PUT /api/roles/{id}`). Read-only for the administrador role, for
 * anyone but back-office staff and for the editor's own role; a permission the editor lacks is neither
 * added nor removed (role-access.ts, as the server refuses them).
 *
 * States: `loading`, `failed`, `editing`, `saving`, `renaming` (calls tagged `busy`). Read the
 * checklist with `permissionGroups`, dirtiness with `isDirty` (role-permissions-selectors.ts).
 */
/** The role editor's calls; each ends in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type RoleEditorAction = 'save' | 'rename';

/** What the user may do to the checklist while it is shown (editing, and while a remote change is checked). */
const EDITS = {
  'roles.toggle': { guard: 'knownRoute', actions: 'toggle' },
  'roles.toggleCategory': { guard: 'knownCategory', actions: 'toggleCategory' },
  'roles.reset': { actions: 'reset' },
  'roles.save': { guard: 'canSave', target: '#rolePermissions.saving', actions: 'clearFeedback' },
  'roles.rename': {
    guard: 'newName',
    target: '#rolePermissions.renaming',
    actions: ['clearFeedback', 'beginRename'],
  },
  'roles.reload': '#rolePermissions.loading',
} as const;

/** Reads the role again for a reapply or a discard (src/machines/shared/conflict.ts `conflictReload`). */
const reloadRole = {
  id: 'loadRole',
  src: 'loadRole',
  input: ({ context }: { context: RolePermissionsContext }) => ({ rest: context.rest, roleId: context.roleId }),
} as const;

export const rolePermissionsMachine = setup({
  types: {
    input: {} as RolePermissionsInput,
    context: {} as RolePermissionsContext,
    events: {} as RolePermissionsEvent,
    emitted: {} as Outcome<RoleEditorAction>,
  },
  actors: {
    loadRoleEditor: fromPromise<{ role: Role; categories: PermissionCategory[] }, { rest: RestClient; roleId: number }>(
      async ({ input, signal }) => {
        const [role, categories] = await Promise.all([
          input.rest.GET('/api/roles/{id}', { params: { path: { id: input.roleId } }, signal }).then(unwrap),
          input.rest.GET('/api/permission/categories', { signal }).then(unwrap),
        ]);
        return { role, categories };
      },
    ),
    savePermissions: fromPromise<
      Role,
      { rest: RestClient; roleId: number; permissions: string[]; version: number | null }
    >(async ({ input }) =>
      unwrap(
        await input.rest.POST('/api/permission/update', {
          body: {
            roleId: input.roleId,
            permissions: input.permissions,
            ...(input.version === null ? {} : { version: input.version }),
          },
        }),
      ),
    ),
    loadRole: fromPromise<Role, { rest: RestClient; roleId: number }>(async ({ input, signal }) =>
      unwrap(await input.rest.GET('/api/roles/{id}', { params: { path: { id: input.roleId } }, signal })),
    ),
    watchTarget,
    checkRemote: checkRemote<Role>(),
    renameRole: fromPromise<Role, { rest: RestClient; roleId: number; displayName: string }>(async ({ input }) =>
      unwrap(
        await input.rest.PUT('/api/roles/{id}', {
          params: { path: { id: input.roleId } },
          body: { display_name: input.displayName },
        }),
      ),
    ),
  },
  guards: {
    editable: ({ context }) => isEditable(context),
    knownRoute: ({ context, event }) => {
      assertEvent(event, 'roles.toggle');
      const known = context.categories.some((c) => c.permissions.some((p) => p.route_name === event.routeName));
      // On or off, only a permission the editor holds (role-access.ts).
      const allowed = changeRefusal(context, event.routeName) === null;
      return isEditable(context) && known && allowed;
    },
    knownCategory: ({ context, event }) => {
      assertEvent(event, 'roles.toggleCategory');
      return isEditable(context) && context.categories.some((c) => c.category === event.category);
    },
    canSave: ({ context }) => isEditable(context) && dirty(context) && saveRefusal(context, context.draft) === null,
    ...conflictGuards,
    ...remoteCheckGuards(dirty),
    newName: ({ context, event }) => {
      assertEvent(event, 'roles.rename');
      const name = event.displayName.trim();
      return name.length > 0 && name.length <= 80 && name !== context.role?.display_name;
    },
  },
  actions: {
    loaded: assign((_, params: { role: Role; categories: PermissionCategory[] }) => {
      const saved = sorted(params.role.has_permission_routes);
      return {
        role: params.role,
        categories: params.categories,
        saved,
        draft: saved,
        loadError: null,
        version: versionOf(params.role),
        conflict: null,
        remoteIds: [],
      };
    }),
    noteRemote: assign(({ context, event }) => remoteNoted(context, event)),
    checked: assign({ remoteIds: () => [] }),
    // Someone else's change: the user's unsaved values stay in `draft` beside it until reapplied or discarded.
    conflictLive: assign((_, check: RemoteCheck<Role>) => ({
      conflict: liveConflict(check, true),
      remoteIds: [],
      notice: null,
      actionError: null,
    })),
    // Nothing unsaved: the form shows the current role at once, and says what changed.
    refreshedLive: assign((_, check: RemoteCheck<Role>) => {
      const saved = sorted(check.record.has_permission_routes);
      return {
        role: check.record,
        saved,
        draft: saved,
        version: check.version,
        conflict: liveConflict(check, false),
        remoteIds: [],
      };
    }),
    conflictSave: assign((_, params: { error: unknown }) => staleSave(params.error)),
    dismissConflict: assign({ conflict: null }),
    // The user's own changes (what they added and took away) laid over the role as it is now.
    reapplied: assign(({ context }, role: Role) => {
      const added = context.draft.filter((n) => !context.saved.includes(n));
      const removed = new Set(context.saved.filter((n) => !context.draft.includes(n)));
      const saved = sorted(role.has_permission_routes);
      return {
        role,
        saved,
        draft: sorted([...saved, ...added].filter((n) => !removed.has(n))),
        version: versionOf(role),
        conflict: null,
        remoteIds: [],
        actionError: null,
      };
    }),
    discarded: assign((_, role: Role) => {
      const saved = sorted(role.has_permission_routes);
      return { role, saved, draft: saved, version: versionOf(role), conflict: null, remoteIds: [], actionError: null };
    }),
    reloadFailed: assign((_, params: { error: unknown }) => reloadFailure(params.error)),
    loadFailed: assign((_, params: { error: unknown }) => ({
      loadError: actionError('roles.errors.load', params.error),
    })),
    toggle: assign(({ context, event }) => {
      assertEvent(event, 'roles.toggle');
      const on = context.draft.includes(event.routeName);
      return {
        draft: on ? context.draft.filter((n) => n !== event.routeName) : sorted([...context.draft, event.routeName]),
        notice: null,
      };
    }),
    toggleCategory: assign(({ context, event }) => {
      assertEvent(event, 'roles.toggleCategory');
      const names =
        context.categories.find((c) => c.category === event.category)?.permissions.map((p) => p.route_name) ?? [];
      // A whole category changes only what the editor may change (role-access.ts): the rest stays as it is.
      const open = names.filter((name) => changeRefusal(context, name) === null);
      const draft = event.enabled
        ? sorted([...new Set([...context.draft, ...open])])
        : context.draft.filter((n) => !open.includes(n));
      return { draft, notice: null };
    }),
    reset: assign(({ context }) => ({ draft: context.saved, notice: null })),
    setSubject: assign(({ event }) => {
      assertEvent(event, 'roles.subject');
      return { subject: event.subject };
    }),
    beginRename: assign(({ event }) => {
      assertEvent(event, 'roles.rename');
      return { renameTo: event.displayName.trim() };
    }),
    clearFeedback: assign({ actionError: null, fieldErrors: () => ({}), notice: null }),
    stored: assign((_, params: { role: Role; notice: I18nKey }) => {
      const saved = sorted(params.role.has_permission_routes);
      return {
        role: params.role,
        saved,
        draft: saved,
        renameTo: null,
        notice: params.notice,
        version: versionOf(params.role),
        conflict: null,
      };
    }),
    // The edited checklist is kept: renaming does not touch permissions.
    // A rename that was the role's only change since the form's version moves the form to the new one;
    // after anyone else's change the form keeps its version, so its next save shows that change.
    renamed: assign(({ context }, role: Role) => {
      const next = versionOf(role);
      const ownOnly = next !== null && context.version !== null && next === context.version + 1;
      return {
        role,
        ...(ownOnly || next === null ? { version: next, saved: sorted(role.has_permission_routes) } : {}),
        renameTo: null,
        notice: 'roles.notices.renamed' as const,
      };
    }),
    // A success toasts its notice; a refused save toasts why, a refused rename shows in its dialog.
    report: emit(({ context }, params: { action: RoleEditorAction; notice: I18nKey | null }) => {
      if (params.notice) return succeeded(params.action, { key: params.notice });
      const error = context.actionError;
      return failed(
        params.action,
        params.action === 'save' && error
          ? { variant: 'error', title: { key: error.key }, description: { key: error.reason } }
          : null,
      );
    }),
    refused: assign((_, params: { key: I18nKey; error: unknown }) => ({
      actionError: actionError(params.key, params.error),
      fieldErrors: refusedFields(params.error),
      renameTo: null,
    })),
  },
}).createMachine({
  id: 'rolePermissions',
  context: ({ input }) => ({
    rest: input.rest,
    roleId: input.roleId,
    subject: input.subject ?? null,
    staff: input.staff ?? false,
    role: null,
    categories: [],
    saved: [],
    draft: [],
    renameTo: null,
    loadError: null,
    actionError: null,
    fieldErrors: {},
    notice: null,
    bus: input.bus ?? null,
    version: null,
    conflict: null,
    remoteIds: [],
  }),
  initial: 'loading',
  invoke: {
    id: 'watchTarget',
    src: 'watchTarget',
    input: ({ context }) => ({ bus: context.bus, targetType: 'role' as const, targetId: context.roleId }),
  },
  on: {
    'roles.subject': { actions: 'setSubject' },
    // Noted anywhere; checked once the form is editing (src/machines/shared/conflict.ts).
    'conflict.remote': { guard: 'news', actions: 'noteRemote' },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadRoleEditor',
        src: 'loadRoleEditor',
        input: ({ context }) => ({ rest: context.rest, roleId: context.roleId }),
        onDone: { target: 'editing', actions: { type: 'loaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'loadFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: { on: { 'roles.reload': 'loading' } },
    editing: {
      always: { guard: 'remotePending', target: 'checking' },
      on: {
        ...EDITS,
        'conflict.remote': { guard: 'news', target: 'checking', actions: 'noteRemote' },
        'conflict.dismiss': { actions: 'dismissConflict' },
      },
    },
    // Whether an announced change is one the form has not loaded; the user keeps editing meanwhile.
    checking: {
      invoke: {
        id: 'checkRemote',
        src: 'checkRemote',
        input: ({ context }) => ({
          audit: restAuditReader(context.rest),
          targetType: 'role' as const,
          targetId: context.roleId,
          version: context.version,
          ids: context.remoteIds,
          load: (signal: AbortSignal) =>
            context.rest.GET('/api/roles/{id}', { params: { path: { id: context.roleId } }, signal }).then(unwrap),
        }),
        ...remoteCheckTransitions({ conflict: 'conflict', form: 'editing' }),
      },
      on: {
        ...EDITS,
        'conflict.remote': { guard: 'news', target: 'checking', reenter: true, actions: 'noteRemote' },
        'conflict.dismiss': { actions: 'dismissConflict' },
      },
    },
    // The user's unsaved values beside the other person's change: reapply them or discard them.
    conflict: {
      on: {
        'conflict.reapply': { target: 'reapplying', actions: 'clearFeedback' },
        'conflict.discard': { target: 'discarding', actions: 'clearFeedback' },
      },
    },
    reapplying: conflictReload(reloadRole, 'reapplied', { done: 'reapplied', conflict: 'conflict' }),
    // Saved with the new version at once, unless nothing of the user's is left to save.
    reapplied: {
      always: [{ guard: 'canSave', target: 'saving' }, { target: 'editing' }],
    },
    discarding: conflictReload(reloadRole, 'discarded', { done: 'editing', conflict: 'conflict' }),
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'savePermissions',
        src: 'savePermissions',
        input: ({ context }) => ({
          rest: context.rest,
          roleId: context.roleId,
          permissions: context.draft,
          version: context.version,
        }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'stored', params: ({ event }) => ({ role: event.output, notice: 'roles.notices.saved' }) },
            { type: 'report', params: { action: 'save', notice: 'roles.notices.saved' } },
          ],
        },
        onError: [
          {
            guard: 'stale',
            target: 'conflict',
            actions: { type: 'conflictSave', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'editing',
            actions: [
              { type: 'refused', params: ({ event }) => ({ key: 'roles.errors.save', error: event.error }) },
              { type: 'report', params: { action: 'save', notice: null } },
            ],
          },
        ],
      },
    },
    renaming: {
      tags: ['busy'],
      invoke: {
        id: 'renameRole',
        src: 'renameRole',
        input: ({ context }) => ({ rest: context.rest, roleId: context.roleId, displayName: context.renameTo ?? '' }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'renamed', params: ({ event }) => event.output },
            { type: 'report', params: { action: 'rename', notice: 'roles.notices.renamed' } },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            { type: 'refused', params: ({ event }) => ({ key: 'roles.errors.rename', error: event.error }) },
            { type: 'report', params: { action: 'rename', notice: null } },
          ],
        },
      },
    },
  },
});

export type RolePermissionsSnapshot = SnapshotFrom<typeof rolePermissionsMachine>;
