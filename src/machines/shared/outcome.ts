import type { I18nKey } from '../../domain/i18n-key';

/**
 * Text a machine hands the view untranslated: a key with its parameters (a parameter may itself be
 * a message, translated first), or verbatim text such as a tenant's or a user's name.
 */
export type Message = string | { key: I18nKey; params?: Record<string, string | number | Message> };

/** What the toast says; `null` when the outcome shows elsewhere (on a dialog's fields, on the page). */
export interface OutcomeToast {
  variant: 'success' | 'error' | 'info';
  title: Message;
  description?: Message;
}

/**
 * How a call ended, emitted by the machine that made it (`emit`, listened to with `actor.on('outcome', …)`).
 * `src/ui/hooks/use-outcome-toast.ts` shows the toast; `action` lets the view react beyond it (close
 * the dialog that asked, move focus).
 */
export interface Outcome<TAction extends string = string> {
  type: 'outcome';
  action: TAction;
  ok: boolean;
  toast: OutcomeToast | null;
}

/** A success outcome with a toast titled `title` (and `description`, e.g. the name it is about). */
export function succeeded<TAction extends string>(
  action: TAction,
  title: Message,
  description?: Message,
): Outcome<TAction> {
  return {
    type: 'outcome',
    action,
    ok: true,
    toast: description === undefined ? { variant: 'success', title } : { variant: 'success', title, description },
  };
}

/** A failure outcome; `toast` null when the failure shows on the form that asked. */
export function failed<TAction extends string>(action: TAction, toast: OutcomeToast | null): Outcome<TAction> {
  return { type: 'outcome', action, ok: false, toast };
}
