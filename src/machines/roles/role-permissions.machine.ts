import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import type { Role } from './roles.machine';

export type PermissionCategory = components['schemas']['PermissionCategory'];

/** The role the server keeps holding every permission (docs/product.md, Roles and route permissions; it answers 409 to a change). */
export const ADMIN_ROLE = 'administrador';

export interface RolePermissionsInput {
  rest: RestClient;
  /** The `:id` of `/roles/edit/:id`. */
  roleId: number;
}

export interface RolePermissionsContext {
  rest: RestClient;
  roleId: number;
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
  | { type: 'roles.reload' };

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

export function isDirty(context: Pick<RolePermissionsContext, 'saved' | 'draft'>): boolean {
  return context.saved.length !== context.draft.length || context.saved.some((name, i) => context.draft[i] !== name);
}

export function isEditable(context: Pick<RolePermissionsContext, 'role'>): boolean {
  return context.role !== null && context.role.name !== ADMIN_ROLE;
}

/**
 * The role editor (`/roles/edit/:id`): the role (`GET /api/roles/{id}`) and every permission grouped
 * by category (`GET /api/permission/categories`); toggle one permission or a whole category, with
 * dirty tracking; save replaces the role's set (`POST /api/permission/update {roleId, permissions}`);
 * rename changes the display name (`PUT /api/roles/{id}`). The administrador role is read-only.
 *
 * States: `loading`, `failed`, `editing`, `saving`, `renaming` (calls tagged `busy`). Read the
 * checklist with {@link permissionGroups}, dirtiness with {@link isDirty}.
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
      return (
        isEditable(context) &&
        context.categories.some((c) => c.permissions.some((p) => p.route_name === event.routeName))
      );
    },
    knownCategory: ({ context, event }) => {
      assertEvent(event, 'roles.toggleCategory');
      return isEditable(context) && context.categories.some((c) => c.category === event.category);
    },
    canSave: ({ context }) => isEditable(context) && isDirty(context),
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
      const draft = event.enabled
        ? sorted([...context.draft, ...names])
        : context.draft.filter((n) => !names.includes(n));
      return { draft, notice: null };
    }),
    reset: assign(({ context }) => ({ draft: context.saved, notice: null })),
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

/** The editor's phase: loading the role, failed to load it, or shown (editing, or saving or renaming it). */
export const selectEditorPhase = (s: RolePermissionsSnapshot): 'loading' | 'failed' | 'ready' =>
  s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready';
export const selectSaving = (s: RolePermissionsSnapshot) => s.matches('saving');
export const selectRenaming = (s: RolePermissionsSnapshot) => s.matches('renaming');

/** One checklist group for the editor. */
export interface PermissionGroup {
  category: string;
  permissions: { routeName: string; displayName: string; checked: boolean }[];
  allChecked: boolean;
  someChecked: boolean;
}

/** The permissions grouped by category with their edited state. */
export function permissionGroups(snapshot: RolePermissionsSnapshot): PermissionGroup[] {
  const checked = new Set(snapshot.context.draft);
  return snapshot.context.categories.map((c) => {
    const permissions = c.permissions.map((p) => ({
      routeName: p.route_name,
      displayName: p.display_name,
      checked: checked.has(p.route_name),
    }));
    const count = permissions.filter((p) => p.checked).length;
    return {
      category: c.category,
      permissions,
      allChecked: count === permissions.length && count > 0,
      someChecked: count > 0 && count < permissions.length,
    };
  });
}

/** The groups as the editor shows them: the administrador passes every check, so its boxes all show checked. */
export function selectShownGroups(snapshot: RolePermissionsSnapshot): PermissionGroup[] {
  const groups = permissionGroups(snapshot);
  if (isEditable(snapshot.context)) return groups;
  return groups.map((g) => ({
    ...g,
    permissions: g.permissions.map((p) => ({ ...p, checked: true })),
    allChecked: g.permissions.length > 0,
    someChecked: false,
  }));
}
