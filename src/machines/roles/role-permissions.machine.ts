import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { Subject } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import { changeRefusal, readOnlyReason, saveRefusal } from './role-access';
import type { Role } from './roles.machine';

export type PermissionCategory = components['schemas']['PermissionCategory'];
export {
  isDirty,
  permissionGroups,
  selectEditorPhase,
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
}

export type RolePermissionsEvent =
  | { type: 'roles.toggle'; routeName: string }
  | { type: 'roles.toggleCategory'; category: string; enabled: boolean }
  | { type: 'roles.reset' }
  | { type: 'roles.save' }
  | { type: 'roles.rename'; displayName: string }
  | { type: 'roles.reload' }
  /** The signed-in user's role or routes changed (a live permission change, a profile reload). */
  | { type: 'roles.subject'; subject: Subject | null };

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
    savePermissions: fromPromise<Role, { rest: RestClient; roleId: number; permissions: string[] }>(async ({ input }) =>
      unwrap(
        await input.rest.POST('/api/permission/update', {
          body: { roleId: input.roleId, permissions: input.permissions },
        }),
      ),
    ),
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
    newName: ({ context, event }) => {
      assertEvent(event, 'roles.rename');
      const name = event.displayName.trim();
      return name.length > 0 && name.length <= 80 && name !== context.role?.display_name;
    },
  },
  actions: {
    loaded: assign((_, params: { role: Role; categories: PermissionCategory[] }) => {
      const saved = sorted(params.role.has_permission_routes);
      return { role: params.role, categories: params.categories, saved, draft: saved, loadError: null };
    }),
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
      return { role: params.role, saved, draft: saved, renameTo: null, notice: params.notice };
    }),
    // The edited checklist is kept: renaming does not touch permissions.
    renamed: assign((_, role: Role) => ({
      role,
      saved: sorted(role.has_permission_routes),
      renameTo: null,
      notice: 'roles.notices.renamed' as const,
    })),
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
  }),
  initial: 'loading',
  on: { 'roles.subject': { actions: 'setSubject' } },
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
      on: {
        'roles.toggle': { guard: 'knownRoute', actions: 'toggle' },
        'roles.toggleCategory': { guard: 'knownCategory', actions: 'toggleCategory' },
        'roles.reset': { actions: 'reset' },
        'roles.save': { guard: 'canSave', target: 'saving', actions: 'clearFeedback' },
        'roles.rename': { guard: 'newName', target: 'renaming', actions: ['clearFeedback', 'beginRename'] },
        'roles.reload': 'loading',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'savePermissions',
        src: 'savePermissions',
        input: ({ context }) => ({ rest: context.rest, roleId: context.roleId, permissions: context.draft }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'stored', params: ({ event }) => ({ role: event.output, notice: 'roles.notices.saved' }) },
            { type: 'report', params: { action: 'save', notice: 'roles.notices.saved' } },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            { type: 'refused', params: ({ event }) => ({ key: 'roles.errors.save', error: event.error }) },
            { type: 'report', params: { action: 'save', notice: null } },
          ],
        },
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
