import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../domain/format';
import type { Connection } from '../../../../machines/instances/instances.machine';
import { EmptyState } from '../../../components/empty-state';
import { StatusDot, type StatusDotProps } from '../../../components/status-dot';
import * as styles from './instances-panel.css';

const LOOK: Record<Connection['status'], Pick<StatusDotProps, 'tone' | 'shape'>> = {
  connected: { tone: 'success', shape: 'on' },
  connecting: { tone: 'warning', shape: 'pending' },
  qrcode: { tone: 'info', shape: 'pending' },
  disconnected: { tone: 'danger', shape: 'off' },
};

/** The tenant's connections: instance, number, state (dot shape + text) and when it was last seen. */
export function InstanceConnections({ connections, tenantName }: { connections: Connection[]; tenantName: string }) {
  const { t, i18n } = useTranslation();
  if (connections.length === 0)
    return <EmptyState title={t('instances.connections.empty')} description={t('instances.connections.emptyHint')} />;
  return (
    <ul className={styles.connections} aria-label={t('instances.connections.listLabel', { tenant: tenantName })}>
      {connections.map((connection) => (
        <li key={connection.id} className={styles.connection}>
          <span className={styles.connectionName}>{connection.instance_name}</span>
          <span className={connection.phone ? styles.mono : styles.muted}>
            {connection.phone ?? t('instances.connections.noPhone')}
          </span>
          <StatusDot label={t(`instances.connections.status.${connection.status}`)} {...LOOK[connection.status]} />
          <span className={styles.muted}>
            {connection.last_seen_at
              ? t('instances.connections.lastSeen', { when: formatDateTime(connection.last_seen_at, i18n.language) })
              : t('instances.connections.neverSeen')}
          </span>
        </li>
      ))}
    </ul>
  );
}
