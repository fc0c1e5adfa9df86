import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { createActor } from 'xstate';
import type { AppClients } from '../../app/app-services';
import { undoMachine } from '../../machines/audit/undo.machine';
import type { Message, Outcome } from '../../machines/shared/outcome';
import { appToasts, showToast, type ToastContent } from '../components/toast-queue';
import { useServicesIfProvided } from './services-context';

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

/** How long a toast offering "Desfazer" stays (React Aria pauses it on hover and focus). */
export const UNDO_TOAST_MS = 10_000;

/**
 * The toast of an outcome, with "Desfazer" when it is a success whose answer named an audit record
 * (docs/lists.md, Undo on the server): pressing it undoes that record on the server
 * (src/machines/audit/undo.machine.ts), whose own outcome is toasted the same way, so the toast of an
 * undo offers to undo the undo.
 */
export function showOutcomeToast(t: TFunction, outcome: Outcome, clients: AppClients | null): void {
  const { toast } = outcome;
  if (!toast) return;
  const recordId = outcome.ok ? (clients?.auditRecords?.take() ?? null) : null;
  const content: ToastContent = {
    variant: toast.variant,
    title: translateMessage(t, toast.title),
    ...(toast.description === undefined ? {} : { description: translateMessage(t, toast.description) }),
  };
  if (recordId === null || !clients) {
    showToast(appToasts, content);
    return;
  }
  showToast(
    appToasts,
    { ...content, action: { label: t('undo.action'), onAction: () => startUndo(t, clients, recordId) } },
    UNDO_TOAST_MS,
  );
}

/** Undoes record `recordId` on the server and toasts how it ended. */
export function startUndo(t: TFunction, clients: AppClients, recordId: number): void {
  const actor = createActor(undoMachine, { input: { rest: clients.rest, recordId } });
  actor.on('outcome', (outcome) => {
    showOutcomeToast(t, outcome, clients);
    actor.stop();
  });
  actor.start();
  actor.send({ type: 'undo' });
}

/**
 * The one way a screen shows how a call ended: the machine emits an `outcome`, this toasts it (when it
 * carries a toast; a success whose answer named an audit record offers "Desfazer") and then calls
 * `onOutcome`, for what only the view can do (close the dialog that asked, move focus to something that
 * still exists). Every outcome counts, two equal ones in a row too.
 */
export function useOutcomeToast<TAction extends string>(
  actor: OutcomeSource<TAction>,
  onOutcome?: (outcome: Outcome<TAction>) => void,
): void {
  const { t } = useTranslation();
  const services = useServicesIfProvided();
  const latest = useRef({ t, onOutcome, clients: services?.clients ?? null });
  useEffect(() => {
    latest.current = { t, onOutcome, clients: services?.clients ?? null };
  });
  useEffect(() => {
    const subscription = actor.on('outcome', (outcome) => {
      const { t: translate, onOutcome: react, clients } = latest.current;
      showOutcomeToast(translate, outcome, clients);
      react?.(outcome);
    });
    return () => subscription.unsubscribe();
  }, [actor]);
}
