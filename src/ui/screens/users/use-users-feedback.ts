import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { UserAction, UsersSnapshot, usersMachine } from '../../../machines/users/users.machine';
import type { UserRow } from '../../../machines/users/users-actors';
import { appToasts, showToast } from '../../components/toast-queue';

/** What the admin asked for last: names the toast and tells on/off and create/edit apart. */
export interface Intent {
  kind:
    | 'create'
    | 'edit'
    | 'rename'
    | 'changeEmail'
    | 'delete'
    | 'block'
    | 'unblock'
    | 'twoFactorOn'
    | 'twoFactorOff'
    | 'disconnect';
  user: UserRow | null;
}

const NOTICE = {
  create: 'users.notices.created',
  edit: 'users.notices.updated',
  rename: 'users.notices.renamed',
  changeEmail: 'users.notices.emailChanged',
  delete: 'users.notices.deleted',
  block: 'users.notices.blocked',
  unblock: 'users.notices.unblocked',
  twoFactorOn: 'users.notices.twoFactorOn',
  twoFactorOff: 'users.notices.twoFactorOff',
  disconnect: 'users.notices.disconnected',
} as const satisfies Record<Intent['kind'], string>;

/** Failures of these show on the field of their dialog, which stays open, instead of in a toast. */
const SHOWN_IN_DIALOG: readonly UserAction[] = ['rename', 'changeEmail'];

export interface FeedbackHandlers {
  /** The action succeeded (close its dialog; after a delete, move focus somewhere that exists). */
  onSuccess: (action: UserAction) => void;
  /** The action failed and its dialog, if any, should close (the toast says why). */
  onFailure: (action: UserAction) => void;
}

/**
 * Turns each outcome of the users machine (`lastResult`, a new object per action, so two equal
 * outcomes in a row both count) into a toast: "Usuário bloqueado — Ana", or the failure with its
 * reason. A two-factor switch-on refused with 409 says plainly that the user has not enrolled.
 */
export function useUsersFeedback(
  actor: ActorRefFrom<typeof usersMachine>,
  intent: { current: Intent | null },
  handlers: FeedbackHandlers,
): void {
  const { t } = useTranslation();
  const latest = useRef({ t, handlers });
  useEffect(() => {
    latest.current = { t, handlers };
  });
  useEffect(() => {
    let previous = actor.getSnapshot().context.lastResult;
    const subscription = actor.subscribe((snapshot: UsersSnapshot) => {
      const { lastResult, actionError } = snapshot.context;
      if (lastResult === previous || lastResult === null) return;
      previous = lastResult;
      const { t: translate, handlers: on } = latest.current;
      const asked = intent.current;
      const name = asked?.user?.name;
      if (lastResult.ok) {
        if (asked)
          showToast(appToasts, { variant: 'success', title: translate(NOTICE[asked.kind]), description: name });
        on.onSuccess(lastResult.action);
        return;
      }
      if (SHOWN_IN_DIALOG.includes(lastResult.action)) return;
      const notEnrolled =
        lastResult.action === 'twoFactor' &&
        asked?.kind === 'twoFactorOn' &&
        actionError?.reason === 'apiErrors.conflict';
      showToast(appToasts, {
        variant: 'error',
        title: actionError ? translate(actionError.key) : translate('common.error'),
        description: notEnrolled
          ? translate('users.twoFactor.notEnrolled', { name: name ?? '' })
          : actionError
            ? translate(actionError.reason)
            : undefined,
      });
      on.onFailure(lastResult.action);
    });
    return () => subscription.unsubscribe();
  }, [actor, intent]);
}
