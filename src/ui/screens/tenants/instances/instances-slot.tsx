import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-with-timeout';
import { PartSlot } from '../part-slot';

// Its own chunk, built by the instances workspace: loaded when the tab opens.
const InstancesPanel = lazyPart(() => import('./instances-panel'));

/** The instances and connections of a tenant, with a short loading state while their code arrives. */
export function InstancesSlot({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  return (
    <PartSlot loading={t('tenants.panel.instancesLoading')}>
      <InstancesPanel tenantName={tenantName} />
    </PartSlot>
  );
}
