import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changedFeatures, featureBulkMachine } from '../../../machines/tenants/feature-bulk.machine';
import { syncAnalyticsMachine } from '../../../machines/tenants/sync-analytics.machine';
import { webhookGenerationMachine } from '../../../machines/tenants/webhook-generation.machine';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Modal } from '../../components/dialog';
import { Tab, TabList, TabPanel, Tabs } from '../../components/tabs';
import { selectIsStaff } from '../../../machines/session/access-selectors';
import { useServices, useSession } from '../../hooks/services-context';
import { AnalyticsSync } from './analytics-sync';
import { FeaturesEditor } from './features-editor';
import { InstancesSlot } from './instances/instances-slot';
import { isoDaysAgo } from '../../components/range-field';
import { PANEL_TABS, type PanelAddress } from './tenants-address';
import { TenantChooser } from './tenant-chooser';
import { WebhooksGenerator } from './webhooks-generator';
import { WebhookEndpointsSlot } from './webhook-endpoints-slot';
import * as styles from './tenants.css';

export interface TenantPanelProps {
  panel: PanelAddress;
  /** Changes the panel in the address (another tab, another tenant), or closes it (null). */
  onNavigate: (panel: PanelAddress | null) => void;
}

/**
 * One tenant's workspace in a dialog, one tab per section. The section machines live here, not in
 * the tabs, so switching tabs loses no edit and stops no run; while a run or sync is in flight the
 * dialog cannot be closed, and unsaved feature edits are confirmed before they are dropped.
 */
export function TenantPanel({ panel, onNavigate }: TenantPanelProps) {
  const { t } = useTranslation();
  const { clients, overlay, tenant, bus, realtime } = useServices();
  const tenantName = panel.tenant ?? tenant();
  const staff = useSession(selectIsStaff);
  const features = useActorRef(featureBulkMachine, { input: { rest: clients.rest, tenantName, overlay, staff, bus } });
  const webhooks = useActorRef(webhookGenerationMachine, {
    input: {
      rest: clients.rest,
      tenantName,
      overlay,
      startAt: isoDaysAgo(6),
      finishAt: isoDaysAgo(0),
      bus,
      socket: realtime.current()?.socket ?? null,
    },
  });
  const analytics = useActorRef(syncAnalyticsMachine, {
    input: { rest: clients.rest, tenantName, fromDate: isoDaysAgo(29), toDate: isoDaysAgo(0) },
  });
  const saving = useSelector(features, (s) => s.matches('saving'));
  const unsaved = useSelector(features, (s) =>
    s.matches('editing') || s.matches('checking') || s.matches('done') || s.matches('conflict')
      ? changedFeatures(s.context).length
      : 0,
  );
  const generating = useSelector(webhooks, (s) => s.matches('running'));
  const syncing = useSelector(analytics, (s) => s.matches('syncing'));
  const busy = saving || generating || syncing;
  const [confirming, setConfirming] = useState(false);

  const requestClose = () => {
    if (busy) return;
    if (unsaved > 0) setConfirming(true);
    else onNavigate(null);
  };

  return (
    <Modal
      title={t('tenants.panel.title', { name: tenantName })}
      isOpen
      size="lg"
      onClose={requestClose}
      isPending={busy}
    >
      {panel.tenant === null ? (
        <TenantChooser value={tenantName} onChange={(name) => onNavigate({ tab: panel.tab, tenant: name })} />
      ) : null}
      <Tabs
        selectedKey={panel.tab}
        onSelectionChange={(key) => {
          const tab = PANEL_TABS.find((id) => id === key);
          if (tab) onNavigate({ tab, tenant: panel.tenant });
        }}
      >
        <TabList aria-label={t('tenants.panel.tabs')}>
          {PANEL_TABS.map((id) => (
            <Tab key={id} id={id}>
              {t(`tenants.panel.tabNames.${id}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="features">
          <FeaturesEditor actor={features} tenantName={tenantName} />
        </TabPanel>
        <TabPanel id="webhooks">
          <div className={styles.tabStack}>
            <WebhookEndpointsSlot tenantName={tenantName} />
            <WebhooksGenerator actor={webhooks} tenantName={tenantName} />
          </div>
        </TabPanel>
        <TabPanel id="analytics">
          <AnalyticsSync actor={analytics} />
        </TabPanel>
        <TabPanel id="instances">
          <InstancesSlot tenantName={tenantName} />
        </TabPanel>
      </Tabs>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('tenants.panel.unsavedTitle')}
        message={t('tenants.panel.unsavedMessage', { count: unsaved })}
        confirmLabel={t('tenants.panel.unsavedConfirm')}
        variant="danger"
        onConfirm={() => {
          setConfirming(false);
          onNavigate(null);
        }}
      />
    </Modal>
  );
}
