import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { selectUser } from '../../../../machines/session/session-selectors';
import { selectPhase, twoFactorMachine } from '../../../../machines/account/two-factor.machine';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { FormError } from '../../../components/form';
import { Stack } from '../../../components/layout';
import { Spinner } from '../../../components/spinner';
import { useServices, useSession } from '../../../hooks/services-context';
import { useLeaveGuard } from '../../../hooks/use-leave-guard';
import { useOutcomeToast } from '../../../hooks/use-outcome-toast';
import { CodeForm } from './code-form';
import { EnrolCard } from './enrol-card';
import { RecoveryCodesCard } from './recovery-codes';
import { StatusCard } from './status-card';
import * as styles from './two-factor.css';

/**
 * `/two-factor`: the signed-in user's own TOTP two-factor (docs/product.md, Two-factor sign-in): status, enrolment with the
 * server's QR code, confirmation, the recovery codes shown once, and disabling with a code.
 */
export default function TwoFactorScreen() {
  const { t } = useTranslation();
  const { clients, session } = useServices();
  const user = useSession(selectUser);
  const actor = useActorRef(twoFactorMachine, { input: { rest: clients.rest } });
  const phase = useSelector(actor, selectPhase);
  const { status, enrolment, recoveryCodes, codeError, error, loadError } = useSelector(actor, (s) => s.context);
  const guard = useLeaveGuard(phase === 'showingCodes');

  useOutcomeToast(actor, (outcome) => {
    // The signed-in user's `twoFactorEnabled` changed on the server.
    if (outcome.ok && outcome.action !== 'acknowledge') session.send({ type: 'session.reloadProfile' });
  });
  const acknowledge = () => actor.send({ type: 'twoFactor.acknowledge' });

  if (phase === 'loading' || phase === 'deciding') return <Spinner label={t('common.loading')} />;
  if (phase === 'failed' || !status) {
    return (
      <ErrorState
        title={loadError ? t(loadError.key) : undefined}
        description={loadError ? t(loadError.reason) : undefined}
        onRetry={() => actor.send({ type: 'twoFactor.reload' })}
      />
    );
  }

  const failure = error ? t('twoFactor.failure', { what: t(error.key), why: t(error.reason) }) : null;
  return (
    <Stack gap="lg">
      <p className={styles.intro}>{t('twoFactor.intro')}</p>
      {phase === 'showingCodes' && recoveryCodes ? (
        <RecoveryCodesCard codes={recoveryCodes} account={user?.email ?? ''} onDone={acknowledge} />
      ) : enrolment && (phase === 'awaitingCode' || phase === 'verifying' || phase === 'enrolling') ? (
        <EnrolCard
          enrolment={enrolment}
          isVerifying={phase === 'verifying'}
          isRenewing={phase === 'enrolling'}
          codeError={codeError}
          error={error}
          onVerify={(code) => actor.send({ type: 'twoFactor.verify', code })}
          onRenew={() => actor.send({ type: 'twoFactor.enrol' })}
          onCancel={() => actor.send({ type: 'twoFactor.cancel' })}
        />
      ) : (
        <StatusCard
          status={status}
          action={
            status.enabled ? null : (
              <Stack gap="sm" align="start">
                {failure ? <FormError>{failure}</FormError> : null}
                <Button onPress={() => actor.send({ type: 'twoFactor.enrol' })} isPending={phase === 'enrolling'}>
                  {t('twoFactor.enable')}
                </Button>
              </Stack>
            )
          }
        />
      )}
      {status.enabled && (phase === 'enabled' || phase === 'disabling') ? (
        <Card title={t('twoFactor.disableHeading')}>
          <p className={styles.muted}>{t('twoFactor.disableHint')}</p>
          <CodeForm
            label={t('twoFactor.disableCode')}
            submitLabel={t('twoFactor.disable')}
            variant="danger"
            digitsOnly={false}
            isPending={phase === 'disabling'}
            codeError={codeError}
            error={error}
            onSubmit={(code) => actor.send({ type: 'twoFactor.disable', code })}
          />
        </Card>
      ) : null}
      <ConfirmDialog
        isOpen={guard.target !== null}
        onOpenChange={(open) => !open && guard.stay()}
        title={t('twoFactor.leaveTitle')}
        message={t('twoFactor.leaveBody')}
        confirmLabel={t('twoFactor.leaveConfirm')}
        cancelLabel={t('twoFactor.stay')}
        variant="danger"
        onConfirm={guard.leave}
      />
    </Stack>
  );
}
