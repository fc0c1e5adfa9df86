import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { SupportPerson, SupportSession } from '../../../machines/support/support-actors';
import {
  selectDialogOpen,
  type ActionSubject,
  type SupportActionMachine,
} from '../../../machines/support/support-action.machine';
import {
  blockMachine,
  endSessionsMachine,
  liftThrottleMachine,
  resetLinkMachine,
  restoreMachine,
  temporaryPasswordMachine,
  twoFactorMachine,
  type TwoFactorAction,
} from '../../../machines/support/support-actions';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Modal } from '../../components/dialog';
import { Form, FormActions } from '../../components/form';
import { PasswordStrengthMeter } from '../../components/password-strength-meter';
import { PasswordField } from '../../components/text-field';
import { useServices } from '../../hooks/services-context';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';
import * as styles from './support.css';

type AnyAction = ActorRefFrom<SupportActionMachine<unknown, unknown>>;

/** The page's side of every action: the person's new state, or "ask again". */
export interface PersonSink {
  answered: (person: SupportPerson) => void;
  stale: () => void;
}

/** One action machine for the page: its toasts shown, its answers handed to the person machine. */
function useAction(machine: unknown, sink: PersonSink): AnyAction {
  const { clients } = useServices();
  // Each instance has its own params and answer; the page treats them alike (start, confirm, cancel).
  const actor = useActorRef(machine as SupportActionMachine<unknown, unknown>, { input: { rest: clients.rest } });
  useOutcomeToast(actor);
  useEffect(() => {
    const answered = actor.on('support.answered', (event) => sink.answered(event.person));
    const stale = actor.on('support.stale', () => sink.stale());
    return () => {
      answered.unsubscribe();
      stale.unsubscribe();
    };
  }, [actor, sink]);
  return actor;
}

/** Every action of the page, one machine each (src/machines/support/support-actions.ts). */
export function usePersonActions(sink: PersonSink) {
  const liftThrottle = useAction(liftThrottleMachine, sink);
  const temporaryPassword = useAction(temporaryPasswordMachine, sink);
  const resetLink = useAction(resetLinkMachine, sink);
  const twoFactor = useAction(twoFactorMachine, sink);
  const endSessions = useAction(endSessionsMachine, sink);
  const block = useAction(blockMachine, sink);
  const restore = useAction(restoreMachine, sink);
  // One object for the page's lifetime (the actors never change), so callbacks built on it stay put.
  return useMemo(
    () => ({ liftThrottle, temporaryPassword, resetLink, twoFactor, endSessions, block, restore }),
    [liftThrottle, temporaryPassword, resetLink, twoFactor, endSessions, block, restore],
  );
}

export type PersonActions = ReturnType<typeof usePersonActions>;

const busyOf = (actor: AnyAction) => actor.getSnapshot().hasTag('busy');

/** Whether any action runs: the page offers no second one meanwhile. */
export function useAnyBusy(actions: PersonActions): boolean {
  const flags = [
    useSelector(actions.liftThrottle, (s) => s.hasTag('busy')),
    useSelector(actions.temporaryPassword, (s) => s.hasTag('busy')),
    useSelector(actions.resetLink, (s) => s.hasTag('busy')),
    useSelector(actions.twoFactor, (s) => s.hasTag('busy')),
    useSelector(actions.endSessions, (s) => s.hasTag('busy')),
    useSelector(actions.block, (s) => s.hasTag('busy')),
    useSelector(actions.restore, (s) => s.hasTag('busy')),
  ];
  return flags.some(Boolean);
}

export function subjectOf(person: SupportPerson): ActionSubject {
  return { id: person.user.id, name: person.user.name, email: person.user.email };
}

/**
 * The actions panel: what can be done for this person now. A deleted person can only be restored;
 * the reset link says why when the server sends no mail; lifting the throttle says when nothing is
 * counted; the two-factor actions are the ones that would change something. Ending sessions sits
 * with the sessions (person-sections.tsx).
 */
