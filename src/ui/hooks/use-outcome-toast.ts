import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message, Outcome } from '../../machines/shared/outcome';
import { appToasts, showToast } from '../components/toast-queue';

/** What the hook needs of an actor: the `outcome` events it emits (`src/machines/shared/outcome.ts`). */
interface OutcomeSource<TAction extends string> {
  on(type: 'outcome', handler: (outcome: Outcome<TAction>) => void): { unsubscribe(): void };
}

/** A machine's untranslated message as text; parameters that are messages are translated first. */
export function translateMessage(t: TFunction, message: Message): string {
  if (typeof message === 'string') return message;
  const params = Object.fromEntries(
    Object.entries(message.params ?? {}).map(([name, value]) => [
      name,
      typeof value === 'object' ? translateMessage(t, value) : value,
    ]),
  );
  return t(message.key, params);
}

/**
 * The one way a screen shows how a call ended: the machine emits an `outcome`, this toasts it (when it
 * carries a toast) and then calls `onOutcome`, for what only the view can do (close the dialog that
 * asked, move focus to something that still exists). Every outcome counts, two equal ones in a row too.
 */
export function useOutcomeToast<TAction extends string>(
  actor: OutcomeSource<TAction>,
  onOutcome?: (outcome: Outcome<TAction>) => void,
): void {
  const { t } = useTranslation();
  const latest = useRef({ t, onOutcome });
  useEffect(() => {
    latest.current = { t, onOutcome };
  });
  useEffect(() => {
    const subscription = actor.on('outcome', (outcome) => {
      const { t: translate, onOutcome: react } = latest.current;
      const { toast } = outcome;
      if (toast) {
        showToast(appToasts, {
          variant: toast.variant,
          title: translateMessage(translate, toast.title),
          ...(toast.description === undefined ? {} : { description: translateMessage(translate, toast.description) }),
        });
      }
      react?.(outcome);
    });
    return () => subscription.unsubscribe();
  }, [actor]);
}
