import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import { getHref } from '../../../domain/paths';
import type { SupportPerson, SupportSession } from '../../../machines/support/support-actors';
import { supportPersonMachine } from '../../../machines/support/support-person.machine';
import { parseSupportQuery, serializeSupportQuery } from '../../../machines/support/support-query';
import { Button } from '../../components/button';
import { ErrorState } from '../../components/error-state';
import { Link } from '../../components/link';
import { Spinner } from '../../components/spinner';
import { useServices } from '../../hooks/services-context';
import { useNow } from '../../hooks/use-now';
import { ActionDialogs, ActionsPanel, endSession, subjectOf, useAnyBusy, usePersonActions } from './person-actions';
import { AttemptsSection, HistorySection, PersonHeader, SessionsSection, ThrottleSection } from './person-sections';
import * as styles from './support.css';

/** The id of the address, or 0 (no user's: the page says not found without asking) when it is not a positive integer. */
function personId(raw: string | undefined): number {
  return raw !== undefined && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
}

/**
 * `/support/users/:id`: one person as the desk sees them (docs/support-desk.md, `SupportPerson`): who
 * they are, whether sign-ins are throttled, the recent attempts with their reasons, the open sessions,
 * the audit records about them, and the actions. Each action answers with the person as they now are,
 * and the page shows that answer (support-person.machine.ts). The back link returns to the search it
 * came from (`?q=`).
 */
export default function SupportPersonScreen() {
  const { t } = useTranslation();
  const { clients } = useServices();
  const id = personId(useParams<{ id?: string }>().id);
  const q = parseSupportQuery(useSearch());
  const actor = useActorRef(supportPersonMachine, { input: { rest: clients.rest, id } });
  const person = useSelector(actor, (s) => s.context.person);
  const error = useSelector(actor, (s) => s.context.error);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const reloading = useSelector(actor, (s) => s.hasTag('busy'));
  const sink = useMemo(
    () => ({
      answered: (answer: SupportPerson) => actor.send({ type: 'support.person.answered', person: answer }),
      stale: () => actor.send({ type: 'support.person.reload' }),
    }),
    [actor],
  );
  const actions = usePersonActions(sink);
  const busy = useAnyBusy(actions);
  const now = useNow();
  const onEnd = useCallback(
    (session: SupportSession) => {
      if (person) endSession(actions, person, session);
    },
    [actions, person],
  );
  const onEndAll = useCallback(() => {
    if (person)
      actions.endSessions.send({
        type: 'action.start',
        subject: subjectOf(person),
        params: { sessionId: null, device: null },
      });
  }, [actions, person]);
  const back = q === '' ? getHref('support') : `${getHref('support')}?${serializeSupportQuery(q)}`;

  return (
    <div className={styles.screen} aria-busy={loading || reloading}>
      <div className={styles.topBar}>
        <Link href={back}>{t('support.person.back')}</Link>
        {person ? (
          <Button
            variant="secondary"
            size="sm"
            isPending={reloading}
            pendingLabel={t('support.person.reloading')}
            isDisabled={busy}
            onPress={() => actor.send({ type: 'support.person.reload' })}
          >
            {t('support.person.reload')}
          </Button>
        ) : null}
      </div>
      {loading ? <Spinner label={t('support.person.loading')} /> : null}
      {error ? (
        <ErrorState
          title={t(error.key)}
          description={person ? `${t(error.reason)} ${t('support.person.staleNote')}` : t(error.reason)}
          onRetry={() => actor.send({ type: 'support.person.reload' })}
          isRetrying={reloading}
        />
      ) : null}
      {person ? (
        <>
          <PersonHeader person={person} now={now} />
          <div className={styles.sections}>
            <ActionsPanel person={person} actions={actions} busy={busy} />
            <ThrottleSection person={person} />
            <AttemptsSection person={person} />
            <SessionsSection
              person={person}
              now={now}
              busy={busy || person.user.deletedAt !== null}
              onEnd={onEnd}
              onEndAll={onEndAll}
            />
            <HistorySection person={person} />
          </div>
          <ActionDialogs person={person} actions={actions} />
        </>
      ) : null}
    </div>
  );
}