export function ActionsPanel({
  person,
  actions,
  busy,
}: {
  person: SupportPerson;
  actions: PersonActions;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const resetHintId = useId();
  const throttleHintId = useId();
  const { user } = person;
  const subject = subjectOf(person);
  const start = (actor: AnyAction, params: unknown) => actor.send({ type: 'action.start', subject, params });
  const twoFactor = (action: TwoFactorAction) => start(actions.twoFactor, { action });
  const nothingCounted = !person.throttle.throttled && person.throttle.failures === 0;
  const pending = (actor: AnyAction) => busy && busyOf(actor);

  return (
    <Card title={t('support.actions.title')} headingLevel={3}>
      <div className={styles.actions}>
        {user.deletedAt !== null ? (
          <>
            <p className={styles.actionsNote}>{t('support.actions.deletedNote')}</p>
            <Button isDisabled={busy} isPending={pending(actions.restore)} onPress={() => start(actions.restore, {})}>
              {t('support.actions.restore')}
            </Button>
          </>
        ) : (
          <>
            <div className={styles.actionGroup}>
              <Button
                variant="secondary"
                isDisabled={busy || nothingCounted}
                isPending={pending(actions.liftThrottle)}
                aria-describedby={nothingCounted ? throttleHintId : undefined}
                onPress={() => start(actions.liftThrottle, {})}
              >
                {t('support.actions.liftThrottle')}
              </Button>
              {nothingCounted ? (
                <p id={throttleHintId} className={styles.actionHint}>
                  {t('support.actions.liftThrottleHint')}
                </p>
              ) : null}
            </div>
            <Button
              variant="secondary"
              isDisabled={busy}
              onPress={() => start(actions.temporaryPassword, { password: '' })}
            >
              {t('support.actions.temporaryPassword')}
            </Button>
            <div className={styles.actionGroup}>
              <Button
                variant="secondary"
                isDisabled={busy || !person.resetLinks.enabled}
                isPending={pending(actions.resetLink)}
                aria-describedby={person.resetLinks.enabled ? undefined : resetHintId}
                onPress={() => start(actions.resetLink, {})}
              >
                {t('support.actions.resetLink')}
              </Button>
              {person.resetLinks.enabled ? null : (
                <p id={resetHintId} className={styles.actionHint}>
                  {t('support.actions.resetLinkDisabled')}
                </p>
              )}
            </div>
            {user.twoFactorEnabled ? (
              <Button variant="secondary" isDisabled={busy} onPress={() => twoFactor('reset')}>
                {t('support.actions.twoFactorReset')}
              </Button>
            ) : null}
            {user.twoFactorEnrolmentRequired ? (
              <Button
                variant="secondary"
                isDisabled={busy}
                isPending={pending(actions.twoFactor)}
                onPress={() => twoFactor('unrequire')}
              >
                {t('support.actions.twoFactorUnrequire')}
              </Button>
            ) : user.twoFactorEnabled ? null : (
              <Button
                variant="secondary"
                isDisabled={busy}
                isPending={pending(actions.twoFactor)}
                onPress={() => twoFactor('require')}
              >
                {t('support.actions.twoFactorRequire')}
              </Button>
            )}
            {user.blocked ? (
              <Button
                variant="secondary"
                isDisabled={busy}
                isPending={pending(actions.block)}
                onPress={() => start(actions.block, { blocked: false })}
              >
                {t('support.actions.unblock')}
              </Button>
            ) : (
              <Button variant="danger" isDisabled={busy} onPress={() => start(actions.block, { blocked: true })}>
                {t('support.actions.block')}
              </Button>
            )}
          </>
        )}
      </div>
    </Card>
  );
}

/** The server's refusal, inside the dialog that asked (an alert, so it is read out at once). */
function Refusal({ actor }: { actor: AnyAction }) {
  const { t } = useTranslation();
  const refusal = useSelector(actor, (s) => s.context.refusal);
  return refusal ? (
    <span role="alert" className={styles.refusal}>
      {t(refusal)}
    </span>
  ) : null;
}

/** A confirmation for a destructive action, open while its machine is in `dialog`. */
function ActionConfirm({
  actor,
  title,
  message,
  confirmLabel,
}: {
  actor: AnyAction;
  title: string;
  message: string;
  confirmLabel: string;
}) {
  const open = useSelector(actor, selectDialogOpen);
  const pending = useSelector(actor, (s) => s.hasTag('busy'));
  return (
    <ConfirmDialog
      isOpen={open}
      onOpenChange={(next) => {
        if (!next) actor.send({ type: 'action.cancel' });
      }}
      title={title}
      message={
        <>
          {message}
          <Refusal actor={actor} />
        </>
      }
      confirmLabel={confirmLabel}
      variant="danger"
      isPending={pending}
      onConfirm={() => actor.send({ type: 'action.confirm' })}
    />
  );
}

/** The temporary password form: the strength rule of the user form, shown as one types and on a try. */
function TemporaryPasswordDialog({ actor, name }: { actor: AnyAction; name: string }) {
  const { t } = useTranslation();
  const meterId = useId();
  const open = useSelector(actor, selectDialogOpen);
  const pending = useSelector(actor, (s) => s.hasTag('busy'));
  const password = useSelector(actor, (s) => (s.context.params as { password?: string } | null)?.password ?? '');
  const problem = useSelector(actor, (s) => s.context.problem);
  const refusal = useSelector(actor, (s) => s.context.refusal);
  return (
    <Modal
      title={t('support.dialogs.temporaryPasswordTitle', { name })}
      isOpen={open}
      onClose={() => actor.send({ type: 'action.cancel' })}
      isPending={pending}
      size="sm"
    >
      <Form
        formError={refusal ? t(refusal) : null}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'action.confirm' });
        }}
      >
        <p className={styles.note}>{t('support.dialogs.temporaryPasswordBody')}</p>
        <PasswordField
          name="temporary-password"
          autoComplete="new-password"
          label={t('support.dialogs.temporaryPasswordField')}
          description={t('users.form.passwordHelp')}
          value={password}
          onChange={(next) => actor.send({ type: 'action.edit', params: { password: next } })}
          isRequired
          isReadOnly={pending}
          isInvalid={problem !== null ? true : undefined}
          errorMessage={problem ? t(problem) : undefined}
          aria-describedby={password ? meterId : undefined}
          autoFocus
        />
        <PasswordStrengthMeter id={meterId} password={password} />
        <FormActions>
          <Button variant="secondary" isDisabled={pending} onPress={() => actor.send({ type: 'action.cancel' })}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" isPending={pending}>
            {t('support.dialogs.temporaryPasswordSubmit')}
          </Button>
        </FormActions>
      </Form>
    </Modal>
  );
}

