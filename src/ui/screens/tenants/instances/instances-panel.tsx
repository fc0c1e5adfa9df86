import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../../domain/format';
import {
  instancesMachine,
  sameFeedback,
  selectBusy,
  selectDialog,
  selectFeedback,
  selectConflictHeld,
  selectConnectionsActor,
  selectListStatus,
  selectResolving,
  unsavedInstanceFields,
  type Instance,
  type InstancesActor,
} from '../../../../machines/instances/instances.machine';
import { Button } from '../../../components/button';
import { ConflictNotice } from '../../../components/conflict-notice/conflict-notice';
import * as conflictStyles from '../../../components/conflict-notice/conflict-notice.css';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { PlusIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { appToasts, showToast } from '../../../components/toast-queue';
import { VisuallyHidden } from '../../../components/visually-hidden';
import { selectIsStaff } from '../../../../machines/session/access-selectors';
import { usePreferences, useRealtime, useServices, useSession } from '../../../hooks/services-context';
import { useOutcomeToast } from '../../../hooks/use-outcome-toast';
import { InstanceCard } from './instance-card';
import { InstanceConnections } from './instance-connections';
import { InstanceFormDialog } from './instance-dialogs';
import { SyncDialog } from './sync-dialog';
import * as styles from './instances-panel.css';

/** Sync milestones (start, 25/50/75 %, end) for screen readers: a polite region, not every event. */
function SyncAnnouncer({ actor }: { actor: InstancesActor }) {
  const { t, i18n } = useTranslation();
  const said = useSelector(actor, (s) => s.context.announcement);
  const text = said
    ? t(said.key, {
        count: said.params.messages,
        name: said.params.name,
        progress: formatNumber(said.params.progress, i18n.language),
        messages: formatNumber(said.params.messages, i18n.language),
      })
    : '';
  return (
    <VisuallyHidden elementType="div">
      <div role="status" aria-live="polite">
        {text}
      </div>
    </VisuallyHidden>
  );
}

function Panel({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  const { clients, bus, preferences } = useServices();
  const staff = useSession(selectIsStaff);
  const { socket } = useRealtime();
  const actor = useActorRef(instancesMachine, {
    input: { rest: clients.rest, bus, tenantName, staff, preferences, socket },
  });
  // Its child: the panel's load fills it and renames reach it (instances.machine.ts).
  const connectionsActor = useSelector(actor, selectConnectionsActor);
  const status = useSelector(actor, selectListStatus);
  const loaded = useSelector(actor, (s) => s.context.loaded);
  const instances = useSelector(actor, (s) => s.context.instances);
  const listError = useSelector(actor, (s) => s.context.listError);
  const dialog = useSelector(actor, selectDialog);
  const busy = useSelector(actor, selectBusy);
  const target = useSelector(actor, (s) => s.context.target);
  const feedback = useSelector(actor, selectFeedback, sameFeedback);
  const conflict = useSelector(actor, (s) => s.context.conflict);
  const draft = useSelector(actor, (s) => s.context.draft);
  const formKey = useSelector(actor, (s) => s.context.formKey);
  const held = useSelector(actor, selectConflictHeld);
  const resolving = useSelector(actor, selectResolving);
  const active = usePreferences((s) => s.context.activeInstance);
  const headingIds = { instances: useId(), connections: useId() };
  useOutcomeToast(actor);

  const close = () => actor.send({ type: 'instances.close' });
  const create = () => actor.send({ type: 'instances.createOpen' });
  const toggleActive = (instance: Instance) => {
    const clearing = active?.id === instance.id;
    preferences.send({
      type: 'prefs.instance.set',
      instance: clearing ? null : { id: instance.id, name: instance.name },
    });
    showToast(
      appToasts,
      clearing
        ? { variant: 'info', title: t('instances.active.cleared') }
        : { variant: 'success', title: t('instances.active.set', { name: instance.name }) },
    );
  };

  const content = () => {
    if (status === 'error') {
      return (
        <ErrorState
          title={listError ? t(listError.key) : undefined}
          description={listError ? t(listError.reason) : undefined}
          onRetry={() => actor.send({ type: 'instances.reload' })}
        />
      );
    }
    if (!loaded) {
      return (
        <div className={styles.loading}>
          <Spinner label={t('instances.loading')} />
          <span aria-hidden="true">{t('instances.loading')}</span>
        </div>
      );
    }
    return (
      <>
        <section className={styles.section} aria-labelledby={headingIds.instances}>
          <h3 id={headingIds.instances} className={styles.sectionHeading}>
            {t('instances.sections.instances')}
          </h3>
          {instances.length === 0 ? (
            <EmptyState
              title={t('instances.empty')}
              description={t('instances.emptyHint')}
              action={
                <Button variant="secondary" icon={<PlusIcon />} onPress={create}>
                  {t('instances.create')}
                </Button>
              }
            />
          ) : (
            <ul className={styles.cards}>
              {instances.map((instance) => (
                <InstanceCard
                  key={instance.id}
                  instance={instance}
                  isActive={active?.id === instance.id}
                  onEdit={() => actor.send({ type: 'instances.updateOpen', id: instance.id })}
                  onSync={() => actor.send({ type: 'instances.syncOpen', id: instance.id })}
                  onNewConnection={() =>
                    connectionsActor.send({
                      type: 'records.createOpen',
                      scope: { instanceId: instance.id, instanceName: instance.name },
                    })
                  }
                  onToggleActive={() => toggleActive(instance)}
                />
              ))}
            </ul>
          )}
        </section>
        <section className={styles.section} aria-labelledby={headingIds.connections}>
          <h3 id={headingIds.connections} className={styles.sectionHeading}>
            {t('instances.sections.connections')}
          </h3>
          <InstanceConnections actor={connectionsActor} tenantName={tenantName} />
        </section>
      </>
    );
  };

  return (
    <div className={styles.panel}>
      <div className={styles.header}>
        <h2 className={styles.heading}>{t('instances.title', { tenant: tenantName })}</h2>
        <div className={styles.actions}>
          <Button
            variant="secondary"
            onPress={() => actor.send({ type: 'instances.reload' })}
            isPending={status === 'loading' && loaded}
            pendingLabel={t('instances.refreshing')}
          >
            {t('instances.refresh')}
          </Button>
          <Button icon={<PlusIcon />} onPress={create}>
            {t('instances.create')}
          </Button>
        </div>
      </div>
      <p className={styles.intro}>{t('instances.intro')}</p>
      {content()}
      <SyncAnnouncer actor={actor} />
      <InstanceFormDialog
        isOpen={dialog === 'create' || dialog === 'update'}
        instance={dialog === 'update' ? target : null}
        staff={staff}
        isPending={busy}
        feedback={feedback}
        onClose={close}
        draft={dialog === 'update' ? draft : null}
        onDraft={(fields) => actor.send({ type: 'instances.updateDraft', fields })}
        formKey={formKey}
        locked={held}
        notice={
          dialog === 'update' && conflict ? (
            <div className={conflictStyles.spaced}>
              <ConflictNotice
                conflict={conflict}
                mine={target ? unsavedInstanceFields({ target, draft }) : []}
                targetType="instance"
                resolving={resolving}
                onReapply={() => actor.send({ type: 'conflict.reapply' })}
                onDiscard={() => actor.send({ type: 'conflict.discard' })}
                onDismiss={() => actor.send({ type: 'conflict.dismiss' })}
              />
            </div>
          ) : null
        }
        onSubmit={(fields) =>
          dialog === 'update'
            ? actor.send({ type: 'instances.update', fields })
            : actor.send({
                type: 'instances.create',
                draft: { name: fields.name, isOfficial: fields.isOfficial, isUnlimited: fields.isUnlimited },
              })
        }
      />
      <SyncDialog
        isOpen={dialog === 'sync'}
        instance={target}
        isPending={busy}
        feedback={feedback}
        onClose={close}
        onSubmit={(daysAgo, unlimited) => actor.send({ type: 'instances.sync', daysAgo, unlimited })}
      />
    </div>
  );
}

/**
 * A tenant's instances and connections (docs/product.md, Instances and connections): cards with flags, status, live sync
 * progress and the last result; create, edit and sync in dialogs; the active instance
 * chosen here. Works on its own (own h2, loading, empty and error states); a new tenant starts a
 * new machine.
 */
export function InstancesPanel({ tenantName }: { tenantName: string }) {
  return <Panel key={tenantName} tenantName={tenantName} />;
}

export default InstancesPanel;
