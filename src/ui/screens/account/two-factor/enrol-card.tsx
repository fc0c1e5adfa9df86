import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import type { ActionError } from '../../../../machines/shared/request-error';
import type { TwoFactorEnrolment } from '../../../../machines/account/two-factor.machine';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { EnrolmentSecret } from '../../../components/two-factor-enrolment';
import { CodeForm } from './code-form';
import { copyText } from './copy-text';

export interface EnrolCardProps {
  enrolment: TwoFactorEnrolment;
  isVerifying: boolean;
  isRenewing: boolean;
  codeError: I18nKey | null;
  error: ActionError | null;
  onVerify: (code: string) => void;
  onRenew: () => void;
  onCancel: () => void;
}

/** Enrolment: the shared steps (app, QR code, key to type by hand, with copy buttons) and the code to confirm. */
export function EnrolCard({
  enrolment,
  isVerifying,
  isRenewing,
  codeError,
  error,
  onVerify,
  onRenew,
  onCancel,
}: EnrolCardProps) {
  const { t } = useTranslation();
  const busy = isVerifying || isRenewing;
  return (
    <Card title={t('twoFactor.enrolHeading')}>
      <EnrolmentSecret
        enrolment={enrolment}
        onCopy={(text) => void copyText(text, t)}
        codeStep={
          <CodeForm
            label={t('twoFactor.code')}
            submitLabel={t('twoFactor.confirm')}
            digitsOnly
            isPending={isVerifying}
            codeError={codeError}
            error={error}
            onSubmit={onVerify}
            extraActions={
              <>
                <Button variant="ghost" onPress={onCancel} isDisabled={busy}>
                  {t('common.cancel')}
                </Button>
                <Button variant="secondary" onPress={onRenew} isDisabled={isVerifying} isPending={isRenewing}>
                  {t('twoFactor.newSecret')}
                </Button>
              </>
            }
          />
        }
      />
    </Card>
  );
}
