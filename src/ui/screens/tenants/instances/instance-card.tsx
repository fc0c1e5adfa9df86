import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../../domain/format';
import type { Instance } from '../../../../machines/instances/instances.machine';
import { Badge, type Tone } from '../../../components/badge';
import { Button } from '../../../components/button';
import { cx } from '../../../components/class-names';
import { ProgressBar } from '../../../components/progress-bar';
import * as styles from './instances-panel.css';

const STATUS_TONE: Record<Instance['status'], Tone> = {
  idle: 'neutral',
  syncing: 'info',
  done: 'success',
  failed: 'danger',
};

export interface InstanceCardProps {
  instance: Instance;
  /** This instance is the active one (`activeInstance`, docs/product.md, Instances and connections). */
  isActive: boolean;
  onEdit: () => void;
  onSync: () => void;
  /** Opens the dialog of a new connection of this instance. */
  onNewConnection: () => void;
  /** Makes it the active instance, or (when it is) clears the choice. */
  onToggleActive: () => void;
}

/** "1.234 de 10.000 mensagens · 12%": the progress bar's visible and announced value. */
function useProgressText(instance: Instance): string {
  const { t, i18n } = useTranslation();
  const number = (n: number) => formatNumber(n, i18n.language);
  const percent = number(instance.syncProgress);
  return instance.totalMessages === null
    ? t('instances.progress.valueUnknown', {
        count: instance.syncedMessages,
        synced: number(instance.syncedMessages),
        percent,
      })
    : t('instances.progress.value', {
        count: instance.totalMessages,
        synced: number(instance.syncedMessages),
        total: number(instance.totalMessages),
        percent,
      });
}

/**
 * One instance: name, flags, sync status with a live progress bar while it syncs (values from
 * socket events or polls, see instancesMachine) or the last result, and its actions.
 */
export function InstanceCard({
  instance,
  isActive,
  onEdit,
  onSync,
  onNewConnection,
  onToggleActive,
}: InstanceCardProps) {
  const { t, i18n } = useTranslation();
  const progressText = useProgressText(instance);
  const syncing = instance.status === 'syncing';
  const messages = formatNumber(instance.syncedMessages, i18n.language);
  const headingId = useId();
  return (
    <li className={cx(styles.card, isActive && styles.activeCard)} aria-labelledby={headingId}>
      <h4 id={headingId} className={styles.cardTitle}>
        {instance.name}
      </h4>
      <div className={styles.badges}>
        {isActive ? <Badge tone="info">{t('instances.active.badge')}</Badge> : null}
        <Badge tone={instance.activated ? 'success' : 'neutral'}>
          {t(instance.activated ? 'instances.flags.activated' : 'instances.flags.deactivated')}
        </Badge>
        <Badge>{t(instance.isOfficial ? 'instances.flags.official' : 'instances.flags.unofficial')}</Badge>
        {instance.isUnlimited ? <Badge>{t('instances.flags.unlimited')}</Badge> : null}
        <Badge tone={STATUS_TONE[instance.status]}>{t(`instances.status.${instance.status}`)}</Badge>
      </div>
      {syncing ? (
        <ProgressBar
          label={t('instances.progress.label', { name: instance.name })}
          value={instance.syncProgress}
          valueLabel={progressText}
        />
      ) : instance.status === 'idle' ? null : (
        <p className={styles.result}>
          {t(instance.status === 'done' ? 'instances.lastResult.done' : 'instances.lastResult.failed', {
            count: instance.syncedMessages,
            messages,
          })}
        </p>
      )}
      <div className={styles.actions}>
        <Button
          variant="secondary"
          size="sm"
          onPress={onEdit}
          aria-label={t('instances.actions.editLabel', { name: instance.name })}
        >
          {t('instances.actions.edit')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onPress={onSync}
          isDisabled={syncing}
          aria-label={t('instances.actions.syncLabel', { name: instance.name })}
        >
          {t('instances.actions.sync')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onPress={onNewConnection}
          aria-label={t('instances.connections.createLabel', { name: instance.name })}
        >
          {t('instances.connections.create')}
        </Button>
        {isActive ? (
          <Button
            variant="ghost"
            size="sm"
            onPress={onToggleActive}
            aria-label={t('instances.actions.clearLabel', { name: instance.name })}
          >
            {t('instances.actions.clear')}
          </Button>
        ) : (
          <Button
            variant="ghost"
            size="sm"
            onPress={onToggleActive}
            isDisabled={!instance.activated}
            aria-label={t('instances.actions.useLabel', { name: instance.name })}
          >
            {t('instances.actions.use')}
          </Button>
        )}
      </div>
      {instance.activated ? null : <p className={styles.result}>{t('instances.active.needsActivated')}</p>}
    </li>
  );
}
