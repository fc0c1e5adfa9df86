import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { tenantsListMachine } from '../../../machines/tenants/tenants-list.machine';
import { selectReloadable } from '../../../machines/tenants/tenants-list-selectors';

/**
 * Another admin may change tenants meanwhile and no socket event tells (contracts/socket.md): the
 * list reloads when the window gets focus back, unless a dialog is open or a change is running.
 */
export function useReloadOnFocus(actor: ActorRefFrom<typeof tenantsListMachine>): void {
  useEffect(() => {
    const onFocus = () => {
      if (selectReloadable(actor.getSnapshot())) actor.send({ type: 'tenants.reload' });
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [actor]);
}