/** Every dialog of the page's actions; each opens with its machine. */
export function ActionDialogs({ person, actions }: { person: SupportPerson; actions: PersonActions }) {
  const { t } = useTranslation();
  const name = person.user.name;
  const sessionParams = useSelector(
    actions.endSessions,
    (s) => s.context.params as { sessionId: string | null; device: string | null } | null,
  );
  const device = sessionParams?.device ?? t('support.sessions.unknownDevice');
  const endOne = sessionParams !== null && sessionParams.sessionId !== null;
  return useMemo(
    () => (
      <>
        <TemporaryPasswordDialog actor={actions.temporaryPassword} name={name} />
        <ActionConfirm
          actor={actions.twoFactor}
          title={t('support.dialogs.twoFactorResetTitle', { name })}
          message={t('support.dialogs.twoFactorResetBody')}
          confirmLabel={t('support.dialogs.twoFactorResetConfirm')}
        />
        <ActionConfirm
          actor={actions.endSessions}
          title={endOne ? t('support.dialogs.endOneTitle', { device }) : t('support.dialogs.endAllTitle', { name })}
          message={endOne ? t('support.dialogs.endOneBody') : t('support.dialogs.endAllBody')}
          confirmLabel={t('support.dialogs.endConfirm')}
        />
        <ActionConfirm
          actor={actions.block}
          title={t('support.dialogs.blockTitle', { name })}
          message={t('support.dialogs.blockBody')}
          confirmLabel={t('support.dialogs.blockConfirm')}
        />
      </>
    ),
    [actions, name, t, endOne, device],
  );
}

/** Ends one session (from the sessions table). */
export function endSession(actions: PersonActions, person: SupportPerson, session: SupportSession): void {
  actions.endSessions.send({
    type: 'action.start',
    subject: subjectOf(person),
    params: { sessionId: session.id, device: session.device },
  });
}
