import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../domain/format';
import { formatRelativeTime } from '../../../domain/relative-time';
import type { SupportUser } from '../../../machines/support/support-actors';
import { Badge } from '../../components/badge';
import { Presence } from '../../components/status-dot';
import * as styles from './support.css';

/**
 * The facts of a person the search table and the person page's header both show
 * (docs/support-desk.md, `SupportUser`), worded once.
 */

/** An instant as "há 3 horas" over its exact date and time; both are read out. */
export function When({ at, locale, now }: { at: string; locale: string; now: number }) {
  return (
    <span className={styles.stack}>
      <span>{formatRelativeTime(at, now, locale)}</span>
      <time dateTime={at} className={`${styles.secondary} ${styles.nowrap}`}>
        {formatDateTime(at, locale)}
      </time>
    </span>
  );
}

export function LastSignIn({ user, t, locale, now }: { user: SupportUser; t: TFunction; locale: string; now: number }) {
  return user.lastSignInAt === null ? (
    <span className={styles.secondary}>{t('support.values.never')}</span>
  ) : (
    <When at={user.lastSignInAt} locale={locale} now={now} />
  );
}

export function Blocked({ user, t }: { user: SupportUser; t: TFunction }) {
  return user.blocked ? (
    <Badge tone="danger">{t('support.values.blocked')}</Badge>
  ) : (
    <span className={styles.secondary}>{t('support.values.notBlocked')}</span>
  );
}

export function TwoFactor({ user, t }: { user: SupportUser; t: TFunction }) {
  if (user.twoFactorEnabled) return <Badge tone="success">{t('support.values.twoFactorOn')}</Badge>;
  if (user.twoFactorEnrolmentRequired) return <Badge tone="warning">{t('support.values.twoFactorRequired')}</Badge>;
  return <span className={styles.secondary}>{t('support.values.twoFactorOff')}</span>;
}

export function Online({ user, t }: { user: SupportUser; t: TFunction }) {
  return (
    <Presence
      isConnected={user.isConnected}
      labels={{ online: t('support.values.online'), offline: t('support.values.offline') }}
    />
  );
}

export function Deleted({ user, t, locale }: { user: SupportUser; t: TFunction; locale: string }) {
  return user.deletedAt === null ? (
    <span className={styles.secondary}>{t('support.values.notDeleted')}</span>
  ) : (
    <Badge tone="danger">{t('support.values.deletedAt', { date: formatDateTime(user.deletedAt, locale) })}</Badge>
  );
}

export function Tenant({ user, t }: { user: SupportUser; t: TFunction }) {
  return (
    <span className={styles.stack}>
      <span>{user.tenantName}</span>
      {user.tenantDeleted ? <span className={styles.secondary}>{t('support.values.tenantDeleted')}</span> : null}
    </span>
  );
}
