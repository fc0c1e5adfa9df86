import type { InstancesSnapshot } from './instances.machine';

/** `loading` before the first answer, `error` when the last load failed, else `ready`. */
export const selectListStatus = (s: InstancesSnapshot): 'loading' | 'error' | 'ready' =>
  s.matches({ list: 'failed' }) ? 'error' : s.matches({ list: 'loading' }) ? 'loading' : 'ready';

/** Which dialog is open (its call may be running). */
export const selectDialog = (s: InstancesSnapshot): 'create' | 'update' | 'sync' | null => {
  if (s.matches({ action: 'createForm' }) || s.matches({ action: 'creating' })) return 'create';
  if (s.matches({ action: 'updateForm' }) || s.matches({ action: 'updating' })) return 'update';
  if (s.matches({ action: 'syncForm' }) || s.matches({ action: 'startingSync' })) return 'sync';
  return null;
};

/** A dialog's call is in flight. */
export const selectBusy = (s: InstancesSnapshot) => s.hasTag('busy');
