import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import type { ActionError } from '../../../../machines/shared/request-error';
import type { TwoFactorEnrolment } from '../../../../machines/account/two-factor.machine';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CodeForm } from './code-form';
import { copyText, svgDataUrl } from './copy-text';
import * as styles from './two-factor.css';

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

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Enrolment: the app to install, the server's QR code (as an image), the key to type by hand, and the code to confirm. */
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
      <ol className={styles.steps}>
        <li className={styles.step}>{t('twoFactor.stepApp')}</li>
        <li className={styles.step}>
          <span>{t('twoFactor.stepScan')}</span>
          <img
            className={styles.qr}
            src={svgDataUrl(enrolment.qr_svg)}
            alt={t('twoFactor.qrAlt')}
            width={192}
            height={192}
          />
          <div className={styles.details}>
            <p className={styles.muted}>
              <strong>{t('twoFactor.manualHeading')}</strong> {t('twoFactor.manualHint')}
            </p>
            <dl className={styles.details}>
              <dt className={styles.muted}>{t('twoFactor.secretLabel')}</dt>
              <dd className={styles.secretRow}>
                <code className={styles.mono}>{grouped(enrolment.secret)}</code>
                <Button variant="secondary" size="sm" onPress={() => void copyText(enrolment.secret, t)}>
                  {t('twoFactor.copySecret')}
                </Button>
              </dd>
              <dt className={styles.muted}>{t('twoFactor.uriLabel')}</dt>
              <dd className={styles.secretRow}>
                <code className={styles.uri}>{enrolment.otpauth_uri}</code>
                <Button variant="ghost" size="sm" onPress={() => void copyText(enrolment.otpauth_uri, t)}>
                  {t('twoFactor.copyUri')}
                </Button>
              </dd>
            </dl>
          </div>
        </li>
        <li className={styles.step}>
          <span>{t('twoFactor.stepCode')}</span>
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
        </li>
      </ol>
    </Card>
  );
}
