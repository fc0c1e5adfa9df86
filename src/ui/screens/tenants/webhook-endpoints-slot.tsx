import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../components/lazy-with-timeout';
import { PartSlot } from './part-slot';

// Its own chunk (./webhooks/): loaded when the Webhooks tab opens.
const WebhookEndpoints = lazyPart(() => import('./webhooks/webhook-endpoints'));

/** A tenant's webhook endpoints, with a short loading state while their code arrives. */
export function WebhookEndpointsSlot({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  return (
    <PartSlot loading={t('webhooks.endpoints.loading')}>
      <WebhookEndpoints tenantName={tenantName} />
    </PartSlot>
  );
}
