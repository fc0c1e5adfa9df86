import type { I18nKey } from '../../domain/i18n-key';
import type { Conflict, ConflictField } from '../shared/conflict';
import { changeRefusal, readOnlyReason } from './role-access';
import type { RolePermissionsContext, RolePermissionsSnapshot } from './role-permissions.machine';

/** Whether the edited checklist differs from the stored one. */
export function isDirty(context: Pick<RolePermissionsContext, 'saved' | 'draft'>): boolean {
  return context.saved.length !== context.draft.length || context.saved.some((name, i) => context.draft[i] !== name);
}

/** The editor's phase: loading the role, failed to load it, or shown (editing, or saving or renaming it). */
export const selectEditorPhase = (s: RolePermissionsSnapshot): 'loading' | 'failed' | 'ready' =>
  s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready';
export const selectSaving = (s: RolePermissionsSnapshot) => s.matches('saving');
export const selectRenaming = (s: RolePermissionsSnapshot) => s.matches('renaming');

/** The open conflict notice (src/machines/shared/conflict.ts), or null. */
export const selectConflict = (s: RolePermissionsSnapshot): Conflict | null => s.context.conflict;
/** The notice's choice in flight: reloading to reapply the user's values, or to discard them. */
export const selectResolving = (s: RolePermissionsSnapshot): 'reapply' | 'discard' | null =>
  s.matches('reapplying') ? 'reapply' : s.matches('discarding') ? 'discard' : null;
/** The checklist waits for the user's choice on the notice. */
export const selectConflictOpen = (s: RolePermissionsSnapshot): boolean =>
  s.matches('conflict') || s.matches('reapplying') || s.matches('discarding');

/** The user's unsaved values as the notice shows them beside the other change: the permissions, stored and edited. */
export function selectMine(s: RolePermissionsSnapshot): ConflictField[] {
  const { saved, draft } = s.context;
  if (!isDirty(s.context)) return [];
  return [{ field: 'permissions', before: JSON.stringify(saved), after: JSON.stringify(draft) }];
}

/**
 * Why the role's permissions are read-only (the administrador role, not staff, the editor's own role),
 * as the note the editor shows; null when they can be changed.
 */
export const selectReadOnly = (s: RolePermissionsSnapshot): I18nKey | null => readOnlyReason(s.context);

/** One checklist group for the editor. */
export interface PermissionGroup {
  category: string;
  /** `locked`: why the permission cannot be changed, on or off (the editor lacks it), or null. */
  permissions: { routeName: string; displayName: string; checked: boolean; locked: I18nKey | null }[];
  /** Every permission that can be ticked is (select-all shows checked). */
  allChecked: boolean;
  someChecked: boolean;
  /** Some permission of the group can be ticked or unticked (select-all is offered). */
  selectable: boolean;
}

/** The permissions grouped by category with their edited state and what may not be changed. */
export function permissionGroups(snapshot: RolePermissionsSnapshot): PermissionGroup[] {
  const { context } = snapshot;
  const checked = new Set(context.draft);
  return context.categories.map((c) => {
    const permissions = c.permissions.map((p) => ({
      routeName: p.route_name,
      displayName: p.display_name,
      checked: checked.has(p.route_name),
      // Only one who holds a permission gives it or takes it away (src/domain/escalation.ts).
      locked: changeRefusal(context, p.route_name),
    }));
    const open = permissions.filter((p) => p.locked === null);
    const count = permissions.filter((p) => p.checked).length;
    const allChecked = open.length > 0 && open.every((p) => p.checked);
    return {
      category: c.category,
      permissions,
      allChecked,
      someChecked: count > 0 && !allChecked,
      selectable: open.length > 0,
    };
  });
}

/**
 * The groups as the editor shows them: the administrador passes every check, so its boxes all show
 * checked; a read-only role's boxes are all disabled, so none is marked as locked on its own.
 */
export function selectShownGroups(snapshot: RolePermissionsSnapshot): PermissionGroup[] {
  const groups = permissionGroups(snapshot);
  const reason = readOnlyReason(snapshot.context);
  if (reason === null) return groups;
  const admin = reason === 'roles.readOnly';
  return groups.map((g) => {
    const permissions = g.permissions.map((p) => ({ ...p, checked: admin || p.checked, locked: null }));
    const count = permissions.filter((p) => p.checked).length;
    return {
      ...g,
      permissions,
      allChecked: count === permissions.length && count > 0,
      someChecked: count > 0 && count < permissions.length,
      selectable: false,
    };
  });
}
