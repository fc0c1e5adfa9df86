import type { TenantsListSnapshot } from './tenants-list.machine';

/** The list region as the table shows it. */
export const selectListStatus = (s: TenantsListSnapshot): 'error' | 'loading' | 'ready' =>
  s.matches({ list: 'failed' }) ? 'error' : s.hasTag('loading') ? 'loading' : 'ready';

/** The open dialog (its form or its call in flight), or null. */
export const selectDialog = (s: TenantsListSnapshot): 'create' | 'edit' | 'plan' | 'delete' | null =>
  s.matches({ dialog: 'createForm' }) || s.matches({ dialog: 'creating' })
    ? 'create'
    : s.matches({ dialog: 'editForm' }) ||
        s.matches({ dialog: 'editing' }) ||
        s.matches({ dialog: 'editChecking' }) ||
        s.matches({ dialog: 'editConflict' }) ||
        s.matches({ dialog: 'editReapplying' }) ||
        s.matches({ dialog: 'editReapplied' }) ||
        s.matches({ dialog: 'editDiscarding' })
      ? 'edit'
      : s.matches({ dialog: 'planForm' }) || s.matches({ dialog: 'settingPlan' })
        ? 'plan'
        : s.matches({ dialog: 'confirmingDelete' }) || s.matches({ dialog: 'deleting' })
          ? 'delete'
          : null;

/** A change is in flight. */
export const selectBusy = (s: TenantsListSnapshot): boolean => s.hasTag('busy');

/** A dialog or row action can start: the list is shown and no dialog is open. */
export const selectCanAct = (s: TenantsListSnapshot): boolean =>
  s.matches({ list: 'ready' }) && s.matches({ dialog: 'idle' });

/** Nothing would be interrupted or hidden by reloading the list (no dialog, no load running). */
export const selectReloadable = (s: TenantsListSnapshot): boolean =>
  s.matches({ dialog: 'idle' }) && (s.matches({ list: 'ready' }) || s.matches({ list: 'failed' }));

/** Back-office staff: the list offers changes (create, edit, plan, delete, restore); anyone else reads. */
export const selectStaff = (s: TenantsListSnapshot): boolean => s.context.staff;
