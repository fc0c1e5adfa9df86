import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../domain/format';
import type { ConnectionsActor } from '../../../../machines/instances/connections.machine';
import type { Connection } from '../../../../machines/instances/instances.machine';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { NameDialog } from '../../../components/name-dialog';
import { useRenameConflict } from '../../../components/conflict-notice/use-rename-conflict';
import { StatusDot, type StatusDotProps } from '../../../components/status-dot';
import { useOutcomeToast } from '../../../hooks/use-outcome-toast';
import * as styles from './instances-panel.css';

const LOOK: Record<Connection['status'], Pick<StatusDotProps, 'tone' | 'shape'>> = {
  connected: { tone: 'success', shape: 'on' },
  connecting: { tone: 'warning', shape: 'pending' },
  qrcode: { tone: 'info', shape: 'pending' },
  disconnected: { tone: 'danger', shape: 'off' },
};

/**
 * The tenant's connections: name, instance, number, state (dot shape + text), when it was last seen and
 * whether it is activated; renaming in a dialog and (de)activating from the row. A new connection starts
 * from its instance's card; both dialogs are the connections machine's (`dialog`).
 */
export function InstanceConnections({ actor, tenantName }: { actor: ConnectionsActor; tenantName: string }) {
  const { t, i18n } = useTranslation();
  const connections = useSelector(actor, (s) => s.context.records);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  useOutcomeToast(actor);
  return (
    <>
      {connections.length === 0 ? (
        <EmptyState title={t('instances.connections.empty')} description={t('instances.connections.emptyHint')} />
      ) : (
        <ul className={styles.connections} aria-label={t('instances.connections.listLabel', { tenant: tenantName })}>
          {connections.map((connection) => (
            <li key={connection.id} className={styles.connection}>
              <span className={styles.connectionName}>
                {connection.name}
                <span className={styles.muted}> · {connection.instance_name}</span>
              </span>
              <span className={connection.phone ? styles.mono : styles.muted}>
                {connection.phone ?? t('instances.connections.noPhone')}
              </span>
              <StatusDot label={t(`instances.connections.status.${connection.status}`)} {...LOOK[connection.status]} />
              <span className={styles.muted}>
                {connection.last_seen_at
                  ? t('instances.connections.lastSeen', {
                      when: formatDateTime(connection.last_seen_at, i18n.language),
                    })
                  : t('instances.connections.neverSeen')}
              </span>
              <Badge tone={connection.activated ? 'success' : 'neutral'}>
                {t(connection.activated ? 'instances.connections.activated' : 'instances.connections.deactivated')}
              </Badge>
              <span className={styles.actions}>
                <Button
                  variant="ghost"
                  size="sm"
                  isDisabled={busy}
                  aria-label={t('instances.connections.renameLabel', { name: connection.name })}
                  onPress={() => actor.send({ type: 'records.renameOpen', id: connection.id })}
                >
                  {t('instances.connections.rename')}
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  isDisabled={busy}
                  aria-label={t(
                    connection.activated
                      ? 'instances.connections.deactivateLabel'
                      : 'instances.connections.activateLabel',
                    { name: connection.name },
                  )}
                  onPress={() =>
                    actor.send({ type: 'records.activate', id: connection.id, activated: !connection.activated })
                  }
                >
                  {t(connection.activated ? 'instances.connections.deactivate' : 'instances.connections.activate')}
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <ConnectionDialog actor={actor} />
    </>
  );
}

function ConnectionDialog({ actor }: { actor: ConnectionsActor }) {
  const { t } = useTranslation();
  const dialog = useSelector(actor, (s) => s.context.dialog);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const formError = useSelector(actor, (s) => s.context.actionError);
  const renaming = dialog?.kind === 'rename' ? dialog.record : null;
  const feedback = useMemo(() => ({ fieldErrors, formError }), [fieldErrors, formError]);
  const { formKey, ...conflict } = useRenameConflict(actor, 'connection');
  return (
    <NameDialog
      key={
        renaming
          ? `rename-${renaming.id}-${formKey}`
          : `create-${dialog?.kind === 'create' ? dialog.scope.instanceId : ''}`
      }
      isOpen={dialog !== null}
      onClose={() => actor.send({ type: 'records.close' })}
      isPending={busy}
      feedback={feedback}
      title={
        dialog?.kind === 'create'
          ? t('instances.connections.form.createTitle', { instance: dialog.scope.instanceName })
          : t('instances.connections.form.renameTitle')
      }
      label={t('instances.connections.form.name')}
      hint={t('instances.connections.form.nameHint')}
      requiredMessage={t('instances.connections.errors.nameRequired')}
      submitLabel={t(renaming ? 'instances.connections.form.renameSubmit' : 'instances.connections.form.createSubmit')}
      onSubmit={(name) => actor.send({ type: 'records.submit', name })}
      {...conflict}
    />
  );
}
