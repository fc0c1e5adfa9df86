import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { TenantsListSnapshot, tenantsListMachine } from '../../../machines/tenants/tenants-list.machine';
import { appToasts, showToast } from '../../components/toast-queue';

type TenantsActor = ActorRefFrom<typeof tenantsListMachine>;

/** The tenant a change in flight is about: the target, or the one being created. */
function subjectOf(snapshot: TenantsListSnapshot): string | undefined {
  const { target, pending } = snapshot.context;
  if (target) return target.name;
  return pending && 'create' in pending ? pending.create.name : undefined;
}

/**
 * Toasts each finished change of the tenants list ("Tenant excluído." — farmacia-central), and each
 * refused delete or restore with its reason (refused forms say why on their fields instead).
 * `onChanged` runs after a success, e.g. to put focus back where the gone row's button was.
 */
export function useTenantsFeedback(actor: TenantsActor, onChanged: () => void): void {
  const { t } = useTranslation();
  const latest = useRef({ t, onChanged });
  useEffect(() => {
    latest.current = { t, onChanged };
  });
  useEffect(() => {
    let previous = actor.getSnapshot();
    const subscription = actor.subscribe((next) => {
      const before = previous;
      previous = next;
      if (!before.hasTag('busy') || next.hasTag('busy')) return;
      const { t: translate, onChanged: changed } = latest.current;
      const { notice, actionError } = next.context;
      if (notice) {
        showToast(appToasts, { variant: 'success', title: translate(notice), description: subjectOf(before) });
        changed();
      } else if (actionError && next.matches({ ready: 'idle' })) {
        const name = subjectOf(before);
        const why = translate(actionError.reason);
        showToast(appToasts, {
          variant: 'error',
          title: translate(actionError.key),
          description: name ? translate('tenants.screen.failureFor', { name, why }) : why,
        });
      }
    });
    return () => subscription.unsubscribe();
  }, [actor]);
}

/**
 * Another admin may change tenants meanwhile and no socket event tells (contracts/socket.md): the
 * list reloads when the window gets focus back, unless a dialog is open or a change is running.
 */
export function useReloadOnFocus(actor: TenantsActor): void {
  useEffect(() => {
    const onFocus = () => {
      const snapshot = actor.getSnapshot();
      if (snapshot.matches({ ready: 'idle' }) || snapshot.matches('failed')) actor.send({ type: 'tenants.reload' });
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [actor]);
}
