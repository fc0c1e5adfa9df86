import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import type { Subject } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import type { ActionError } from '../shared/request-error';
import type { OnlineEvent, Role, UserRow } from './users-actors';

export interface UsersInput {
  execute: Execute;
  rest: RestClient;
  /** Presence poll period while the list is shown; default `PRESENCE_POLL_MS`, 0 turns it off. */
  presenceIntervalMs?: number;
  /**
   * The signed-in user as the no-way-up rules see it (session-selectors.ts `selectSubject`); the view
   * sends `users.subject` when it changes. Null (or left out): not known, nothing is refused here.
   */
  subject?: Subject | null;
}

/** The calls the dialog region makes; each failure surfaces `users.errors.<action>`. */
export type UserAction =
  | 'delete'
  | 'block'
  | 'unblock'
  | 'twoFactor'
  | 'twoFactorRequirement'
  | 'disconnect'
  | 'rename'
  | 'changeEmail'
  | 'save';

/** What the admin asked for: names the outcome and tells on/off, block/unblock and create/edit apart. */
export type UserIntent =
  | 'create'
  | 'edit'
  | 'rename'
  | 'changeEmail'
  | 'delete'
  | 'block'
  | 'unblock'
  | 'twoFactorOn'
  | 'twoFactorOff'
  | 'twoFactorRequire'
  | 'twoFactorWaive'
  | 'disconnect';

/** `full`: create or edit everything; `instances`: only the user's instance links (row action "Instâncias"). */
export type FormView = 'full' | 'instances';

export interface UsersContext {
  execute: Execute;
  rest: RestClient;
  presenceIntervalMs: number;
  users: UserRow[];
  /** Every role with its routes, loaded with the list (users-access.ts). */
  roles: Role[];
  /** The signed-in user (see {@link UsersInput.subject}). */
  subject: Subject | null;
  /** The list call failed: the list is empty and this says so. */
  listError: ActionError | null;
  /** The user a confirmation, action or form is about (null for a new user). */
  target: UserRow | null;
  /** What the action asked for sends. */
  pending:
    | { blocked: boolean }
    | { twoFactor: boolean }
    | { twoFactorRequired: boolean }
    | { name: string }
    | { email: string }
    | null;
  /** The last action's failure (a quick edit shows it on its field). */
  actionError: ActionError | null;
  /** What the create/edit form shows. */
  formView: FormView;
}

export type UsersEvent =
  | { type: 'users.reload' }
  /** The signed-in user's role or routes changed (a live permission change, a profile reload). */
  | { type: 'users.subject'; subject: Subject | null }
  | { type: 'users.presence'; userId: number; isConnected: boolean }
  | OnlineEvent
  | { type: 'users.delete'; user: UserRow }
  | { type: 'users.block'; user: UserRow; blocked: boolean }
  | { type: 'users.twoFactor'; user: UserRow; enabled: boolean }
  /** Require (or stop requiring) enrolment at the user's next sign-in (contracts/openapi.yaml `userSettingsUpdate`). */
  | { type: 'users.requireTwoFactor'; user: UserRow; required: boolean }
  | { type: 'users.disconnect'; user: UserRow }
  | { type: 'users.renameOpen'; user: UserRow }
  | { type: 'users.emailOpen'; user: UserRow }
  | { type: 'users.rename'; name: string }
  | { type: 'users.changeEmail'; email: string }
  | { type: 'users.create' }
  | { type: 'users.edit'; user: UserRow; view?: FormView }
  | { type: 'users.confirm' }
  | { type: 'users.close' };

export type UsersEmitted = Outcome<UserIntent>;

/** What failed, per action (the reason comes from the error). */
export const USER_ACTION_ERRORS = {
  delete: 'users.errors.delete',
  block: 'users.errors.block',
  unblock: 'users.errors.unblock',
  twoFactor: 'users.errors.twoFactor',
  twoFactorRequirement: 'users.errors.twoFactor',
  disconnect: 'users.errors.disconnect',
  rename: 'users.errors.rename',
  changeEmail: 'users.errors.changeEmail',
  save: 'users.errors.save',
} as const satisfies Record<UserAction, I18nKey>;

const NOTICES = {
  create: 'users.notices.created',
  edit: 'users.notices.updated',
  rename: 'users.notices.renamed',
  changeEmail: 'users.notices.emailChanged',
  delete: 'users.notices.deleted',
  block: 'users.notices.blocked',
  unblock: 'users.notices.unblocked',
  twoFactorOn: 'users.notices.twoFactorOn',
  twoFactorOff: 'users.notices.twoFactorOff',
  twoFactorRequire: 'users.notices.twoFactorRequired',
  twoFactorWaive: 'users.notices.twoFactorWaived',
  disconnect: 'users.notices.disconnected',
} as const satisfies Record<UserIntent, I18nKey>;

/** Failures of these show on the field of their dialog, which stays open, instead of in a toast. */
const SHOWN_IN_DIALOG: readonly UserIntent[] = ['rename', 'changeEmail'];

/** What the action in flight was asked to do. */
export function intentOf(context: UsersContext, action: UserAction): UserIntent {
  const pending = context.pending;
  if (action === 'block' || action === 'unblock')
    return pending && 'blocked' in pending && !pending.blocked ? 'unblock' : 'block';
  if (action === 'twoFactor')
    return pending && 'twoFactor' in pending && pending.twoFactor ? 'twoFactorOn' : 'twoFactorOff';
  if (action === 'twoFactorRequirement')
    return pending && 'twoFactorRequired' in pending && !pending.twoFactorRequired
      ? 'twoFactorWaive'
      : 'twoFactorRequire';
  if (action === 'save') return context.target ? 'edit' : 'create';
  return action;
}

/** "Usuário bloqueado — Ana". */
export function successOf(context: UsersContext, action: UserAction): UsersEmitted {
  const intent = intentOf(context, action);
  return succeeded(intent, { key: NOTICES[intent] }, context.target?.name);
}

/** The failure with its reason; a two-factor switch-on refused with 409 says the user has not enrolled. */
export function failureOf(context: UsersContext, action: UserAction, error: ActionError): UsersEmitted {
  const intent = intentOf(context, action);
  if (SHOWN_IN_DIALOG.includes(intent)) return failed(intent, null);
  const notEnrolled = intent === 'twoFactorOn' && error.reason === 'apiErrors.conflict';
  return failed(intent, {
    variant: 'error',
    title: { key: error.key },
    description: notEnrolled
      ? { key: 'users.twoFactor.notEnrolled', params: { name: context.target?.name ?? '' } }
      : { key: error.reason },
  });
}
