import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { formatDateTime } from '../../../domain/format';
import { getHref } from '../../../domain/paths';
import { formatWait } from '../../../domain/relative-time';
import type { AuditRecord } from '../../../machines/audit/audit.machine';
import { defaultAuditQuery, serializeAuditQuery } from '../../../machines/audit/audit-query';
import type { SupportAttempt, SupportPerson, SupportSession } from '../../../machines/support/support-actors';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { auditColumns } from '../../components/audit-record/audit-columns';
import { AuditDetail } from '../../components/audit-record/audit-detail';
import { Blocked, Deleted, LastSignIn, Online, Tenant, TwoFactor, When } from './support-facts';
import * as styles from './support.css';

/** The person page's read-only parts (docs/support-desk.md, `SupportPerson`); the actions are person-actions.tsx. */

function Fact({ term, wide, children }: { term: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <div className={wide ? `${styles.fact} ${styles.wideFact}` : styles.fact}>
      <dt className={styles.term}>{term}</dt>
      <dd className={styles.value}>{children}</dd>
    </div>
  );
}

/** Who the person is, with the same facts as the search table. */
export function PersonHeader({ person, now }: { person: SupportPerson; now: number }) {
  const { t, i18n } = useTranslation();
  const { user } = person;
  const locale = i18n.language;
  return (
    <div className={styles.header}>
      <h2 className={styles.nameLine}>
        <span>{user.name}</span>
        <span className={styles.badges}>
          {user.deletedAt !== null ? <Badge tone="danger">{t('support.columns.deleted')}</Badge> : null}
          {user.blocked ? <Badge tone="danger">{t('support.values.blocked')}</Badge> : null}
          {person.throttle.throttled ? <Badge tone="warning">{t('support.reasons.throttled')}</Badge> : null}
        </span>
      </h2>
      <dl className={styles.facts} aria-label={t('support.person.facts')}>
        <Fact term={t('support.columns.email')} wide>
          <span className={styles.code}>{user.email}</span>
        </Fact>
        <Fact term={t('support.columns.username')}>{user.username}</Fact>
        <Fact term={t('support.columns.tenant')}>
          <Tenant user={user} t={t} />
        </Fact>
        <Fact term={t('support.columns.role')}>{user.role.display_name}</Fact>
        <Fact term={t('support.columns.blocked')}>
          <Blocked user={user} t={t} />
        </Fact>
        <Fact term={t('support.columns.twoFactor')}>
          <TwoFactor user={user} t={t} />
        </Fact>
        <Fact term={t('support.columns.online')}>
          <Online user={user} t={t} />
        </Fact>
        <Fact term={t('support.columns.lastSignIn')}>
          <LastSignIn user={user} t={t} locale={locale} now={now} />
        </Fact>
        <Fact term={t('support.columns.deleted')}>
          <Deleted user={user} t={t} locale={locale} />
        </Fact>
      </dl>
      {person.mustChangePassword ? <p className={styles.note}>{t('support.person.mustChange')}</p> : null}
    </div>
  );
}

/** Whether sign-ins with the person's e-mail are refused now, and how many failures count. */
export function ThrottleSection({ person }: { person: SupportPerson }) {
  const { t, i18n } = useTranslation();
  const { throttle } = person;
  return (
    <Card title={t('support.throttle.title')} headingLevel={3}>
      <div className={styles.throttle}>
        {throttle.throttled ? (
          <p className={styles.value}>
            {t('support.throttle.throttled', { time: formatWait(throttle.retryAfter ?? 1, i18n.language) })}
          </p>
        ) : (
          <p className={styles.value}>{t('support.throttle.clear')}</p>
        )}
        <p className={styles.note}>{t('support.throttle.failures', { count: throttle.failures })}</p>
      </div>
    </Card>
  );
}

/** An attempt's outcome: signed in, failed with its translated reason, or still being checked. */
function attemptResult(t: TFunction, attempt: SupportAttempt) {
  if (attempt.success === true) return <Badge tone="success">{t('support.attempts.success')}</Badge>;
  if (attempt.success === null) return <Badge tone="neutral">{t('support.attempts.pending')}</Badge>;
  return <Badge tone="danger">{t('support.attempts.failure')}</Badge>;
}

