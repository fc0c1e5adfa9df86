import { useSelector } from '@xstate/react';
import { useId, useRef, useState } from 'react';
import type { i18n as I18n, TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { FeedEntry } from '../../machines/realtime/activity-feed.machine';
import { Button, IconButton } from '../components/button';
import { Popover } from '../components/dialog';
import { useRealtime } from '../hooks/services-context';
import { BellIcon } from './icons';
import * as styles from './activity-feed.css';

/** "há 2 min" / "2 min ago": how long ago an event was produced, in the current language. */
export function ago(sentAt: string, now: number, locale: string): string {
  const seconds = Math.round((Date.parse(sentAt) - now) / 1000);
  if (!Number.isFinite(seconds)) return '';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/**
 * An audit record's line (contracts/socket.md §3 `AuditRecorded`): the operation's one-line description
 * with the target's name ("Plano do tenant farmacia-x alterado"), or its type and id when it has no name.
 */
function auditLine(entry: FeedEntry, t: TFunction, i18n: I18n): string {
  const { operation, targetType, targetId, targetName } = entry.detail;
  if (typeof operation !== 'string' || !i18n.exists(`audit.describe.${operation}`)) return '';
  const type =
    typeof targetType === 'string' && i18n.exists(`audit.target.${targetType}`)
      ? t(`audit.target.${targetType}` as 'audit.target.user')
      : '';
  const name =
    typeof targetName === 'string' && targetName !== ''
      ? targetName
      : typeof targetId === 'number'
        ? t('audit.targetWithId', { type, id: targetId })
        : type;
  return t(`audit.describe.${operation}` as 'audit.describe.tenant.plan', { name });
}

function FeedLine({ entry, now }: { entry: FeedEntry; now: number }) {
  const { t, i18n } = useTranslation();
  const known = i18n.exists(`activity.events.${entry.name}`);
  const title = known
    ? t(`activity.events.${entry.name}` as 'activity.events.instanceUpdated')
    : t('activity.unknown', { name: entry.name });
  const hasDetail = i18n.exists(`activity.details.${entry.name}`);
  const status =
    typeof entry.detail.status === 'string' && i18n.exists(`activity.status.${entry.detail.status}`)
      ? t(`activity.status.${entry.detail.status}` as 'activity.status.idle')
      : entry.detail.status;
  const detail =
    entry.name === 'auditRecorded'
      ? auditLine(entry, t, i18n)
      : hasDetail
        ? t(`activity.details.${entry.name}` as 'activity.details.instanceUpdated', {
            ...entry.detail,
            status,
            name: entry.detail.name ?? '',
          })
        : '';
  return (
    <li className={styles.line}>
      <span className={styles.lineTitle}>{title}</span>
      {detail ? <span>{detail}</span> : null}
      <span className={styles.meta}>
        <time dateTime={entry.sentAt}>{ago(entry.sentAt, now, i18n.language)}</time> · {entry.tenantName}
      </span>
    </li>
  );
}

/**
 * The navbar's feed of real-time events: opening it marks them read. The bell
 * opens a dialog anchored under it (a modal `<dialog>`, as React Aria's popover was modal): focus
 * moves into it, Escape or a click outside closes it and focus returns to the bell.
 */
export function ActivityFeed() {
  const { t } = useTranslation();
  const { activityFeed } = useRealtime();
  const entries = useSelector(activityFeed, (s) => s.context.entries);
  const unread = useSelector(activityFeed, (s) => s.context.unread);
  const bell = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Times are "ago" from when the feed was opened (stable while it is open); 0 when closed.
  const [openedAt, setOpenedAt] = useState(0);
  const open = () => {
    setOpenedAt(Date.now());
    activityFeed.send({ type: 'feed.read' });
  };
  return (
    <>
      <span className={styles.anchor}>
        <IconButton
          ref={bell}
          label={unread > 0 ? t('activity.openUnread', { count: unread }) : t('activity.title')}
          icon={<BellIcon size={18} />}
          aria-haspopup="dialog"
          aria-expanded={openedAt > 0}
          aria-controls={openedAt > 0 ? `${id}-feed` : undefined}
          onPress={open}
        />
        {unread > 0 ? (
          <span className={styles.badge} aria-hidden="true">
            {unread > 9 ? '9+' : unread}
          </span>
        ) : null}
      </span>
      {openedAt > 0 ? (
        <Popover
          id={`${id}-feed`}
          triggerRef={bell}
          placement="bottom end"
          className={styles.popover}
          aria-labelledby={`${id}-title`}
          onClose={() => setOpenedAt(0)}
        >
          <div className={styles.dialog}>
            <div className={styles.header}>
              <h2 id={`${id}-title`} className={styles.heading}>
                {t('activity.title')}
              </h2>
              {entries.length > 0 ? (
                <Button variant="ghost" size="sm" onPress={() => activityFeed.send({ type: 'feed.clear' })}>
                  {t('activity.clear')}
                </Button>
              ) : null}
            </div>
            {entries.length === 0 ? (
              <p className={styles.empty}>{t('activity.empty')}</p>
            ) : (
              <ol className={styles.list}>
                {entries.map((entry) => (
                  <FeedLine key={entry.seq} entry={entry} now={openedAt} />
                ))}
              </ol>
            )}
          </div>
        </Popover>
      ) : null}
    </>
  );
}
