import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-with-timeout';
import { Spinner } from '../../../components/spinner';
import { ErrorBoundary } from '../../../../app/error-boundary';
import * as styles from '../tenants.css';

// Its own chunk, built by the instances workspace: loaded when the tab opens.
const InstancesPanel = lazyPart(() => import('./instances-panel'));

/** The instances and connections of a tenant, with a short loading state while their code arrives. */
export function InstancesSlot({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <div className={styles.loading}>
            <Spinner label={t('tenants.panel.instancesLoading')} />
            <span aria-hidden="true">{t('tenants.panel.instancesLoading')}</span>
          </div>
        }
      >
        <InstancesPanel tenantName={tenantName} />
      </Suspense>
    </ErrorBoundary>
  );
}