export function AttemptsSection({ person }: { person: SupportPerson }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const columns = useMemo<DataTableColumn<SupportAttempt>[]>(
    () => [
      {
        id: 'when',
        header: t('support.attempts.when'),
        isRowHeader: true,
        cell: (a) => (
          <time dateTime={a.at} className={styles.nowrap}>
            {formatDateTime(a.at, locale)}
          </time>
        ),
      },
      { id: 'result', header: t('support.attempts.result'), cell: (a) => attemptResult(t, a) },
      {
        id: 'reason',
        header: t('support.attempts.reason'),
        cell: (a) =>
          a.reason !== null ? (
            t(`support.reasons.${a.reason}`)
          ) : a.success === false ? (
            <span className={styles.secondary}>{t('support.attempts.noReason')}</span>
          ) : null,
      },
      {
        id: 'address',
        header: t('support.attempts.address'),
        cell: (a) => <span className={styles.code}>{a.address ?? '—'}</span>,
      },
      {
        id: 'claimed',
        header: t('support.attempts.claimedIp'),
        cell: (a) => <span className={styles.code}>{a.claimed_ip ?? '—'}</span>,
      },
    ],
    [t, locale],
  );
  return (
    <Card title={t('support.attempts.title')} headingLevel={3}>
      <DataTable
        aria-label={t('support.attempts.tableLabel')}
        columns={columns}
        rows={person.attempts}
        emptyState={<EmptyState title={t('support.attempts.none')} />}
      />
    </Card>
  );
}

export interface SessionsSectionProps {
  person: SupportPerson;
  now: number;
  busy: boolean;
  onEnd: (session: SupportSession) => void;
  onEndAll: () => void;
}

export function SessionsSection({ person, now, busy, onEnd, onEndAll }: SessionsSectionProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const columns = useMemo<DataTableColumn<SupportSession>[]>(
    () => [
      {
        id: 'device',
        header: t('support.sessions.device'),
        isRowHeader: true,
        cell: (s) => (
          <span className={styles.stack} title={s.user_agent ?? undefined}>
            {s.device ?? t('support.sessions.unknownDevice')}
          </span>
        ),
      },
      {
        id: 'address',
        header: t('support.sessions.address'),
        cell: (s) => <span className={styles.code}>{s.address ?? '—'}</span>,
      },
      {
        id: 'started',
        header: t('support.sessions.started'),
        cell: (s) => <When at={s.started_at} locale={locale} now={now} />,
      },
      {
        id: 'lastUsed',
        header: t('support.sessions.lastUsed'),
        cell: (s) => <When at={s.last_used_at} locale={locale} now={now} />,
      },
      {
        id: 'remember',
        header: t('support.sessions.remember'),
        cell: (s) => t(s.remember ? 'common.yes' : 'common.no'),
      },
      {
        id: 'end',
        header: t('common.actions'),
        align: 'end',
        cell: (s) => (
          <Button
            variant="secondary"
            size="sm"
            isDisabled={busy}
            aria-label={t('support.sessions.endLabel', { device: s.device ?? t('support.sessions.unknownDevice') })}
            onPress={() => onEnd(s)}
          >
            {t('support.sessions.end')}
          </Button>
        ),
      },
    ],
    [t, locale, now, busy, onEnd],
  );
  return (
    <Card
      title={t('support.sessions.title')}
      headingLevel={3}
      actions={
        <Button variant="secondary" size="sm" isDisabled={busy || person.sessions.length === 0} onPress={onEndAll}>
          {t('support.actions.endAll')}
        </Button>
      }
    >
      <DataTable
        aria-label={t('support.sessions.tableLabel')}
        columns={columns}
        rows={person.sessions}
        emptyState={<EmptyState title={t('support.sessions.none')} />}
      />
    </Card>
  );
}

/** The audit records about the person, as the audit screen shows them (its columns and its detail). */
export function HistorySection({ person }: { person: SupportPerson }) {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState<AuditRecord | null>(null);
  const columns = useMemo(() => auditColumns(t, i18n.language, setOpen), [t, i18n.language]);
  return (
    <Card title={t('support.history.title')} headingLevel={3}>
      <DataTable
        aria-label={t('support.history.tableLabel')}
        columns={columns}
        rows={person.audit}
        onRowAction={(key) => setOpen(person.audit.find((r) => r.id === key) ?? null)}
        emptyState={<EmptyState title={t('support.history.none')} />}
      />
      <AuditDetail
        record={open}
        onClose={() => setOpen(null)}
        // The audit screen with the record's filter: the whole log, beyond the 50 newest shown here.
        onFilter={(patch) => {
          setOpen(null);
          navigate(`${getHref('audit')}?${serializeAuditQuery({ ...defaultAuditQuery(), ...patch })}`);
        }}
      />
    </Card>
  );
}
