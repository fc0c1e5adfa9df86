import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../components/lazy-with-timeout';
import { Spinner } from '../../components/spinner';
import { ErrorBoundary } from '../../../app/error-boundary';
import * as styles from './tenants.css';

// Its own chunk (./webhooks/): loaded when the Webhooks tab opens.
const WebhookEndpoints = lazyPart(() => import('./webhooks/webhook-endpoints'));

/** A tenant's webhook endpoints, with a short loading state while their code arrives. */
export function WebhookEndpointsSlot({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  return (
    <ErrorBoundary>
      <Suspense
        fallback={
          <div className={styles.loading}>
            <Spinner label={t('webhooks.endpoints.loading')} />
            <span aria-hidden="true">{t('webhooks.endpoints.loading')}</span>
          </div>
        }
      >
        <WebhookEndpoints tenantName={tenantName} />
      </Suspense>
    </ErrorBoundary>
  );
}
