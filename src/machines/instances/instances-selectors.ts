import type { ConnectionsActor } from './connections.machine';
import type { InstancesContext } from './instances.machine';
import type { InstancesSnapshot } from './instances.machine';

/** `loading` before the first answer, `error` when the last load failed, else `ready`. */
export const selectListStatus = (s: InstancesSnapshot): 'loading' | 'error' | 'ready' =>
  s.matches({ list: 'failed' }) ? 'error' : s.matches({ list: 'loading' }) ? 'loading' : 'ready';

/** The connections list and its dialogs: the machine's child, invoked for its whole life. */
export const selectConnectionsActor = (s: InstancesSnapshot): ConnectionsActor => {
  const child = s.children.connections;
  if (!child) throw new Error('instances: the connections child is not running');
  return child as ConnectionsActor;
};

/** Which dialog is open (its call may be running). */
export const selectDialog = (s: InstancesSnapshot): 'create' | 'update' | 'sync' | null => {
  if (s.matches({ action: { form: 'create' } }) || s.matches({ action: 'creating' })) return 'create';
  if (
    s.matches({ action: { form: 'update' } }) ||
    s.matches({ action: { form: 'updateChecking' } }) ||
    s.matches({ action: { form: 'updateConflict' } }) ||
    s.matches({ action: 'updating' }) ||
    s.matches({ action: 'updateReapplying' }) ||
    s.matches({ action: 'updateDiscarding' })
  )
    return 'update';
  if (s.matches({ action: { form: 'sync' } }) || s.matches({ action: 'startingSync' })) return 'sync';
  return null;
};

/** A dialog's call is in flight. */
export const selectBusy = (s: InstancesSnapshot) => s.hasTag('busy');

/** What the open dialog says: the call's refusal and the fields it names. */
export type InstancesFeedback = Pick<InstancesContext, 'actionError' | 'fieldErrors'>;

export const selectFeedback = (s: InstancesSnapshot): InstancesFeedback => ({
  actionError: s.context.actionError,
  fieldErrors: s.context.fieldErrors,
});

/** The compare for {@link selectFeedback}: a new object with the same two references is no change. */
export const sameFeedback = (a: InstancesFeedback, b: InstancesFeedback) =>
  a.actionError === b.actionError && a.fieldErrors === b.fieldErrors;

/** The edit dialog's conflict notice waits for a choice (the fields are held, no save is offered). */
export const selectConflictHeld = (s: InstancesSnapshot) =>
  s.matches({ action: { form: 'updateConflict' } }) ||
  s.matches({ action: 'updateReapplying' }) ||
  s.matches({ action: 'updateDiscarding' });

/** The choice in flight in the conflict notice. */
export const selectResolving = (s: InstancesSnapshot) =>
  s.matches({ action: 'updateReapplying' }) ? 'reapply' : s.matches({ action: 'updateDiscarding' }) ? 'discard' : null;
