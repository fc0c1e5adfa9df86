import { useActorRef, useSelector } from '@xstate/react';
import { featureBulkMachine } from '../../../machines/tenants/feature-bulk.machine';
import { useServices } from '../../hooks/services-context';

/**
 * The feature options a new tenant can have (the contract has no catalogue call): read from the
 * feature list of the tenant in the address, which names every known option. `null` while loading,
 * `'failed'` when it could not be read (the form then creates the tenant without features).
 */
export function useFeatureOptions(): readonly string[] | null | 'failed' {
  const { clients, overlay, tenant } = useServices();
  const actor = useActorRef(featureBulkMachine, { input: { rest: clients.rest, tenantName: tenant(), overlay } });
  return useSelector(actor, (s) =>
    s.matches('loading') ? null : s.matches('loadFailed') ? 'failed' : s.context.options,
  );
}
