import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../domain/format';
import type { TwoFactorStatus } from '../../../../machines/account/two-factor.machine';
import { Badge } from '../../../components/badge';
import { Card } from '../../../components/card';
import * as styles from './two-factor.css';

/** Few enough recovery codes left to suggest renewing them. */
const LOW_CODES = 3;

/** On or off, since when, and how many recovery codes are left. */
export function StatusCard({ status, action }: { status: TwoFactorStatus; action?: ReactNode }) {
  const { t, i18n } = useTranslation();
  return (
    <Card title={t('twoFactor.statusHeading')}>
      <p className={styles.statusLine}>
        <Badge tone={status.enabled ? 'success' : 'neutral'}>
          {status.enabled ? t('twoFactor.on') : t('twoFactor.off')}
        </Badge>
        {status.enabled && status.enrolled_at ? (
          <span>{t('twoFactor.since', { date: formatDateTime(status.enrolled_at, i18n.language) })}</span>
        ) : null}
        {status.enabled ? null : <span className={styles.muted}>{t('twoFactor.offHint')}</span>}
      </p>
      {status.enabled ? (
        <p className={styles.muted}>{t('twoFactor.codesLeft', { count: status.recovery_codes_left })}</p>
      ) : null}
      {status.enabled && status.recovery_codes_left <= LOW_CODES ? (
        <p className={styles.warning}>{t('twoFactor.codesLow')}</p>
      ) : null}
      {action}
    </Card>
  );
}
